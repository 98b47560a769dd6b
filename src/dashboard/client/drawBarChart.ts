import { h, svg } from './dom'
import { formatBucket } from './format'

// Bar charts drawn as inline SVG, by hand: no chart library, nothing loaded. Values arrive as exact
// decimal strings; they are turned into numbers only to size the bars, and every bar carries its exact
// value in its <title> (the tooltip) and in data-value.

export interface Series {
  name: string
  /** A class from dashboard.css that colours the bars. */
  tone: 'primary' | 'secondary' | 'negative'
  values: string[]
}

const width = 400
const height = 180
const left = 44
const bottom = 22
const top = 8

export function drawBarChart(starts: string[], bucket: string, series: Series[], label: string): HTMLElement {
  const numbers = series.flatMap((each) => each.values.map(Number))
  const highest = Math.max(0, ...numbers)
  const lowest = Math.min(0, ...numbers)
  const span = highest - lowest || 1
  const plotHeight = height - bottom - top
  const y = (value: number) => top + ((highest - value) / span) * plotHeight
  const slot = (width - left) / Math.max(1, starts.length)
  const barWidth = Math.max(1, (slot * 0.8) / series.length)
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label, class: 'chart' })
  chart.append(svg('line', { x1: String(left), x2: String(width), y1: String(y(0)), y2: String(y(0)), class: 'axis' }))
  chart.append(svg('text', { x: String(left - 4), y: String(top + 8), class: 'tick', 'text-anchor': 'end' }, shortNumber(highest)))
  if (lowest < 0) chart.append(svg('text', { x: String(left - 4), y: String(height - bottom), class: 'tick', 'text-anchor': 'end' }, shortNumber(lowest)))
  chart.append(svg('text', { x: String(left - 4), y: String(y(0) + 4), class: 'tick', 'text-anchor': 'end' }, '0'))
  starts.forEach((start, index) => {
    series.forEach((each, position) => {
      const value = each.values[index] ?? '0'
      const number = Number(value)
      const x = left + index * slot + slot * 0.1 + position * barWidth
      const barTop = Math.min(y(number), y(0))
      const barHeight = Math.max(number === 0 ? 0 : 1, Math.abs(y(number) - y(0)))
      chart.append(
        svg(
          'rect',
          { x: x.toFixed(2), y: barTop.toFixed(2), width: barWidth.toFixed(2), height: barHeight.toFixed(2), class: `bar ${number < 0 ? 'negative' : each.tone}`, 'data-value': value },
          svg('title', {}, `${formatBucket(start, bucket)}: ${series.length > 1 ? `${each.name} ` : ''}${value}`),
        ),
      )
    })
  })
  // A few dates under the axis: the first, the middle and the last bucket.
  const labelled = new Set([0, Math.floor((starts.length - 1) / 2), starts.length - 1])
  for (const index of labelled) {
    const start = starts[index]
    if (start === undefined) continue
    const anchor = index === 0 ? 'start' : index === starts.length - 1 ? 'end' : 'middle'
    const x = index === 0 ? left : index === starts.length - 1 ? width : left + index * slot + slot / 2
    chart.append(svg('text', { x: x.toFixed(2), y: String(height - 6), class: 'tick', 'text-anchor': anchor }, formatBucket(start, bucket)))
  }
  const legend = series.length > 1 ? h('p', { class: 'legend' }, ...series.map((each) => h('span', { class: `key ${each.tone}` }, each.name))) : null
  return h('figure', { class: 'chart-figure' }, chart, legend)
}

function shortNumber(value: number): string {
  const size = Math.abs(value)
  if (size >= 1e9) return `${(value / 1e9).toPrecision(3)}G`
  if (size >= 1e6) return `${(value / 1e6).toPrecision(3)}M`
  if (size >= 1e3) return `${(value / 1e3).toPrecision(3)}k`
  return String(Number(value.toPrecision(3)))
}
