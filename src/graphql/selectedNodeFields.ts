import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql'

/** Field names selected in `selectionSet`, through fragments; a fragment it cannot find means "everything". */
function fieldsOf(info: GraphQLResolveInfo, selectionSet: SelectionSetNode | undefined, name: string | undefined, into: Map<string, SelectionSetNode[]>): boolean {
  for (const selection of selectionSet?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      const key = selection.name.value
      if (name !== undefined && key !== name) continue
      into.set(key, [...(into.get(key) ?? []), ...(selection.selectionSet ? [selection.selectionSet] : [])])
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      if (!fieldsOf(info, selection.selectionSet, name, into)) return false
    } else {
      const fragment = info.fragments[selection.name.value]
      if (!fragment || !fieldsOf(info, fragment.selectionSet, name, into)) return false
    }
  }
  return true
}

/**
 * The fields a connection field's nodes ask for (`edges { node { … } }`), so that a list reads only the
 * columns it needs; 'all' when that cannot be told.
 */
export function selectedNodeFields(info: GraphQLResolveInfo): Set<string> | 'all' {
  const edges = new Map<string, SelectionSetNode[]>()
  for (const fieldNode of info.fieldNodes) if (!fieldsOf(info, fieldNode.selectionSet, 'edges', edges)) return 'all'
  const nodes = new Map<string, SelectionSetNode[]>()
  for (const selectionSet of edges.get('edges') ?? []) if (!fieldsOf(info, selectionSet, 'node', nodes)) return 'all'
  const fields = new Map<string, SelectionSetNode[]>()
  for (const selectionSet of nodes.get('node') ?? []) if (!fieldsOf(info, selectionSet, undefined, fields)) return 'all'
  return new Set(fields.keys())
}
