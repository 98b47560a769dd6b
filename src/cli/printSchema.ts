import { writeFile } from 'node:fs/promises'
import { printedSchema } from '../graphql/printedSchema'

// `npm run schema`: rewrites schema.graphql from the Pothos schema (a test fails when it is stale).
await writeFile(new URL('../../schema.graphql', import.meta.url), printedSchema())
console.log('wrote schema.graphql')
