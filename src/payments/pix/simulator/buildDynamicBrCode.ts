import { crc16Ccitt } from '../../../checkout/buildPixPayload'

// The dynamic BR Code a PSP returns as `pixCopiaECola`: the payer's bank reads the charge (amount,
// txid) from `location`, so the code itself carries only the URL, the receiver and field 62 `***`.

function field(id: string, value: string): string {
  return `${id}${String(value.length).padStart(2, '0')}${value}`
}

/** With `recurrenceLocation`, the composite code of Pix Automático's journey 3: field 80 names the recurrence, so one scan pays the cob and authorizes it. */
export function buildDynamicBrCode(location: string, amount: string, merchantName: string, merchantCity: string, recurrenceLocation?: string): string {
  const body =
    field('00', '01') +
    field('01', '12') +
    field('26', field('00', 'br.gov.bcb.pix') + field('25', location)) +
    field('52', '0000') +
    field('53', '986') +
    field('54', amount) +
    field('58', 'BR') +
    field('59', merchantName.slice(0, 25)) +
    field('60', merchantCity.slice(0, 15)) +
    field('62', field('05', '***')) +
    (recurrenceLocation ? field('80', field('00', 'br.gov.bcb.pix') + field('25', recurrenceLocation)) : '') +
    '6304'
  return body + crc16Ccitt(body)
}
