import { getAddress, type PublicClient } from 'viem'
import type { DatabaseClient } from '../../database/createDatabaseClient'
import { logError, logInfo } from '../../logging/log'
import { createChainClient } from './createChainClient'
import { recordAllUnappliedUsdcTransfers } from './recordUnappliedUsdcTransfers'
import { runUsdcSendWork } from './runUsdcSendWork'
import { scanUsdcTransfers } from './scanUsdcTransfers'

export interface UsdcWatchers {
  /** Stops every loop and waits for the step in progress. */
  stop(): Promise<void>
}

interface Loop {
  key: string
  rpcUrl: string
  client: PublicClient
  timer: NodeJS.Timeout | undefined
  running: Promise<void> | undefined
  failing: boolean
}

/**
 * The chain watchers of this server process: one loop per chain and token however many accounts
 * share it. Every `settingsMilliseconds` the configured providers are read again, so a provider
 * configured or changed by the CLI or the mutation is watched within seconds (no restart), and the
 * loop's confirmations and poll interval follow the settings. Each step scans deposits, records money
 * whose payable stopped being payable (recordAllUnappliedUsdcTransfers), then does the signer's work
 * (pulls and refunds, runUsdcSendWork). Every step is safe with several processes
 * doing the same (see scanUsdcTransfers, requestUsdcPulls, signUsdcSends). The scan waits for the
 * deepest confirmations any account on the chain and token asks for; sends use their own account's.
 */
export function startUsdcWatchers(prisma: DatabaseClient, settingsMilliseconds = 2000): UsdcWatchers {
  const loops = new Map<string, Loop>()
  let stopped = false

  const runStep = async (loop: Loop, chainId: number, token: string) => {
    const providers = await prisma.usdcProvider.findMany({ where: { chainId, token }, orderBy: { configuredAt: 'desc' } })
    if (providers.length === 0) return
    const confirmations = Math.max(...providers.map((provider) => provider.confirmations))
    try {
      const scanned = await scanUsdcTransfers(prisma, loop.client, { chainId, token, confirmations })
      if (scanned.recorded > 0) logInfo('usdc transfers recorded', { chainId, token, ...scanned })
      const unapplied = await recordAllUnappliedUsdcTransfers(prisma, chainId, token)
      if (unapplied > 0) logInfo('usdc money no longer payable recorded as refundable transactions', { chainId, token, deposits: unapplied })
      // Pulls and refunds: deposits first, so a pull's payer known from this scan is pulled at once.
      const sent = await runUsdcSendWork(prisma, loop.client, chainId, token)
      if (sent.requested + sent.signed + sent.finished > 0) logInfo('usdc sends', { chainId, token, ...sent })
      if (loop.failing) logInfo('usdc watcher reading again', { chainId, token })
      loop.failing = false
    } catch (error) {
      // Logged once per outage; the next step reads the same blocks again.
      if (!loop.failing) logError(error)
      loop.failing = true
    }
  }

  const schedule = (loop: Loop, chainId: number, token: string, pollMilliseconds: number) => {
    if (stopped) return
    loop.timer = setTimeout(() => {
      loop.running = runStep(loop, chainId, token)
        .catch((error: unknown) => logError(error))
        .finally(async () => {
          loop.running = undefined
          const providers = await prisma.usdcProvider.findMany({ where: { chainId, token }, select: { pollSeconds: true } }).catch(() => [])
          const poll = providers.length === 0 ? pollMilliseconds : Math.min(...providers.map((provider) => provider.pollSeconds)) * 1000
          if (loops.get(loop.key) === loop) schedule(loop, chainId, token, poll)
        })
    }, pollMilliseconds)
    loop.timer.unref()
  }

  const refresh = async () => {
    const providers = await prisma.usdcProvider.findMany({ orderBy: { configuredAt: 'desc' } })
    const wanted = new Map<string, { chainId: number; token: string; rpcUrl: string; pollSeconds: number }>()
    for (const provider of providers) {
      const key = `${provider.chainId}:${getAddress(provider.token)}`
      // The most recently configured provider names the node for the chain.
      if (!wanted.has(key)) wanted.set(key, { chainId: provider.chainId, token: getAddress(provider.token), rpcUrl: provider.rpcUrl, pollSeconds: provider.pollSeconds })
    }
    for (const [key, loop] of loops) {
      if (wanted.get(key)?.rpcUrl === loop.rpcUrl) continue
      clearTimeout(loop.timer)
      loops.delete(key)
    }
    for (const [key, settings] of wanted) {
      if (loops.has(key) || stopped) continue
      const loop: Loop = { key, rpcUrl: settings.rpcUrl, client: createChainClient(settings.rpcUrl), timer: undefined, running: undefined, failing: false }
      loops.set(key, loop)
      schedule(loop, settings.chainId, settings.token, 0)
    }
  }

  let refreshing: Promise<void> | undefined
  const refreshTimer = setInterval(() => {
    refreshing ??= refresh()
      .catch((error: unknown) => logError(error))
      .finally(() => (refreshing = undefined))
  }, settingsMilliseconds)
  refreshTimer.unref()
  refreshing = refresh()
    .catch((error: unknown) => logError(error))
    .finally(() => (refreshing = undefined))

  return {
    async stop() {
      stopped = true
      clearInterval(refreshTimer)
      await refreshing
      for (const loop of loops.values()) clearTimeout(loop.timer)
      await Promise.all([...loops.values()].map((loop) => loop.running))
      loops.clear()
    },
  }
}
