/**
 * Lists are newest first: by createdAt descending, then id descending. A position is the sort key of
 * the last item a client has seen; the next page holds what sorts after it (older items).
 */
export interface ListPosition {
  createdAt: Date
  id: string
}

export interface PageRequest {
  limit: number
  after?: ListPosition
}

export interface Page<T> {
  items: T[]
  hasMore: boolean
}

/** The Prisma filter for "sorts after `position`" under the newest-first order. */
export function afterPosition(position: ListPosition | undefined) {
  if (!position) return {}
  return {
    OR: [{ createdAt: { lt: position.createdAt } }, { createdAt: position.createdAt, id: { lt: position.id } }],
  }
}

export const newestFirst = [{ createdAt: 'desc' as const }, { id: 'desc' as const }]

/** Reads one row more than the page holds, to know whether older items exist without counting. */
export async function readPage<T>(request: PageRequest, read: (take: number) => Promise<T[]>): Promise<Page<T>> {
  const rows = await read(request.limit + 1)
  return { items: rows.slice(0, request.limit), hasMore: rows.length > request.limit }
}
