import { listCustomerRecords, type CustomerRecordList } from '../customers/listCustomerRecords'
import type { ListPosition, Page } from '../domain/Page'
import { readPageRequest, toConnection, type Connection, type ConnectionArguments } from './connections'
import { authorize, type GraphQLContext } from './GraphQLContext'
import { requestLoader } from './requestLoader'

/**
 * A customer's nested connection (usage events, transactions, ledger), batched: every customer in the
 * response that asks for the same list with the same page arguments is answered by one query.
 */
export async function loadCustomerRecords<T extends ListPosition & { customerId: string }>(
  context: GraphQLContext,
  list: CustomerRecordList,
  customerId: string,
  args: ConnectionArguments,
): Promise<Connection<T>> {
  const domain = authorize(context, ['read'])
  const listName = `customer.${list}`
  const page = readPageRequest(context, domain, listName, args)
  const loader = requestLoader<string, Page<T>>(context, `${listName}:${page.limit}:${args.after ?? ''}`, async (customerIds) => {
    const pages = await listCustomerRecords<T>(domain, list, customerIds, page)
    return customerIds.map((id) => pages.get(id)!)
  })
  return toConnection(context, domain, listName, await loader.load(customerId))
}
