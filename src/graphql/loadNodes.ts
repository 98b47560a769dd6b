import { brandWithType } from '@pothos/core'
import type { DomainContext } from '../domain/DomainContext'
import { DomainError } from '../domain/DomainError'
import { findRecordsByIds, isLinkedRecordKind } from '../domain/findRecordsByIds'

/** At most this many ids in one `nodes(ids:)`; the cost rule counts each (queryLimits.ts). */
export const maxNodeIds = 100

/**
 * `nodes(ids:)`: one query per type of id asked for, within the caller's account (another account's id
 * is null, like an unknown one), in the order asked.
 */
export function loadNodes(
  context: DomainContext,
  ids: readonly { typename: string; id: string }[],
  /** Loads a node of a type that has no finder (rare types: one lookup per id). */
  loadOther: (id: { typename: string; id: string }) => Promise<unknown>,
): Promise<unknown>[] {
  if (ids.length > maxNodeIds) {
    throw new DomainError('validation_error', `nodes takes at most ${maxNodeIds} ids; ask in several requests`, { param: 'ids' })
  }
  const byType = new Map<string, Promise<Map<string, unknown>>>()
  for (const { typename } of ids) {
    const kind = typename.charAt(0).toLowerCase() + typename.slice(1)
    if (byType.has(typename)) continue
    const wanted = ids.filter((id) => id.typename === typename).map((id) => id.id)
    if (isLinkedRecordKind(kind)) byType.set(typename, findRecordsByIds(context, kind, wanted))
  }
  return ids.map(async ({ typename, id }) => {
    if (!byType.has(typename)) return loadOther({ typename, id })
    const record = (await byType.get(typename)!).get(id)
    if (record === undefined) return null
    // The node interface tells the object's type by this brand (as Pothos's own node loading does).
    brandWithType(record, typename as never)
    return record
  })
}
