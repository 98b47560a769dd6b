import { DomainError } from './DomainError'

// CONTRACT §5: a JSON object of at most 50 keys, each key at most 40 characters, each value's JSON at
// most 500 characters. Checked where it is stored, so every entry point gets the same answer.

export const metadataLimits = { maxKeys: 50, maxKeyLength: 40, maxValueJsonLength: 500 }
const { maxKeys, maxKeyLength, maxValueJsonLength } = metadataLimits

export type Metadata = Record<string, unknown>

export function validateMetadata(metadata: unknown, param = 'metadata'): Metadata {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw new DomainError('validation_error', 'metadata must be a JSON object', { param })
  }
  const entries = Object.entries(metadata)
  if (entries.length > maxKeys) {
    throw new DomainError('validation_error', `metadata may have at most ${maxKeys} keys`, { param })
  }
  for (const [key, value] of entries) {
    if (key.length === 0 || key.length > maxKeyLength) {
      throw new DomainError('validation_error', `metadata keys must be 1 to ${maxKeyLength} characters`, { param: `${param}.${key}` })
    }
    if (JSON.stringify(value ?? null).length > maxValueJsonLength) {
      throw new DomainError('validation_error', `a metadata value may be at most ${maxValueJsonLength} characters of JSON`, {
        param: `${param}.${key}`,
      })
    }
  }
  return metadata as Metadata
}

/** A bounded, trimmed-nothing string field: empty strings are refused so that "absent" has one spelling. */
export function validateText(value: string, param: string, maxLength: number): string {
  if (value.length === 0 || value.length > maxLength) {
    throw new DomainError('validation_error', `${param} must be 1 to ${maxLength} characters`, { param })
  }
  return value
}
