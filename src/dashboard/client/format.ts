/** 2026-11-23 (UTC): the dashboard shows dates in UTC, as the API's buckets are. */
export function formatDate(iso: string): string {
  return iso.slice(0, 10)
}

/** 2026-11-23 14:05 UTC */
export function formatDateTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

export function formatMoney(amount: string, currency: string): string {
  return `${amount} ${currency}`
}

/** A bucket's start as a short axis label. */
export function formatBucket(iso: string, bucket: string): string {
  if (bucket === 'month') return iso.slice(0, 7)
  if (bucket === 'hour') return iso.slice(11, 16)
  return iso.slice(5, 10)
}
