// PIX "copia e cola": the BR Code (EMV® QRCPS merchant-presented mode) of Banco Central do Brasil's
// PIX arrangement. Each field is ID (2 digits) + length (2 digits) + value; the payload ends with
// field 63, a CRC16-CCITT (polynomial 0x1021, initial 0xFFFF) over everything before its value,
// written as 4 upper-case hex digits.

export interface PixCharge {
  key: string
  merchantName: string
  merchantCity: string
  /** BRL, already at 2 decimals ("29.90"). */
  amount: string
  /** Reference the payer's bank sends back: up to 25 letters and digits. */
  transactionId: string
}

function field(id: string, value: string): string {
  if (value.length > 99) throw new Error(`BR Code field ${id} is longer than 99 characters`)
  return `${id}${String(value.length).padStart(2, '0')}${value}`
}

/** Plain ASCII, as the BR Code's name and city fields require. */
function ascii(text: string, maxLength: number): string {
  return text
    .normalize('NFKD')
    .replace(/[^\x20-\x7E]/g, '')
    .trim()
    .slice(0, maxLength)
}

export function crc16Ccitt(text: string): string {
  let crc = 0xffff
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8
    for (let bit = 0; bit < 8; bit += 1) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

export function buildPixPayload(charge: PixCharge): string {
  const transactionId = charge.transactionId.replace(/[^A-Za-z0-9]/g, '').slice(0, 25) || '***'
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', 'br.gov.bcb.pix') + field('01', charge.key)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', charge.amount) +
    field('58', 'BR') +
    field('59', ascii(charge.merchantName, 25)) +
    field('60', ascii(charge.merchantCity, 15)) +
    field('62', field('05', transactionId)) +
    '6304'
  return body + crc16Ccitt(body)
}
