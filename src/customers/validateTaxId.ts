import { DomainError } from '../domain/DomainError'

/**
 * CONTRACT §9: a customer's `taxId` is a CPF (11 digits) or a CNPJ (14 characters `[0-9A-Z]`, the
 * alphanumeric CNPJ of 2026 included), with valid check digits: Pix Automático sends it to the PSP
 * as the payer (`devedor`), which refuses a wrong one. Dots, dashes, slashes and spaces of the usual
 * written forms are dropped; the stored form is the bare characters, upper case.
 */
export function validateTaxId(value: string, param = 'taxId'): string {
  const bare = value.replace(/[.\-/\s]/g, '').toUpperCase()
  if (/^\d{11}$/.test(bare) && validCpf(bare)) return bare
  if (/^[0-9A-Z]{12}\d{2}$/.test(bare) && validCnpj(bare)) return bare
  throw new DomainError('validation_error', 'taxId must be a CPF (11 digits) or a CNPJ (14 characters) with valid check digits', { param })
}

/** What the API Pix calls the payer's document: `{cpf}` or `{cnpj}`. */
export function taxIdDocument(taxId: string): { cpf: string } | { cnpj: string } {
  return taxId.length === 11 ? { cpf: taxId } : { cnpj: taxId }
}

function validCpf(cpf: string): boolean {
  // Eleven equal digits pass the arithmetic but are not issued.
  if (/^(\d)\1{10}$/.test(cpf)) return false
  const digits = [...cpf].map(Number)
  const checkDigit = (length: number) => {
    let sum = 0
    for (let index = 0; index < length; index += 1) sum += digits[index]! * (length + 1 - index)
    const rest = (sum * 10) % 11
    return rest === 10 ? 0 : rest
  }
  return checkDigit(9) === digits[9] && checkDigit(10) === digits[10]
}

function validCnpj(cnpj: string): boolean {
  if (/^(.)\1{13}$/.test(cnpj)) return false
  // Each character counts as its code minus 48 ('0' → 0, 'A' → 17), so numeric CNPJs keep their old digits.
  const values = [...cnpj].map((character) => character.charCodeAt(0) - 48)
  const checkDigit = (length: number) => {
    let sum = 0
    for (let index = 0; index < length; index += 1) sum += values[index]! * (((length - 1 - index) % 8) + 2)
    const rest = sum % 11
    return rest < 2 ? 0 : 11 - rest
  }
  return checkDigit(12) === values[12] && checkDigit(13) === values[13]
}
