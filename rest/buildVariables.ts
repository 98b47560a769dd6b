import { coerceInputValue, getNamedType, GraphQLEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql'
import { DomainError } from '../src/domain/DomainError'
import { checkInputShape } from '../src/domain/checkInputShape'
import type { CompiledRoute } from './compileRoutes'

/**
 * The operation's variables from the path, query and body, checked against the operation's own
 * variable types with GraphQL's coercion, so that the GraphQL schema is the one source of what is
 * valid. The first problem becomes a validation_error whose `param` names the REST field.
 */
export function buildVariables(
  compiled: CompiledRoute,
  pathValues: readonly string[],
  query: URLSearchParams,
  body: Record<string, unknown> | undefined,
): Record<string, unknown> {
  const raw: Record<string, unknown> = {}
  compiled.pathParameters.forEach((name, index) => {
    raw[name] = decodePathSegment(pathValues[index] ?? '', name)
    checkInputShape(raw[name], name)
  })
  for (const [name, value] of query) checkInputShape(value, name)
  if (body !== undefined) checkInputShape(body, '')

  const givenBy = new Map<string, string>()
  for (const name of new Set(query.keys())) {
    const variable = compiled.queryParameters.get(name)
    if (variable === undefined) throw new DomainError('validation_error', `Unknown query parameter "${name}"`, { param: name })
    const values = query.getAll(name)
    if (values.length > 1) throw new DomainError('validation_error', `Query parameter "${name}" was given more than once`, { param: name })
    const earlier = givenBy.get(variable)
    if (earlier !== undefined && raw[variable] !== values[0]) {
      throw new DomainError('validation_error', `"${name}" and "${earlier}" are the same parameter; give one`, { param: name })
    }
    givenBy.set(variable, name)
    raw[variable] = fromQueryText(values[0] ?? '', compiled.variableTypes.get(variable) as GraphQLInputType, name)
  }

  if (compiled.route.body !== undefined) {
    raw[compiled.route.body] = body ?? {}
  } else if (body !== undefined) {
    const field = Object.keys(body)[0]
    if (field !== undefined) throw new DomainError('validation_error', `Unknown field "${field}": this endpoint takes no body fields`, { param: field })
  }

  const variables: Record<string, unknown> = {}
  for (const [name, type] of compiled.variableTypes) {
    const parameter = name === compiled.route.body ? '' : (givenBy.get(name) ?? name)
    if (raw[name] === undefined && !isNonNullType(type)) continue
    requireTextIds(raw[name], type, parameter, [])
    variables[name] = coerceInputValue(raw[name], type, (path, _invalid, error) => {
      throw toValidationError(parameter, path, error.message)
    })
  }
  return variables
}

/**
 * GraphQL's ID accepts a number and turns it into text; a REST body gives ids as strings (SPEC.md), so
 * `"customerId": 12` is a validation error naming the field rather than a lookup of the customer "12".
 */
function requireTextIds(value: unknown, type: GraphQLInputType, parameter: string, path: (string | number)[]): void {
  const inner = isNonNullType(type) ? type.ofType : type
  if (isListType(inner)) {
    if (Array.isArray(value)) value.forEach((item, index) => requireTextIds(item, inner.ofType, parameter, [...path, index]))
    else requireTextIds(value, inner.ofType, parameter, path)
  } else if (isInputObjectType(inner)) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return
    for (const [field, definition] of Object.entries(inner.getFields())) {
      if (field in value) requireTextIds((value as Record<string, unknown>)[field], definition.type, parameter, [...path, field])
    }
  } else if (inner.name === 'ID' && typeof value === 'number') {
    const { param } = toValidationError(parameter, path, '')
    throw new DomainError('validation_error', `${param} must be a string`, { param })
  }
}

function decodePathSegment(segment: string, name: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    throw new DomainError('validation_error', `The ${name} in the path is not valid percent-encoding`, { param: name })
  }
}

/** Query strings carry text; numbers and booleans are read strictly (no "12abc", no "1e3" for an Int). */
function fromQueryText(text: string, type: GraphQLInputType, name: string): unknown {
  const named = getNamedType(type)
  const invalid = (expected: string) => new DomainError('validation_error', `${name} must be ${expected}`, { param: name })
  switch (named.name) {
    case 'Int':
      if (!/^-?\d{1,10}$/.test(text)) throw invalid('a whole number')
      return Number(text)
    case 'Float':
      if (!/^-?\d+(\.\d+)?$/.test(text)) throw invalid('a number')
      return Number(text)
    case 'Boolean':
      if (text !== 'true' && text !== 'false') throw invalid('true or false')
      return text === 'true'
    default:
      if (named instanceof GraphQLEnumType && !named.getValue(text)) {
        throw invalid(`one of ${named.getValues().map((value) => value.name).join(', ')}`)
      }
      return text
  }
}

function toValidationError(parameter: string, path: readonly (string | number)[], message: string): DomainError {
  const segments = [parameter, ...path.map(String)].filter((segment) => segment !== '')
  // GraphQL names a missing or unknown field in the message, with the path of its parent object.
  const named = /^Field "([^"]+)" (?:of required type|is not defined)/.exec(message)
  if (named?.[1]) segments.push(named[1])
  const param = segments.join('.') || 'body'
  const readable = message
    .replace(/ by type "[^"]+"/, '')
    .replace(/of required type "([^"]+)"/, 'is required and')
  return new DomainError('validation_error', readable, { param })
}
