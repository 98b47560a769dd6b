import type { IncomingMessage } from 'node:http'
import { buildDynamicBrCode } from './buildDynamicBrCode'
import { deliverSimulatorCallback } from './deliverSimulatorCallback'
import { invalid, Problem } from './simulatorProblem'
import {
  createEndToEndId,
  randomAlphanumeric,
  type CobrStatus,
  type RecStatus,
  type SimulatedAttempt,
  type SimulatedCobr,
  type SimulatedRec,
  type SimulatorState,
} from './simulatorState'
import { pixView } from './simulatorViews'

// Pix Automático in the simulated PSP: recurrences (`/rec`), recurring charges (`/cobr`, retries),
// their webhooks (`/webhookrec`, `/webhookcobr`) and the payer's controls (approve, reject, pay).
// Strict like the rest: validated bodies and dates, states that forbid what they forbid, problem+json.
// Dates ("today") are the PSP's: real time in America/Sao_Paulo.

const txidPattern = /^[a-zA-Z0-9]{26,35}$/
const amountPattern = /^\d{1,10}\.\d{2}$/
const datePattern = /^\d{4}-\d{2}-\d{2}$/
const periodicities = ['SEMANAL', 'MENSAL', 'TRIMESTRAL', 'SEMESTRAL', 'ANUAL']
const retryPolicies = ['NAO_PERMITE', 'PERMITE_3R_7D'] as const
const maxRetries = 3
const retryWindowDays = 7

export interface SimulatorAnswer {
  status: number
  body: unknown
}

/** The API side (authenticated by the caller); null when the path is not Pix Automático's. */
export function handlePixAutomatico(state: SimulatorState, method: string, path: string, url: URL, body: unknown, request: IncomingMessage): SimulatorAnswer | null {
  let match: RegExpExecArray | null
  if (path === '/rec' && method === 'POST') return { status: 201, body: recView(createRec(state, body, request)) }
  if (path === '/rec' && method === 'GET') return { status: 200, body: listPage(url, 'recs', [...state.recs.values()], (rec) => rec.atualizacao[0]!.data, (rec) => recView(rec)) }
  if ((match = /^\/rec\/([^/]+)$/.exec(path))) {
    const rec = findRec(state, decodeURIComponent(match[1]!))
    if (method === 'GET') return { status: 200, body: recView(rec, url.searchParams.get('txid'), state) }
    if (method === 'PATCH') return { status: 200, body: recView(patchRec(state, rec, body)) }
  }
  if (path === '/cobr' && method === 'GET') {
    const idRec = url.searchParams.get('idRec')
    const cobrs = [...state.cobrs.values()].filter((cobr) => idRec === null || cobr.idRec === idRec)
    return { status: 200, body: listPage(url, 'cobrs', cobrs, (cobr) => cobr.criacao, (cobr) => cobrView(state, cobr)) }
  }
  if ((match = /^\/cobr\/([^/]+)\/retentativa\/([^/]+)$/.exec(path)) && method === 'POST') {
    const cobr = findCobr(state, decodeURIComponent(match[1]!))
    return { status: 200, body: cobrView(state, requestRetry(state, cobr, decodeURIComponent(match[2]!))) }
  }
  if ((match = /^\/cobr\/([^/]+)$/.exec(path))) {
    const txid = decodeURIComponent(match[1]!)
    if (!txidPattern.test(txid)) throw invalid('CobROperacaoInvalida', 'txid must be 26 to 35 letters and digits', 'txid', 'formato inválido')
    if (method === 'PUT') return { status: 201, body: cobrView(state, putCobr(state, txid, body)) }
    if (method === 'GET') return { status: 200, body: cobrView(state, findCobr(state, txid)) }
    if (method === 'PATCH') return { status: 200, body: cobrView(state, patchCobr(findCobr(state, txid), body)) }
  }
  if (path === '/webhookrec' || path === '/webhookcobr') {
    const key = path === '/webhookrec' ? 'webhookRec' : 'webhookCobr'
    if (method === 'PUT') {
      const webhookUrl = (body as { webhookUrl?: unknown } | undefined)?.webhookUrl
      if (typeof webhookUrl !== 'string' || !/^https?:\/\/./.test(webhookUrl)) throw invalid('WebhookOperacaoInvalida', 'webhookUrl must be a URL', 'webhookUrl', 'formato inválido')
      state[key] = webhookUrl
      return { status: 200, body: { webhookUrl, criacao: new Date().toISOString() } }
    }
    if (!state[key]) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Nenhum webhook cadastrado')
    if (method === 'GET') return { status: 200, body: { webhookUrl: state[key] } }
    if (method === 'DELETE') {
      state[key] = null
      return { status: 204, body: undefined }
    }
  }
  return null
}

