-- CreateIndex
CREATE INDEX "Refund_accountId_confirmedAt_idx" ON "Refund"("accountId", "confirmedAt");
