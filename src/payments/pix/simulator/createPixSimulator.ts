import { randomBytes, timingSafeEqual } from 'node:crypto'
import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createHttpsServer } from 'node:https'
import { buildDynamicBrCode } from './buildDynamicBrCode'
import { deliverSimulatorCallback } from './deliverSimulatorCallback'
import { approveRecsPaidBy, controlPixAutomatico, handlePixAutomatico, pixAutomaticoState } from './handlePixAutomatico'
import { invalid, Problem } from './simulatorProblem'
import { pixView, refundView } from './simulatorViews'
import {
  createEndToEndId,
  createSimulatorState,
  randomAlphanumeric,
  type SimulatedCob,
  type SimulatedPix,
  type SimulatorOptions,
  type SimulatorState,
} from './simulatorState'

// A PSP that speaks the API Pix subset the billing service uses, strict like a real one: OAuth2
// client credentials with expiring tokens (401 once expired), validated bodies and txids, RFC 7807
// problem+json errors, paging, and callbacks with retries. `/__control/*` (no auth) plays the payer
// and the operator: pay a cob (full, under, over), settle refunds, expire tokens, go down.

export interface PixSimulatorTls {
  cert: string
  key: string
  /** Client certificates must be signed by this CA (mutual TLS). */
  ca: string
}

export interface PixSimulator {
  server: Server
  state: SimulatorState
}

const txidPattern = /^[a-zA-Z0-9]{26,35}$/
const amountPattern = /^\d{1,10}\.\d{2}$/
const refundIdPattern = /^[a-zA-Z0-9]{1,35}$/
const maxBodyBytes = 64 * 1024

export function createPixSimulator(options: Partial<SimulatorOptions> & { tls?: PixSimulatorTls } = {}): PixSimulator {
  const state = createSimulatorState({
    clientId: options.clientId ?? 'sim-client',
    clientSecret: options.clientSecret ?? 'sim-secret',
    tokenSeconds: options.tokenSeconds ?? 3600,
    callbackRetries: options.callbackRetries ?? 4,
    callbackRetryMilliseconds: options.callbackRetryMilliseconds ?? 200,
  })
  const handler = (request: IncomingMessage, response: ServerResponse) => {
    const controlled = (request.url ?? '').includes('/__control/')
    if (state.outage === 'lose' && !controlled) {
      // Does the work, then never answers: the client times out not knowing the PSP acted.
      state.hangingRequests += 1
      response.once('close', () => (state.hangingRequests -= 1))
      const swallowed = { headersSent: false, writeHead: () => swallowed, end: () => swallowed, destroy: () => swallowed } as unknown as ServerResponse
      handle(state, request, swallowed).catch(() => undefined)
      return
    }
    handle(state, request, response).catch((error: unknown) => {
      const problem = error instanceof Problem ? error : new Problem(500, 'ErroInterno', 'Erro interno', 'unexpected error')
      sendProblem(response, problem)
    })
  }
  const server = options.tls
    ? createHttpsServer({ cert: options.tls.cert, key: options.tls.key, ca: options.tls.ca, requestCert: true, rejectUnauthorized: true }, handler)
    : createHttpServer(handler)
  return { server, state }
}

