-- CreateTable
CREATE TABLE "UsageRollup" (
    "accountId" TEXT NOT NULL,
    "meterId" TEXT NOT NULL,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "shard" INTEGER NOT NULL,
    "quantity" DECIMAL(38,12) NOT NULL,
    "events" BIGINT NOT NULL,

    CONSTRAINT "UsageRollup_pkey" PRIMARY KEY ("accountId","meterId","hour","shard")
);

-- Hand-written (schema.prisma cannot state it): the usage hot path also keeps UsageRollup, and the
-- events recorded before this migration are rolled up once (shard 0).
INSERT INTO "UsageRollup" ("accountId", "meterId", "hour", "shard", "quantity", "events")
  SELECT "accountId", "meterId", date_trunc('hour', "createdAt", 'UTC'), 0, sum(quantity), count(*)
  FROM "UsageEvent" GROUP BY 1, 2, 3;

CREATE OR REPLACE FUNCTION "billing_record_usage"(p_events jsonb)
RETURNS TABLE (
  "ord" integer, "outcome" text, "id" text, "accountId" text, "customerId" text, "meterId" text,
  "quantity" numeric, "idempotencyKey" text, "fingerprint" text, "metadata" jsonb, "cost" numeric,
  "costCurrency" text, "createdAt" timestamptz
)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  WITH input AS (
    SELECT event.*, credits_price.currency AS price_currency,
      "billing_cost"(CASE meter.aggregation WHEN 'count' THEN 1 ELSE event.quantity END, credits_price.amount, credits_price.currency) AS cost
    FROM jsonb_to_recordset(p_events) AS event(
      ord integer, id text, "accountId" text, "customerId" text, "meterId" text, quantity numeric, "idempotencyKey" text,
      fingerprint text, metadata jsonb, "createdAt" timestamptz)
    JOIN "Customer" customer ON customer.id = event."customerId" AND customer."accountId" = event."accountId"
    JOIN "Meter" meter ON meter.id = event."meterId" AND meter."accountId" = event."accountId"
    LEFT JOIN LATERAL "billing_credits_price"(event."accountId", meter.id) AS credits_price ON true
  ),
  inserted AS (
    INSERT INTO "UsageEvent" ("id", "accountId", "customerId", "meterId", "quantity", "idempotencyKey", "fingerprint", "metadata", "cost", "costCurrency", "createdAt")
      SELECT input.id, input."accountId", input."customerId", input."meterId", input.quantity, input."idempotencyKey", input.fingerprint,
        input.metadata, input.cost, input.price_currency, input."createdAt"
      FROM input
      ORDER BY input."accountId", input."idempotencyKey", input.ord
      ON CONFLICT ("accountId", "idempotencyKey") DO NOTHING
      RETURNING "UsageEvent".*
  )
  INSERT INTO "CreditLedgerEntry" ("id", "accountId", "customerId", "currency", "amount", "kind", "description", "usageEventId", "createdAt")
    SELECT 'cle_' || substr(md5(inserted.id), 1, 24), inserted."accountId", inserted."customerId", inserted."costCurrency", -inserted.cost, 'debit',
      inserted.quantity::text || ' × ' || meter.slug, inserted.id, inserted."createdAt"
    FROM inserted JOIN "Meter" meter ON meter.id = inserted."meterId"
    WHERE inserted.cost > 0
    ORDER BY inserted."customerId", inserted."costCurrency", inserted.id;

  -- The hourly rollup (UsageRollup), in this transaction: the events this call inserted (an input whose
  -- event has its own id; a replay's event has another), one row per meter and hour in this
  -- connection's shard. Taken after the keys and the balances, in key order, like every writer of it.
  INSERT INTO "UsageRollup" ("accountId", "meterId", "hour", "shard", "quantity", "events")
    SELECT event."accountId", event."meterId", date_trunc('hour', event."createdAt", 'UTC'), pg_backend_pid() % 16, sum(event.quantity), count(*)
    FROM jsonb_to_recordset(p_events) AS input(id text, "accountId" text, "idempotencyKey" text)
    JOIN "UsageEvent" event ON event."accountId" = input."accountId" AND event."idempotencyKey" = input."idempotencyKey" AND event.id = input.id
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
  ON CONFLICT ("accountId", "meterId", "hour", "shard") DO UPDATE
    SET "quantity" = "UsageRollup"."quantity" + excluded."quantity", "events" = "UsageRollup"."events" + excluded."events";

  -- A later statement: it sees the events just inserted, including the first of two inputs that
  -- shared a key, and events other transactions committed meanwhile.
  RETURN QUERY
    SELECT input.ord,
      CASE
        WHEN customer.id IS NULL THEN 'customer_not_found'
        WHEN meter.id IS NULL THEN 'meter_not_found'
        WHEN event.id = input.id THEN 'recorded'
        WHEN event.fingerprint = input.fingerprint THEN 'replayed'
        ELSE 'key_reused'
      END,
      event.id, event."accountId", event."customerId", event."meterId", event.quantity::numeric, event."idempotencyKey",
      event.fingerprint, event.metadata, event.cost::numeric, event."costCurrency"::text, event."createdAt"
    FROM jsonb_to_recordset(p_events) AS input(ord integer, id text, "accountId" text, "customerId" text, "meterId" text, "idempotencyKey" text, fingerprint text)
    LEFT JOIN "Customer" customer ON customer.id = input."customerId" AND customer."accountId" = input."accountId"
    LEFT JOIN "Meter" meter ON meter.id = input."meterId" AND meter."accountId" = input."accountId"
    LEFT JOIN "UsageEvent" event ON customer.id IS NOT NULL AND meter.id IS NOT NULL
      AND event."accountId" = input."accountId" AND event."idempotencyKey" = input."idempotencyKey"
    ORDER BY input.ord;
END
$$;
