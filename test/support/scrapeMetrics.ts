import parsePrometheusTextFormat, { type PrometheusFamily } from 'parse-prometheus-text-format'
import { expect } from 'vitest'

/** GET /metrics with the token, parsed by a Prometheus text parser; histograms also as their _bucket/_sum/_count samples. */
export async function scrapeMetrics(baseUrl: string, token: string): Promise<{ text: string; families: PrometheusFamily[] }> {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { Authorization: `Bearer ${token}` } })
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toMatch(/^text\/plain/)
  const text = await response.text()
  const families = parsePrometheusTextFormat(text)
  expect(families.find((family) => family.name === 'http_request_duration_seconds')?.type).toBe('HISTOGRAM')
  // This parser folds a labelled histogram into one unlabelled sample; without its TYPE line each of
  // _bucket, _sum and _count is read as a family of its own, labels kept.
  const histogramsAsSamples = parsePrometheusTextFormat(text.replace(/^# TYPE \S+ histogram\n/gm, ''))
  return { text, families: [...families.filter((family) => family.type !== 'HISTOGRAM'), ...histogramsAsSamples.filter((family) => family.type === 'UNTYPED')] }
}

/** The sum of the samples of `name` whose labels include `labels`; 0 when absent. */
export function metricValue(families: PrometheusFamily[], name: string, labels: Record<string, string> = {}): number {
  // A histogram's label sets come one after the other, so the same _count name opens several families.
  return families
    .filter((candidate) => candidate.name === name)
    .flatMap((family) => family.metrics)
    .filter((sample) => Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value))
    .reduce((total, sample) => total + Number(sample.value ?? 0), 0)
}