async function handle(state: SimulatorState, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://simulator')
  const path = url.pathname.replace(/^\/v2(?=\/)/, '')
  const method = request.method ?? 'GET'
  const body = await readJson(request)
  if (path.startsWith('/__control/')) return send(response, 200, control(state, method, path, body))
  if (state.outage === 'hang') {
    // Never answers: the client's timeout is what is tested. Counted while the client waits.
    state.hangingRequests += 1
    response.once('close', () => (state.hangingRequests -= 1))
    return
  }
  if (state.outage === 'down') throw new Problem(503, 'ServicoIndisponivel', 'Serviço indisponível', 'O PSP está fora do ar')
  if (path === '/oauth/token' && method === 'POST') return send(response, 200, issueToken(state, request, url, body))
  authorize(state, request)

  let match: RegExpExecArray | null
  if ((match = /^\/cob\/([^/]+)$/.exec(path))) {
    const txid = decodeURIComponent(match[1]!)
    if (!txidPattern.test(txid)) throw invalid('CobOperacaoInvalida', 'txid must be 26 to 35 letters and digits', 'txid', 'formato inválido')
    if (state.refusedCobs.has(txid)) throw new Problem(500, 'ErroInterno', 'Erro interno', 'Falha ao processar a cobrança (simulada)')
    if (method === 'PUT') return send(response, 201, cobView(putCob(state, txid, body, request)))
    if (method === 'GET') return send(response, 200, cobView(findCob(state, txid), state))
    if (method === 'PATCH') return send(response, 200, cobView(patchCob(state, txid, body)))
  }
  if (path === '/pix' && method === 'GET') return send(response, 200, listPix(state, url))
  if ((match = /^\/pix\/([^/]+)$/.exec(path)) && method === 'GET') return send(response, 200, pixView(findPix(state, decodeURIComponent(match[1]!))))
  if ((match = /^\/pix\/([^/]+)\/devolucao\/([^/]+)$/.exec(path))) {
    const pix = findPix(state, decodeURIComponent(match[1]!))
    const id = decodeURIComponent(match[2]!)
    if (method === 'PUT') return send(response, 201, refundView(requestRefund(state, pix, id, body)))
    if (method === 'GET') {
      const refund = pix.devolucoes.find((candidate) => candidate.id === id)
      if (!refund) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Devolução não encontrada')
      return send(response, 200, refundView(refund))
    }
  }
  if ((match = /^\/webhook\/([^/]+)$/.exec(path))) {
    const chave = decodeURIComponent(match[1]!)
    if (method === 'PUT') {
      const webhookUrl = (body as { webhookUrl?: unknown } | undefined)?.webhookUrl
      if (typeof webhookUrl !== 'string' || !/^https?:\/\/./.test(webhookUrl)) throw invalid('WebhookOperacaoInvalida', 'webhookUrl must be a URL', 'webhookUrl', 'formato inválido')
      state.webhooks.set(chave, webhookUrl)
      return send(response, 200, { webhookUrl, chave, criacao: new Date().toISOString() })
    }
    const webhookUrl = state.webhooks.get(chave)
    if (!webhookUrl) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Nenhum webhook para esta chave')
    if (method === 'GET') return send(response, 200, { webhookUrl, chave })
    if (method === 'DELETE') {
      state.webhooks.delete(chave)
      return send(response, 204, undefined)
    }
  }
  const recurringCharge = /^\/cobr\/([^/]+)/.exec(path)
  if (recurringCharge && state.refusedCobs.has(decodeURIComponent(recurringCharge[1]!))) throw new Problem(500, 'ErroInterno', 'Erro interno', 'Falha ao processar a cobrança recorrente (simulada)')
  const automatic = handlePixAutomatico(state, method, path, url, body, request)
  if (automatic) return send(response, automatic.status, automatic.body)
  throw new Problem(404, 'NaoEncontrado', 'Não encontrado', `${method} ${path} não existe`)
}

function issueToken(state: SimulatorState, request: IncomingMessage, url: URL, body: unknown): unknown {
  const header = request.headers.authorization ?? ''
  const [scheme, encoded] = header.split(' ')
  const [clientId, ...secretParts] = Buffer.from(encoded ?? '', 'base64').toString('utf8').split(':')
  const grant = typeof body === 'object' && body !== null ? (body as Record<string, unknown>).grant_type : url.searchParams.get('grant_type')
  if (scheme !== 'Basic' || clientId !== state.options.clientId || !sameText(secretParts.join(':'), state.options.clientSecret)) {
    throw new Problem(401, 'AcessoNegado', 'Não autorizado', 'Credenciais inválidas')
  }
  if (grant !== 'client_credentials') throw invalid('RequisicaoInvalida', 'grant_type must be client_credentials', 'grant_type', 'valor inválido')
  const token = randomBytes(24).toString('base64url')
  state.tokens.set(token, { expiresAt: Date.now() + state.options.tokenSeconds * 1000, revoked: false })
  state.tokensIssued += 1
  return { access_token: token, token_type: 'Bearer', expires_in: state.options.tokenSeconds, scope: 'cob.write cob.read pix.write pix.read webhook.write webhook.read rec.write rec.read cobr.write cobr.read webhookrec.write webhookrec.read webhookcobr.write webhookcobr.read' }
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}

