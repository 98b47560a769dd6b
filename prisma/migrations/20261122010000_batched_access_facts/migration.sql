-- Written by hand: access checks that arrive together are answered by one call (one round trip and
-- one statement for many checks), each exactly as billing_access_facts answers it alone.
CREATE FUNCTION "billing_access_facts_batch"(p_checks jsonb)
RETURNS TABLE (
  "ord" integer, "customerId" text, "meterId" text, "entitlementStatus" text, "currency" text, "cost" numeric, "balance" numeric
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    SELECT input.ord, facts."customerId", facts."meterId", facts."entitlementStatus", facts.currency, facts.cost, facts.balance
    FROM jsonb_to_recordset(p_checks) AS input(ord integer, "accountId" text, "customerId" text, "meterId" text, quantity numeric)
    CROSS JOIN LATERAL "billing_access_facts"(input."accountId", input."customerId", input."meterId", input.quantity) AS facts
    ORDER BY input.ord;
END
$$;
