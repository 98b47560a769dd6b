// RFC 7807 answers of the simulated PSP (`application/problem+json`, types as the API Pix names them).

export class Problem extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string,
    readonly violacoes: { razao: string; propriedade: string; valor?: unknown }[] = [],
  ) {
    super(detail)
  }
}

export function invalid(type: string, detail: string, propriedade: string, razao: string): Problem {
  return new Problem(400, type, 'Requisição inválida', detail, [{ razao, propriedade }])
}
