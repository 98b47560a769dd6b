import { DomainError } from '../../domain/DomainError'
import { resolveDestination } from '../../domain/resolveDestination'

/**
 * The PSP's base URL, as stored. A live account's must be https (the client secret and payers' data
 * go over it) and its host must resolve only to public addresses (resolveDestination: no loopback,
 * private, link-local or otherwise internal one), so that an account cannot make the service call into
 * its own network. Test accounts may use http and any address (the simulator on 127.0.0.1). An
 * operator whose PSP sandbox or egress proxy sits on an internal address sets
 * PIX_ALLOW_INTERNAL_API_URL=true, which lifts both rules for live accounts too (the tests do, to
 * run live accounts against the simulator).
 */
export async function validatePixApiUrl(text: string, mode: 'test' | 'live', environment: NodeJS.ProcessEnv = process.env): Promise<string> {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    throw invalid('apiUrl must be an absolute URL')
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || text.length > 2000 || url.username || url.password) {
    throw invalid('apiUrl must be an http(s) URL without credentials, at most 2000 characters')
  }
  if (mode === 'live' && environment.PIX_ALLOW_INTERNAL_API_URL !== 'true') {
    if (url.protocol !== 'https:') throw invalid('apiUrl must be https on a live account')
    await resolveDestination(url, 'live', 'apiUrl')
  }
  return text.replace(/\/$/, '')
}

function invalid(message: string): DomainError {
  return new DomainError('validation_error', message, { param: 'apiUrl' })
}
