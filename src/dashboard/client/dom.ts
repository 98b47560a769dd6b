// The only way the dashboard puts anything on the page: elements built one by one, every piece of data
// a text node or an attribute value (never HTML parsed from a string), so a customer named
// `<img onerror=…>` is shown as those characters.

export type Child = Node | string | number | null | undefined | false

type Attributes = Record<string, string | undefined>

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  setAttributes(element, attributes)
  append(element, children)
  return element
}

const svgNamespace = 'http://www.w3.org/2000/svg'

export function svg<K extends keyof SVGElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: Child[]): SVGElementTagNameMap[K] {
  const element = document.createElementNS(svgNamespace, tag)
  setAttributes(element, attributes)
  append(element, children)
  return element
}

export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child)
  }
}

export function replaceChildren(parent: Element, ...children: Child[]): void {
  parent.replaceChildren()
  append(parent, children)
}

function setAttributes(element: Element, attributes: Attributes): void {
  for (const [name, value] of Object.entries(attributes)) {
    // Inline styles and event handlers would need 'unsafe-inline' in the CSP; the page uses neither.
    if (name === 'style' || name.startsWith('on')) throw new Error(`attribute ${name} is not used on this page`)
    if (value !== undefined) element.setAttribute(name, value)
  }
}

/** A link inside the dashboard: always a fragment, so no data can turn it into another scheme. */
export function pageLink(route: string, ...children: Child[]): HTMLAnchorElement {
  return h('a', { href: `#/${route.split('/').map(encodeURIComponent).join('/')}` }, ...children)
}