/** The payer's side (`/__control/rec/…`, `/__control/cobr/…`); null when the path is not one of them. */
export function controlPixAutomatico(state: SimulatorState, method: string, path: string, input: Record<string, unknown>): unknown {
  let match: RegExpExecArray | null
  if ((match = /^\/__control\/rec\/([^/]+)\/(approve|reject)$/.exec(path)) && method === 'POST') {
    const rec = findRec(state, decodeURIComponent(match[1]!))
    if (rec.status !== 'CRIADA') throw new Problem(400, 'RecOperacaoInvalida', 'Recorrência em estado inválido', `A recorrência está ${rec.status}`)
    moveRec(state, rec, match[2] === 'approve' ? 'APROVADA' : 'REJEITADA', input.callback !== false)
    return recView(rec)
  }
  if ((match = /^\/__control\/cobr\/([^/]+)\/(pay|reject)$/.exec(path)) && method === 'POST') {
    const cobr = findCobr(state, decodeURIComponent(match[1]!))
    const attempt = cobr.tentativas.find((candidate) => candidate.status === 'AGENDADA' || candidate.status === 'SOLICITADA')
    if (cobr.status !== 'ATIVA' || !attempt) throw new Problem(400, 'CobROperacaoInvalida', 'Nenhuma tentativa agendada', `A cobrança está ${cobr.status} sem tentativa agendada`)
    if (match[2] === 'pay') {
      attempt.status = 'PAGA'
      state.pix.push({ endToEndId: attempt.endToEndId, txid: cobr.txid, valor: cobr.valor, chave: 'pix-automatico', horario: new Date(), devolucoes: [] })
      moveCobr(cobr, 'CONCLUIDA')
    } else {
      attempt.status = 'REJEITADA'
      attempt.rejeicao = { codigo: 'AM04', descricao: 'Saldo insuficiente (simulado)' }
      const rec = findRec(state, cobr.idRec)
      const retriesLeft = rec.politicaRetentativa === 'PERMITE_3R_7D' && cobr.tentativas.length <= maxRetries
      // Without retries left (or told so), the rejection is final.
      if (input.final === true || !retriesLeft) moveCobr(cobr, 'REJEITADA')
    }
    if (input.callback !== false) void deliverSimulatorCallback(state, state.webhookCobr ?? undefined, 'cobr', { cobsr: [cobrView(state, cobr)] })
    return cobrView(state, cobr)
  }
  if ((match = /^\/__control\/cobr\/([^/]+)\/callback$/.exec(path)) && method === 'POST') {
    const cobr = findCobr(state, decodeURIComponent(match[1]!))
    void deliverSimulatorCallback(state, state.webhookCobr ?? undefined, 'cobr', { cobsr: [cobrView(state, cobr)] })
    return { ok: true }
  }
  return null
}

/** Journey 3: paying the composite QR's cob also authorizes the recurrence that names it. */
export function approveRecsPaidBy(state: SimulatorState, txid: string, callback: boolean): void {
  for (const rec of state.recs.values()) if (rec.txid === txid && rec.status === 'CRIADA') moveRec(state, rec, 'APROVADA', callback)
}

