import { randomBytes } from 'node:crypto'

// What the simulated PSP remembers: clients, tokens, charges (cob), received Pix, refunds and where
// to call back. In memory only: a developer's tool and the tests' PSP, never a store of record.

export interface SimulatedCob {
  txid: string
  revisao: number
  status: 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_USUARIO_RECEBEDOR' | 'REMOVIDA_PELO_PSP'
  criacao: Date
  expiracao: number
  valor: string
  /** `valor.modalidadeAlteracao`: 0 (the default) the payer pays exactly `valor`, 1 the payer may change it. */
  modalidadeAlteracao: 0 | 1
  chave: string
  devedor?: unknown
  solicitacaoPagador?: string
  location: string
  pixCopiaECola: string
}

export interface SimulatedRefund {
  id: string
  rtrId: string
  valor: string
  natureza: string
  descricao?: string
  solicitacao: Date
  liquidacao?: Date
  status: 'EM_PROCESSAMENTO' | 'DEVOLVIDO' | 'NAO_REALIZADO'
  motivo?: string
}

export interface SimulatedPix {
  endToEndId: string
  txid: string | null
  valor: string
  chave: string
  horario: Date
  devolucoes: SimulatedRefund[]
}

export type RecStatus = 'CRIADA' | 'APROVADA' | 'REJEITADA' | 'EXPIRADA' | 'CANCELADA'

/** A Pix Automático recurrence (`rec`); `txid` names the journey-3 cob whose QR also authorizes it. */
export interface SimulatedRec {
  idRec: string
  status: RecStatus
  vinculo: { objeto?: string; contrato: string; devedor: { cpf?: string; cnpj?: string; nome: string } }
  calendario: { dataInicial: string; dataFinal?: string; periodicidade: string }
  valor?: { valorRec?: string; valorMinimoRecebedor?: string }
  politicaRetentativa: 'NAO_PERMITE' | 'PERMITE_3R_7D'
  txid?: string
  location: string
  atualizacao: { status: RecStatus; data: Date }[]
}

export type CobrStatus = 'CRIADA' | 'ATIVA' | 'CONCLUIDA' | 'EXPIRADA' | 'REJEITADA' | 'CANCELADA'

/** One settlement attempt of a cobr: the scheduled one (AGND), then retries (RIFL) the receiver asks for. */
export interface SimulatedAttempt {
  dataLiquidacao: string
  tipo: 'AGND' | 'RIFL'
  status: 'SOLICITADA' | 'AGENDADA' | 'PAGA' | 'REJEITADA' | 'CANCELADA' | 'EXPIRADA'
  endToEndId: string
  rejeicao?: { codigo: string; descricao: string }
}

/** A recurring charge (`cobr`) of a recurrence. */
export interface SimulatedCobr {
  txid: string
  idRec: string
  status: CobrStatus
  criacao: Date
  dataDeVencimento: string
  valor: string
  ajusteDiaUtil: boolean
  infoAdicional?: string
  recebedor?: unknown
  tentativas: SimulatedAttempt[]
  atualizacao: { status: CobrStatus; data: Date }[]
}

export interface SimulatorOptions {
  clientId: string
  clientSecret: string
  /** Lifetime of an access token, in seconds. */
  tokenSeconds: number
  /** How many times a callback is retried after its first attempt. */
  callbackRetries: number
  callbackRetryMilliseconds: number
}

export interface SimulatorState {
  options: SimulatorOptions
  tokens: Map<string, { expiresAt: number; revoked: boolean }>
  tokensIssued: number
  /** Set by the control: every token issued so far is revoked once this many more API calls were authorized. */
  revokeTokensAfterCalls: number | null
  cobs: Map<string, SimulatedCob>
  pix: SimulatedPix[]
  webhooks: Map<string, string>
  recs: Map<string, SimulatedRec>
  cobrs: Map<string, SimulatedCobr>
  /** `PUT /webhookrec` and `PUT /webhookcobr`: one URL each per receiver. */
  webhookRec: string | null
  webhookCobr: string | null
  /**
   * `down`: every API call answers 503; `hang`: every API call waits forever (a timeout); `lose`: every
   * API call is carried out, then its answer is lost (a timeout after the PSP acted).
   */
  outage: 'none' | 'down' | 'hang' | 'lose'
  /** API requests held unanswered by the `hang` outage right now. */
  hangingRequests: number
  callbacks: { url: string; body: unknown; status: number | null }[]
  /** Txids whose every `/cob/{txid}` or `/cobr/{txid}` call answers 500 (set by the control): a PSP failing on one charge. */
  refusedCobs: Set<string>
}

export function createSimulatorState(options: SimulatorOptions): SimulatorState {
  return { options, tokens: new Map(), tokensIssued: 0, revokeTokensAfterCalls: null, cobs: new Map(), pix: [], webhooks: new Map(), recs: new Map(), cobrs: new Map(), webhookRec: null, webhookCobr: null, outage: 'none', hangingRequests: 0, callbacks: [], refusedCobs: new Set() }
}

const alphanumeric = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789abcdefghijklmnopqrstuvwxyz'

export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length)
  let text = ''
  for (const byte of bytes) text += alphanumeric[byte % alphanumeric.length]
  return text
}

/** `E` + the simulated PSP's ISPB + yyyyMMddHHmm + 11 alphanumerics (32 characters, as the standard has it). */
export function createEndToEndId(now: Date): string {
  const stamp = now.toISOString().replace(/\D/g, '').slice(0, 12)
  return `E99999999${stamp}${randomAlphanumeric(11)}`
}
