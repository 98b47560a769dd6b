import { getAddress, type PublicClient } from 'viem'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { runInTransaction } from '../../domain/DomainContext'
import { createId } from '../../domain/createId'
import { Prisma } from '../../generated/prisma/client'
import { erc20Abi } from './erc20Abi'
import { settleUsdcDeposit } from './settleUsdcDeposit'

export interface WatchedToken {
  chainId: number
  token: string
  /** The deepest confirmations any account on this chain and token asks for. */
  confirmations: number
}

export interface ScanResult {
  /** Blocks fully processed by this call. */
  blocks: number
  recorded: number
}

const transferEvent = erc20Abi.find((item) => item.type === 'event' && item.name === 'Transfer')!

/**
 * Reads the token's Transfer logs from the stored cursor up to the deepest confirmed block (depth =
 * head − block + 1 ≥ confirmations), at most `maxRange` blocks per query, records those that reach a
 * deposit address, settles what they complete, and moves the cursor past the range, all in one
 * transaction per range. Blocks not yet deep enough are never read, so a reorg before that depth
 * settles nothing: the watcher reads those blocks again once they are deep. Any RPC failure throws
 * before the transaction, leaving the cursor where it was (nothing lost, the range is read again).
 * Two processes may scan at once: the one whose cursor moved first wins, the other's range is dropped
 * (and the unique chain id + transaction hash + log position guards the transfers again).
 */
export async function scanUsdcTransfers(prisma: DatabaseClient, client: PublicClient, watched: WatchedToken, maxRange = 500): Promise<ScanResult> {
  const result: ScanResult = { blocks: 0, recorded: 0 }
  const token = getAddress(watched.token)
  for (;;) {
    const cursor = await prisma.usdcWatchCursor.findUnique({ where: { chainId_token: { chainId: watched.chainId, token } } })
    if (!cursor) return result
    const head = await client.getBlockNumber({ cacheTime: 0 })
    const confirmedHead = head - BigInt(watched.confirmations) + 1n
    if (confirmedHead < cursor.nextBlock) return result
    const toBlock = confirmedHead < cursor.nextBlock + BigInt(maxRange) - 1n ? confirmedHead : cursor.nextBlock + BigInt(maxRange) - 1n
    const logs = await client.getLogs({ address: token, event: transferEvent, fromBlock: cursor.nextBlock, toBlock, strict: true })
    const candidates = logs.filter((log) => !log.removed && log.args.to !== undefined && log.transactionHash && log.logIndex !== null)
    const addresses = [...new Set(candidates.map((log) => log.args.to!.toLowerCase()))]
    const deposits = addresses.length === 0 ? [] : await prisma.usdcDepositAddress.findMany({ where: { chainId: watched.chainId, token, address: { in: addresses } } })
    const transfers: Prisma.UsdcTransferCreateManyInput[] = []
    const receipts = new Map<string, { logIndex: number | null }[]>()
    for (const log of candidates) {
      const deposit = deposits.find((candidate) => candidate.address === log.args.to!.toLowerCase())
      if (!deposit) continue
      let receiptLogs = receipts.get(log.transactionHash!)
      if (!receiptLogs) {
        receiptLogs = (await client.getTransactionReceipt({ hash: log.transactionHash! })).logs
        receipts.set(log.transactionHash!, receiptLogs)
      }
      const logPosition = receiptLogs.findIndex((receiptLog) => receiptLog.logIndex === log.logIndex)
      if (logPosition < 0) throw new Error(`log ${log.logIndex} is not in the receipt of ${log.transactionHash}`)
      transfers.push({
        id: createId('UsdcTransfer'),
        accountId: deposit.accountId,
        depositAddressId: deposit.id,
        chainId: watched.chainId,
        token,
        transactionHash: log.transactionHash!.toLowerCase(),
        logPosition,
        blockNumber: log.blockNumber!,
        fromAddress: getAddress(log.args.from!),
        amount: new Prisma.Decimal(log.args.value!.toString()).div(1_000_000),
      })
    }
    const moved = await runInTransaction(prisma, async (db) => {
      const locked = await db.$queryRaw<{ nextBlock: bigint }[]>`
        SELECT "nextBlock" FROM "UsdcWatchCursor" WHERE "chainId" = ${watched.chainId} AND token = ${token} FOR UPDATE`
      if (locked[0]?.nextBlock !== cursor.nextBlock) return false
      const inserted: Prisma.UsdcTransferCreateManyInput[] = []
      for (const transfer of transfers) {
        const created = await db.usdcTransfer.createMany({ data: transfer, skipDuplicates: true })
        if (created.count === 1) inserted.push(transfer)
      }
      for (const depositAddressId of new Set(inserted.map((transfer) => transfer.depositAddressId))) await settleUsdcDeposit(db, depositAddressId)
      await db.usdcWatchCursor.update({ where: { chainId_token: { chainId: watched.chainId, token } }, data: { nextBlock: toBlock + 1n, updatedAt: new Date() } })
      result.recorded += inserted.length
      return true
    })
    if (!moved) return result
    result.blocks += Number(toBlock - cursor.nextBlock + 1n)
  }
}
