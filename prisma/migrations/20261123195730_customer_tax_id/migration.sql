-- AlterTable
ALTER TABLE "Customer" ADD COLUMN     "taxId" TEXT;
