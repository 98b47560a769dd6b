// Money and quantities arrive as exact decimal strings; sums shown on the page are computed exactly
// (scaled BigInts), never through floating point. Floats are used only for the geometry of charts.

function parts(value: string): { digits: bigint; scale: number } {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim())
  if (!match) throw new Error(`not a decimal: ${value}`)
  const fraction = match[3] ?? ''
  const digits = BigInt(`${match[2]}${fraction}`)
  return { digits: match[1] === '-' ? -digits : digits, scale: fraction.length }
}

/** The exact sum, with as many decimals as the most precise term (so "1.50" + "2.25" is "3.75"). */
export function sumDecimals(values: string[], minimumScale = 0): string {
  const parsed = values.map(parts)
  const scale = Math.max(minimumScale, ...parsed.map((part) => part.scale))
  const total = parsed.reduce((sum, part) => sum + part.digits * 10n ** BigInt(scale - part.scale), 0n)
  const negative = total < 0n
  const text = (negative ? -total : total).toString().padStart(scale + 1, '0')
  const whole = text.slice(0, text.length - scale)
  const fraction = text.slice(text.length - scale)
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`
}

export function decimalScale(value: string): number {
  return parts(value).scale
}
