// The dashboard's only way to the data: POST /graphql with the key the person entered, kept in
// sessionStorage (it lasts as long as the browser tab's session and is never written anywhere else).

const keyName = 'billing-dashboard-key'

export function readKey(): string | null {
  return sessionStorage.getItem(keyName)
}

export function saveKey(key: string): void {
  sessionStorage.setItem(keyName, key)
}

export function forgetKey(): void {
  sessionStorage.removeItem(keyName)
}

export class GraphQLFailure extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message)
  }
}

interface GraphQLAnswer<T> {
  data?: T | null
  errors?: { message?: string; extensions?: { code?: string } }[]
  error?: { code?: string; message?: string }
}

export async function runQuery<T>(document: string, variables: Record<string, unknown> = {}): Promise<T> {
  const key = readKey()
  if (!key) throw new GraphQLFailure('No API key entered', 'unauthorized')
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Authorization: `Bearer ${key}` },
    body: JSON.stringify({ query: document, variables }),
  })
  const answer = (await response.json().catch(() => ({}))) as GraphQLAnswer<T>
  const error = answer.errors?.[0]
  if (error) throw new GraphQLFailure(error.message ?? 'The query failed', error.extensions?.code)
  if (answer.error) throw new GraphQLFailure(answer.error.message ?? 'The query failed', answer.error.code)
  if (!response.ok || !answer.data) throw new GraphQLFailure(`The server answered ${response.status}`, undefined)
  return answer.data
}
