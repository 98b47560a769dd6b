-- AlterTable
ALTER TABLE "UsdcTransfer" ADD COLUMN     "transactionId" TEXT;

-- CreateIndex
CREATE INDEX "UsdcTransfer_transactionId_idx" ON "UsdcTransfer"("transactionId");

-- Transfers recorded before this column: those whose payable has a payment are that payment's (an
-- excess among them stays as it was, shown in amountReceived); the others (an expired session, a
-- voided invoice) are left null, so the watcher records them as refundable transactions of their own.
UPDATE "UsdcTransfer" t SET "transactionId" = (
  SELECT x.id FROM "UsdcDepositAddress" d
  JOIN "Transaction" x ON (x."checkoutId" = d."checkoutSessionId" OR x."invoiceId" = d."invoiceId") AND x.status IN ('succeeded', 'refunded')
  WHERE d.id = t."depositAddressId"
  ORDER BY x."createdAt"
  LIMIT 1
);
