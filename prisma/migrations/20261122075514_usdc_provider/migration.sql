-- CreateEnum
CREATE TYPE "UsdcSendKind" AS ENUM ('pull', 'refund');

-- CreateEnum
CREATE TYPE "UsdcSendStatus" AS ENUM ('signed', 'succeeded', 'failed');

-- AlterTable
ALTER TABLE "Subscription" ADD COLUMN     "usdcPayer" TEXT;

-- CreateTable
CREATE TABLE "UsdcProvider" (
    "accountId" TEXT NOT NULL,
    "rpcUrl" TEXT NOT NULL,
    "chainId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "xpub" TEXT NOT NULL,
    "confirmations" INTEGER NOT NULL,
    "encryptedSignerKey" TEXT,
    "signerAddress" TEXT,
    "treasury" TEXT,
    "pollSeconds" INTEGER NOT NULL,
    "startBlock" BIGINT NOT NULL,
    "nextDerivationIndex" INTEGER NOT NULL DEFAULT 0,
    "configuredAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "UsdcProvider_pkey" PRIMARY KEY ("accountId")
);

-- CreateTable
CREATE TABLE "UsdcWatchCursor" (
    "chainId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "nextBlock" BIGINT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsdcWatchCursor_pkey" PRIMARY KEY ("chainId","token")
);

-- CreateTable
CREATE TABLE "UsdcDepositAddress" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "chainId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "derivationIndex" INTEGER NOT NULL,
    "checkoutSessionId" TEXT,
    "invoiceId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsdcDepositAddress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsdcTransfer" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "depositAddressId" TEXT NOT NULL,
    "chainId" INTEGER NOT NULL,
    "token" TEXT NOT NULL,
    "transactionHash" TEXT NOT NULL,
    "logPosition" INTEGER NOT NULL,
    "blockNumber" BIGINT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsdcTransfer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsdcSend" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "kind" "UsdcSendKind" NOT NULL,
    "invoiceId" TEXT,
    "transactionId" TEXT,
    "chainId" INTEGER NOT NULL,
    "signerAddress" TEXT NOT NULL,
    "nonce" INTEGER NOT NULL,
    "rawTransaction" TEXT,
    "transactionHash" TEXT,
    "amount" DECIMAL(38,6) NOT NULL,
    "status" "UsdcSendStatus" NOT NULL,
    "failureReason" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsdcSend_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "UsdcProvider_chainId_token_idx" ON "UsdcProvider"("chainId", "token");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcDepositAddress_checkoutSessionId_key" ON "UsdcDepositAddress"("checkoutSessionId");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcDepositAddress_invoiceId_key" ON "UsdcDepositAddress"("invoiceId");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcDepositAddress_chainId_token_address_key" ON "UsdcDepositAddress"("chainId", "token", "address");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcDepositAddress_accountId_derivationIndex_key" ON "UsdcDepositAddress"("accountId", "derivationIndex");

-- CreateIndex
CREATE INDEX "UsdcTransfer_depositAddressId_idx" ON "UsdcTransfer"("depositAddressId");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcTransfer_chainId_transactionHash_logPosition_key" ON "UsdcTransfer"("chainId", "transactionHash", "logPosition");

-- CreateIndex
CREATE UNIQUE INDEX "UsdcSend_invoiceId_key" ON "UsdcSend"("invoiceId");

-- CreateIndex
CREATE INDEX "UsdcSend_status_idx" ON "UsdcSend"("status");

-- CreateIndex
CREATE INDEX "UsdcSend_signerAddress_nonce_idx" ON "UsdcSend"("signerAddress", "nonce");

-- AddForeignKey
ALTER TABLE "UsdcProvider" ADD CONSTRAINT "UsdcProvider_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