function authorize(state: SimulatorState, request: IncomingMessage): void {
  const [scheme, token] = (request.headers.authorization ?? '').split(' ')
  const known = token ? state.tokens.get(token) : undefined
  if (scheme !== 'Bearer' || !known || known.revoked || known.expiresAt <= Date.now()) {
    throw new Problem(401, 'AcessoNegado', 'Não autorizado', 'Token de acesso ausente, inválido ou expirado')
  }
  if (state.revokeTokensAfterCalls !== null) {
    state.revokeTokensAfterCalls -= 1
    if (state.revokeTokensAfterCalls <= 0) {
      state.revokeTokensAfterCalls = null
      for (const issued of state.tokens.values()) issued.revoked = true
    }
  }
}

function putCob(state: SimulatorState, txid: string, body: unknown, request: IncomingMessage): SimulatedCob {
  const existing = state.cobs.get(txid)
  if (existing && existing.status !== 'ATIVA') throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança não encontrada para o txid informado', `A cobrança ${txid} está ${existing.status}`)
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('CobOperacaoInvalida', 'body must be a JSON object', '', 'corpo inválido')
  const input = body as Record<string, unknown>
  const calendario = input.calendario as Record<string, unknown> | undefined
  const valor = input.valor as Record<string, unknown> | undefined
  const expiracao = calendario?.expiracao ?? 86400
  if (typeof calendario !== 'object' || calendario === null) throw invalid('CobOperacaoInvalida', 'calendario is required', 'cob.calendario', 'obrigatório')
  if (!Number.isInteger(expiracao) || (expiracao as number) <= 0) throw invalid('CobOperacaoInvalida', 'expiracao must be a positive integer', 'cob.calendario.expiracao', 'valor inválido')
  const original = valor?.original
  if (typeof original !== 'string' || !amountPattern.test(original) || Number(original) === 0) {
    throw invalid('CobOperacaoInvalida', 'valor.original must match \\d{1,10}\\.\\d{2} and not be 0.00', 'cob.valor.original', 'formato inválido')
  }
  if (typeof input.chave !== 'string' || input.chave.length === 0 || input.chave.length > 77) throw invalid('CobOperacaoInvalida', 'chave is required', 'cob.chave', 'obrigatório')
  if (input.solicitacaoPagador !== undefined && (typeof input.solicitacaoPagador !== 'string' || input.solicitacaoPagador.length > 140)) {
    throw invalid('CobOperacaoInvalida', 'solicitacaoPagador is at most 140 characters', 'cob.solicitacaoPagador', 'tamanho inválido')
  }
  const modalidadeAlteracao = valor?.modalidadeAlteracao ?? 0
  if (modalidadeAlteracao !== 0 && modalidadeAlteracao !== 1) throw invalid('CobOperacaoInvalida', 'valor.modalidadeAlteracao must be 0 or 1', 'cob.valor.modalidadeAlteracao', 'valor inválido')
  if (input.devedor !== undefined) {
    const devedor = input.devedor as Record<string, unknown>
    const hasDocument = (typeof devedor?.cpf === 'string' && /^\d{11}$/.test(devedor.cpf)) || (typeof devedor?.cnpj === 'string' && /^[0-9A-Z]{14}$/.test(devedor.cnpj))
    if (!hasDocument || typeof devedor.nome !== 'string') throw invalid('CobOperacaoInvalida', 'devedor needs cpf or cnpj and nome', 'cob.devedor', 'inválido')
  }
  const host = request.headers.host ?? '127.0.0.1'
  const location = `${host}/qr/v2/${existing ? existing.location.split('/').pop() : randomAlphanumeric(32)}`
  const cob: SimulatedCob = {
    txid,
    revisao: existing ? existing.revisao + 1 : 0,
    status: 'ATIVA',
    criacao: existing?.criacao ?? new Date(),
    expiracao: expiracao as number,
    valor: original,
    modalidadeAlteracao,
    chave: input.chave,
    ...(input.devedor === undefined ? {} : { devedor: input.devedor }),
    ...(typeof input.solicitacaoPagador === 'string' ? { solicitacaoPagador: input.solicitacaoPagador } : {}),
    location,
    pixCopiaECola: buildDynamicBrCode(location, original, 'PSP SIMULADO', 'SAO PAULO'),
  }
  state.cobs.set(txid, cob)
  return cob
}

function findCob(state: SimulatorState, txid: string): SimulatedCob {
  const cob = state.cobs.get(txid)
  if (!cob) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Cobrança não encontrada para o txid informado')
  return cob
}

