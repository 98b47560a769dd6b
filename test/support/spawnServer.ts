import { spawn, type ChildProcess } from 'node:child_process'
import { findFreePort } from '../../src/database/findFreePort'

export interface ServerProcess {
  child: ChildProcess
  baseUrl: string
  port: number
  /** Everything the process printed so far. */
  output(): string
  /** Sends `signal` and waits for the exit; resolves with the exit code. */
  stop(signal: NodeJS.Signals): Promise<number | null>
}

/**
 * `npm start` as a real process (the listening server, with its own billing runner), returned when
 * `readyWhen` answers 200: /readyz (database reachable and migrated) unless the test wants the
 * process as soon as it is alive (/healthz answers while the database is still awaited).
 */
export async function spawnServer(environment: NodeJS.ProcessEnv, port?: number, readyWhen: '/readyz' | '/healthz' = '/readyz'): Promise<ServerProcess> {
  const chosenPort = port ?? (await findFreePort())
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...process.env, LOG_LEVEL: 'info', PORT: String(chosenPort), ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  const baseUrl = `http://127.0.0.1:${chosenPort}`
  const deadline = Date.now() + 120_000
  for (;;) {
    if (await fetch(`${baseUrl}${readyWhen}`).then((response) => response.ok, () => false)) break
    if (child.exitCode !== null || Date.now() > deadline) throw new Error(`the server did not start: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    child,
    baseUrl,
    port: chosenPort,
    output: () => output,
    async stop(signal) {
      if (child.exitCode === null) child.kill(signal)
      return exited
    },
  }
}
