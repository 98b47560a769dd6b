-- CreateEnum
CREATE TYPE "Currency" AS ENUM ('BRL', 'USDC');

-- CreateEnum
CREATE TYPE "ProductType" AS ENUM ('subscription', 'one_time', 'metered', 'credit_pack');

-- CreateEnum
CREATE TYPE "ProductStatus" AS ENUM ('active', 'archived');

-- CreateEnum
CREATE TYPE "PriceModel" AS ENUM ('one_time', 'subscription', 'metered', 'credits');

-- CreateEnum
CREATE TYPE "PriceInterval" AS ENUM ('month', 'year');

-- CreateEnum
CREATE TYPE "UsageBillingMode" AS ENUM ('subscription', 'credits');

-- CreateEnum
CREATE TYPE "MeterAggregation" AS ENUM ('sum', 'count');

-- CreateEnum
CREATE TYPE "MeterUnit" AS ENUM ('request', 'token', 'run', 'query');

-- CreateEnum
CREATE TYPE "MeterResetPeriod" AS ENUM ('month', 'week', 'never');

-- CreateEnum
CREATE TYPE "LedgerEntryKind" AS ENUM ('grant', 'debit', 'adjustment');

-- CreateEnum
CREATE TYPE "CheckoutMode" AS ENUM ('payment', 'subscription', 'credits');

-- CreateEnum
CREATE TYPE "CheckoutStatus" AS ENUM ('open', 'paid', 'expired', 'canceled');

-- CreateEnum
CREATE TYPE "TransactionStatus" AS ENUM ('pending', 'succeeded', 'failed', 'refunded');

-- CreateEnum
CREATE TYPE "EntitlementStatus" AS ENUM ('active', 'past_due', 'expired', 'revoked');

-- CreateEnum
CREATE TYPE "EntitlementSource" AS ENUM ('subscription', 'purchase');

-- CreateEnum
CREATE TYPE "SubscriptionStatus" AS ENUM ('trialing', 'active', 'past_due', 'paused', 'canceled');

-- CreateEnum
CREATE TYPE "PaymentMethod" AS ENUM ('pix_manual', 'pix_auto', 'usdc_invoice', 'usdc_pull');

-- CreateTable
CREATE TABLE "Product" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "type" "ProductType" NOT NULL,
    "description" TEXT,
    "metadata" JSONB,
    "status" "ProductStatus" NOT NULL DEFAULT 'active',
    "defaultPriceId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Product_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Price" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "currency" "Currency" NOT NULL,
    "model" "PriceModel" NOT NULL,
    "interval" "PriceInterval",
    "usageBillingMode" "UsageBillingMode",
    "meterId" TEXT,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "Price_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Meter" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "slug" TEXT NOT NULL,
    "aggregation" "MeterAggregation" NOT NULL,
    "unit" "MeterUnit" NOT NULL,
    "resetPeriod" "MeterResetPeriod" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Meter_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "UsageEvent" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "meterId" TEXT NOT NULL,
    "quantity" DECIMAL(38,12) NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "metadata" JSONB,
    "cost" DECIMAL(38,6),
    "costCurrency" "Currency",
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "UsageEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CreditLedgerEntry" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "currency" "Currency" NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "kind" "LedgerEntryKind" NOT NULL,
    "description" TEXT NOT NULL,
    "usageEventId" TEXT,
    "checkoutSessionId" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CreditLedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CreditBalance" (
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "currency" "Currency" NOT NULL,
    "balance" DECIMAL(38,6) NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CreditBalance_pkey" PRIMARY KEY ("customerId","currency")
);

