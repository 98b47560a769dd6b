-- CreateEnum
CREATE TYPE "WebhookEndpointStatus" AS ENUM ('enabled', 'disabled');

-- CreateEnum
CREATE TYPE "WebhookDeliveryStatus" AS ENUM ('pending', 'succeeded', 'failed');

-- CreateEnum
CREATE TYPE "WebhookAttemptStatus" AS ENUM ('succeeded', 'failed');

-- CreateTable
CREATE TABLE "Event" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "data" JSONB NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "events" TEXT[],
    "description" TEXT,
    "status" "WebhookEndpointStatus" NOT NULL DEFAULT 'enabled',
    "secret" TEXT NOT NULL,
    "previousSecret" TEXT,
    "previousSecretExpiresAt" TIMESTAMPTZ(3),
    "failingSince" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "status" "WebhookDeliveryStatus" NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "leaseToken" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" TEXT NOT NULL,
    "accountId" TEXT NOT NULL,
    "deliveryId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "endpointId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" "WebhookAttemptStatus" NOT NULL,
    "responseStatus" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" TEXT,
    "responseBody" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Event_accountId_createdAt_id_idx" ON "Event"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Event_accountId_type_createdAt_id_idx" ON "Event"("accountId", "type", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "Event_accountId_id_key" ON "Event"("accountId", "id");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_accountId_createdAt_id_idx" ON "WebhookEndpoint"("accountId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEndpoint_accountId_id_key" ON "WebhookEndpoint"("accountId", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_endpointId_idx" ON "WebhookDelivery"("endpointId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_endpointId_createdAt_id_idx" ON "WebhookAttempt"("endpointId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_idx" ON "WebhookAttempt"("deliveryId");

-- AddForeignKey
ALTER TABLE "Event" ADD CONSTRAINT "Event_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_accountId_fkey" FOREIGN KEY ("accountId") REFERENCES "Account"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Written by hand: the outbox's one write path and the rule schema.prisma cannot state.

-- A random id body of base62 characters (from two random UUIDs: ~240 random bits before trimming).
CREATE FUNCTION "billing_random_id"(p_length integer) RETURNS text LANGUAGE sql VOLATILE AS $$
  SELECT substr(translate(encode(uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid()), 'base64'), '+/=', ''), 1, p_length)
$$;

-- Records an event and owes it to every enabled endpoint of the account that subscribes to its type
-- (matched now: an endpoint created or enabled later gets no backlog). The NOTIFY is transactional:
-- workers hear it only if the change and its event commit.
CREATE FUNCTION "billing_record_event"(p_id text, p_account text, p_type text, p_data jsonb, p_created_at timestamptz)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  matched integer;
BEGIN
  INSERT INTO "Event" ("id", "accountId", "type", "data", "createdAt") VALUES (p_id, p_account, p_type, p_data, p_created_at);
  INSERT INTO "WebhookDelivery" ("id", "accountId", "eventId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt")
  SELECT 'whd_' || billing_random_id(24), p_account, p_id, endpoint."id", 'pending', 0, clock_timestamp(), clock_timestamp()
  FROM "WebhookEndpoint" endpoint
  WHERE endpoint."accountId" = p_account AND endpoint."status" = 'enabled'
    AND (endpoint."events" @> ARRAY['*'] OR endpoint."events" @> ARRAY[p_type]);
  GET DIAGNOSTICS matched = ROW_COUNT;
  IF matched > 0 THEN
    PERFORM pg_notify('webhook_deliveries_due', '');
  END IF;
END
$$;

-- credits.depleted: a balance that crosses from above zero to zero or below. A trigger, so that the
-- usage hot path (billing_record_usage) pays one comparison per debit and nothing more. `data` is the
-- balance as GET /v1/customers/{id}/credits returns it, plus `amount`: what this debit took.
CREATE FUNCTION "credit_balance_record_depletion"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  decimals integer := CASE NEW."currency" WHEN 'BRL' THEN 2 ELSE 6 END;
BEGIN
  IF OLD."balance" > 0 AND NEW."balance" <= 0 THEN
    PERFORM billing_record_event(
      'evt_' || billing_random_id(26),
      NEW."accountId",
      'credits.depleted',
      jsonb_build_object(
        'customerId', NEW."customerId",
        'currency', NEW."currency"::text,
        'balance', round(NEW."balance", decimals)::text,
        'updatedAt', to_char(NEW."updatedAt" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'amount', round(OLD."balance" - NEW."balance", decimals)::text
      ),
      NEW."updatedAt"
    );
  END IF;
  RETURN NEW;
END
$$;
CREATE TRIGGER "credit_balance_depletion_event" AFTER UPDATE OF "balance" ON "CreditBalance"
  FOR EACH ROW EXECUTE FUNCTION "credit_balance_record_depletion"();