export function pixAutomaticoState(state: SimulatorState): unknown {
  return {
    recs: [...state.recs.values()].map((rec) => recView(rec)),
    cobrs: [...state.cobrs.values()].map((cobr) => cobrView(state, cobr)),
    webhookRec: state.webhookRec,
    webhookCobr: state.webhookCobr,
  }
}

function saoPauloToday(): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date())
}

function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}

function validDate(value: unknown): value is string {
  return typeof value === 'string' && datePattern.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
}

function object(value: unknown): Record<string, unknown> | null {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null
}

function createRec(state: SimulatorState, body: unknown, request: IncomingMessage): SimulatedRec {
  const input = object(body)
  if (!input) throw invalid('RecOperacaoInvalida', 'body must be a JSON object', '', 'corpo inválido')
  const vinculo = object(input.vinculo)
  const devedor = object(vinculo?.devedor)
  const hasDocument = (typeof devedor?.cpf === 'string' && /^\d{11}$/.test(devedor.cpf)) !== (typeof devedor?.cnpj === 'string' && /^[0-9A-Z]{12}\d{2}$/.test(devedor.cnpj))
  if (!vinculo || typeof vinculo.contrato !== 'string' || vinculo.contrato.length < 1 || vinculo.contrato.length > 35) {
    throw invalid('RecOperacaoInvalida', 'vinculo.contrato is 1 to 35 characters', 'rec.vinculo.contrato', 'obrigatório')
  }
  if (vinculo.objeto !== undefined && (typeof vinculo.objeto !== 'string' || vinculo.objeto.length > 35)) throw invalid('RecOperacaoInvalida', 'vinculo.objeto is at most 35 characters', 'rec.vinculo.objeto', 'tamanho inválido')
  if (!devedor || !hasDocument || typeof devedor.nome !== 'string' || devedor.nome.length < 1 || devedor.nome.length > 140) {
    throw invalid('RecOperacaoInvalida', 'vinculo.devedor needs cpf or cnpj (one of them) and nome', 'rec.vinculo.devedor', 'inválido')
  }
  const calendario = object(input.calendario)
  if (!calendario || !validDate(calendario.dataInicial)) throw invalid('RecOperacaoInvalida', 'calendario.dataInicial must be a date (YYYY-MM-DD)', 'rec.calendario.dataInicial', 'formato inválido')
  if (calendario.dataInicial < saoPauloToday()) throw invalid('RecOperacaoInvalida', 'dataInicial is before the day the recurrence is created', 'rec.calendario.dataInicial', 'anterior à criação')
  if (calendario.dataFinal !== undefined && (!validDate(calendario.dataFinal) || calendario.dataFinal < calendario.dataInicial)) {
    throw invalid('RecOperacaoInvalida', 'dataFinal must be a date not before dataInicial', 'rec.calendario.dataFinal', 'inválido')
  }
  if (typeof calendario.periodicidade !== 'string' || !periodicities.includes(calendario.periodicidade)) {
    throw invalid('RecOperacaoInvalida', `periodicidade must be one of ${periodicities.join(', ')}`, 'rec.calendario.periodicidade', 'valor inválido')
  }
  const valor = input.valor === undefined ? undefined : object(input.valor)
  if (input.valor !== undefined) {
    const fixed = valor?.valorRec
    const minimum = valor?.valorMinimoRecebedor
    const fits = (amount: unknown) => amount === undefined || (typeof amount === 'string' && amountPattern.test(amount) && Number(amount) > 0)
    if (!valor || (fixed !== undefined && minimum !== undefined) || !fits(fixed) || !fits(minimum)) {
      throw invalid('RecOperacaoInvalida', 'valor has valorRec or valorMinimoRecebedor (not both), each \\d{1,10}\\.\\d{2} above 0.00', 'rec.valor', 'inválido')
    }
  }
  const policy = input.politicaRetentativa
  if (typeof policy !== 'string' || !(retryPolicies as readonly string[]).includes(policy)) {
    throw invalid('RecOperacaoInvalida', `politicaRetentativa must be one of ${retryPolicies.join(', ')}`, 'rec.politicaRetentativa', 'valor inválido')
  }
  const ativacao = input.ativacao === undefined ? undefined : object(input.ativacao)
  const txid = object(ativacao?.dadosJornada)?.txid
  if (input.ativacao !== undefined && (typeof txid !== 'string' || !txidPattern.test(txid))) {
    throw invalid('RecOperacaoInvalida', 'ativacao.dadosJornada.txid must name an immediate charge', 'rec.ativacao.dadosJornada.txid', 'formato inválido')
  }
  if (typeof txid === 'string') {
    const cob = state.cobs.get(txid)
    if (!cob || cob.status !== 'ATIVA') throw invalid('RecOperacaoInvalida', 'ativacao.dadosJornada.txid must name an ATIVA cob', 'rec.ativacao.dadosJornada.txid', 'cobrança inexistente ou não ativa')
    if ([...state.recs.values()].some((other) => other.txid === txid && other.status !== 'CANCELADA' && other.status !== 'REJEITADA')) {
      throw invalid('RecOperacaoInvalida', 'the cob already activates another recurrence', 'rec.ativacao.dadosJornada.txid', 'em uso')
    }
  }
  const stamp = saoPauloToday().replace(/-/g, '')
  const host = request.headers.host ?? '127.0.0.1'
  const rec: SimulatedRec = {
    idRec: `RR99999999${stamp}${randomAlphanumeric(11)}`,
    status: 'CRIADA',
    vinculo: {
      ...(typeof vinculo.objeto === 'string' ? { objeto: vinculo.objeto } : {}),
      contrato: vinculo.contrato,
      devedor: { ...(typeof devedor.cpf === 'string' ? { cpf: devedor.cpf } : { cnpj: devedor.cnpj as string }), nome: devedor.nome },
    },
    calendario: { dataInicial: calendario.dataInicial, ...(typeof calendario.dataFinal === 'string' ? { dataFinal: calendario.dataFinal } : {}), periodicidade: calendario.periodicidade },
    ...(valor ? { valor: valor as SimulatedRec['valor'] & object } : {}),
    politicaRetentativa: policy as SimulatedRec['politicaRetentativa'],
    ...(typeof txid === 'string' ? { txid } : {}),
    location: `${host}/rec/v2/${randomAlphanumeric(32)}`,
    atualizacao: [{ status: 'CRIADA', data: new Date() }],
  }
  state.recs.set(rec.idRec, rec)
  return rec
}

