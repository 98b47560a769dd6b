import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { afterAll, describe, expect, test } from 'vitest'
import { inject } from 'vitest'
import { findFreePort } from '../src/database/findFreePort'
import { readConfiguration } from '../src/readConfiguration'
import { databaseUrl } from './support/globalSetup'
import { spawnServer, type ServerProcess } from './support/spawnServer'
import { startTcpProxy, type TcpProxy } from './support/startTcpProxy'
import { adminDatabaseUrl } from './support/testDatabase'

// Starting a real server process (`npm start`'s src/server.ts) when its database is not there yet,
// and with HTTP settings Node would refuse.

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, milliseconds = 60_000): Promise<void> {
  const deadline = Date.now() + milliseconds
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the database down at start', () => {
  let server: ServerProcess | undefined
  let proxy: TcpProxy | undefined
  afterAll(async () => {
    await server?.stop('SIGKILL')
    await proxy?.close()
  })

  test('the process waits with one line per attempt, alive but not ready, then serves once the database is reachable and migrated', async () => {
    // An empty database (not the migrated template), reached through a port where nothing listens yet.
    const name = `${inject('databasePrefix')}down_${randomBytes(4).toString('hex')}`
    const admin = new pg.Client({ connectionString: adminDatabaseUrl() })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    await admin.end()
    const target = new URL(adminDatabaseUrl())
    const proxyPort = await findFreePort()
    const url = new URL(databaseUrl(adminDatabaseUrl(), name))
    url.hostname = '127.0.0.1'
    url.port = String(proxyPort)
    const key = `bk_test_${randomBytes(16).toString('hex')}`

    server = await spawnServer({ DATABASE_URL: url.toString(), BILLING_BOOTSTRAP_KEY: key, BILLING_INTERVAL_SECONDS: '0', PIX_INTERVAL_SECONDS: '0' }, undefined, '/healthz')
    const attempts = () => server!.output().split('\n').filter((line) => line.includes('database unreachable; retrying'))
    await waitUntil(() => attempts().length >= 2, 'two failed attempts')
    for (const line of attempts()) {
      expect(JSON.parse(line)).toMatchObject({ level: 'warn', reason: expect.stringMatching(/ECONNREFUSED/), database: `127.0.0.1:${proxyPort}` })
    }
    expect(server.output()).not.toMatch(/Uncaught|\n\s+at /)
    expect(server.child.exitCode).toBeNull()

    expect((await fetch(`${server.baseUrl}/healthz`)).status).toBe(200)
    const readiness = await fetch(`${server.baseUrl}/readyz`)
    expect(readiness.status).toBe(503)
    expect(readiness.headers.get('retry-after')).toBe('1')
    expect(await readiness.json()).toMatchObject({ data: null, success: false, error: { code: 'unavailable' } })
    const early = await fetch(`${server.baseUrl}/v1/customers`, { headers: { Authorization: `Bearer ${key}` } })
    expect(early.status).toBe(503)
    expect(await early.json()).toMatchObject({ success: false, error: { code: 'unavailable' } })

    // The database becomes reachable: the next attempt migrates it and the process serves.
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432), proxyPort)
    await waitUntil(async () => (await fetch(`${server!.baseUrl}/readyz`)).status === 200, '/readyz to answer 200', 30_000)
    const created = await fetch(`${server.baseUrl}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json', 'Idempotency-Key': randomBytes(8).toString('hex') },
      body: JSON.stringify({ name: 'After the wait' }),
    })
    expect(created.status).toBe(201)
    const listed = (await (await fetch(`${server.baseUrl}/v1/customers`, { headers: { Authorization: `Bearer ${key}` } })).json()) as { data: { items: { name: string }[] } }
    expect(listed.data.items.map((customer) => customer.name)).toEqual(['After the wait'])
    expect(server.output()).toMatch(/database reachable and migrated/)
    expect(await server.stop('SIGTERM')).toBe(0)
    server = undefined
  }, 120_000)
})

describe('HTTP settings Node would refuse', () => {
  test('a headers timeout above the request timeout is named in one line', () => {
    expect(() => readConfiguration({ HTTP_REQUEST_TIMEOUT_SECONDS: '5', HTTP_HEADERS_TIMEOUT_SECONDS: '10' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_SECONDS (10) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (5)',
    )
    expect(readConfiguration({ HTTP_REQUEST_TIMEOUT_SECONDS: '10', HTTP_HEADERS_TIMEOUT_SECONDS: '10' }).http).toMatchObject({ requestTimeoutMs: 10_000, headersTimeoutMs: 10_000 })
    // 0 turns the request timeout off, as in Node: then any headers timeout fits.
    expect(readConfiguration({ HTTP_REQUEST_TIMEOUT_SECONDS: '0', HTTP_HEADERS_TIMEOUT_SECONDS: '10' }).http.requestTimeoutMs).toBe(0)
  })

  test('the server process stops at once with that line and exit code 1, not a stack trace', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
      env: { ...process.env, PORT: String(await findFreePort()), DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none', HTTP_REQUEST_TIMEOUT_SECONDS: '5', HTTP_HEADERS_TIMEOUT_SECONDS: '10' },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trim().split('\n')).toEqual(['Invalid configuration: HTTP_HEADERS_TIMEOUT_SECONDS (10) must not exceed HTTP_REQUEST_TIMEOUT_SECONDS (5): the headers are part of the request'])
  }, 60_000)
})
