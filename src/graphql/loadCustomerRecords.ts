import type { GraphQLResolveInfo } from 'graphql'
import { countRecordsByParent, readRecordPagesByParent } from '../domain/readRecordPages'
import type { RecordPage } from '../domain/RecordList'
import { recordListQuery } from '../domain/recordListQuery'
import { cursorScope, largeColumnsAsked, listIdentity, readRecordPageRequest, toRecordConnection, type Connection, type RecordConnectionOptions } from './connections'
import { chargeResponse, requireCaller, type GraphQLContext } from './GraphQLContext'
import { requestLoader } from './requestLoader'

/**
 * A customer's nested connection (usage events, transactions, ledger, …), batched: every customer in the
 * response that asks for the same list with the same filters, order, page and columns is answered by one
 * query, and their `totalCount`s by one more.
 */
export async function loadCustomerRecords<T extends { id: string }, Filter extends object, Field extends string>(
  context: GraphQLContext,
  info: GraphQLResolveInfo,
  customerId: string,
  options: RecordConnectionOptions<T, Filter, Field>,
): Promise<Connection<T>> {
  const domain = requireCaller(context)
  const identity = listIdentity(`customer.${options.list}`, options.filter, options.order)
  const scope = cursorScope(context, domain, identity)
  const request = readRecordPageRequest(scope, options.args, options.limits)
  const query = recordListQuery(options.definition, domain.account.id, options.filter, options.order)
  const largeColumns = largeColumnsAsked(info, query.largeColumns)
  const pages = requestLoader<string, RecordPage<T>>(context, `${identity}\n${JSON.stringify(request)}\n${largeColumns.join(',')}`, async (customerIds) => {
    const byCustomer = await readRecordPagesByParent<T>(domain.db, query, 'customerId', customerIds, request, {
      largeColumns,
      charge: (bytes) => chargeResponse(context, bytes),
    })
    return customerIds.map((id) => byCustomer.get(id)!)
  })
  const counts = requestLoader<string, number>(context, `count\n${identity}`, async (customerIds) => {
    const byCustomer = await countRecordsByParent(domain.db, query, 'customerId', customerIds)
    return customerIds.map((id) => byCustomer.get(id) ?? 0)
  })
  return toRecordConnection(scope, query, request, await pages.load(customerId), () => counts.load(customerId))
}
