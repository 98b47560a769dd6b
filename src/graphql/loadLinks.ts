import { findRecordsByIds, type LinkedRecord, type LinkedRecordKind } from '../domain/findRecordsByIds'
import { findRecordsByParents, type ChildRecord, type ChildRecordKind } from '../domain/findRecordsByParents'
import { requireCaller, type GraphQLContext } from './GraphQLContext'
import { requestLoader } from './requestLoader'

// Links between objects read what they link to, so their fields declare `read` like any other read;
// every link of one kind in a response shares one query (no N+1).

export async function loadLinkedRecord<Kind extends LinkedRecordKind>(context: GraphQLContext, kind: Kind, id: string | null): Promise<LinkedRecord<Kind> | null> {
  const domain = requireCaller(context)
  if (id === null) return null
  const loader = requestLoader<string, LinkedRecord<Kind> | null>(context, `link.${kind}`, async (ids) => {
    const found = await findRecordsByIds(domain, kind, ids)
    return ids.map((key) => found.get(key) ?? null)
  })
  return loader.load(id)
}

export async function loadChildRecords<Kind extends ChildRecordKind>(context: GraphQLContext, kind: Kind, parentId: string): Promise<ChildRecord<Kind>[]> {
  const domain = requireCaller(context)
  const loader = requestLoader<string, ChildRecord<Kind>[]>(context, `children.${kind}`, async (ids) => {
    const found = await findRecordsByParents(domain, kind, ids)
    return ids.map((key) => found.get(key) ?? [])
  })
  return loader.load(parentId)
}
