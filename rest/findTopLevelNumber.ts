/**
 * The raw text of the number that `text` (a JSON object that JSON.parse accepted) holds under `key` at
 * its top level; the last one when the key repeats, as JSON.parse keeps the last. JSON.parse rounds a
 * number to the nearest double, so only the raw text tells what the client actually sent.
 */
export function findTopLevelNumber(text: string, key: string): string | undefined {
  const numberToken = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
  const whitespace = /[ \t\n\r]*/y
  const skipWhitespace = (from: number) => {
    whitespace.lastIndex = from
    whitespace.exec(text)
    return whitespace.lastIndex
  }
  let found: string | undefined
  let depth = 0
  let index = 0
  while (index < text.length) {
    const char = text[index]
    if (char === '{' || char === '[') {
      depth += 1
      index += 1
    } else if (char === '}' || char === ']') {
      depth -= 1
      index += 1
    } else if (char === '"') {
      let end = index + 1
      while (end < text.length && text[end] !== '"') end += text[end] === '\\' ? 2 : 1
      const raw = text.slice(index, end + 1)
      index = end + 1
      if (depth !== 1) continue
      const colon = skipWhitespace(index)
      if (text[colon] !== ':') continue
      const valueStart = skipWhitespace(colon + 1)
      numberToken.lastIndex = valueStart
      const number = numberToken.exec(text)
      if (number && (JSON.parse(raw) as string) === key) found = number[0]
      index = valueStart
    } else {
      index += 1
    }
  }
  return found
}
