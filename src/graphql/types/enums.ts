import {
  CheckoutMode,
  CheckoutStatus,
  Currency,
  EntitlementSource,
  EntitlementStatus,
  InvoiceStatus,
  PaymentMethod,
  SubscriptionStatus,
  LedgerEntryKind,
  MeterAggregation,
  MeterResetPeriod,
  MeterUnit,
  PriceInterval,
  PriceModel,
  ProductStatus,
  ProductType,
  TransactionStatus,
  UsageBillingMode,
} from '../../generated/prisma/enums'
import { builder } from '../builder'

// The enums of the data model, exposed under the same names and values the REST API uses.

export const CurrencyEnum = builder.enumType(Currency, { name: 'Currency' })
export const ProductTypeEnum = builder.enumType(ProductType, { name: 'ProductType' })
export const ProductStatusEnum = builder.enumType(ProductStatus, { name: 'ProductStatus' })
export const PriceModelEnum = builder.enumType(PriceModel, { name: 'PriceModel' })
export const PriceIntervalEnum = builder.enumType(PriceInterval, { name: 'PriceInterval' })
export const UsageBillingModeEnum = builder.enumType(UsageBillingMode, { name: 'UsageBillingMode' })
export const MeterAggregationEnum = builder.enumType(MeterAggregation, { name: 'MeterAggregation' })
export const MeterUnitEnum = builder.enumType(MeterUnit, { name: 'MeterUnit' })
export const MeterResetPeriodEnum = builder.enumType(MeterResetPeriod, { name: 'MeterResetPeriod' })
export const LedgerEntryKindEnum = builder.enumType(LedgerEntryKind, { name: 'LedgerEntryKind' })
export const CheckoutModeEnum = builder.enumType(CheckoutMode, { name: 'CheckoutMode' })
export const CheckoutStatusEnum = builder.enumType(CheckoutStatus, { name: 'CheckoutStatus' })
export const TransactionStatusEnum = builder.enumType(TransactionStatus, { name: 'TransactionStatus' })
export const SubscriptionStatusEnum = builder.enumType(SubscriptionStatus, { name: 'SubscriptionStatus' })
export const PaymentMethodEnum = builder.enumType(PaymentMethod, { name: 'PaymentMethod' })
export const EntitlementStatusEnum = builder.enumType(EntitlementStatus, { name: 'EntitlementStatus' })
export const EntitlementSourceEnum = builder.enumType(EntitlementSource, { name: 'EntitlementSource' })
export const InvoiceStatusEnum = builder.enumType(InvoiceStatus, { name: 'InvoiceStatus' })
