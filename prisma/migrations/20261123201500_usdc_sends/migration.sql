-- AlterEnum
ALTER TYPE "UsdcSendStatus" ADD VALUE 'pending';

-- AlterTable
ALTER TABLE "UsdcSend" ADD COLUMN     "fromAddress" TEXT,
ADD COLUMN     "refundId" TEXT,
ADD COLUMN     "toAddress" TEXT NOT NULL DEFAULT '',
ADD COLUMN     "token" TEXT NOT NULL DEFAULT '',
ALTER COLUMN "nonce" DROP NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "UsdcSend_refundId_key" ON "UsdcSend"("refundId");
