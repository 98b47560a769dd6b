import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort } from '../src/findFreePort'

// `npm start` with no DATABASE_URL: the bundle `npm run build` writes, run on the embedded PostgreSQL
// in DATA_DIR; it prints a key once on a new database and keeps its data across restarts, including
// after a kill -9.

const dataDirectory = await mkdtemp(path.join(tmpdir(), 'billing-embedded-'))
const children: ChildProcess[] = []
afterAll(async () => {
  for (const child of children) child.kill('SIGKILL')
  await rm(dataDirectory, { recursive: true, force: true })
})

async function startServer(): Promise<{ child: ChildProcess; baseUrl: string; output: () => string }> {
  const port = await findFreePort()
  const environment: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDirectory, PORT: String(port), LOG_LEVEL: 'info' }
  delete environment.DATABASE_URL
  delete environment.BILLING_BOOTSTRAP_KEY
  const child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/server.mjs'], { env: environment, stdio: ['ignore', 'pipe', 'pipe'] })
  children.push(child)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const healthy = await fetch(`${baseUrl}/healthz`).then((response) => response.ok, () => false)
    if (healthy) return { child, baseUrl, output: () => output }
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server did not start: ${output}`)
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

beforeAll(() => {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
})

describe('the embedded default database', () => {
  test('first run prints a key once; data survives a restart and a kill -9', async () => {
    const first = await startServer()
    const key = /bk_test_[0-9A-Za-z]{32}/.exec(first.output())?.[0]
    expect(key).toBeDefined()
    const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' }
    const created = await fetch(`${first.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ externalId: 'embedded-1', name: 'Durable' }),
    }).then((response) => response.json())
    expect(created.success).toBe(true)
    await stop(first.child, 'SIGTERM')

    const second = await startServer()
    expect(second.output()).not.toMatch(/bk_test_/)
    const fetched = await fetch(`${second.baseUrl}/v1/customers/${created.data.id}`, { headers }).then((response) => response.json())
    expect(fetched.data).toMatchObject({ id: created.data.id, name: 'Durable' })
    const acknowledged = await fetch(`${second.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { ...headers, 'Idempotency-Key': randomUUID() },
      body: JSON.stringify({ externalId: 'embedded-2' }),
    }).then((response) => response.json())
    expect(acknowledged.success).toBe(true)
    await stop(second.child, 'SIGKILL')

    const third = await startServer()
    const list = await fetch(`${third.baseUrl}/v1/customers`, { headers }).then((response) => response.json())
    expect(list.data.items.map((item: { externalId: string }) => item.externalId).sort()).toEqual(['embedded-1', 'embedded-2'])
    await stop(third.child, 'SIGTERM')
  }, 180_000)
})
