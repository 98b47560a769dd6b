import { randomBytes } from 'node:crypto'
import type { DatabaseClient } from './createDatabaseClient'

/** Created once per database and shared by every process on it, so a cursor from one process verifies in another. */
export async function loadCursorSecret(prisma: DatabaseClient): Promise<Buffer> {
  await prisma.serviceSetting.createMany({
    data: { name: 'cursor_secret', value: randomBytes(32).toString('base64') },
    skipDuplicates: true,
  })
  const setting = await prisma.serviceSetting.findUniqueOrThrow({ where: { name: 'cursor_secret' } })
  return Buffer.from(setting.value, 'base64')
}