function patchCob(state: SimulatorState, txid: string, body: unknown): SimulatedCob {
  const cob = findCob(state, txid)
  const input = (body ?? {}) as { status?: unknown; calendario?: { expiracao?: unknown } }
  const status = input.status
  if (status !== undefined && status !== 'REMOVIDA_PELO_USUARIO_RECEBEDOR') throw invalid('CobOperacaoInvalida', 'status may only become REMOVIDA_PELO_USUARIO_RECEBEDOR', 'cob.status', 'valor inválido')
  const expiracao = input.calendario?.expiracao
  if (expiracao !== undefined && (!Number.isInteger(expiracao) || (expiracao as number) <= 0)) throw invalid('CobOperacaoInvalida', 'expiracao must be a positive integer', 'cob.calendario.expiracao', 'valor inválido')
  if (cob.status !== 'ATIVA') throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança em estado inválido', `A cobrança está ${cob.status}`)
  if (status) cob.status = status
  // A revised expiracao counts from the cob's creation, as the first one did.
  if (typeof expiracao === 'number') cob.expiracao = expiracao
  cob.revisao += 1
  return cob
}

function cobView(cob: SimulatedCob, state?: SimulatorState): unknown {
  const pix = state ? state.pix.filter((candidate) => candidate.txid === cob.txid).map(pixView) : []
  return {
    calendario: { criacao: cob.criacao.toISOString(), expiracao: cob.expiracao },
    txid: cob.txid,
    revisao: cob.revisao,
    loc: { id: 1, location: cob.location, tipoCob: 'cob' },
    location: cob.location,
    status: cob.status,
    ...(cob.devedor ? { devedor: cob.devedor } : {}),
    valor: { original: cob.valor, ...(cob.modalidadeAlteracao === 1 ? { modalidadeAlteracao: 1 } : {}) },
    chave: cob.chave,
    ...(cob.solicitacaoPagador ? { solicitacaoPagador: cob.solicitacaoPagador } : {}),
    pixCopiaECola: cob.pixCopiaECola,
    ...(pix.length > 0 ? { pix } : {}),
  }
}

function findPix(state: SimulatorState, endToEndId: string): SimulatedPix {
  const pix = state.pix.find((candidate) => candidate.endToEndId === endToEndId)
  if (!pix) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Pix não encontrado')
  return pix
}

function listPix(state: SimulatorState, url: URL): unknown {
  const inicio = parseInstant(url.searchParams.get('inicio'), 'inicio')
  const fim = parseInstant(url.searchParams.get('fim'), 'fim')
  const page = wholeNumber(url.searchParams.get('paginacao.paginaAtual') ?? '0', 'paginacao.paginaAtual', 0, 1_000_000)
  const perPage = wholeNumber(url.searchParams.get('paginacao.itensPorPagina') ?? '100', 'paginacao.itensPorPagina', 1, 1000)
  const txid = url.searchParams.get('txid')
  const matching = state.pix.filter((pix) => pix.horario >= inicio && pix.horario <= fim && (txid === null || pix.txid === txid))
  const pages = Math.max(1, Math.ceil(matching.length / perPage))
  return {
    parametros: { inicio: inicio.toISOString(), fim: fim.toISOString(), paginacao: { paginaAtual: page, itensPorPagina: perPage, quantidadeDePaginas: pages, quantidadeTotalDeItens: matching.length } },
    pix: matching.slice(page * perPage, (page + 1) * perPage).map(pixView),
  }
}

function parseInstant(text: string | null, name: string): Date {
  if (text === null) throw invalid('ConsultaPixInvalida', `${name} is required`, name, 'obrigatório')
  const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(Number.NaN)
  if (Number.isNaN(instant.getTime())) throw invalid('ConsultaPixInvalida', `${name} must be RFC 3339`, name, 'formato inválido')
  return instant
}

function wholeNumber(text: string, name: string, min: number, max: number): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min || value > max) throw invalid('ConsultaPixInvalida', `${name} must be an integer from ${min} to ${max}`, name, 'valor inválido')
  return value
}