function findRec(state: SimulatorState, idRec: string): SimulatedRec {
  const rec = state.recs.get(idRec)
  if (!rec) throw new Problem(404, 'RecNaoEncontrada', 'Recorrência não encontrada', 'Recorrência não encontrada para o idRec informado')
  return rec
}

function patchRec(state: SimulatorState, rec: SimulatedRec, body: unknown): SimulatedRec {
  const status = object(body)?.status
  if (status !== 'CANCELADA') throw invalid('RecOperacaoInvalida', 'status may only become CANCELADA', 'rec.status', 'valor inválido')
  if (rec.status !== 'CRIADA' && rec.status !== 'APROVADA') throw new Problem(400, 'RecOperacaoInvalida', 'Recorrência encerrada', `A recorrência está ${rec.status}`)
  moveRec(state, rec, 'CANCELADA', true)
  // A canceled recurrence charges nothing more: its live charges end with it.
  for (const cobr of state.cobrs.values()) {
    if (cobr.idRec !== rec.idRec || (cobr.status !== 'ATIVA' && cobr.status !== 'CRIADA')) continue
    for (const attempt of cobr.tentativas) if (attempt.status === 'AGENDADA' || attempt.status === 'SOLICITADA') attempt.status = 'CANCELADA'
    moveCobr(cobr, 'CANCELADA')
  }
  return rec
}

