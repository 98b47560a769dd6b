import { defineConfig } from 'vitest/config'

export default defineConfig({
  // graphql 16 has no "exports" map: Node (which loads Pothos, Yoga and friends) resolves it to the
  // CommonJS build, Vite would pick the ES build for our files; two copies of graphql cannot share a
  // schema, so our files get Node's choice too.
  resolve: { alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }] },
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/globalSetup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each test file gets its own database cloned from a migrated template, so files run in parallel.
    pool: 'forks',
    // A fixed secrets key for the test servers, so none generates one into the working tree. Live
    // accounts may use the PIX simulator on 127.0.0.1 over http (test/pixProviderSafety.test.ts unsets it).
    env: { LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent', BILLING_SECRETS_KEY: 'dGVzdC1vbmx5LXNlY3JldHMta2V5LTMyLWJ5dGVzISE=', PIX_ALLOW_INTERNAL_API_URL: 'true' },
  },
})
