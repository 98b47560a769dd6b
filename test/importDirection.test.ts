import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { expect, test } from 'vitest'

// Every import points down: entry points → HTTP → REST → graph → features → shared kernel → data.
// A feature may use another feature; nothing may reach a layer above its own, so that domain rules
// never depend on how they are served.
const layers: { name: string; folders: string[] }[] = [
  { name: 'entry', folders: ['src/server.ts', 'src/cli', 'src/start', 'src/createApplication.ts', 'src/readConfiguration.ts'] },
  { name: 'http', folders: ['src/http', 'src/dashboard'] },
  { name: 'rest', folders: ['rest'] },
  { name: 'graph', folders: ['src/graphql'] },
  { name: 'kernel', folders: ['src/domain', 'src/logging'] },
  { name: 'data', folders: ['src/database', 'src/generated'] },
]
// Whatever is not named above is a feature (src/customers, src/payments, …, src/Services.ts), between graph and kernel.
const order = ['entry', 'http', 'rest', 'graph', 'feature', 'kernel', 'data']

function layerOf(file: string): string {
  const found = layers.find(({ folders }) => folders.some((folder) => file === folder || file.startsWith(`${folder}/`)))
  return found?.name ?? 'feature'
}

function isUpward(file: string, target: string): boolean {
  return order.indexOf(layerOf(target)) < order.indexOf(layerOf(file))
}

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.posix.join(folder, entry.name)
    if (entry.isDirectory()) return entry.name === 'generated' ? [] : sourceFiles(full)
    return /\.tsx?$/.test(entry.name) ? [full] : []
  })
}

/** Relative module specifiers of static imports, re-exports and dynamic imports. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8')
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((match) => match[1]!)
}

test('every import points down the layers', () => {
  const upward: string[] = []
  const files = [...sourceFiles('src'), ...sourceFiles('rest')]
  expect(files.length).toBeGreaterThan(100)
  for (const file of files) {
    for (const specifier of importsOf(file)) {
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier))
      if (isUpward(file, target)) upward.push(`${file} (${layerOf(file)}) imports ${target} (${layerOf(target)})`)
    }
  }
  expect(upward).toEqual([])
})

test('the rule sees upward imports and the imports themselves', () => {
  // The check above must not pass by never matching.
  expect(isUpward('src/payments/usdc/readUsdcPageInstructions.ts', 'src/http/renderPaymentPage')).toBe(true)
  expect(isUpward('src/Services.ts', 'src/http/createHttpHandler')).toBe(true)
  expect(isUpward('src/database/applyMigrations.ts', 'src/logging/log')).toBe(true)
  expect(isUpward('src/domain/money.ts', 'src/customers/createCustomer')).toBe(true)
  expect(isUpward('src/graphql/types/Customer.ts', 'rest/envelope')).toBe(true)
  expect(isUpward('src/http/createHttpHandler.ts', 'rest/handleRestRequest')).toBe(false)
  expect(isUpward('src/checkout/payCheckoutSession.ts', 'src/subscriptions/createSubscription')).toBe(false)
  expect(importsOf('src/server.ts')).toContain('./createApplication')
})
