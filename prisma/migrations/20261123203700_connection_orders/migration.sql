-- CreateIndex
CREATE INDEX "Customer_accountId_name_id_idx" ON "Customer"("accountId", "name", "id");

-- CreateIndex
CREATE INDEX "Transaction_accountId_amount_id_idx" ON "Transaction"("accountId", "amount", "id");

-- CreateIndex
CREATE INDEX "Invoice_accountId_customerId_createdAt_id_idx" ON "Invoice"("accountId", "customerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Invoice_accountId_status_createdAt_id_idx" ON "Invoice"("accountId", "status", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Invoice_accountId_amountDue_id_idx" ON "Invoice"("accountId", "amountDue", "id");

-- CreateIndex
CREATE INDEX "Invoice_accountId_dueDate_id_idx" ON "Invoice"("accountId", "dueDate", "id");
