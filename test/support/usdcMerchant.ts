import { randomUUID } from 'node:crypto'
import { expect } from 'vitest'
import type { TestApplication } from './startTestApplication'
import { merchantXpub, type TestChain } from './testChain'

/** A signer key of anvil's funded account 1 (it pays gas for pulls and refunds). */
export const signerKey = '0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d'

export interface UsdcMerchant {
  key: string
  customerId: string
  ok(method: string, path: string, body?: unknown): Promise<any> // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read response JSON freely
}

/** An account of `app` paid in USDC on `chain`: its provider configured through GraphQL, one customer. */
export async function setUpUsdcMerchant(
  app: TestApplication,
  chain: TestChain,
  token: string,
  options: { key?: string; confirmations?: number; signer?: boolean; pollSeconds?: number; wallet?: number; rpcUrl?: string } = {},
): Promise<UsdcMerchant> {
  const key = options.key ?? app.key
  const configured = await app.graphql(
    'mutation($input: ConfigureUsdcProviderInput!) { configureUsdcProvider(input: $input) { chainId } }',
    {
      input: {
        rpcUrl: options.rpcUrl ?? chain.rpcUrl,
        chainId: chain.chainId,
        token,
        xpub: merchantXpub(options.wallet ?? 0),
        confirmations: options.confirmations ?? 3,
        pollSeconds: options.pollSeconds ?? 1,
        ...(options.signer ? { signerKey } : {}),
      },
    },
    key,
  )
  expect(configured.body.errors).toBeUndefined()
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await app.request(method, path, { key, ...(body === undefined ? {} : { body }), idempotencyKey: randomUUID() })
    expect(response.status, `${method} ${path}: ${JSON.stringify(response.body)}`).toBeLessThan(300)
    return response.body.data
  }
  const customer = await ok('POST', '/v1/customers', { name: 'Payer' })
  return { key, customerId: customer.id, ok }
}
