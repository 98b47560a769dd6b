-- Written by hand: the hot paths as PL/pgSQL functions. PL/pgSQL keeps the plan of each statement for
-- the life of a connection, so these multi-join statements are planned once per connection instead of
-- on every request (planning them cost more than running them), and each hot path is one round trip.

-- What `units` of a meter cost at `amount` per unit, rounded half-up to the currency's smallest unit
-- (BRL 2 decimals, USDC 6). The one place this rule lives.
CREATE FUNCTION "billing_cost"(p_units numeric, p_amount numeric, p_currency "Currency")
RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT round(p_units * p_amount, CASE p_currency WHEN 'BRL' THEN 2 ELSE 6 END)
$$;

-- The price that charges credits for a meter (CONTRACT §6): an active `credits` price, or an active
-- `metered` price with usageBillingMode `credits`, on an active product; the newest wins.
CREATE FUNCTION "billing_credits_price"(p_account text, p_meter text)
RETURNS TABLE ("id" text, "amount" numeric, "currency" "Currency")
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT price.id, price.amount::numeric, price.currency
    FROM "Price" price JOIN "Product" product ON product.id = price."productId"
    WHERE price."accountId" = p_account
      AND price."meterId" = p_meter
      AND price.active
      AND product.status = 'active'
      AND (price.model = 'credits' OR (price.model = 'metered' AND price."usageBillingMode" = 'credits'))
    ORDER BY price."createdAt" DESC, price.id DESC
    LIMIT 1;
END
$$;

-- Everything the access check needs, in one call: whether customer and meter exist in the account, the
-- customer's entitlement to subscription-mode usage of the meter (active before past_due before
-- expired: the enum's order), the meter's credits price, what `p_quantity` costs under it (one unit
-- per use on a `count` meter) and the customer's balance in that price's currency.
CREATE FUNCTION "billing_access_facts"(p_account text, p_customer text, p_meter text, p_quantity numeric)
RETURNS TABLE (
  "customerId" text, "meterId" text, "entitlementStatus" text, "currency" text, "cost" numeric, "balance" numeric
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT customer.id, meter.id,
      (SELECT entitlement.status::text FROM "Entitlement" entitlement
        WHERE entitlement."accountId" = p_account AND entitlement."customerId" = customer.id
          AND entitlement.status IN ('active', 'past_due', 'expired')
          AND EXISTS (
            SELECT 1 FROM "Price" price JOIN "Product" product ON product.id = price."productId"
            WHERE price."productId" = entitlement."productId" AND product.status = 'active' AND price.active
              AND price."meterId" = meter.id AND price.model = 'metered' AND price."usageBillingMode" = 'subscription')
        ORDER BY entitlement.status, entitlement."createdAt" DESC
        LIMIT 1),
      credits_price.currency::text,
      "billing_cost"(CASE meter.aggregation WHEN 'count' THEN 1 ELSE p_quantity END, credits_price.amount, credits_price.currency),
      (SELECT balance.balance::numeric FROM "CreditBalance" balance
        WHERE balance."customerId" = customer.id AND balance.currency = credits_price.currency)
    FROM (SELECT 1) AS one
    LEFT JOIN "Customer" customer ON customer.id = p_customer AND customer."accountId" = p_account
    LEFT JOIN "Meter" meter ON meter.id = p_meter AND meter."accountId" = p_account
    LEFT JOIN LATERAL "billing_credits_price"(p_account, meter.id) AS credits_price ON true;
END
$$;

-- Records a batch of usage events in the caller's transaction (CONTRACT §3, §6). For each input it
-- returns one row, by `ord`: `recorded` (inserted now, its cost debited through the ledger),
-- `replayed` (its idempotencyKey was already used with the same fingerprint: that event, nothing
-- debited), `key_reused` (used with another fingerprint), `customer_not_found` or `meter_not_found`.
-- Usage is a fact: it is recorded whatever the balance. Locks are always taken in one order (event keys
-- by key, then balances by customer) so that concurrent batches cannot deadlock each other.
CREATE FUNCTION "billing_record_usage"(p_events jsonb)
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
