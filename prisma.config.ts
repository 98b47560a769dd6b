import { defineConfig } from 'prisma/config'

// The CLI only needs a URL for commands that talk to a database (`prisma migrate deploy` where the
// native engine exists). The service itself connects through a driver adapter (src/database).
export default defineConfig({
  schema: 'prisma/schema.prisma',
  migrations: { path: 'prisma/migrations' },
  datasource: { url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres' },
})
