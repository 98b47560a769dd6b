import { chooseRange, rangeChoices, type RangeChoice } from './chooseRange'
import { h, pageLink, replaceChildren } from './dom'
import { forgetKey, GraphQLFailure, readKey, runQuery, saveKey } from './graphqlClient'
import { renderCustomerPage } from './renderCustomerPage'
import { renderOverview } from './renderOverview'

// The dashboard's entry: asks for an API key once per browser session, then shows the overview
// (#/) or a customer (#/customers/{id}) for the chosen currency and period.

const app = document.getElementById('app')!
const currencies = ['USDC', 'BRL']
const settingsKey = 'billing-dashboard-settings'

interface Settings {
  currency: string
  range: RangeChoice
}

function readSettings(): Settings {
  try {
    const stored = JSON.parse(sessionStorage.getItem(settingsKey) ?? '{}') as Partial<Settings>
    return {
      currency: currencies.includes(stored.currency ?? '') ? stored.currency! : 'USDC',
      range: rangeChoices.some((choice) => choice.value === stored.range) ? stored.range! : '30d',
    }
  } catch {
    return { currency: 'USDC', range: '30d' }
  }
}

function saveSettings(settings: Settings): void {
  sessionStorage.setItem(settingsKey, JSON.stringify(settings))
}

function showKeyForm(problem?: string): void {
  const input = h('input', { type: 'password', name: 'key', id: 'api-key', autocomplete: 'off', required: '', placeholder: 'bk_test_…', 'data-testid': 'key-input' })
  const form = h(
    'form',
    { class: 'key-form', 'data-testid': 'key-form' },
    h('h1', {}, 'Billing dashboard'),
    h('label', { for: 'api-key' }, 'API key (scope read)'),
    input,
    h('button', { type: 'submit' }, 'Open'),
    problem ? h('p', { class: 'problem', role: 'alert' }, problem) : null,
    h('p', { class: 'muted' }, 'The key stays in this browser tab’s session storage and is sent only to this server’s /graphql.'),
  )
  form.addEventListener('submit', (event) => {
    event.preventDefault()
    const key = input.value.trim()
    if (!key) return
    saveKey(key)
    void checkKeyThenRender()
  })
  replaceChildren(app, form)
  input.focus()
}

async function checkKeyThenRender(): Promise<void> {
  try {
    await runQuery<{ account: { id: string } }>('query DashboardAccount { account { id } }')
  } catch (error) {
    forgetKey()
    return showKeyForm(error instanceof GraphQLFailure ? `That key was refused: ${error.message}` : 'The server could not be reached.')
  }
  await render()
}

function header(settings: Settings): HTMLElement {
  const currency = h('select', { 'aria-label': 'Currency', 'data-testid': 'currency' }, ...currencies.map((code) => h('option', { value: code }, code)))
  currency.value = settings.currency
  const range = h('select', { 'aria-label': 'Period', 'data-testid': 'range' }, ...rangeChoices.map((choice) => h('option', { value: choice.value }, choice.label)))
  range.value = settings.range
  const onChange = () => {
    saveSettings({ currency: currency.value, range: range.value as RangeChoice })
    void render()
  }
  currency.addEventListener('change', onChange)
  range.addEventListener('change', onChange)
  const signOut = h('button', { type: 'button', class: 'link-button', 'data-testid': 'sign-out' }, 'Forget key')
  signOut.addEventListener('click', () => {
    forgetKey()
    showKeyForm()
  })
  return h('header', { class: 'top' }, h('p', { class: 'title' }, pageLink('', 'Billing dashboard')), h('div', { class: 'controls' }, currency, range, signOut))
}

let renderCount = 0

async function render(): Promise<void> {
  if (!readKey()) return showKeyForm()
  const settings = readSettings()
  const rendering = ++renderCount
  app.removeAttribute('data-ready')
  const customer = /^#\/customers\/([A-Za-z0-9_]{1,100})$/.exec(location.hash)
  const loading = h('p', { class: 'loading', 'data-testid': 'loading' }, 'Loading…')
  replaceChildren(app, header(settings), loading)
  try {
    const range = chooseRange(settings.range)
    const view = customer ? await renderCustomerPage(customer[1]!, settings.currency, range) : await renderOverview(settings.currency, range)
    if (rendering !== renderCount) return
    loading.replaceWith(view)
    app.setAttribute('data-ready', 'true')
  } catch (error) {
    if (rendering !== renderCount) return
    if (error instanceof GraphQLFailure && (error.code === 'unauthorized' || error.code === 'insufficient_scope')) {
      forgetKey()
      return showKeyForm(`That key was refused: ${error.message}`)
    }
    loading.replaceWith(h('p', { class: 'problem', role: 'alert', 'data-testid': 'problem' }, error instanceof Error ? error.message : 'Something went wrong.'))
  }
}

window.addEventListener('hashchange', () => void render())
void render()