function requestRefund(state: SimulatorState, pix: SimulatedPix, id: string, body: unknown): SimulatedPix['devolucoes'][number] {
  if (!refundIdPattern.test(id)) throw invalid('PixDevolucaoInvalida', 'id must be 1 to 35 letters and digits', 'id', 'formato inválido')
  const existing = pix.devolucoes.find((refund) => refund.id === id)
  if (existing) return existing
  const input = (body ?? {}) as Record<string, unknown>
  if (typeof input.valor !== 'string' || !amountPattern.test(input.valor) || Number(input.valor) === 0) {
    throw invalid('PixDevolucaoInvalida', 'valor must match \\d{1,10}\\.\\d{2}', 'valor', 'formato inválido')
  }
  const cents = (text: string) => BigInt(text.replace('.', ''))
  const alreadyRefunded = pix.devolucoes.filter((refund) => refund.status !== 'NAO_REALIZADO').reduce((sum, refund) => sum + cents(refund.valor), 0n)
  if (alreadyRefunded + cents(input.valor) > cents(pix.valor)) {
    throw invalid('PixDevolucaoInvalida', 'A soma das devoluções excede o valor do Pix', 'valor', 'excede o valor do Pix')
  }
  const refund = {
    id,
    rtrId: `D99999999${new Date().toISOString().replace(/\D/g, '').slice(0, 12)}${randomAlphanumeric(11)}`,
    valor: input.valor,
    natureza: typeof input.natureza === 'string' ? input.natureza : 'ORIGINAL',
    ...(typeof input.descricao === 'string' ? { descricao: input.descricao } : {}),
    solicitacao: new Date(),
    status: 'EM_PROCESSAMENTO' as const,
  }
  pix.devolucoes.push(refund)
  return refund
}

