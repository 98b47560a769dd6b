import type { DomainError } from '../src/domain/DomainError'

// SPEC.md's envelope: `data`, `error`, `success`, always all three.

export function successEnvelope(data: unknown): { data: unknown; error: null; success: true } {
  return { data, error: null, success: true }
}

export function errorEnvelope(error: DomainError) {
  return {
    data: null,
    error: {
      code: error.code,
      message: error.message,
      ...(error.param === undefined ? {} : { param: error.param }),
      ...(error.details === undefined ? {} : { details: error.details }),
    },
    success: false as const,
  }
}
