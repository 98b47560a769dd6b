import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { chmod, chown, lstat, mkdir, mkdtemp, readlink, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { findFreePort } from '../src/database/findFreePort'

// The quick start as people run it: a fresh clone in a private folder (0700, like root's home or any
// `mktemp -d`), `npm start` there with no DATABASE_URL, so the embedded PostgreSQL and its data live
// under that folder. The bundle `npm run build` writes from this working tree runs from the clone, with
// the clone's node_modules (hard links to this tree's files when on the same file system: the same
// files, reached through the private folder's path, which is what decides whether PostgreSQL can run).
// As root, PostgreSQL runs as the postgres user, who cannot enter that folder; run as a user it is
// that user's own folder. It prints a key once on a new database and keeps its data across restarts,
// including after a kill -9; what cannot work stops with one line.

const runningAsRoot = process.getuid?.() === 0
const privateFolders: string[] = []
const children: ChildProcess[] = []
afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  for (const folder of privateFolders) {
    // As root the cluster lives outside the folder (DATA_DIR/postgres links to it): removed with it.
    const link = path.join(folder, 'billing', 'data', 'postgres')
    if ((await lstat(link).catch(() => undefined))?.isSymbolicLink()) await rm(path.resolve(path.dirname(link), await readlink(link)), { recursive: true, force: true })
    await rm(folder, { recursive: true, force: true })
  }
})

let clone: string
beforeAll(async () => {
  const build = spawnSync('npm', ['run', 'build', '--silent'], { stdio: 'inherit' })
  if (build.status !== 0) throw new Error('npm run build failed')
  clone = await cloneIntoPrivateFolder()
})

/** A fresh `mktemp -d` folder holding a clone of this repository with its node_modules and the bundle. */
async function cloneIntoPrivateFolder(owner?: { uid: number; gid: number }): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'billing-clone-'))
  privateFolders.push(folder)
  expect((await stat(folder)).mode & 0o777).toBe(0o700)
  const clone = path.join(folder, 'billing')
  const run = (command: string, args: string[]) => {
    const result = spawnSync(command, args, { encoding: 'utf8' })
    if (result.status !== 0) throw new Error(`${command} ${args.join(' ')}: ${result.stderr}`)
  }
  run('git', ['clone', '--quiet', '--no-hardlinks', process.cwd(), clone])
  const modules = path.join(clone, 'node_modules')
  try {
    // Hard links on the same file system (fast); a copy otherwise.
    run('cp', ['-al', 'node_modules', modules])
  } catch {
    await rm(modules, { recursive: true, force: true })
    run('cp', ['-a', 'node_modules', modules])
  }
  await mkdir(path.join(clone, 'dist'), { recursive: true })
  run('cp', ['dist/server.mjs', path.join(clone, 'dist', 'server.mjs')])
  if (owner) {
    // Its owner's private folder: only the owner enters it, and the owner may write the clone (./data).
    await chown(folder, owner.uid, owner.gid)
    await chown(clone, owner.uid, owner.gid)
    await chmod(folder, 0o700)
  }
  return clone
}

interface StartedServer {
  child: ChildProcess
  baseUrl: string
  output: () => string
}

function spawnServer(clone: string, port: number, extra: { env?: NodeJS.ProcessEnv; uid?: number; gid?: number } = {}): { child: ChildProcess; output: () => string } {
  const environment: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), LOG_LEVEL: 'info', ...extra.env }
  delete environment.DATABASE_URL
  delete environment.BILLING_BOOTSTRAP_KEY
  if (!extra.env?.DATA_DIR) delete environment.DATA_DIR
  // What `npm start` runs, from the clone (DATA_DIR defaults to ./data there).
  const child = spawn(process.execPath, ['--max-old-space-size=256', 'dist/server.mjs'], {
    cwd: clone,
    env: environment,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(extra.uid === undefined ? {} : { uid: extra.uid, gid: extra.gid! }),
  })
  children.push(child)
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  return { child, output: () => output }
}

async function startServer(clone: string, extra: { uid?: number; gid?: number } = {}): Promise<StartedServer> {
  const port = await findFreePort()
  const { child, output } = spawnServer(clone, port, extra)
  const baseUrl = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  while (Date.now() < deadline) {
    const ready = await fetch(`${baseUrl}/readyz`).then((response) => response.ok, () => false)
    if (ready) return { child, baseUrl, output }
    if (child.exitCode !== null) throw new Error(`server exited: ${output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`server did not start: ${output()}`)
}

async function stop(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  await exited
}

describe('the embedded default database, from a clone in a private folder', () => {
  test(`${runningAsRoot ? 'as root' : 'as a user'}: first run prints a key once; data survives a restart and a kill -9`, async () => {
    const first = await startServer(clone)
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
    // The user's folders keep their permissions.
    expect((await stat(path.dirname(clone))).mode & 0o777).toBe(0o700)

    const second = await startServer(clone)
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

    const third = await startServer(clone)
    const list = await fetch(`${third.baseUrl}/v1/customers`, { headers }).then((response) => response.json())
    expect(list.data.items.map((item: { externalId: string }) => item.externalId).sort()).toEqual(['embedded-1', 'embedded-2'])
    await stop(third.child, 'SIGTERM')
  }, 240_000)

  test.runIf(runningAsRoot)('as another user, in that user\'s own private folder', async () => {
    const nobody = { uid: 65534, gid: 65534 }
    const ownClone = await cloneIntoPrivateFolder(nobody)
    const server = await startServer(ownClone, nobody)
    expect(server.output()).toMatch(/bk_test_[0-9A-Za-z]{32}/)
    expect((await stat(path.join(ownClone, 'data', 'postgres'))).uid).toBe(nobody.uid)
    await stop(server.child, 'SIGTERM')
  }, 240_000)

  test('what cannot work stops with one line', async () => {
    const dataDirectory = path.join(clone, 'blocked')
    await mkdir(dataDirectory)
    await writeFile(path.join(dataDirectory, 'postgres'), 'not a folder')
    const { child, output } = spawnServer(clone, await findFreePort(), { env: { DATA_DIR: dataDirectory } })
    const code = await new Promise((resolve) => child.once('exit', resolve))
    expect(code).toBe(1)
    const lines = output().trim().split('\n')
    expect(lines, output()).toHaveLength(1)
    expect(lines[0]).toMatch(/^Cannot start the embedded PostgreSQL \(DATA_DIR=.*blocked\): .*postgres/)
  }, 120_000)
})
