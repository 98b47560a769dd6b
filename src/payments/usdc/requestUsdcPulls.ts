import { getAddress, type Address, type PublicClient } from 'viem'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { contextForAccount, runInTransaction } from '../../domain/DomainContext'
import { createId } from '../../domain/createId'
import { Prisma } from '../../generated/prisma/client'
import { settleInvoicePayment } from '../../invoices/settleInvoicePayment'
import { erc20Abi } from './erc20Abi'
import { toTokenUnits } from './tokenUnits'

interface DuePull {
  invoiceId: string
  accountId: string
  amountDue: Prisma.Decimal
  payer: string
  signerAddress: string
  treasury: string
}

/**
 * Starts collecting the open `usdc_pull` invoices of accounts on this chain and token whose
 * subscription has a payer and whose provider has a signer: one pull per invoice, ever (the unique
 * invoiceId of UsdcSend). The payer's allowance for the signer and its balance are read first; when
 * either is short, the attempt is recorded as failed at once (a failed transaction, the subscription
 * `past_due`, the invoice open and payable by transfer to its deposit address). Otherwise the pull is
 * recorded `pending` for signUsdcSends. Two processes may do this at once: the insert that conflicts on
 * invoiceId does nothing, and only the process whose insert landed settles the failure.
 */
export async function requestUsdcPulls(prisma: DatabaseClient, client: PublicClient, chainId: number, token: string, limit = 50): Promise<number> {
  const due = await prisma.$queryRaw<DuePull[]>`
    SELECT i.id AS "invoiceId", i."accountId", i."amountDue", s."usdcPayer" AS payer, p."signerAddress", COALESCE(p.treasury, p."signerAddress") AS treasury
    FROM "Invoice" i
    JOIN "Subscription" s ON s.id = i."subscriptionId"
    JOIN "UsdcProvider" p ON p."accountId" = i."accountId"
    WHERE i.status = 'open' AND i."paymentMethod" = 'usdc_pull' AND i.currency = 'USDC' AND i."amountDue" > 0
      AND s."usdcPayer" IS NOT NULL AND p."chainId" = ${chainId} AND p.token = ${token}
      AND p."encryptedSignerKey" IS NOT NULL AND p."signerAddress" IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM "UsdcSend" u WHERE u."invoiceId" = i.id)
    ORDER BY i."createdAt"
    LIMIT ${limit}`
  let requested = 0
  for (const pull of due) {
    const payer = getAddress(pull.payer)
    const signer = getAddress(pull.signerAddress)
    const units = toTokenUnits(pull.amountDue)
    const [allowance, balance] = await Promise.all([
      client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'allowance', args: [payer, signer] }),
      client.readContract({ address: token as Address, abi: erc20Abi, functionName: 'balanceOf', args: [payer] }),
    ])
    const shortOf = allowance < units ? 'allowance' : balance < units ? 'balance' : undefined
    await runInTransaction(prisma, async (db) => {
      const inserted = await db.usdcSend.createMany({
        data: {
          id: createId('UsdcSend'),
          accountId: pull.accountId,
          kind: 'pull',
          invoiceId: pull.invoiceId,
          chainId,
          token,
          signerAddress: signer,
          fromAddress: payer,
          toAddress: getAddress(pull.treasury),
          amount: pull.amountDue,
          status: shortOf ? 'failed' : 'pending',
          ...(shortOf ? { failureReason: `insufficient ${shortOf}: the payer's ${shortOf} is below the amount due` } : {}),
        },
        skipDuplicates: true,
      })
      if (inserted.count === 0) return
      requested += 1
      if (!shortOf) return
      const account = await db.account.findUniqueOrThrow({ where: { id: pull.accountId } })
      await settleInvoicePayment(contextForAccount(db, account), pull.invoiceId, 'failed')
    })
  }
  return requested
}
