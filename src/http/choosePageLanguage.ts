/** The languages the payer's pages speak: Brazilian Portuguese, and English for everyone else. */
export type PageLanguage = 'en' | 'pt-BR'

/**
 * The page's language from the browser's Accept-Language (RFC 9110 §12.5.4): the supported language
 * the payer ranks highest (any `pt`, whatever its region, is pt-BR); English when nothing matches,
 * when the header is absent or malformed, and on a tie.
 */
export function choosePageLanguage(acceptLanguage: string | undefined): PageLanguage {
  if (!acceptLanguage) return 'en'
  let best: { language: PageLanguage; weight: number } = { language: 'en', weight: 0 }
  for (const part of acceptLanguage.slice(0, 1000).split(',').slice(0, 50)) {
    const [range, ...parameters] = part.trim().toLowerCase().split(';')
    const qualities = parameters.filter((parameter) => /^\s*q=/.test(parameter)).map((parameter) => /^\s*q=([01](?:\.\d{0,3})?)\s*$/.exec(parameter)?.[1])
    // A malformed weight makes the entry mean nothing, rather than the full weight of 1.
    if (qualities.some((quality) => quality === undefined)) continue
    const weight = qualities[0] === undefined ? 1 : Number(qualities[0])
    const language: PageLanguage | undefined = range === 'pt' || range?.startsWith('pt-') ? 'pt-BR' : range === 'en' || range?.startsWith('en-') ? 'en' : undefined
    if (language && weight > best.weight) best = { language, weight }
  }
  return best.language
}
