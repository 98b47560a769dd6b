import type { ApiKeyCache } from './accounts/ApiKeyCache'
import type { RateLimiter } from './accounts/RateLimiter'
import type { DatabaseConnection } from './database/createDatabaseClient'
import type { AccessChecker } from './access/AccessChecker'
import type { UsageEventRecorder } from './metering/UsageEventRecorder'
import type { KeylessRateLimiter } from './accounts/KeylessRateLimiter'
import type { ResponseBytesInFlight } from './domain/ResponseBytesInFlight'

/** What lives as long as the process: one per server, shared by every request. */
export interface Services {
  database: DatabaseConnection
  /** Recently used keys; emptied in every process whenever a key changes. */
  apiKeyCache: ApiKeyCache
  /** Requests per key per second, across processes (see RateLimiter). */
  rateLimiter: RateLimiter
  /** The usage-event hot path: group commit outside a transaction (see UsageEventRecorder). */
  usageEvents: UsageEventRecorder
  /** The access-check hot path: shared reads outside a transaction (see AccessChecker). */
  accessChecks: AccessChecker
  /** Requests without a valid key, per client address, in this process (see KeylessRateLimiter). */
  keylessRateLimiter: KeylessRateLimiter
  /** Bytes of responses being built or sent by this process (see ResponseBytesInFlight). */
  responseBytesInFlight: ResponseBytesInFlight
  /** Signs list cursors and payment links; the same in every process on one database (see loadSigningSecret). */
  signingSecret: Buffer
  /** Base of the URLs the service hands out (hosted pages). */
  publicUrl: string
  /** Where payers send money: shown on the hosted payment page. */
  paymentRails: PaymentRails
}

export interface PaymentRails {
  pixKey: string
  pixMerchantName: string
  pixMerchantCity: string
  usdcAddress: string
  usdcNetwork: string
}

/** Sandbox values; a live installation sets its own through the environment (README). */
export const defaultPaymentRails: PaymentRails = {
  pixKey: 'pix-sandbox@billing.example',
  pixMerchantName: 'BILLING SANDBOX',
  pixMerchantCity: 'SAO PAULO',
  usdcAddress: '0x000000000000000000000000000000000000dEaD',
  usdcNetwork: 'Base (sandbox)',
}
