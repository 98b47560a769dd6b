import { execFile } from 'node:child_process'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'

const run = promisify(execFile)

export interface TestCertificates {
  directory: string
  /** PEM texts. */
  ca: string
  serverCertificate: string
  serverKey: string
  clientCertificate: string
  clientKey: string
  /** A client certificate from another CA, which the server must refuse. */
  strangerCertificate: string
  strangerKey: string
  /** Files of the server's side, for the simulator's environment. */
  files: { ca: string; serverCertificate: string; serverKey: string }
  remove(): Promise<void>
}

/**
 * A private CA made for one test with the `openssl` CLI: a server certificate for 127.0.0.1 and a
 * client certificate it signed (mutual TLS as a PSP issues it), plus a client certificate of an
 * unrelated CA.
 */
export async function createTestCertificates(): Promise<TestCertificates> {
  const directory = await mkdtemp(path.join(tmpdir(), 'pix-mtls-'))
  const file = (name: string) => path.join(directory, name)
  const openssl = (...args: string[]) => run('openssl', args, { cwd: directory })
  const selfSigned = (name: string, subject: string) =>
    openssl('req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '2', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.crt`)
  const signed = async (name: string, authority: string, subject: string, extensions: string) => {
    await openssl('req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-subj', subject, '-keyout', `${name}.key`, '-out', `${name}.csr`)
    await writeFile(file(`${name}.ext`), extensions)
    await openssl('x509', '-req', '-in', `${name}.csr`, '-CA', `${authority}.crt`, '-CAkey', `${authority}.key`, '-CAcreateserial', '-days', '2', '-extfile', `${name}.ext`, '-out', `${name}.crt`)
  }
  await selfSigned('ca', '/CN=Test PSP CA')
  await selfSigned('stranger-ca', '/CN=Someone else')
  await signed('server', 'ca', '/CN=127.0.0.1', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n')
  await signed('client', 'ca', '/CN=billing-service', 'extendedKeyUsage=clientAuth\n')
  await signed('stranger', 'stranger-ca', '/CN=billing-service', 'extendedKeyUsage=clientAuth\n')
  const read = (name: string) => readFile(file(name), 'utf8')
  return {
    directory,
    ca: await read('ca.crt'),
    serverCertificate: await read('server.crt'),
    serverKey: await read('server.key'),
    clientCertificate: await read('client.crt'),
    clientKey: await read('client.key'),
    strangerCertificate: await read('stranger.crt'),
    strangerKey: await read('stranger.key'),
    files: { ca: file('ca.crt'), serverCertificate: file('server.crt'), serverKey: file('server.key') },
    remove: () => rm(directory, { recursive: true, force: true }),
  }
}
