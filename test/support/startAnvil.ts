import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'

/** A real local EVM chain (anvil from npm), on a free port, killed when the test process exits. */
export interface Anvil {
  rpcUrl: string
  port: number
  stop(): Promise<void>
}

const require = createRequire(import.meta.url)
const running = new Set<() => void>()
process.once('exit', () => {
  for (const kill of running) kill()
})

function anvilBinary(): string {
  return join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil')
}

export async function startAnvil(): Promise<Anvil> {
  const child = spawn(anvilBinary(), ['--host', '127.0.0.1', '--port', '0', '--chain-id', '31337'], { stdio: ['ignore', 'pipe', 'pipe'] })
  const kill = () => {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
  running.add(kill)
  let output = ''
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on 127\.0\.0\.1:(\d+)/.exec(output)
      if (match) resolve(Number(match[1]))
    }
    child.stdout!.on('data', onData)
    child.stderr!.on('data', onData)
    child.once('exit', (code) => reject(new Error(`anvil exited (${code}): ${output}`)))
    child.once('error', reject)
  })
  // Keep draining its output: a full pipe would stall the chain.
  child.stdout!.removeAllListeners('data').resume()
  child.stderr!.removeAllListeners('data').resume()
  return {
    rpcUrl: `http://127.0.0.1:${port}`,
    port,
    async stop() {
      running.delete(kill)
      if (child.exitCode !== null) return
      const exited = new Promise((resolve) => child.once('exit', resolve))
      child.kill('SIGKILL')
      await exited
    },
  }
}
