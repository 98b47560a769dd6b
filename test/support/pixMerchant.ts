import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { PixSimulatorProcess } from './startPixSimulator'
import type { TestApplication } from './startTestApplication'

export interface PixMerchant {
  key: string
  accountId: string
  pixKey: string
  ok(method: string, path: string, body?: unknown): Promise<any> // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read response JSON freely
  call(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read response JSON freely
}

export const configurePixProvider = 'mutation($input: ConfigurePixProviderInput!) { configurePixProvider(input: $input) { webhookUrl } }'

/** A new account of `app` (live or test) paid in BRL through `simulator`: its PSP configured through GraphQL. */
export async function setUpPixMerchant(app: TestApplication, simulator: PixSimulatorProcess, mode: 'live' | 'test', tls?: Record<string, string>): Promise<PixMerchant> {
  const name = `pix-${mode}-${randomUUID().slice(0, 8)}`
  const key = await app.createKey({ account: name, mode })
  const pixKey = `${name}@example.com.br`
  const configured = await app.graphql(configurePixProvider, { input: { apiUrl: simulator.apiUrl, clientId: 'sim-client', clientSecret: 'sim-secret', pixKey, ...tls } }, key)
  expect(configured.body.errors, JSON.stringify(configured.body)).toBeUndefined()
  const call = (method: string, path: string, body?: unknown) => app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await call(method, path, body)
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body.data
  }
  const account = await app.application.services.database.prisma.account.findFirstOrThrow({ where: { name }, select: { id: true } })
  return { key, accountId: account.id, pixKey, ok, call }
}
