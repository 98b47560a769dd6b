import { h, type Child } from './dom'

/** A table that scrolls sideways inside its own box on a narrow screen instead of widening the page. */
export function drawTable(testId: string, headings: string[], rows: { id?: string; cells: Child[] }[], empty: string): HTMLElement {
  if (rows.length === 0) return h('p', { class: 'empty', 'data-testid': `${testId}-empty` }, empty)
  return h(
    'div',
    { class: 'table-box' },
    h(
      'table',
      { 'data-testid': testId },
      h('thead', {}, h('tr', {}, ...headings.map((heading) => h('th', { scope: 'col' }, heading)))),
      h('tbody', {}, ...rows.map((row) => h('tr', { 'data-id': row.id }, ...row.cells.map((cell) => h('td', {}, cell))))),
    ),
  )
}

export function section(title: string, ...children: Child[]): HTMLElement {
  return h('section', { class: 'panel' }, h('h2', {}, title), ...children)
}

/** A headline figure: its label, and its exact value (marked for tests by `testId`). */
export function figure(label: string, value: string, testId: string, note?: string): HTMLElement {
  return h('div', { class: 'figure' }, h('span', { class: 'figure-label' }, label), h('strong', { 'data-testid': testId }, value), note ? h('span', { class: 'figure-note' }, note) : null)
}

export function statusBadge(status: string): HTMLElement {
  return h('span', { class: `badge status-${status.replace(/[^a-z_]/g, '')}` }, status)
}
