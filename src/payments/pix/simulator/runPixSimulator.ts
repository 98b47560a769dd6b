import { readFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { createPixSimulator } from './createPixSimulator'

// `npm run pix:simulator`: a local PSP on 127.0.0.1 for trying the PIX flow by hand and for the tests.
// Environment: PIX_SIMULATOR_PORT (default 7070; 0 picks a free one), PIX_SIMULATOR_CLIENT_ID /
// _CLIENT_SECRET (sim-client / sim-secret), PIX_SIMULATOR_TOKEN_SECONDS (3600), and for mutual TLS
// PIX_SIMULATOR_TLS_CERT, _TLS_KEY, _TLS_CA (files). Prints `Listening on URL` once ready.

const environment = process.env
const readFile = (name: string) => (environment[name] ? readFileSync(environment[name], 'utf8') : undefined)
const cert = readFile('PIX_SIMULATOR_TLS_CERT')
const key = readFile('PIX_SIMULATOR_TLS_KEY')
const ca = readFile('PIX_SIMULATOR_TLS_CA')
const simulator = createPixSimulator({
  clientId: environment.PIX_SIMULATOR_CLIENT_ID ?? 'sim-client',
  clientSecret: environment.PIX_SIMULATOR_CLIENT_SECRET ?? 'sim-secret',
  tokenSeconds: Number(environment.PIX_SIMULATOR_TOKEN_SECONDS ?? 3600),
  ...(cert && key && ca ? { tls: { cert, key, ca } } : {}),
})
simulator.server.listen(Number(environment.PIX_SIMULATOR_PORT ?? 7070), '127.0.0.1', () => {
  const { port } = simulator.server.address() as AddressInfo
  process.stdout.write(`Listening on ${cert ? 'https' : 'http'}://127.0.0.1:${port}\n`)
})
const stop = () => {
  simulator.server.close(() => process.exit(0))
  simulator.server.closeAllConnections()
}
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
