import { builder } from './builder'
import { standardPageSize } from './connections'
import { pageSize } from './jsonSchemaExtensions'

/** `first` and `after`: lists page forward only, newest first (see connections.ts). */
export const forwardConnectionArgs = builder.args((t) => ({
  first: t.int({ required: false, description: 'Page size; each list documents its default and range (usually 100, 1 to 500).', extensions: pageSize(standardPageSize) }),
  after: t.string({ required: false, description: 'The `endCursor` of the previous page; the next page holds older items.' }),
}))