function moveRec(state: SimulatorState, rec: SimulatedRec, status: RecStatus, callback: boolean): void {
  rec.status = status
  rec.atualizacao.push({ status, data: new Date() })
  if (callback) void deliverSimulatorCallback(state, state.webhookRec ?? undefined, 'rec', { recs: [recView(rec)] })
}

function moveCobr(cobr: SimulatedCobr, status: CobrStatus): void {
  cobr.status = status
  cobr.atualizacao.push({ status, data: new Date() })
}

function recView(rec: SimulatedRec, txid?: string | null, state?: SimulatorState): unknown {
  let dadosQR: unknown
  if (txid !== undefined && txid !== null) {
    if (txid !== rec.txid) throw invalid('RecConsultaInvalida', 'txid is not the immediate charge of this recurrence\'s journey', 'txid', 'incompatível')
    const cob = state?.cobs.get(txid)
    if (!cob) throw new Problem(404, 'NaoEncontrado', 'Não encontrado', 'Cobrança não encontrada')
    dadosQR = { jornada: 'JORNADA_3', pixCopiaECola: buildDynamicBrCode(cob.location, cob.valor, 'PSP SIMULADO', 'SAO PAULO', rec.location) }
  }
  return {
    idRec: rec.idRec,
    vinculo: rec.vinculo,
    calendario: rec.calendario,
    ...(rec.valor ? { valor: rec.valor } : {}),
    recebedor: { cnpj: '99999999000191', nome: 'RECEBEDOR SIMULADO', ispbParticipante: '99999999' },
    politicaRetentativa: rec.politicaRetentativa,
    loc: { location: rec.location },
    ...(rec.txid ? { ativacao: { tipoJornada: 'JORNADA_3', dadosJornada: { txid: rec.txid } } } : {}),
    status: rec.status,
    atualizacao: rec.atualizacao.map((entry) => ({ status: entry.status, data: entry.data.toISOString() })),
    ...(dadosQR ? { dadosQR } : {}),
  }
}

