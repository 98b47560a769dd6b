-- CreateTable
CREATE TABLE "PixRecurrence" (
    "idRec" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "retryPolicy" TEXT NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixRecurrence_pkey" PRIMARY KEY ("idRec")
);

-- CreateTable
CREATE TABLE "PixRecurringCharge" (
    "txid" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "idRec" TEXT NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "amountReceived" DECIMAL(38,6) NOT NULL DEFAULT 0,
    "dueDate" DATE NOT NULL,
    "status" TEXT NOT NULL,
    "retriesRequested" INTEGER NOT NULL DEFAULT 0,
    "outcome" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixRecurringCharge_pkey" PRIMARY KEY ("txid")
);

-- CreateIndex
CREATE UNIQUE INDEX "PixRecurrence_subscriptionId_key" ON "PixRecurrence"("subscriptionId");

-- CreateIndex
CREATE INDEX "PixRecurrence_accountId_status_idx" ON "PixRecurrence"("accountId", "status");

-- CreateIndex
CREATE UNIQUE INDEX "PixRecurringCharge_invoiceId_key" ON "PixRecurringCharge"("invoiceId");

-- CreateIndex
CREATE INDEX "PixRecurringCharge_accountId_status_idx" ON "PixRecurringCharge"("accountId", "status");
