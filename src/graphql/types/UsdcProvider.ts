import { configureUsdcProvider } from '../../payments/usdc/configureUsdcProvider'
import type { UsdcProvider } from '../../generated/prisma/client'
import { builder } from '../builder'
import { requireCaller } from '../GraphQLContext'
import { AccountSettings } from './Account'

export const UsdcProviderSettings = builder.objectRef<UsdcProvider>('UsdcProviderSettings').implement({
  description: 'The account\'s USDC provider (never its signer key). Addresses are EIP-55 checksummed.',
  fields: (t) => ({
    rpcUrl: t.exposeString('rpcUrl'),
    chainId: t.exposeInt('chainId'),
    token: t.exposeString('token'),
    xpub: t.exposeString('xpub', { description: 'Deposit addresses are its children 0/i.' }),
    confirmations: t.exposeInt('confirmations', { description: 'A transfer settles when head − block + 1 reaches this.' }),
    signerAddress: t.exposeString('signerAddress', { nullable: true, description: 'Sends pulls and refunds and pays their gas.' }),
    treasury: t.exposeString('treasury', { nullable: true, description: 'Where pulls send the money.' }),
    configuredAt: t.expose('configuredAt', { type: 'DateTime' }),
  }),
})

const ConfigureUsdcProviderInput = builder.inputType('ConfigureUsdcProviderInput', {
  fields: (t) => ({
    rpcUrl: t.string({ required: true }),
    chainId: t.int({ required: true }),
    token: t.string({ required: true, description: 'The 6-decimal token contract (USDC).' }),
    xpub: t.string({ required: true, description: 'BIP32 extended public key; deposit addresses are its children 0/i.' }),
    confirmations: t.int({ required: false, description: 'Default 12.' }),
    signerKey: t.string({ required: false, description: 'Hex private key of the signer (pulls, refunds); stored encrypted, never returned.' }),
    treasury: t.string({ required: false, description: 'Where pulls send the money; default the signer\'s address.' }),
    pollSeconds: t.int({ required: false, description: 'Default 5.' }),
  }),
})

builder.objectField(AccountSettings, 'usdcProvider', (t) =>
  t.field({
    type: UsdcProviderSettings,
    nullable: true,
    scopes: ['read'],
    resolve: (account, _args, context) => requireCaller(context).db.usdcProvider.findUnique({ where: { accountId: account.id } }),
  }),
)

builder.mutationField('configureUsdcProvider', (t) =>
  t.field({
    type: UsdcProviderSettings,
    description: 'Get paid in USDC on an EVM chain (CONTRACT §9.2).',
    scopes: ['write'],
    args: { input: t.arg({ type: ConfigureUsdcProviderInput, required: true }) },
    resolve: (_root, args, context) => configureUsdcProvider(requireCaller(context), args.input),
  }),
)
