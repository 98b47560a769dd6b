import { spawn, type ChildProcess } from 'node:child_process'

export interface PixSimulatorProcess {
  child: ChildProcess
  /** The API Pix base URL (http, or https with mutual TLS). */
  apiUrl: string
  /** Calls a `/__control/…` route (the payer's and operator's side of the simulator). */
  control(method: string, path: string, body?: unknown): Promise<any> // eslint-disable-line @typescript-eslint/no-explicit-any -- tests read the simulator's JSON freely
  stop(): Promise<void>
}

/**
 * `npm run pix:simulator` as a separate process on a free port of 127.0.0.1, like a real PSP. Killed
 * when the test calls stop() or the test process exits.
 */
export async function startPixSimulator(environment: NodeJS.ProcessEnv = {}, controlFetch: typeof fetch = fetch): Promise<PixSimulatorProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/payments/pix/simulator/runPixSimulator.ts'], {
    env: { ...process.env, PIX_SIMULATOR_PORT: '0', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  let output = ''
  const apiUrl = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on (\S+)/.exec(output)
      if (match) resolve(match[1]!)
    })
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
    child.once('exit', () => reject(new Error(`the PIX simulator exited: ${output}`)))
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  return {
    child,
    apiUrl,
    async control(method, path, body) {
      const response = await controlFetch(`${apiUrl}/__control${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'Content-Type': 'application/json' } }),
      })
      const text = await response.text()
      if (!response.ok) throw new Error(`simulator ${method} ${path}: ${response.status} ${text}`)
      return JSON.parse(text)
    },
    async stop() {
      process.removeListener('exit', killOnExit)
      if (child.exitCode === null) child.kill('SIGTERM')
      await exited
    },
  }
}
