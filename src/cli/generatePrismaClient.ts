import { spawnSync } from 'node:child_process'
import { createRequire } from 'node:module'

// `npm install` runs this: `prisma generate` writes the Prisma client and the Pothos types. The Prisma
// CLI downloads its native schema engine before any command, which fails offline; generate never runs
// that engine, so it is pointed at an existing file (only for this command, and only when the caller
// has not chosen an engine), and commands that need the engine keep downloading it as usual.

const require = createRequire(import.meta.url)
const prismaCli = require.resolve('prisma/build/index.js')
const result = spawnSync(process.execPath, [prismaCli, 'generate'], {
  stdio: 'inherit',
  env: { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY ?? process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: '1' },
})
process.exit(result.status ?? 1)
