import { randomBytes } from 'node:crypto'
import type { DatabaseClient } from './createDatabaseClient'

/**
 * The key that signs list cursors and payment links. Created once per database and shared by every
 * process on it, so what one process signed verifies in another.
 */
export async function loadSigningSecret(prisma: DatabaseClient): Promise<Buffer> {
  await prisma.serviceSetting.createMany({
    data: { name: 'signing_secret', value: randomBytes(32).toString('base64') },
    skipDuplicates: true,
  })
  const setting = await prisma.serviceSetting.findUniqueOrThrow({ where: { name: 'signing_secret' } })
  return Buffer.from(setting.value, 'base64')
}
