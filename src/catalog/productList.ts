import type { RecordListDefinition, TimeRange } from '../domain/RecordList'
import { columnsOf, enumEquals, timeWithin } from '../domain/recordListQuery'
import { Prisma, type Product } from '../generated/prisma/client'

export interface ProductFilter {
  status?: string | null
  type?: string | null
  createdAt?: TimeRange | null
}

export const productList: RecordListDefinition<Product, ProductFilter, 'createdAt' | 'name'> = {
  table: 'Product',
  columns: columnsOf(Prisma.ProductScalarFieldEnum, ['metadata']),
  largeColumns: ['metadata'],
  sorts: { createdAt: { column: 'createdAt', kind: 'time' }, name: { column: 'name', kind: 'text' } },
  conditions: (filter) => [...enumEquals('status', 'ProductStatus', filter.status), ...enumEquals('type', 'ProductType', filter.type), ...timeWithin('createdAt', filter.createdAt)],
}
