-- CreateEnum
CREATE TYPE "PixChargeStatus" AS ENUM ('active', 'settled', 'removed');

-- CreateEnum
CREATE TYPE "RefundStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "Transaction" ADD COLUMN     "amountRefunded" DECIMAL(38,6) NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PixProvider" (
    "accountId" TEXT NOT NULL,
    "apiUrl" TEXT NOT NULL,
    "clientId" TEXT NOT NULL,
    "clientSecretEncrypted" TEXT NOT NULL,
    "pixKey" TEXT NOT NULL,
    "tlsCertificate" TEXT,
    "tlsKeyEncrypted" TEXT,
    "tlsCa" TEXT,
    "reconcileSeconds" INTEGER NOT NULL DEFAULT 60,
    "receiverBranch" TEXT,
    "receiverAccount" TEXT,
    "receiverAccountType" TEXT,
    "webhookToken" TEXT NOT NULL,
    "reconciledThrough" TIMESTAMPTZ(3),
    "configuredAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixProvider_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "PixCharge" (
    "txid" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "checkoutSessionId" TEXT,
    "invoiceId" TEXT,
    "amount" DECIMAL(38,6) NOT NULL,
    "amountReceived" DECIMAL(38,6) NOT NULL DEFAULT 0,
    "pixCopiaECola" TEXT NOT NULL,
    "status" "PixChargeStatus" NOT NULL,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixCharge_pkey" PRIMARY KEY ("txid")
);

-- CreateTable
CREATE TABLE "PixPayment" (
    "endToEndId" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "txid" TEXT NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "paidAt" TIMESTAMPTZ(3) NOT NULL,
    "transactionId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "PixPayment_pkey" PRIMARY KEY ("endToEndId")
);

-- CreateTable
CREATE TABLE "Refund" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "transactionId" TEXT NOT NULL,
    "rail" TEXT NOT NULL,
    "providerReference" TEXT NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "status" "RefundStatus" NOT NULL,
    "failureReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL,
    "confirmedAt" TIMESTAMPTZ(3),

    CONSTRAINT "Refund_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PixProvider_webhookToken_key" ON "PixProvider"("webhookToken");

-- CreateIndex
CREATE UNIQUE INDEX "PixCharge_checkoutSessionId_key" ON "PixCharge"("checkoutSessionId");

-- CreateIndex
CREATE UNIQUE INDEX "PixCharge_invoiceId_key" ON "PixCharge"("invoiceId");

-- CreateIndex
CREATE INDEX "PixCharge_accountId_status_idx" ON "PixCharge"("accountId", "status");

-- CreateIndex
CREATE INDEX "PixPayment_txid_idx" ON "PixPayment"("txid");

-- CreateIndex
CREATE INDEX "PixPayment_transactionId_idx" ON "PixPayment"("transactionId");

-- CreateIndex
CREATE INDEX "Refund_transactionId_idx" ON "Refund"("transactionId");

-- CreateIndex
CREATE INDEX "Refund_accountId_status_idx" ON "Refund"("accountId", "status");

-- AddForeignKey
ALTER TABLE "PixProvider" ADD CONSTRAINT "PixProvider_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Refund" ADD CONSTRAINT "Refund_transactionId_fkey" FOREIGN KEY ("transactionId") REFERENCES "Transaction"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
