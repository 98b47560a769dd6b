// Pix Automático's dates (`dataInicial`, `dataDeVencimento`, retry dates) are calendar days in
// America/Sao_Paulo (CONTRACT §9.1), taken from whichever clock the caller passes.

const saoPaulo = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo', year: 'numeric', month: '2-digit', day: '2-digit' })

/** The day (YYYY-MM-DD) it is in São Paulo at `instant`. */
export function saoPauloDate(instant: Date): string {
  return saoPaulo.format(instant)
}

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10)
}
