-- CreateEnum
CREATE TYPE "InvoiceStatus" AS ENUM ('draft', 'open', 'paid', 'void', 'uncollectible');

-- AlterTable
ALTER TABLE "Account" ADD COLUMN     "clockOffsetMs" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "enabledRails" "PaymentMethod"[] DEFAULT ARRAY['pix_manual', 'pix_auto', 'usdc_invoice', 'usdc_pull']::"PaymentMethod"[];

-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "invoiceId" TEXT;

-- AlterTable
-- Existing subscriptions are anchored on their current period (written by hand: a NOT NULL column
-- cannot be added to rows that exist without a value).
ALTER TABLE "Subscription" ADD COLUMN     "billingAnchor" TIMESTAMPTZ(3);
UPDATE "Subscription" SET "billingAnchor" = "currentPeriodStart";
ALTER TABLE "Subscription" ALTER COLUMN "billingAnchor" SET NOT NULL;

-- CreateTable
CREATE TABLE "Invoice" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "subscriptionId" TEXT NOT NULL,
    "status" "InvoiceStatus" NOT NULL,
    "currency" "Currency" NOT NULL,
    "total" DECIMAL(38,6) NOT NULL,
    "amountDue" DECIMAL(38,6) NOT NULL,
    "amountPaid" DECIMAL(38,6) NOT NULL,
    "paymentMethod" "PaymentMethod" NOT NULL,
    "periodStart" TIMESTAMPTZ(3) NOT NULL,
    "periodEnd" TIMESTAMPTZ(3) NOT NULL,
    "dueDate" TIMESTAMPTZ(3) NOT NULL,
    "paidAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Invoice_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InvoiceLine" (
    "id" TEXT NOT NULL,
    "invoiceId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "description" TEXT NOT NULL,
    "priceId" TEXT,
    "meterId" TEXT,
    "quantity" DECIMAL(38,12) NOT NULL,
    "unitAmount" DECIMAL(38,6) NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,

    CONSTRAINT "InvoiceLine_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Invoice_accountId_createdAt_id_idx" ON "Invoice"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Invoice_status_dueDate_idx" ON "Invoice"("status", "dueDate");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_subscriptionId_periodStart_key" ON "Invoice"("subscriptionId", "periodStart");

-- CreateIndex
CREATE UNIQUE INDEX "Invoice_accountId_id_key" ON "Invoice"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "InvoiceLine_invoiceId_position_key" ON "InvoiceLine"("invoiceId", "position");

-- CreateIndex
CREATE INDEX "Entitlement_accountId_customerId_createdAt_id_idx" ON "Entitlement"("accountId", "customerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_subscriptionId_key" ON "Entitlement"("subscriptionId");

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_accountId_id_key" ON "Entitlement"("accountId", "id");

-- CreateIndex
CREATE INDEX "Subscription_status_currentPeriodEnd_idx" ON "Subscription"("status", "currentPeriodEnd");

-- CreateIndex
CREATE INDEX "Subscription_accountId_customerId_createdAt_id_idx" ON "Subscription"("accountId", "customerId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "Transaction" ADD CONSTRAINT "Transaction_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Invoice" ADD CONSTRAINT "Invoice_subscriptionId_fkey" FOREIGN KEY ("subscriptionId") REFERENCES "Subscription"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "InvoiceLine" ADD CONSTRAINT "InvoiceLine_invoiceId_fkey" FOREIGN KEY ("invoiceId") REFERENCES "Invoice"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
