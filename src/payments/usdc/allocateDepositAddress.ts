import type { Database } from '../../domain/DomainContext'
import { createId } from '../../domain/createId'
import type { UsdcDepositAddress } from '../../generated/prisma/client'
import { deriveDepositAddress } from './deriveDepositAddress'

export type DepositTarget = { checkoutSessionId: string } | { invoiceId: string }

/**
 * Gives one payable its own deposit address: child 0/i of the account's xpub, `i` taken from the
 * provider's counter in the payable's own transaction (so an index is used by at most one committed
 * payable, and indexes stay contiguous for the merchant's wallet to discover). Asked again for the
 * same payable, it returns the address it already has. Null when the account has no USDC provider.
 */
export async function allocateDepositAddress(db: Database, accountId: string, target: DepositTarget): Promise<UsdcDepositAddress | null> {
  const existing = await db.usdcDepositAddress.findFirst({ where: target })
  if (existing) return existing
  const taken = await db.$queryRaw<{ index: number; xpub: string; chainId: number; token: string }[]>`
    UPDATE "UsdcProvider" SET "nextDerivationIndex" = "nextDerivationIndex" + 1 WHERE "accountId" = ${accountId}
    RETURNING "nextDerivationIndex" - 1 AS index, xpub, "chainId", token`
  const provider = taken[0]
  if (!provider) return null
  return db.usdcDepositAddress.create({
    data: {
      id: createId('UsdcDepositAddress'),
      accountId,
      chainId: provider.chainId,
      token: provider.token,
      address: deriveDepositAddress(provider.xpub, provider.index).toLowerCase(),
      derivationIndex: provider.index,
      ...target,
    },
  })
}