-- CreateTable
CREATE TABLE "CheckoutSession" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "mode" "CheckoutMode" NOT NULL,
    "status" "CheckoutStatus" NOT NULL,
    "customerId" TEXT NOT NULL,
    "productId" TEXT,
    "priceId" TEXT,
    "amount" DECIMAL(38,6) NOT NULL,
    "currency" "Currency" NOT NULL,
    "successUrl" TEXT,
    "cancelUrl" TEXT,
    "metadata" JSONB,
    "subscriptionId" TEXT,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    "paidAt" TIMESTAMPTZ(3),
    "canceledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CheckoutSession_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Transaction" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "checkoutId" TEXT,
    "status" "TransactionStatus" NOT NULL,
    "amount" DECIMAL(38,6) NOT NULL,
    "currency" "Currency" NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Transaction_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Entitlement" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "status" "EntitlementStatus" NOT NULL,
    "source" "EntitlementSource" NOT NULL,
    "subscriptionId" TEXT,
    "checkoutSessionId" TEXT,
    "startsAt" TIMESTAMPTZ(3) NOT NULL,
    "endsAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Entitlement_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Subscription" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "customerId" TEXT NOT NULL,
    "productId" TEXT NOT NULL,
    "priceId" TEXT NOT NULL,
    "status" "SubscriptionStatus" NOT NULL,
    "paymentMethod" "PaymentMethod" NOT NULL,
    "currentPeriodStart" TIMESTAMPTZ(3) NOT NULL,
    "currentPeriodEnd" TIMESTAMPTZ(3) NOT NULL,
    "canceledAt" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Subscription_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Product_defaultPriceId_key" ON "Product"("defaultPriceId");

-- CreateIndex
CREATE INDEX "Product_accountId_createdAt_id_idx" ON "Product"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Product_accountId_id_key" ON "Product"("accountId", "id");

-- CreateIndex
CREATE INDEX "Price_productId_idx" ON "Price"("productId");

-- CreateIndex
CREATE INDEX "Price_accountId_meterId_idx" ON "Price"("accountId", "meterId");

-- CreateIndex
CREATE UNIQUE INDEX "Price_accountId_id_key" ON "Price"("accountId", "id");

-- CreateIndex
CREATE INDEX "Meter_accountId_createdAt_id_idx" ON "Meter"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Meter_accountId_id_key" ON "Meter"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Meter_accountId_slug_key" ON "Meter"("accountId", "slug");

