import { keepsItsDigits } from './money'

/**
 * The first number in a JSON text (outside strings) that JSON.parse would round: more significant
 * digits than a double keeps. Only the raw text tells what the client sent; once parsed, a rounded
 * quantity looks like any other. Tolerates text that is not valid JSON (the parser refuses it later).
 */
export function findRoundedNumber(text: string): string | undefined {
  const numberToken = /-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/y
  let index = 0
  while (index < text.length) {
    const char = text[index]!
    if (char === '"') {
      index += 1
      while (index < text.length && text[index] !== '"') index += text[index] === '\\' ? 2 : 1
      index += 1
    } else if (char === '-' || (char >= '0' && char <= '9')) {
      numberToken.lastIndex = index
      const token = numberToken.exec(text)?.[0] ?? char
      if (!keepsItsDigits(token)) return token
      index += token.length
    } else {
      index += 1
    }
  }
  return undefined
}
