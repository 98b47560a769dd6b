import type { Currency } from '../domain/money'
import type { PageLanguage } from './choosePageLanguage'

// Everything the payer's pages say, in each language they speak. Amounts arrive already formatted
// with the currency's decimals ("49.90"): they are regrouped as text, never through a float.

export type PayableState = 'open' | 'paid' | 'expired' | 'canceled' | 'void' | 'uncollectible' | 'draft'

export interface PaymentPageTexts {
  pageTitle: (title: string) => string
  testMode: string
  states: Record<PayableState, string>
  creditsTitle: (amount: string) => string
  purchase: string
  invoiceTitle: (id: string) => string
  payWithPix: string
  pixCode: string
  pixQr: string
  copy: string
  copied: string
  copyFailed: string
  expiresAt: (when: string) => string
  preparing: string
  tooLargeForPix: string
  received: (amount: string) => string
  watching: string
  stoppedWatching: string
  sandboxPay: string
  sandboxNote: string
  backToStore: string
  continueToStore: string
  notFound: string
  linkExpired: string
}

const english: PaymentPageTexts = {
  pageTitle: (title) => `Pay — ${title}`,
  testMode: 'TEST MODE — no real money moves',
  states: {
    open: 'Waiting for payment',
    paid: 'Paid — thank you',
    expired: 'This checkout has expired',
    canceled: 'This checkout was canceled',
    void: 'This invoice was voided',
    uncollectible: 'This invoice is uncollectible',
    draft: 'This invoice is not final yet',
  },
  creditsTitle: (amount) => `${amount} of credits`,
  purchase: 'Purchase',
  invoiceTitle: (id) => `Invoice ${id}`,
  payWithPix: 'Pay with PIX',
  pixCode: 'PIX copia e cola',
  pixQr: 'PIX QR code',
  copy: 'Copy code',
  copied: 'Copied',
  copyFailed: 'Select the code and copy it',
  expiresAt: (when) => `Pay by ${when} UTC.`,
  preparing: 'Your PIX code is being prepared; this page refreshes by itself.',
  tooLargeForPix: 'This amount is larger than one PIX payment can carry (R$ 9,999,999,999.99): contact the seller to pay it.',
  received: (amount) => `Received so far: ${amount}, less than the amount due; contact the seller about the rest.`,
  watching: 'This page updates by itself once your bank confirms the payment.',
  stoppedWatching: 'Reload this page to see whether the payment arrived.',
  sandboxPay: 'Pay (sandbox)',
  sandboxNote: 'Test account: this settles the payment as the payment rail would.',
  backToStore: 'Cancel and go back',
  continueToStore: 'Continue',
  notFound: 'There is nothing to pay here.',
  linkExpired: 'This payment link has expired.',
}

const portuguese: PaymentPageTexts = {
  pageTitle: (title) => `Pagar — ${title}`,
  testMode: 'MODO DE TESTE — nenhum dinheiro de verdade é movimentado',
  states: {
    open: 'Aguardando pagamento',
    paid: 'Pago — obrigado',
    expired: 'Este pagamento expirou',
    canceled: 'Este pagamento foi cancelado',
    void: 'Esta fatura foi anulada',
    uncollectible: 'Esta fatura é incobrável',
    draft: 'Esta fatura ainda não foi emitida',
  },
  creditsTitle: (amount) => `${amount} em créditos`,
  purchase: 'Compra',
  invoiceTitle: (id) => `Fatura ${id}`,
  payWithPix: 'Pague com PIX',
  pixCode: 'PIX copia e cola',
  pixQr: 'QR code PIX',
  copy: 'Copiar código',
  copied: 'Copiado',
  copyFailed: 'Selecione o código e copie',
  expiresAt: (when) => `Pague até ${when} (horário de Brasília).`,
  preparing: 'Seu código PIX está sendo gerado; esta página se atualiza sozinha.',
  tooLargeForPix: 'Este valor é maior do que um PIX pode levar (R$ 9.999.999.999,99): fale com o vendedor para pagá-lo.',
  received: (amount) => `Recebido até agora: ${amount}, menos do que o valor devido; fale com o vendedor sobre o restante.`,
  watching: 'Esta página se atualiza sozinha assim que o seu banco confirmar o pagamento.',
  stoppedWatching: 'Recarregue esta página para ver se o pagamento chegou.',
  sandboxPay: 'Pagar (sandbox)',
  sandboxNote: 'Conta de teste: isto liquida o pagamento como o meio de pagamento faria.',
  backToStore: 'Cancelar e voltar',
  continueToStore: 'Continuar',
  notFound: 'Não há nada a pagar aqui.',
  linkExpired: 'Este link de pagamento expirou.',
}

export function paymentPageTexts(language: PageLanguage): PaymentPageTexts {
  return language === 'pt-BR' ? portuguese : english
}

/**
 * An amount as the payer reads it: `R$ 1.234,56` (a no-break space after `R$`) and `1,500000 USDC` in
 * Portuguese; in English as the API writes it, `1234.56 BRL` and `1.500000 USDC`.
 */
export function formatPageAmount(amount: string, currency: Currency, language: PageLanguage): string {
  if (language === 'en') return `${amount} ${currency}`
  const [whole = '0', fraction] = amount.split('.')
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  const number = fraction === undefined ? grouped : `${grouped},${fraction}`
  return currency === 'BRL' ? `R$\u00a0${number}` : `${number} ${currency}`
}

/** When a charge stops being payable: Brasília time in Portuguese, UTC in English. */
export function formatPageTime(instant: Date, language: PageLanguage): string {
  return language === 'pt-BR'
    ? new Intl.DateTimeFormat('pt-BR', { dateStyle: 'short', timeStyle: 'short', timeZone: 'America/Sao_Paulo' }).format(instant)
    : new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(instant)
}