function putCobr(state: SimulatorState, txid: string, body: unknown): SimulatedCobr {
  const existing = state.cobrs.get(txid)
  if (existing && existing.status !== 'ATIVA' && existing.status !== 'CRIADA') throw new Problem(400, 'CobROperacaoInvalida', 'Cobrança encerrada', `A cobrança ${txid} está ${existing.status}`)
  const input = object(body)
  if (!input) throw invalid('CobROperacaoInvalida', 'body must be a JSON object', '', 'corpo inválido')
  if (typeof input.idRec !== 'string') throw invalid('CobROperacaoInvalida', 'idRec is required', 'cobr.idRec', 'obrigatório')
  const rec = state.recs.get(input.idRec)
  if (!rec) throw new Problem(404, 'RecNaoEncontrada', 'Recorrência não encontrada', 'Recorrência não encontrada para o idRec informado')
  if (rec.status !== 'APROVADA') throw new Problem(400, 'CobROperacaoInvalida', 'Recorrência não aprovada', `A recorrência está ${rec.status}`)
  const calendario = object(input.calendario)
  const due = calendario?.dataDeVencimento
  if (!validDate(due)) throw invalid('CobROperacaoInvalida', 'calendario.dataDeVencimento must be a date (YYYY-MM-DD)', 'cobr.calendario.dataDeVencimento', 'formato inválido')
  // The payer's bank must have it at least 2 days before it is due.
  if (due < addDays(saoPauloToday(), 2)) throw invalid('CobROperacaoInvalida', 'dataDeVencimento must be at least 2 days after today', 'cobr.calendario.dataDeVencimento', 'antecedência insuficiente')
  const original = object(input.valor)?.original
  if (typeof original !== 'string' || !amountPattern.test(original) || Number(original) === 0) {
    throw invalid('CobROperacaoInvalida', 'valor.original must match \\d{1,10}\\.\\d{2} and not be 0.00', 'cobr.valor.original', 'formato inválido')
  }
  if (typeof input.ajusteDiaUtil !== 'boolean') throw invalid('CobROperacaoInvalida', 'ajusteDiaUtil is required (boolean)', 'cobr.ajusteDiaUtil', 'obrigatório')
  if (input.infoAdicional !== undefined && (typeof input.infoAdicional !== 'string' || input.infoAdicional.length > 140)) {
    throw invalid('CobROperacaoInvalida', 'infoAdicional is at most 140 characters', 'cobr.infoAdicional', 'tamanho inválido')
  }
  if (input.recebedor !== undefined) {
    const recebedor = object(input.recebedor)
    if (!recebedor || typeof recebedor.agencia !== 'string' || typeof recebedor.conta !== 'string' || !['CORRENTE', 'POUPANCA', 'PAGAMENTO'].includes(recebedor.tipoConta as string)) {
      throw invalid('CobROperacaoInvalida', 'recebedor needs agencia, conta and tipoConta', 'cobr.recebedor', 'inválido')
    }
  }
  if (existing) return existing
  const cycle = due.slice(0, 7)
  const sameCycle = [...state.cobrs.values()].some((other) => other.idRec === rec.idRec && (other.status === 'ATIVA' || other.status === 'CRIADA' || other.status === 'CONCLUIDA') && other.dataDeVencimento.slice(0, 7) === cycle)
  if (sameCycle) throw new Problem(400, 'CobROperacaoInvalida', 'Cobrança já existente no ciclo', 'Existe uma cobrança desta recorrência no mesmo ciclo')
  const cobr: SimulatedCobr = {
    txid,
    idRec: rec.idRec,
    status: 'ATIVA',
    criacao: new Date(),
    dataDeVencimento: due,
    valor: original,
    ajusteDiaUtil: input.ajusteDiaUtil,
    ...(typeof input.infoAdicional === 'string' ? { infoAdicional: input.infoAdicional } : {}),
    ...(input.recebedor !== undefined ? { recebedor: input.recebedor } : {}),
    tentativas: [{ dataLiquidacao: due, tipo: 'AGND', status: 'AGENDADA', endToEndId: createEndToEndId(new Date()) }],
    atualizacao: [
      { status: 'CRIADA', data: new Date() },
      { status: 'ATIVA', data: new Date() },
    ],
  }
  state.cobrs.set(txid, cobr)
  return cobr
}

function findCobr(state: SimulatorState, txid: string): SimulatedCobr {
  const cobr = state.cobrs.get(txid)
  if (!cobr) throw new Problem(404, 'CobRNaoEncontrado', 'Cobrança não encontrada', 'Cobrança não encontrada para o txid informado')
  return cobr
}

function patchCobr(cobr: SimulatedCobr, body: unknown): SimulatedCobr {
  if (object(body)?.status !== 'CANCELADA') throw invalid('CobROperacaoInvalida', 'status may only become CANCELADA', 'cobr.status', 'valor inválido')
  if (cobr.status !== 'ATIVA' && cobr.status !== 'CRIADA') throw new Problem(400, 'CobROperacaoInvalida', 'Cobrança encerrada', `A cobrança está ${cobr.status}`)
  for (const attempt of cobr.tentativas) if (attempt.status === 'AGENDADA' || attempt.status === 'SOLICITADA') attempt.status = 'CANCELADA'
  moveCobr(cobr, 'CANCELADA')
  return cobr
}

