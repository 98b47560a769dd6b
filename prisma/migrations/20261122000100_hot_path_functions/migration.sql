-- Written by hand: the hot paths' reads as PL/pgSQL functions. PL/pgSQL keeps the plan of each
-- statement for the life of a connection, so these multi-join reads are planned once per connection
-- instead of on every request (planning cost more than running them).

-- The price that charges credits for a meter (CONTRACT §6): an active `credits` price, or an active
-- `metered` price with usageBillingMode `credits`, on an active product; the newest wins.
CREATE FUNCTION "billing_credits_price"(p_account text, p_meter text)
RETURNS TABLE ("id" text, "amount" numeric, "currency" "Currency")
LANGUAGE plpgsql STABLE AS $$
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
-- expired), the meter's credits price and the customer's balance in that price's currency.
CREATE FUNCTION "billing_access_facts"(p_account text, p_customer text, p_meter text)
RETURNS TABLE (
  "customerId" text, "meterId" text, "aggregation" text, "entitlementStatus" text,
  "unitAmount" numeric, "currency" text, "balance" numeric
)
LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN QUERY
    SELECT customer.id, meter.id, meter.aggregation::text,
      (SELECT entitlement.status::text FROM "Entitlement" entitlement
        WHERE entitlement."accountId" = p_account AND entitlement."customerId" = customer.id
          AND entitlement.status IN ('active', 'past_due', 'expired')
          AND EXISTS (
            SELECT 1 FROM "Price" price JOIN "Product" product ON product.id = price."productId"
            WHERE price."productId" = entitlement."productId" AND product.status = 'active' AND price.active
              AND price."meterId" = meter.id AND price.model = 'metered' AND price."usageBillingMode" = 'subscription')
        ORDER BY entitlement.status, entitlement."createdAt" DESC
        LIMIT 1),
      credits_price.amount, credits_price.currency::text,
      (SELECT balance.balance::numeric FROM "CreditBalance" balance
        WHERE balance."customerId" = customer.id AND balance.currency = credits_price.currency)
    FROM (SELECT 1) AS one
    LEFT JOIN "Customer" customer ON customer.id = p_customer AND customer."accountId" = p_account
    LEFT JOIN "Meter" meter ON meter.id = p_meter AND meter."accountId" = p_account
    LEFT JOIN LATERAL "billing_credits_price"(p_account, meter.id) AS credits_price ON true;
END
$$;
