import type { PixProvider } from '../../generated/prisma/client'
import { configurePixProvider } from '../../payments/pix/configurePixProvider'
import { pixWebhookUrl } from '../../payments/pix/pixWebhookUrl'
import { builder } from '../builder'
import { requireCaller } from '../GraphQLContext'
import { AccountSettings } from './Account'

export const PixProviderSettings = builder.objectRef<PixProvider>('PixProviderSettings').implement({
  description: 'The account\'s PSP for PIX through the Central Bank\'s API Pix (never its secrets).',
  fields: (t) => ({
    apiUrl: t.exposeString('apiUrl'),
    clientId: t.exposeString('clientId'),
    pixKey: t.exposeString('pixKey', { description: 'The receiver\'s Pix key charges are made out to.' }),
    webhookUrl: t.string({
      description: 'Registered at the PSP; it appends /pix (and /rec, /cobr) when it calls back.',
      resolve: (provider, _args, context) => pixWebhookUrl(context.services.publicUrl, provider.webhookToken),
    }),
    configuredAt: t.expose('configuredAt', { type: 'DateTime' }),
  }),
})

const ConfigurePixProviderInput = builder.inputType('ConfigurePixProviderInput', {
  fields: (t) => ({
    apiUrl: t.string({ required: true, description: 'The PSP\'s API Pix base URL (paths /oauth/token, /cob/{txid}, … are relative to it).' }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true, description: 'Stored encrypted, never returned.' }),
    pixKey: t.string({ required: true }),
    tlsCertificate: t.string({ required: false, description: 'PEM client certificate for mutual TLS.' }),
    tlsKey: t.string({ required: false, description: 'PEM private key of tlsCertificate; stored encrypted, never returned.' }),
    tlsCa: t.string({ required: false, description: 'PEM CA the PSP\'s server certificate must chain to.' }),
    reconcileSeconds: t.int({ required: false, description: 'How often received Pix are reconciled (default 60).' }),
    receiverBranch: t.string({ required: false }),
    receiverAccount: t.string({ required: false }),
    receiverAccountType: t.string({ required: false, description: 'CORRENTE, POUPANCA or PAGAMENTO.' }),
  }),
})

builder.objectField(AccountSettings, 'pixProvider', (t) =>
  t.field({
    type: PixProviderSettings,
    nullable: true,
    scopes: ['read'],
    resolve: (account, _args, context) => requireCaller(context).db.pixProvider.findUnique({ where: { accountId: account.id } }),
  }),
)

builder.mutationField('configurePixProvider', (t) =>
  t.field({
    type: PixProviderSettings,
    description: 'Get paid in BRL through the account\'s PSP (CONTRACT §9.1): checks the credentials and registers the webhook.',
    scopes: ['write'],
    args: { input: t.arg({ type: ConfigurePixProviderInput, required: true }) },
    resolve: (_root, args, context) => configurePixProvider(requireCaller(context), args.input, context.services.publicUrl),
  }),
)