function requestRetry(state: SimulatorState, cobr: SimulatedCobr, date: string): SimulatedCobr {
  const rec = findRec(state, cobr.idRec)
  if (!validDate(date)) throw invalid('CobROperacaoInvalida', 'data must be a date (YYYY-MM-DD)', 'data', 'formato inválido')
  if (rec.politicaRetentativa !== 'PERMITE_3R_7D') throw new Problem(400, 'CobROperacaoInvalida', 'Retentativa não permitida', 'A política da recorrência não permite retentativas')
  if (cobr.status !== 'ATIVA') throw new Problem(400, 'CobROperacaoInvalida', 'Cobrança encerrada', `A cobrança está ${cobr.status}`)
  if (cobr.tentativas.some((attempt: SimulatedAttempt) => attempt.status === 'AGENDADA' || attempt.status === 'SOLICITADA')) {
    throw new Problem(400, 'CobROperacaoInvalida', 'Tentativa em andamento', 'Existe uma tentativa com status SOLICITADA ou AGENDADA')
  }
  if (date <= saoPauloToday()) throw invalid('CobROperacaoInvalida', 'data must be a future date', 'data', 'não é futura')
  if (date > addDays(cobr.dataDeVencimento, retryWindowDays)) throw invalid('CobROperacaoInvalida', `data must be within ${retryWindowDays} days of dataDeVencimento`, 'data', 'fora da janela')
  if (cobr.tentativas.filter((attempt) => attempt.tipo === 'RIFL').length >= maxRetries) throw new Problem(400, 'CobROperacaoInvalida', 'Retentativas esgotadas', `No máximo ${maxRetries} retentativas`)
  cobr.tentativas.push({ dataLiquidacao: date, tipo: 'RIFL', status: 'AGENDADA', endToEndId: createEndToEndId(new Date()) })
  return cobr
}

function cobrView(state: SimulatorState, cobr: SimulatedCobr): unknown {
  const rec = state.recs.get(cobr.idRec)
  const pix = state.pix.filter((candidate) => candidate.txid === cobr.txid).map(pixView)
  return {
    idRec: cobr.idRec,
    txid: cobr.txid,
    ...(cobr.infoAdicional ? { infoAdicional: cobr.infoAdicional } : {}),
    calendario: { criacao: cobr.criacao.toISOString(), dataDeVencimento: cobr.dataDeVencimento },
    valor: { original: cobr.valor },
    status: cobr.status,
    politicaRetentativa: rec?.politicaRetentativa ?? 'NAO_PERMITE',
    ajusteDiaUtil: cobr.ajusteDiaUtil,
    ...(cobr.recebedor ? { recebedor: cobr.recebedor } : {}),
    atualizacao: cobr.atualizacao.map((entry) => ({ status: entry.status, data: entry.data.toISOString() })),
    tentativas: cobr.tentativas.map((attempt) => ({ ...attempt })),
    ...(pix.length > 0 ? { pix } : {}),
  }
}

function listPage<T>(url: URL, key: string, items: T[], when: (item: T) => Date, view: (item: T) => unknown): unknown {
  const inicio = instant(url.searchParams.get('inicio'), 'inicio')
  const fim = instant(url.searchParams.get('fim'), 'fim')
  if (fim < inicio) throw invalid('RecConsultaInvalida', 'fim is before inicio', 'fim', 'anterior ao início')
  const page = whole(url.searchParams.get('paginacao.paginaAtual') ?? '0', 'paginacao.paginaAtual', 0, 1_000_000)
  const perPage = whole(url.searchParams.get('paginacao.itensPorPagina') ?? '100', 'paginacao.itensPorPagina', 1, 1000)
  const matching = items.filter((item) => when(item) >= inicio && when(item) <= fim)
  return {
    parametros: { inicio: inicio.toISOString(), fim: fim.toISOString(), paginacao: { paginaAtual: page, itensPorPagina: perPage, quantidadeDePaginas: Math.max(1, Math.ceil(matching.length / perPage)), quantidadeTotalDeItens: matching.length } },
    [key]: matching.slice(page * perPage, (page + 1) * perPage).map(view),
  }
}

function instant(text: string | null, name: string): Date {
  const value = text !== null && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(text) ? new Date(text) : new Date(Number.NaN)
  if (Number.isNaN(value.getTime())) throw invalid('RecConsultaInvalida', `${name} is required, RFC 3339`, name, 'formato inválido')
  return value
}

function whole(text: string, name: string, min: number, max: number): number {
  const value = Number(text)
  if (!/^\d+$/.test(text) || value < min || value > max) throw invalid('RecConsultaInvalida', `${name} must be an integer from ${min} to ${max}`, name, 'valor inválido')
  return value
}
