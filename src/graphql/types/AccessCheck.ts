import { checkAccess, type AccessDecision } from '../../access/checkAccess'
import { topUpUrl } from '../../checkout/paymentLinks'
import { formatAmount } from '../../domain/money'
import { builder } from '../builder'
import { authorize } from '../GraphQLContext'

interface AccessResult extends AccessDecision {
  accountId: string
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
      resolve: (result, _args, context) =>
        result.shortfall
          ? topUpUrl(context.services.publicUrl, context.services.signingSecret, {
              accountId: result.accountId,
              customerId: result.shortfall.customerId,
              currency: result.shortfall.currency,
              amount: formatAmount(result.shortfall.amount, result.shortfall.currency),
            })
          : null,
    }),
  }),
})

const AccessCheckInput = builder.inputType('AccessCheckInput', {
  fields: (t) => ({
    customerId: t.string({ required: true }),
    meterId: t.string({ required: true }),
    quantity: t.float({ required: true }),
  }),
})

builder.queryField('accessCheck', (t) =>
  t.field({
    type: AccessCheckResultType,
    description: 'May the customer use this much of the meter now? A denial is a result, not an error. Scope: write or usage:write.',
    args: { input: t.arg({ type: AccessCheckInput, required: true }) },
    resolve: async (_root, args, context) => {
      const domain = authorize(context, ['write', 'usage:write'])
      return { ...(await checkAccess(domain, args.input)), accountId: domain.account.id }
    },
  }),
)
