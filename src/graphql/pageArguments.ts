import { builder } from './builder'
import { standardPageSize } from './connections'
import { pageSize } from './jsonSchemaExtensions'

/** Relay's paging arguments: `first`/`after` forward, `last`/`before` backward (see connections.ts). */
export const pageArguments = builder.args((t) => ({
  first: t.int({ required: false, description: 'Page size from the start of the range; each list documents its default and range (usually 100, 1 to 500).', extensions: pageSize(standardPageSize) }),
  after: t.string({ required: false, description: 'Items after this cursor (an `endCursor`): the next page.' }),
  last: t.int({ required: false, description: 'Page size from the end of the range (instead of `first`): paging backward.' }),
  before: t.string({ required: false, description: 'Items before this cursor (a `startCursor`): the previous page.' }),
}))

export const TimeRangeInput = builder.inputType('TimeRange', {
  description: '`[from, to)`; either end may be left open.',
  fields: (t) => ({
    from: t.field({ type: 'DateTime', required: false, description: 'Inclusive.' }),
    to: t.field({ type: 'DateTime', required: false, description: 'Exclusive.' }),
  }),
})

export const OrderDirectionEnum = builder.enumType('OrderDirection', { values: ['ASC', 'DESC'] as const })

/**
 * An `orderBy` input for one list: a field among `fields` (GraphQL enum values, e.g. AMOUNT_DUE → amountDue)
 * and a direction (default DESC). Ties are broken by id, in the same direction.
 */
export function orderByInput<const Field extends string>(name: string, fields: Record<string, Field>) {
  const fieldEnum = builder.enumType(`${name}Field`, {
    values: Object.fromEntries(Object.entries(fields).map(([value, field]) => [value, { value: field }])) as Record<string, { value: Field }>,
  })
  return builder.inputType(name, {
    fields: (t) => ({
      field: t.field({ type: fieldEnum, required: true }),
      direction: t.field({ type: OrderDirectionEnum, required: true, defaultValue: 'DESC' }),
    }),
  })
}
