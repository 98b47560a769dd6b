import type { AccessDecision } from '../../access/checkAccess'
import { topUpLinkLifetimeMilliseconds, topUpUrl } from '../../checkout/paymentLinks'
import { accountClock } from '../../domain/DomainContext'
import { formatAmount } from '../../domain/money'
import { builder } from '../builder'
import { positiveQuantity } from '../jsonSchemaExtensions'
import { requireCaller, type GraphQLContext } from '../GraphQLContext'
import { consumeAccess } from '../../access/consumeAccess'
import { RecordUsageEventInput, UsageEventNode } from './UsageEvent'

interface AccessResult extends AccessDecision {
  accountId: string
}

function paymentUrlFor(result: AccessResult, context: GraphQLContext): string | null {
  if (!result.shortfall) return null
  return topUpUrl(context.services.publicUrl, context.services.signingSecret, {
    accountId: result.accountId,
    customerId: result.shortfall.customerId,
    currency: result.shortfall.currency,
    amount: formatAmount(result.shortfall.amount, result.shortfall.currency),
    expiresAt: new Date((context.caller ? accountClock(context.caller.account) : context.clock).now().getTime() + topUpLinkLifetimeMilliseconds),
  })
}

const AccessReasonEnum = builder.enumType('AccessReason', {
  values: ['credits_available', 'insufficient_credits', 'no_entitlement', 'entitlement_expired', 'entitlement_past_due'] as const,
})

const AccessCheckResultType = builder.objectRef<AccessResult>('AccessCheckResult').implement({
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed'),
    reason: t.expose('reason', { type: AccessReasonEnum }),
    paymentUrl: t.string({
      nullable: true,
      description: 'On insufficient_credits: a page where the customer buys the credits that are missing.',
      resolve: (result, _args, context) => paymentUrlFor(result, context),
    }),
  }),
})

const AccessCheckInput = builder.inputType('AccessCheckInput', {
  fields: (t) => ({
    customerId: t.id({ required: true }),
    meterId: t.id({ required: true }),
    quantity: t.float({ required: true, description: 'Greater than zero.', extensions: positiveQuantity }),
  }),
})

builder.queryField('accessCheck', (t) =>
  t.field({
    type: AccessCheckResultType,
    description: 'May the customer use this much of the meter now? A denial is a result, not an error.',
    scopes: ['write', 'usage:write'],
    args: { input: t.arg({ type: AccessCheckInput, required: true }) },
    resolve: async (_root, args, context) => {
      const domain = requireCaller(context)
      return { ...(await context.services.accessChecks.check(domain, args.input)), accountId: domain.account.id }
    },
  }),
)

interface ConsumeOutcome extends AccessResult {
  event: Awaited<ReturnType<typeof consumeAccess>>['event']
}

const ConsumeResultType = builder.objectRef<ConsumeOutcome>('ConsumeResult').implement({
  description: 'An access check that, when allowed, also recorded the usage and debited its cost, atomically.',
  fields: (t) => ({
    allowed: t.exposeBoolean('allowed'),
    reason: t.expose('reason', { type: AccessReasonEnum }),
    paymentUrl: t.string({ nullable: true, resolve: (result, _args, context) => paymentUrlFor(result, context) }),
    event: t.field({ type: UsageEventNode, nullable: true, resolve: (result) => result.event }),
  }),
})

builder.mutationField('consumeAccess', (t) =>
  t.field({
    type: ConsumeResultType,
    description: 'Atomic check-and-debit (extension): records the usage only if access is allowed.',
    scopes: ['write', 'usage:write'],
    args: { input: t.arg({ type: RecordUsageEventInput, required: true }) },
    resolve: async (_root, args, context) => {
      const domain = requireCaller(context)
      return { ...(await consumeAccess(domain, args.input)), accountId: domain.account.id }
    },
  }),
)
