import { setEnabledRails } from '../../accounts/setEnabledRails'
import { advanceClock } from '../../billing/advanceClock'
import type { PaymentMethod } from '../../generated/prisma/client'
import { builder } from '../builder'
import { requireCaller } from '../GraphQLContext'
import { PaymentMethodEnum } from './enums'

export const AccountSettings = builder.objectRef<{ id: string; mode: 'test' | 'live'; enabledRails: PaymentMethod[] }>('AccountSettings').implement({
  description: 'The caller\'s account.',
  fields: (t) => ({
    id: t.exposeString('id'),
    mode: t.string({ resolve: (account) => account.mode }),
    enabledRails: t.field({ type: [PaymentMethodEnum], resolve: (account) => account.enabledRails }),
  }),
})

const ClockAdvance = builder.objectRef<{ now: Date }>('ClockAdvance').implement({
  fields: (t) => ({ now: t.expose('now', { type: 'DateTime', description: 'The account\'s clock after the move.' }) }),
})

const AdvanceClockInput = builder.inputType('AdvanceClockInput', {
  fields: (t) => ({ seconds: t.int({ required: true, description: 'How far to move the clock: 1 second to 10 years.' }) }),
})

builder.queryField('account', (t) =>
  t.field({
    type: AccountSettings,
    scopes: ['read'],
    resolve: async (_root, _args, context) => {
      const domain = requireCaller(context)
      return domain.db.account.findUniqueOrThrow({ where: { id: domain.account.id } })
    },
  }),
)

builder.mutationFields((t) => ({
  setEnabledRails: t.field({
    type: AccountSettings,
    description: 'Which payment rails new subscriptions may use.',
    scopes: ['write'],
    args: { rails: t.arg({ type: [PaymentMethodEnum], required: true }) },
    resolve: async (_root, args, context) => {
      const domain = requireCaller(context)
      return setEnabledRails(domain, domain.account.id, args.rails)
    },
  }),
  advanceClockForTesting: t.field({
    type: ClockAdvance,
    description: 'Sandbox helper (test accounts only). Moves the account\'s clock forward and runs all billing work that falls due.',
    scopes: ['write'],
    args: { input: t.arg({ type: AdvanceClockInput, required: true }) },
    resolve: async (_root, args, context) => {
      const moved = await advanceClock(requireCaller(context), args.input.seconds)
      // This process answers the caller's next request: it must see the new clock at once.
      context.services.apiKeyCache.clear()
      return moved
    },
  }),
}))
