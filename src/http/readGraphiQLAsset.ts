import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import path from 'node:path'

const require = createRequire(import.meta.url)
const distDirectory = path.join(path.dirname(require.resolve('@graphql-yoga/graphiql/package.json')), 'dist')

// Only these files are served: a fixed list, so no request path ever reaches the file system.
const assets: Record<string, string> = {
  '/graphiql/graphiql.css': 'text/css; charset=utf-8',
  '/graphiql/yoga-graphiql.umd.js': 'text/javascript; charset=utf-8',
  '/graphiql/monacoeditorwork/editor.worker.bundle.js': 'text/javascript; charset=utf-8',
  '/graphiql/monacoeditorwork/json.worker.bundle.js': 'text/javascript; charset=utf-8',
  '/graphiql/monacoeditorwork/graphql.worker..bundle.js': 'text/javascript; charset=utf-8',
}

const cache = new Map<string, Buffer>()

export async function readGraphiQLAsset(pathname: string): Promise<{ body: Buffer; contentType: string } | undefined> {
  const contentType = assets[pathname]
  if (!contentType) return undefined
  let body = cache.get(pathname)
  if (!body) {
    body = await readFile(path.join(distDirectory, pathname.slice('/graphiql/'.length)))
    cache.set(pathname, body)
  }
  return { body, contentType }
}
