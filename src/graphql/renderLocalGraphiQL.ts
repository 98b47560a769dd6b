import type { GraphiQLOptions } from 'graphql-yoga'

// Yoga's GraphiQL page loads its scripts from a public CDN; this service must work on a closed
// network, so the same page is served with the assets of the @graphql-yoga/graphiql package from
// /graphiql/ (see readGraphiQLAsset).

export function renderLocalGraphiQL(options: GraphiQLOptions): string {
  const settings = JSON.stringify(options).replace(/</g, '\\u003c')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeTitle(options.title ?? 'GraphiQL')}</title>
<link rel="stylesheet" href="/graphiql/graphiql.css"></head>
<body id="body" class="no-focus-outline"><noscript>GraphiQL needs JavaScript.</noscript><div id="root">Loading…</div>
<script>
const workerUrls = {
  editorWorkerService: '/graphiql/monacoeditorwork/editor.worker.bundle.js',
  json: '/graphiql/monacoeditorwork/json.worker.bundle.js',
  graphql: '/graphiql/monacoeditorwork/graphql.worker..bundle.js',
}
self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_moduleId, label) => workerUrls[label] }
</script>
<script src="/graphiql/yoga-graphiql.umd.js"></script>
<script>YogaGraphiQL.renderYogaGraphiQL(document.getElementById('root'), ${settings})</script>
</body></html>`
}

function escapeTitle(text: string): string {
  return text.replace(/[&<>"]/g, (character) => `&#${character.charCodeAt(0)};`)
}
