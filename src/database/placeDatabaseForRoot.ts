import { execFile } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { chmod, chown, cp, lstat, mkdir, readdir, readFile, readlink, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { EmbeddedDatabaseError } from './EmbeddedDatabaseError'

const run = promisify(execFile)

/** Where PostgreSQL runs from when the service runs as root, and as whom. */
export interface RootPlacement {
  binDirectory: string
  clusterDirectory: string
  runAs: { uid: number; gid: number }
}

/**
 * The folder of root's embedded databases: persistent (not a temporary folder a cleaner may empty)
 * and enterable by every user, which the folders root works in usually are not.
 */
export const rootDatabasesDirectory = '/var/lib/billing-service'

// PostgreSQL refuses to run as root, so as root it runs as the system user `postgres` (created when
// missing). That user cannot enter the folders root usually works in (root's home, any `mktemp -d`:
// 0700), which hold both DATA_DIR and node_modules with the PostgreSQL binaries. Rather than loosen
// the permissions of the user's folders, the binaries are copied once per version into
// /var/lib/billing-service, and the cluster lives there too, in a folder per DATA_DIR that the
// postgres user owns; DATA_DIR/postgres is a symbolic link to it, so the data follows DATA_DIR even
// when DATA_DIR is moved. The password file and everything else stay in DATA_DIR, read by root.
export async function placeDatabaseForRoot(dataDirectory: string, nativeDirectory: string, version: string): Promise<RootPlacement> {
  const runAs = await ensurePostgresUser()
  await mkdir(rootDatabasesDirectory, { recursive: true }).catch((error: unknown) => {
    throw new EmbeddedDatabaseError(`running as root, the embedded PostgreSQL keeps its files in ${rootDatabasesDirectory}, which cannot be created (${describe(error)}); set DATABASE_URL or run as another user`)
  })
  await chmod(rootDatabasesDirectory, 0o755)
  const binDirectory = path.join(await installBinaries(nativeDirectory, version), 'bin')
  const clusterDirectory = await clusterFor(dataDirectory)
  await mkdir(clusterDirectory, { recursive: true, mode: 0o700 })
  const owner = await stat(clusterDirectory)
  if (owner.uid !== runAs.uid) {
    if (existsSync(path.join(clusterDirectory, 'PG_VERSION'))) {
      throw new EmbeddedDatabaseError(`the embedded database in ${clusterDirectory} belongs to uid ${owner.uid}, not to the postgres user (uid ${runAs.uid}) it runs as`)
    }
    await chown(clusterDirectory, runAs.uid, runAs.gid)
  }
  await chmod(clusterDirectory, 0o700)
  return { binDirectory, clusterDirectory, runAs }
}

/** DATA_DIR/postgres: a link made by an earlier run, a cluster made in place (a user's run), or a new link. */
async function clusterFor(dataDirectory: string): Promise<string> {
  const entry = path.join(dataDirectory, 'postgres')
  const found = await lstat(entry).catch(() => undefined)
  if (found?.isSymbolicLink()) return path.resolve(dataDirectory, await readlink(entry))
  if (found?.isDirectory()) {
    if (existsSync(path.join(entry, 'PG_VERSION'))) return entry
    // What an interrupted first start left (initdb removes a cluster it could not finish).
    await rm(entry, { recursive: true, force: true })
  } else if (found) {
    throw new EmbeddedDatabaseError(`${entry} is not a folder: remove it or choose another DATA_DIR`)
  }
  const name = createHash('sha256').update(await realpath(dataDirectory)).digest('hex').slice(0, 16)
  const cluster = path.join(rootDatabasesDirectory, `cluster-${name}`)
  await symlink(cluster, entry)
  return cluster
}

/** The binaries of this version, copied once, readable and runnable by every user; concurrent starts share one copy. */
async function installBinaries(nativeDirectory: string, version: string): Promise<string> {
  const target = path.join(rootDatabasesDirectory, `postgresql-${version}-${process.platform}-${process.arch}`)
  const complete = path.join(target, '.complete')
  if (existsSync(complete)) return target
  const staging = `${target}.staging-${process.pid}-${randomBytes(4).toString('hex')}`
  try {
    await cp(nativeDirectory, staging, { recursive: true, verbatimSymlinks: true })
    await openForEveryone(staging)
    await writeFile(path.join(staging, '.complete'), version)
    await rename(staging, target).catch((error: unknown) => {
      // Another process finished the same copy first.
      if (!existsSync(complete)) throw error
    })
  } catch (error) {
    if (error instanceof EmbeddedDatabaseError) throw error
    throw new EmbeddedDatabaseError(`cannot copy the PostgreSQL binaries to ${target} (${describe(error)})`)
  } finally {
    await rm(staging, { recursive: true, force: true })
  }
  return target
}

/** Folders 0755, files 0644 or 0755 (whatever the umask of the install was). */
async function openForEveryone(directory: string): Promise<void> {
  await chmod(directory, 0o755)
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name)
    if (entry.isDirectory()) await openForEveryone(entryPath)
    else if (entry.isFile()) await chmod(entryPath, ((await stat(entryPath)).mode & 0o100) !== 0 ? 0o755 : 0o644)
  }
}

async function ensurePostgresUser(): Promise<{ uid: number; gid: number }> {
  const existing = await postgresUser()
  if (existing) return existing
  const attempts: [string, string[]][][] = [
    [['groupadd', ['--system', 'postgres']], ['useradd', ['--system', '--gid', 'postgres', '--no-create-home', 'postgres']]],
    [['addgroup', ['-S', 'postgres']], ['adduser', ['-S', '-D', '-H', '-G', 'postgres', 'postgres']]],
  ]
  const failures: string[] = []
  for (const commands of attempts) {
    for (const [command, args] of commands) await run(command, args).catch((error: unknown) => failures.push(`${command}: ${describe(error)}`))
    const created = await postgresUser()
    if (created) return created
  }
  throw new EmbeddedDatabaseError(
    `running as root, PostgreSQL must run as a user named postgres, which could not be created (${failures.join('; ')}); create it, run as another user, or set DATABASE_URL`,
  )
}

async function postgresUser(): Promise<{ uid: number; gid: number } | undefined> {
  const passwd = await readFile('/etc/passwd', 'utf8').catch(() => '')
  const fields = passwd.split('\n').find((line) => line.startsWith('postgres:'))?.split(':')
  if (fields && Number.isInteger(Number(fields[2])) && Number.isInteger(Number(fields[3]))) return { uid: Number(fields[2]), gid: Number(fields[3]) }
  // Users from a directory service: ask the system.
  try {
    const [uid, gid] = await Promise.all([run('id', ['-u', 'postgres']), run('id', ['-g', 'postgres'])])
    return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
  } catch {
    return undefined
  }
}

function describe(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.trim()
}
