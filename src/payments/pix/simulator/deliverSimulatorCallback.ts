import type { SimulatorState } from './simulatorState'

/** POST {webhookUrl}/{suffix} (pix, rec, cobr), retried with a growing pause until a 2xx or the retries run out. */
export async function deliverSimulatorCallback(state: SimulatorState, webhookUrl: string | undefined, suffix: 'pix' | 'rec' | 'cobr', body: unknown): Promise<void> {
  if (!webhookUrl) return
  const url = `${webhookUrl.replace(/\/$/, '')}/${suffix}`
  for (let attempt = 0; attempt <= state.options.callbackRetries; attempt += 1) {
    const record: SimulatorState['callbacks'][number] = { url, body, status: null }
    state.callbacks.push(record)
    try {
      const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body), signal: AbortSignal.timeout(5000) })
      record.status = response.status
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      record.status = 0
    }
    await new Promise((resolve) => setTimeout(resolve, state.options.callbackRetryMilliseconds * 2 ** attempt))
  }
}

