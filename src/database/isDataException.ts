// Whether PostgreSQL refused a value itself (SQLSTATE class 22, data exception: a numeric overflow, text
// it cannot encode, an invalid escape in jsonb…). The input check at the door should make these
// impossible; when one still happens, it is the offending input's fault, not the service's.

export function isDataException(error: unknown): boolean {
  return /"(?:code|originalCode)":"22[0-9A-Z]{3}"/.test(JSON.stringify(error, replacer(error)))
}

/** Serialises an error with its own (non-enumerable) properties, all the way down its causes. */
function replacer(root: unknown): (this: unknown, key: string, value: unknown) => unknown {
  const seen = new Set<unknown>()
  return function (_key, value) {
    if (typeof value !== 'object' || value === null) return value
    if (seen.has(value)) return undefined
    seen.add(value)
    if (value instanceof Error || value === root) {
      return Object.fromEntries(Object.getOwnPropertyNames(value).map((name) => [name, (value as unknown as Record<string, unknown>)[name]]))
    }
    return value
  }
}
