/** The `payment` of checkout sessions and invoices (CONTRACT §9): each rail's members of the union. */
export const paymentFields = `payment {
  ... on PixPaymentInstructions { rail txid pixCopiaECola expiresAt amountReceived }
  ... on PixAutomaticoPaymentInstructions { rail txid recurrenceId dueDate status amountReceived }
  ... on UsdcPaymentInstructions { rail chainId token address amount amountReceived approveSpender approveAmount }
  ... on UsdcPullPaymentInstructions { rail chainId token payer amountReceived approveSpender approveAmount }
}`
