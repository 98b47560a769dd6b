import DataLoader from 'dataloader'
import type { GraphQLContext } from './GraphQLContext'

/**
 * The request's batch loader under `key`, made on first use: every field that asks for the same key
 * while the response is resolved shares one batch (one query instead of one per parent object).
 */
export function requestLoader<Key, Value>(context: GraphQLContext, key: string, batch: (keys: readonly Key[]) => Promise<Value[]>): DataLoader<Key, Value> {
  let loader = context.loaders.get(key) as DataLoader<Key, Value> | undefined
  if (!loader) {
    loader = new DataLoader(batch)
    context.loaders.set(key, loader)
  }
  return loader
}
