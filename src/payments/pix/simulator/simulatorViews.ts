import type { SimulatedPix } from './simulatorState'

// How the simulated PSP shows a received Pix and its refunds (the API Pix `Pix` and `Devolucao`).

export function pixView(pix: SimulatedPix): unknown {
  return {
    endToEndId: pix.endToEndId,
    ...(pix.txid ? { txid: pix.txid } : {}),
    valor: pix.valor,
    chave: pix.chave,
    horario: pix.horario.toISOString(),
    infoPagador: 'pagamento simulado',
    ...(pix.devolucoes.length > 0 ? { devolucoes: pix.devolucoes.map(refundView) } : {}),
  }
}

export function refundView(refund: SimulatedPix['devolucoes'][number]): unknown {
  return {
    id: refund.id,
    rtrId: refund.rtrId,
    valor: refund.valor,
    natureza: refund.natureza,
    ...(refund.descricao ? { descricao: refund.descricao } : {}),
    horario: { solicitacao: refund.solicitacao.toISOString(), ...(refund.liquidacao ? { liquidacao: refund.liquidacao.toISOString() } : {}) },
    status: refund.status,
    ...(refund.motivo ? { motivo: refund.motivo } : {}),
  }
}
