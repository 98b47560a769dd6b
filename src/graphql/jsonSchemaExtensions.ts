import { amountPattern, currencyDecimals, maxAmountLength, maxQuantity } from '../domain/money'
import { metadataLimits } from '../domain/validateMetadata'
import type { PageSizeLimits } from './connections'

// What GraphQL's types cannot say about a value (ranges, patterns, sizes, a page size's default) rides in
// the `extensions.jsonSchema` of the field, argument or input field, as JSON Schema keywords that narrow
// its type. rest/graphqlJsonSchema.ts adds them to the OpenAPI document, so that generated clients know
// the rules. Each value is read from the rule that enforces it.

// A type, not an interface: GraphQL's extensions are an index signature, which interfaces do not satisfy.
export type JsonSchemaExtensions = { jsonSchema: Record<string, unknown> }

/** An amount in a request (CONTRACT §5): a non-negative decimal string; its currency bounds the decimals. */
export const amountInput: JsonSchemaExtensions = {
  jsonSchema: { pattern: amountPattern.source, maxLength: maxAmountLength, examples: ['29.90'] },
}

const outputDecimals = [...new Set(Object.values(currencyDecimals))].map((decimals) => `\\d{${decimals}}`).join('|')

/** An amount in a response: always exactly its currency's decimals ("29.90", "10.000000"). */
export const amountOutput: JsonSchemaExtensions = { jsonSchema: { pattern: `^\\d+\\.(${outputDecimals})$` } }

/** A balance or ledger amount, which may be negative (usage already consumed is never refused). */
export const signedAmountOutput: JsonSchemaExtensions = { jsonSchema: { pattern: `^-?\\d+\\.(${outputDecimals})$` } }

/** A usage quantity: above zero, at most 10^12. */
export const positiveQuantity: JsonSchemaExtensions = { jsonSchema: { exclusiveMinimum: 0, maximum: maxQuantity.toNumber() } }

/** Metadata in a request (CONTRACT §5); each value's JSON is also bounded, which JSON Schema cannot say. */
export const metadataInput: JsonSchemaExtensions = {
  jsonSchema: {
    maxProperties: metadataLimits.maxKeys,
    propertyNames: { minLength: 1, maxLength: metadataLimits.maxKeyLength },
    description: `At most ${metadataLimits.maxKeys} keys of at most ${metadataLimits.maxKeyLength} characters; each value's JSON at most ${metadataLimits.maxValueJsonLength} characters.`,
  },
}

/** A list's `first` (REST `limit`): its range, and the size used when it is left out. */
export function pageSize(limits: PageSizeLimits): JsonSchemaExtensions {
  return { jsonSchema: { minimum: limits.minSize ?? 1, maximum: limits.maxSize, default: limits.defaultSize } }
}
