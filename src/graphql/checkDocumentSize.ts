import { GraphQLError, Lexer, Source, TokenKind, type DocumentNode, type Token } from 'graphql'

// A document's cost in memory is set by its tokens (each becomes AST nodes that the parse cache
// keeps), and its nesting sets how deep every recursive pass over it goes (parser, validation,
// execution). Both are checked by a flat scan of the tokens before anything recursive runs: a
// hostile document is refused in time proportional to the limit, never to its own size, and never
// overflows the stack.

/** Brackets (`{`, `(`, `[`) open at once; far above what the depth limit lets through. */
export const maxDocumentNesting = 128

function refuse(message: string): GraphQLError {
  // A status of its own (not GraphQL-over-HTTP's "spec" one): refused before parsing, always a 400.
  return new GraphQLError(message, { extensions: { code: 'validation_error', param: 'query', http: { status: 400 } } })
}

/** Refuses a document of more than `maxTokens` tokens or nested deeper than `maxDocumentNesting`. */
export function checkDocumentSize(text: string, maxTokens: number): void {
  const lexer = new Lexer(new Source(text))
  let tokens = 0
  let nesting = 0
  try {
    for (let token = lexer.advance(); token.kind !== TokenKind.EOF; token = lexer.advance()) {
      tokens += 1
      if (tokens > maxTokens) throw refuse(`This document has more than ${maxTokens} tokens; at most ${maxTokens} are allowed`)
      if (token.kind === TokenKind.BRACE_L || token.kind === TokenKind.PAREN_L || token.kind === TokenKind.BRACKET_L) nesting += 1
      else if (token.kind === TokenKind.BRACE_R || token.kind === TokenKind.PAREN_R || token.kind === TokenKind.BRACKET_R) nesting -= 1
      if (nesting > maxDocumentNesting) throw refuse(`This document nests brackets more than ${maxDocumentNesting} deep`)
    }
  } catch (error) {
    // A lexical error is the parser's to report, with its position.
    if (error instanceof GraphQLError && error.extensions.param === 'query') throw error
  }
}

/** The tokens of a parsed document (they stay linked from its location as long as it lives). */
export function countTokens(document: DocumentNode): number {
  let count = 0
  for (let token: Token | null | undefined = document.loc?.startToken; token && token.kind !== TokenKind.EOF; token = token.next) count += 1
  return count
}
