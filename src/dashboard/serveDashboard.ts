import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { build } from 'esbuild'

// GET /dashboard: a read-only overview for a person, built only on /graphql (the proof that the graph
// is enough). Everything it loads comes from this server: the page, one script module (the TypeScript
// in ./client, bundled in memory by esbuild on first request, so there is no build step and nothing
// from a CDN) and one stylesheet. The script renders with DOM text nodes only (never innerHTML), and
// the Content-Security-Policy allows nothing but this origin.

export interface DashboardResponse {
  status: number
  headers: Record<string, string>
  body: string
}

const contentSecurityPolicy = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "img-src 'self' data:",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ')

const commonHeaders = {
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
}

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Billing dashboard</title>
<link rel="stylesheet" href="/dashboard/dashboard.css">
<script type="module" src="/dashboard/dashboard.js"></script>
</head>
<body>
<main id="app"><noscript>The dashboard needs JavaScript.</noscript></main>
</body>
</html>
`

/** src/dashboard of the project this code runs from (as source, or bundled into dist/). */
function findDashboardDirectory(): string {
  let directory = path.dirname(new URL(import.meta.url).pathname)
  for (;;) {
    for (const candidate of [directory, path.join(directory, 'src', 'dashboard')]) {
      if (existsSync(path.join(candidate, 'client', 'main.ts')) && existsSync(path.join(candidate, 'dashboard.css'))) return candidate
    }
    const parent = path.dirname(directory)
    if (parent === directory) throw new Error('src/dashboard not found above this module')
    directory = parent
  }
}

let assets: Promise<{ script: string; style: string }> | undefined

function loadAssets(): Promise<{ script: string; style: string }> {
  assets ??= (async () => {
    const directory = findDashboardDirectory()
    const bundled = await build({
      entryPoints: [path.join(directory, 'client', 'main.ts')],
      bundle: true,
      write: false,
      format: 'esm',
      target: 'es2022',
      platform: 'browser',
      logLevel: 'silent',
    })
    return { script: bundled.outputFiles[0]!.text, style: await readFile(path.join(directory, 'dashboard.css'), 'utf8') }
  })().catch((error: unknown) => {
    assets = undefined
    throw error
  })
  return assets
}

/** The dashboard's answer for a GET of `pathname`, or undefined when the path is not the dashboard's. */
export async function serveDashboard(pathname: string): Promise<DashboardResponse | undefined> {
  if (pathname === '/dashboard' || pathname === '/dashboard/') {
    return { status: 200, headers: { ...commonHeaders, 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' }, body: page }
  }
  if (pathname === '/dashboard/dashboard.js') {
    const { script } = await loadAssets()
    return { status: 200, headers: { ...commonHeaders, 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-cache' }, body: script }
  }
  if (pathname === '/dashboard/dashboard.css') {
    const { style } = await loadAssets()
    return { status: 200, headers: { ...commonHeaders, 'Content-Type': 'text/css; charset=utf-8', 'Cache-Control': 'no-cache' }, body: style }
  }
  return undefined
}
