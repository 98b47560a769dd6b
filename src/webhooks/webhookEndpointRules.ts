import { DomainError } from '../domain/DomainError'
import { eventTypes, isEventType } from '../events/eventTypes'

export const webhookEndpointLimits = { url: 2048, description: 500, endpointsPerAccount: 16 } as const

/**
 * The URL as it will be called: parsed and normalised by the WHATWG parser (lower-case host, default
 * port dropped, percent-encoding fixed), and every rule is checked on that normalised form, never on
 * the text sent. `https:` only on live accounts (CONTRACT §10); no credentials in it, no fragment.
 * Where its host points is checked separately (resolveDestination), since that needs DNS.
 */
export function normalizeEndpointUrl(text: string, mode: 'test' | 'live', param = 'url'): URL {
  if (text.length === 0 || text.length > webhookEndpointLimits.url) {
    throw new DomainError('validation_error', `url must be 1 to ${webhookEndpointLimits.url} characters`, { param })
  }
  // The parser would silently drop surrounding whitespace and tabs inside; a URL with them is refused instead.
  if (/\s/.test(text) || [...text].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f)) throw new DomainError('validation_error', 'url must not contain whitespace or control characters', { param })
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw new DomainError('validation_error', 'url must be an absolute http(s) URL', { param })
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new DomainError('validation_error', 'url must be an http(s) URL', { param })
  if (mode === 'live' && url.protocol !== 'https:') throw new DomainError('validation_error', 'url must be https on a live account', { param })
  if (url.username !== '' || url.password !== '') throw new DomainError('validation_error', 'url must not contain credentials', { param })
  if (url.hostname === '') throw new DomainError('validation_error', 'url must name a host', { param })
  url.hash = ''
  if (url.href.length > webhookEndpointLimits.url) throw new DomainError('validation_error', `url must be at most ${webhookEndpointLimits.url} characters`, { param })
  return url
}

/** Event types to send: `*` (every type) or known types, at least one; duplicates collapse. */
export function validateEndpointEvents(events: readonly string[], param = 'events'): string[] {
  if (events.length === 0) throw new DomainError('validation_error', 'events needs at least one event type, or "*"', { param })
  if (events.length > eventTypes.length + 1) throw new DomainError('validation_error', `events may list at most ${eventTypes.length + 1} entries`, { param })
  events.forEach((type, index) => {
    if (type !== '*' && !isEventType(type)) throw new DomainError('validation_error', `events[${index}] must be "*" or an event type (see the README)`, { param: `${param}.${index}` })
  })
  return events.includes('*') ? ['*'] : [...new Set(events)]
}
