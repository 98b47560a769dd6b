import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startPixSimulator, type PixSimulatorProcess } from './support/startPixSimulator'

// The PIX simulator called directly, as the API Pix (bacen/pix-api openapi.yaml) has a PSP answer: a
// token that expired is 401, malformed requests are 400 application/problem+json with `violacoes`,
// `GET /pix` needs its window, refunds never exceed their Pix, and a cob's fixed amount
// (modalidadeAlteracao 0, the default) is paid exactly and once. A looser simulator would let the
// service pass tests a real PSP fails.

let psp: PixSimulatorProcess

beforeAll(async () => {
  psp = await startPixSimulator({ PIX_SIMULATOR_TOKEN_SECONDS: '1' })
})
afterAll(async () => {
  await psp.stop()
})

interface Answer {
  status: number
  type: string | null
  body: any // eslint-disable-line @typescript-eslint/no-explicit-any -- the simulator's JSON read freely
}

async function token(): Promise<string> {
  const response = await fetch(`${psp.apiUrl}/oauth/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('sim-client:sim-secret').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  })
  expect(response.status).toBe(200)
  return ((await response.json()) as { access_token: string }).access_token
}

async function call(method: string, path: string, body?: unknown, bearer?: string): Promise<Answer> {
  const response = await fetch(`${psp.apiUrl}${path}`, {
    method,
    headers: { Authorization: `Bearer ${bearer ?? (await token())}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const text = await response.text()
  return { status: response.status, type: response.headers.get('content-type'), body: text === '' ? undefined : JSON.parse(text) }
}

const txid = (seed: string) => `strict${seed}`.padEnd(30, '0')
const cob = (original: string, extra: Record<string, unknown> = {}) => ({ calendario: { expiracao: 3600 }, valor: { original, ...extra }, chave: 'recebedor@example.com.br' })

function expectProblem(answer: Answer, status: number, type: string, propriedade?: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(status)
  expect(answer.type).toMatch(/^application\/problem\+json/)
  expect(answer.body).toMatchObject({ type: `https://pix.bcb.gov.br/api/v2/error/${type}`, status })
  expect(typeof answer.body.title).toBe('string')
  if (propriedade !== undefined) expect(answer.body.violacoes).toEqual(expect.arrayContaining([expect.objectContaining({ propriedade, razao: expect.any(String) })]))
}

describe('the simulator is as strict as the API Pix', () => {
  test('an expired token is 401 problem+json AcessoNegado; wrong credentials too', async () => {
    const expiring = await token()
    expect((await call('GET', `/cob/${txid('none')}`, undefined, expiring)).status).toBe(404)
    await new Promise((resolve) => setTimeout(resolve, 1100))
    expectProblem(await call('GET', `/cob/${txid('none')}`, undefined, expiring), 401, 'AcessoNegado')
    const refused = await fetch(`${psp.apiUrl}/oauth/token`, { method: 'POST', headers: { Authorization: `Basic ${Buffer.from('sim-client:wrong').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials' })
    expect(refused.status).toBe(401)
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/)
  })

  test('a bad txid, a missing valor.original, 0.00 and a malformed amount are 400 with violacoes', async () => {
    expectProblem(await call('PUT', '/cob/short', cob('1.00')), 400, 'CobOperacaoInvalida', 'txid')
    expectProblem(await call('PUT', `/cob/${txid('bad')}-x`, cob('1.00')), 400, 'CobOperacaoInvalida', 'txid')
    expectProblem(await call('PUT', `/cob/${txid('novalor')}`, { calendario: { expiracao: 60 }, valor: {}, chave: 'k@example.com' }), 400, 'CobOperacaoInvalida', 'cob.valor.original')
    expectProblem(await call('PUT', `/cob/${txid('zero')}`, cob('0.00')), 400, 'CobOperacaoInvalida', 'cob.valor.original')
    expectProblem(await call('PUT', `/cob/${txid('float')}`, cob('1.5')), 400, 'CobOperacaoInvalida', 'cob.valor.original')
    expectProblem(await call('PUT', `/cob/${txid('modal')}`, cob('1.00', { modalidadeAlteracao: 2 })), 400, 'CobOperacaoInvalida', 'cob.valor.modalidadeAlteracao')
    expectProblem(await call('PUT', `/cob/${txid('nochave')}`, { calendario: { expiracao: 60 }, valor: { original: '1.00' } }), 400, 'CobOperacaoInvalida', 'cob.chave')
    expect((await call('PUT', `/cob/${txid('patch')}`, cob('1.00'))).status).toBe(201)
    expectProblem(await call('PATCH', `/cob/${txid('patch')}`, { calendario: { expiracao: -1 } }), 400, 'CobOperacaoInvalida', 'cob.calendario.expiracao')
    expectProblem(await call('PATCH', `/cob/${txid('patch')}`, { status: 'CONCLUIDA' }), 400, 'CobOperacaoInvalida', 'cob.status')
  })

  test('GET /pix without inicio or fim, or with a malformed one or a page size over 1000, is 400 ConsultaPixInvalida', async () => {
    const fim = new Date().toISOString()
    expectProblem(await call('GET', `/pix?fim=${fim}`), 400, 'ConsultaPixInvalida', 'inicio')
    expectProblem(await call('GET', `/pix?inicio=${fim}`), 400, 'ConsultaPixInvalida', 'fim')
    expectProblem(await call('GET', `/pix?inicio=yesterday&fim=${fim}`), 400, 'ConsultaPixInvalida', 'inicio')
    expectProblem(await call('GET', `/pix?inicio=${fim}&fim=${fim}&paginacao.itensPorPagina=1001`), 400, 'ConsultaPixInvalida', 'paginacao.itensPorPagina')
    expect((await call('GET', `/pix?inicio=${fim}&fim=${fim}`)).status).toBe(200)
  })

  test('a cob of fixed amount is paid exactly and once; modalidadeAlteracao 1 lets the payer change it', async () => {
    const fixed = txid('fixed')
    expect((await call('PUT', `/cob/${fixed}`, cob('10.00'))).status).toBe(201)
    await expect(psp.control('POST', `/cob/${fixed}/pay`, { amount: '9.99' })).rejects.toThrow(/modalidadeAlteracao/)
    await expect(psp.control('POST', `/cob/${fixed}/pay`, { amount: '10.01' })).rejects.toThrow(/modalidadeAlteracao/)
    await psp.control('POST', `/cob/${fixed}/pay`, { callback: false })
    await expect(psp.control('POST', `/cob/${fixed}/pay`, { callback: false })).rejects.toThrow(/CONCLUIDA/)
    const read = await call('GET', `/cob/${fixed}`)
    expect(read.body).toMatchObject({ status: 'CONCLUIDA', valor: { original: '10.00' } })
    expect(read.body.pix).toHaveLength(1)

    const open = txid('open')
    expect((await call('PUT', `/cob/${open}`, cob('10.00', { modalidadeAlteracao: 1 }))).status).toBe(201)
    await psp.control('POST', `/cob/${open}/pay`, { amount: '4.00', callback: false })
    expect((await call('GET', `/cob/${open}`)).body).toMatchObject({ status: 'CONCLUIDA', valor: { original: '10.00', modalidadeAlteracao: 1 }, pix: [{ valor: '4.00' }] })
  })

  test('refunds never exceed their Pix: an over-refund, and a second one past what is left, are 400 PixDevolucaoInvalida', async () => {
    const paid = txid('refund')
    expect((await call('PUT', `/cob/${paid}`, cob('5.00'))).status).toBe(201)
    const pix = await psp.control('POST', `/cob/${paid}/pay`, { callback: false })
    expectProblem(await call('PUT', `/pix/${pix.endToEndId}/devolucao/over1`, { valor: '5.01' }), 400, 'PixDevolucaoInvalida', 'valor')
    expect((await call('PUT', `/pix/${pix.endToEndId}/devolucao/part1`, { valor: '3.00' })).status).toBe(201)
    expectProblem(await call('PUT', `/pix/${pix.endToEndId}/devolucao/part2`, { valor: '2.01' }), 400, 'PixDevolucaoInvalida', 'valor')
    expectProblem(await call('PUT', `/pix/${pix.endToEndId}/devolucao/zero1`, { valor: '0.00' }), 400, 'PixDevolucaoInvalida', 'valor')
    expect((await call('PUT', `/pix/${pix.endToEndId}/devolucao/part2`, { valor: '2.00' })).status).toBe(201)
  })
})