-- CreateIndex
CREATE INDEX "UsageEvent_accountId_createdAt_id_idx" ON "UsageEvent"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "UsageEvent_customerId_createdAt_id_idx" ON "UsageEvent"("customerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "UsageEvent_meterId_customerId_createdAt_idx" ON "UsageEvent"("meterId", "customerId", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "UsageEvent_accountId_idempotencyKey_key" ON "UsageEvent"("accountId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_customerId_currency_createdAt_id_idx" ON "CreditLedgerEntry"("customerId", "currency", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "CreditLedgerEntry_accountId_createdAt_id_idx" ON "CreditLedgerEntry"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "CreditBalance_accountId_idx" ON "CreditBalance"("accountId");

-- CreateIndex
CREATE INDEX "CheckoutSession_accountId_createdAt_id_idx" ON "CheckoutSession"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "CheckoutSession_accountId_id_key" ON "CheckoutSession"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Transaction_checkoutId_key" ON "Transaction"("checkoutId");

-- CreateIndex
CREATE INDEX "Transaction_accountId_createdAt_id_idx" ON "Transaction"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Transaction_customerId_createdAt_id_idx" ON "Transaction"("customerId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Transaction_accountId_id_key" ON "Transaction"("accountId", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Entitlement_checkoutSessionId_key" ON "Entitlement"("checkoutSessionId");

-- CreateIndex
CREATE INDEX "Entitlement_customerId_productId_idx" ON "Entitlement"("customerId", "productId");

-- CreateIndex
CREATE INDEX "Subscription_productId_status_idx" ON "Subscription"("productId", "status");

-- CreateIndex
CREATE INDEX "Subscription_accountId_createdAt_id_idx" ON "Subscription"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Subscription_accountId_id_key" ON "Subscription"("accountId", "id");

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Product" ADD CONSTRAINT "Product_defaultPriceId_fkey" FOREIGN KEY ("defaultPriceId") REFERENCES "Price"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Price" ADD CONSTRAINT "Price_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Price" ADD CONSTRAINT "Price_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Price" ADD CONSTRAINT "Price_meterId_fkey" FOREIGN KEY ("meterId") REFERENCES "Meter"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Meter" ADD CONSTRAINT "Meter_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageEvent" ADD CONSTRAINT "UsageEvent_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageEvent" ADD CONSTRAINT "UsageEvent_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "UsageEvent" ADD CONSTRAINT "UsageEvent_meterId_fkey" FOREIGN KEY ("meterId") REFERENCES "Meter"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditLedgerEntry" ADD CONSTRAINT "CreditLedgerEntry_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditLedgerEntry" ADD CONSTRAINT "CreditLedgerEntry_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditLedgerEntry" ADD CONSTRAINT "CreditLedgerEntry_usageEventId_fkey" FOREIGN KEY ("usageEventId") REFERENCES "UsageEvent"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditLedgerEntry" ADD CONSTRAINT "CreditLedgerEntry_checkoutSessionId_fkey" FOREIGN KEY ("checkoutSessionId") REFERENCES "CheckoutSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditBalance" ADD CONSTRAINT "CreditBalance_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CreditBalance" ADD CONSTRAINT "CreditBalance_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckoutSession" ADD CONSTRAINT "CheckoutSession_priceId_fkey" FOREIGN KEY ("priceId") REFERENCES "Price"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Transaction" ADD CONSTRAINT "Transaction_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Transaction" ADD CONSTRAINT "Transaction_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Transaction" ADD CONSTRAINT "Transaction_checkoutId_fkey" FOREIGN KEY ("checkoutId") REFERENCES "CheckoutSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Entitlement" ADD CONSTRAINT "Entitlement_checkoutSessionId_fkey" FOREIGN KEY ("checkoutSessionId") REFERENCES "CheckoutSession"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_customerId_fkey" FOREIGN KEY ("customerId") REFERENCES "Customer"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_productId_fkey" FOREIGN KEY ("productId") REFERENCES "Product"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Subscription" ADD CONSTRAINT "Subscription_priceId_fkey" FOREIGN KEY ("priceId") REFERENCES "Price"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- Written by hand: rules schema.prisma cannot state.

-- The credit ledger is append-only: corrections are new entries, never edits.
CREATE FUNCTION "credit_ledger_refuse_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'the credit ledger is append-only';
END
$$;
CREATE TRIGGER "credit_ledger_append_only" BEFORE UPDATE OR DELETE ON "CreditLedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION "credit_ledger_refuse_change"();
CREATE TRIGGER "credit_ledger_no_truncate" BEFORE TRUNCATE ON "CreditLedgerEntry"
  FOR EACH STATEMENT EXECUTE FUNCTION "credit_ledger_refuse_change"();

-- Every ledger entry moves its balance in the same transaction, so a balance is the sum of its
-- ledger by construction. The balance row is locked by the update, which serialises concurrent
-- debits of one customer and currency.
CREATE FUNCTION "credit_ledger_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "CreditBalance" ("accountId", "customerId", "currency", "balance", "updatedAt")
  VALUES (NEW."accountId", NEW."customerId", NEW."currency", NEW."amount", NEW."createdAt")
  ON CONFLICT ("customerId", "currency")
  DO UPDATE SET "balance" = "CreditBalance"."balance" + EXCLUDED."balance", "updatedAt" = EXCLUDED."updatedAt";
  RETURN NEW;
END
$$;
CREATE TRIGGER "credit_ledger_moves_balance" AFTER INSERT ON "CreditLedgerEntry"
  FOR EACH ROW EXECUTE FUNCTION "credit_ledger_apply"();

-- Balances change only through the ledger (the trigger above runs at depth 2).
CREATE FUNCTION "credit_balance_refuse_direct_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF pg_trigger_depth() < 2 THEN
    RAISE EXCEPTION 'credit balances change only through the credit ledger';
  END IF;
  RETURN COALESCE(NEW, OLD);
END
$$;
CREATE TRIGGER "credit_balance_through_ledger_only" BEFORE INSERT OR UPDATE OR DELETE ON "CreditBalance"
  FOR EACH ROW EXECUTE FUNCTION "credit_balance_refuse_direct_change"();
