import { archiveProduct } from '../../catalog/archiveProduct'
import { createPrice } from '../../catalog/createPrice'
import { createProduct } from '../../catalog/createProduct'
import { getProduct } from '../../catalog/getProduct'
import { productList } from '../../catalog/productList'
import { updatePrice } from '../../catalog/updatePrice'
import { updateProduct } from '../../catalog/updateProduct'
import { formatAmount } from '../../domain/money'
import { builder } from '../builder'
import { amountInput, amountOutput, metadataInput } from '../jsonSchemaExtensions'
import { countConnection, readOrder, resolveRecordConnection, totalCountDescription } from '../connections'
import { orderByInput, pageArguments, TimeRangeInput } from '../pageArguments'
import { requireCaller } from '../GraphQLContext'
import {
  CurrencyEnum,
  PriceIntervalEnum,
  PriceModelEnum,
  ProductStatusEnum,
  ProductTypeEnum,
  UsageBillingModeEnum,
} from './enums'

export const PriceType = builder.prismaNode('Price', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    productId: t.exposeString('productId'),
    amount: t.string({
      description: 'Decimal string in major units with the currency\'s decimals; for metered and credits prices, the price of one unit of the meter.',
      extensions: amountOutput,
      resolve: (price) => formatAmount(price.amount, price.currency),
    }),
    currency: t.expose('currency', { type: CurrencyEnum }),
    model: t.expose('model', { type: PriceModelEnum }),
    interval: t.expose('interval', { type: PriceIntervalEnum, nullable: true }),
    usageBillingMode: t.expose('usageBillingMode', { type: UsageBillingModeEnum, nullable: true }),
    meterId: t.exposeString('meterId', { nullable: true }),
    active: t.exposeBoolean('active'),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
})

export const ProductNode = builder.prismaNode('Product', {
  id: { field: 'id' },
  findUnique: (id, context) => ({ accountId_id: { accountId: context.caller?.account.id ?? '', id } }),
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.expose('type', { type: ProductTypeEnum }),
    description: t.exposeString('description', { nullable: true }),
    metadata: t.expose('metadata', { type: 'JSONObject', nullable: true }),
    status: t.expose('status', { type: ProductStatusEnum }),
    defaultPriceId: t.exposeString('defaultPriceId', { nullable: true }),
    defaultPrice: t.relation('defaultPrice', { nullable: true }),
    prices: t.relation('prices', { query: { orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] } }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
})

const ProductConnection = builder.connectionObject({ type: ProductNode, name: 'ProductConnection', fields: (t) => ({ totalCount: t.int({ description: totalCountDescription, resolve: countConnection }) }) }, { name: 'ProductEdge' })

const ProductOrder = orderByInput('ProductOrder', { CREATED_AT: 'createdAt', NAME: 'name' })

builder.queryFields((t) => ({
  product: t.field({
    type: ProductNode,
    scopes: ['read'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => getProduct(requireCaller(context), String(args.id), 'id'),
  }),
  products: t.field({
    type: ProductConnection,
    description: 'Products, newest first.',
    scopes: ['read'],
    args: {
      ...pageArguments,
      status: t.arg({ type: ProductStatusEnum, required: false }),
      type: t.arg({ type: ProductTypeEnum, required: false }),
      createdAt: t.arg({ type: TimeRangeInput, required: false }),
      orderBy: t.arg({ type: ProductOrder, required: false, description: 'Default: newest first.' }),
    },
    resolve: (_root, args, context, info) =>
      resolveRecordConnection(context, info, {
        list: 'products',
        definition: productList,
        filter: { status: args.status, type: args.type, createdAt: args.createdAt },
        order: readOrder(args.orderBy),
        args,
      }),
  }),
}))

const PriceFields = builder.inputType('PriceInput', {
  fields: (t) => ({
    amount: t.string({ required: true, description: 'Decimal string in major units, e.g. "29.90" (BRL: 2 decimals, USDC: 6).', extensions: amountInput }),
    currency: t.field({ type: CurrencyEnum, required: true }),
    model: t.field({ type: PriceModelEnum, required: true }),
    interval: t.field({ type: PriceIntervalEnum, required: false, description: 'Required when model is subscription.' }),
    usageBillingMode: t.field({ type: UsageBillingModeEnum, required: false, description: 'Required when model is metered.' }),
    meterId: t.id({ required: false, description: 'Required for metered and credits prices: amount is then the price of one unit of this meter.' }),
  }),
})

const CreateProductInput = builder.inputType('CreateProductInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    type: t.field({ type: ProductTypeEnum, required: true }),
    description: t.string({ required: false }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
    defaultPrice: t.field({ type: PriceFields, required: false }),
  }),
})

const UpdateProductInput = builder.inputType('UpdateProductInput', {
  description: 'Absent fields are left as they are; null clears description and metadata.',
  fields: (t) => ({
    name: t.string({ required: false }),
    description: t.string({ required: false }),
    metadata: t.field({ type: 'JSONObject', required: false, extensions: metadataInput }),
    status: t.field({ type: ProductStatusEnum, required: false }),
  }),
})

const UpdatePriceInput = builder.inputType('UpdatePriceInput', {
  fields: (t) => ({
    amount: t.string({ required: false, extensions: amountInput }),
    currency: t.field({ type: CurrencyEnum, required: false }),
  }),
})

builder.mutationFields((t) => ({
  createProduct: t.field({
    type: ProductNode,
    scopes: ['write'],
    args: { input: t.arg({ type: CreateProductInput, required: true }) },
    resolve: (_root, args, context) => createProduct(requireCaller(context), args.input),
  }),
  updateProduct: t.field({
    type: ProductNode,
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateProductInput, required: true }) },
    resolve: (_root, args, context) => updateProduct(requireCaller(context), String(args.id), args.input),
  }),
  archiveProduct: t.field({
    type: ProductNode,
    description: 'Refused (active_subscription) while a subscription on the product is not canceled.',
    scopes: ['write'],
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, context) => archiveProduct(requireCaller(context), String(args.id)),
  }),
  createPrice: t.field({
    type: PriceType,
    scopes: ['write'],
    args: { productId: t.arg.id({ required: true }), input: t.arg({ type: PriceFields, required: true }) },
    resolve: (_root, args, context) => createPrice(requireCaller(context), String(args.productId), args.input),
  }),
  updatePrice: t.field({
    type: PriceType,
    scopes: ['write'],
    args: { productId: t.arg.id({ required: true }), priceId: t.arg.id({ required: true }), input: t.arg({ type: UpdatePriceInput, required: true }) },
    resolve: (_root, args, context) => updatePrice(requireCaller(context), String(args.productId), String(args.priceId), args.input),
  }),
}))