/** The payer's and operator's side (no auth): tests and developers drive the PSP through these. */
function control(state: SimulatorState, method: string, path: string, body: unknown): unknown {
  const input = (body ?? {}) as Record<string, unknown>
  let match: RegExpExecArray | null
  if ((match = /^\/__control\/cob\/([^/]+)\/pay$/.exec(path)) && method === 'POST') {
    const cob = findCob(state, decodeURIComponent(match[1]!))
    if (cob.status !== 'ATIVA') throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança não pagável', `A cobrança está ${cob.status}`)
    if (cob.criacao.getTime() + cob.expiracao * 1000 <= Date.now()) throw new Problem(400, 'CobOperacaoInvalida', 'Cobrança expirada', 'A cobrança expirou')
    const valor = typeof input.amount === 'string' ? input.amount : cob.valor
    if (!amountPattern.test(valor)) throw invalid('RequisicaoInvalida', 'amount must match \\d{1,10}\\.\\d{2}', 'amount', 'formato inválido')
    // `nonconforming`: a payer's bank that breaks the rules below (pays another amount, or again), which
    // the standard forbids; kept so that the service's handling of wrong amounts stays tested.
    const nonconforming = input.nonconforming === true
    if (!nonconforming && cob.modalidadeAlteracao === 0 && valor !== cob.valor) {
      throw invalid('CobOperacaoInvalida', `valor.modalidadeAlteracao is 0: the payer must pay ${cob.valor}`, 'valor', 'não alterável pelo pagador')
    }
    // `horario` (RFC 3339, in the past): a Pix the PSP lists late, with the time it was really made.
    const horario = typeof input.horario === 'string' ? new Date(input.horario) : new Date()
    if (Number.isNaN(horario.getTime()) || horario.getTime() > Date.now()) throw invalid('RequisicaoInvalida', 'horario must be an instant not in the future', 'horario', 'valor inválido')
    const pix: SimulatedPix = { endToEndId: createEndToEndId(horario), txid: cob.txid, valor, chave: cob.chave, horario, devolucoes: [] }
    state.pix.push(pix)
    const received = state.pix.filter((candidate) => candidate.txid === cob.txid).reduce((sum, candidate) => sum + Number(candidate.valor.replace('.', '')), 0)
    // One payment concludes a cob; only a nonconforming payment of less leaves it payable.
    if (!nonconforming || received >= Number(cob.valor.replace('.', ''))) cob.status = 'CONCLUIDA'
    if (input.callback !== false) void deliverCallback(state, cob.chave, { pix: [pixView(pix)] })
    if (input.authorize !== false) approveRecsPaidBy(state, cob.txid, input.callback !== false)
    return pixView(pix)
  }
  if ((match = /^\/__control\/cob\/([^/]+)\/expire$/.exec(path)) && method === 'POST') {
    // Time passes for one cob: its creation moves back so that its expiracao has just run out.
    const cob = findCob(state, decodeURIComponent(match[1]!))
    cob.criacao = new Date(Date.now() - cob.expiracao * 1000 - 1000)
    return cobView(cob, state)
  }
  if ((match = /^\/__control\/cob\/([^/]+)\/refuse$/.exec(path)) && method === 'POST') {
    // `{"refuse": true}`: every call on this one txid (`/cob/{txid}`, `/cobr/{txid}…`) answers 500 until `{"refuse": false}`.
    const txid = decodeURIComponent(match[1]!)
    if (input.refuse === false) state.refusedCobs.delete(txid)
    else state.refusedCobs.add(txid)
    return { refused: [...state.refusedCobs] }
  }
  if ((match = /^\/__control\/pix\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
    const pix = findPix(state, decodeURIComponent(match[1]!))
    void deliverCallback(state, pix.chave, { pix: [pixView(pix)] })
    return { ok: true }
  }
  if (path === '/__control/refunds/settle' && method === 'POST') {
    const outcome = input.outcome === 'NAO_REALIZADO' ? 'NAO_REALIZADO' : 'DEVOLVIDO'
    const settled: SimulatedPix[] = []
    for (const pix of state.pix) {
      const pending = pix.devolucoes.filter((refund) => refund.status === 'EM_PROCESSAMENTO')
      for (const refund of pending) {
        refund.status = outcome
        if (outcome === 'DEVOLVIDO') refund.liquidacao = new Date()
        else refund.motivo = 'Devolução recusada (simulada)'
      }
      if (pending.length > 0) settled.push(pix)
    }
    for (const pix of settled) if (input.callback !== false) void deliverCallback(state, pix.chave, { pix: [pixView(pix)] })
    return { settled: settled.length }
  }
  if (path === '/__control/tokens/expire' && method === 'POST') {
    // `{"afterCalls": n}`: the tokens lapse in the middle of the client's work, after n more calls.
    if (typeof input.afterCalls === 'number' && Number.isInteger(input.afterCalls) && input.afterCalls > 0) {
      state.revokeTokensAfterCalls = input.afterCalls
      return { expiresAfterCalls: input.afterCalls }
    }
    for (const token of state.tokens.values()) token.revoked = true
    return { expired: state.tokens.size }
  }
  if (path === '/__control/outage' && method === 'POST') {
    state.outage = input.mode === 'down' || input.mode === 'hang' || input.mode === 'lose' ? input.mode : 'none'
    return { outage: state.outage }
  }
  if (path === '/__control/state' && method === 'GET') {
    return {
      tokensIssued: state.tokensIssued,
      hangingRequests: state.hangingRequests,
      cobs: [...state.cobs.values()].map((cob) => cobView(cob, state)),
      pix: state.pix.map(pixView),
      webhooks: Object.fromEntries(state.webhooks),
      callbacks: state.callbacks,
      ...(pixAutomaticoState(state) as object),
    }
  }
  const automatic = controlPixAutomatico(state, method, path, input)
  if (automatic !== null) return automatic
  throw new Problem(404, 'NaoEncontrado', 'Não encontrado', `${method} ${path} não existe`)
}

/** POST {webhookUrl}/pix for the webhook registered on the key. */
function deliverCallback(state: SimulatorState, chave: string, body: unknown): Promise<void> {
  return deliverSimulatorCallback(state, state.webhooks.get(chave), 'pix', body)
}

async function readJson(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of request) {
    size += (chunk as Buffer).length
    if (size > maxBodyBytes) throw new Problem(413, 'RequisicaoInvalida', 'Corpo grande demais', 'O corpo excede 64 KiB')
    chunks.push(chunk as Buffer)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  if (text === '') return undefined
  if ((request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text))
  try {
    return JSON.parse(text)
  } catch {
    throw new Problem(400, 'RequisicaoInvalida', 'JSON inválido', 'O corpo não é JSON válido')
  }
}

function send(response: ServerResponse, status: number, body: unknown): void {
  if (body === undefined) {
    response.writeHead(status)
    response.end()
    return
  }
  const text = JSON.stringify(body)
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) })
  response.end(text)
}

function sendProblem(response: ServerResponse, problem: Problem): void {
  if (response.headersSent) return void response.destroy()
  const text = JSON.stringify({
    type: `https://pix.bcb.gov.br/api/v2/error/${problem.type}`,
    title: problem.title,
    status: problem.status,
    detail: problem.detail,
    correlationId: randomAlphanumeric(16),
    ...(problem.violacoes.length > 0 ? { violacoes: problem.violacoes } : {}),
  })
  response.writeHead(problem.status, { 'Content-Type': 'application/problem+json', 'Content-Length': Buffer.byteLength(text) })
  response.end(text)
}
