import SchemaBuilder, { BasePlugin, type FieldNullability, type InputFieldMap, type PothosOutputFieldConfig, type SchemaTypes, type TypeParam } from '@pothos/core'
import type { GraphQLField, GraphQLFieldResolver } from 'graphql'
import { describeScopes, type Scope } from '../accounts/scopes'
import { authorizeField, type GraphQLContext } from './GraphQLContext'

// A field's scopes are declared once, as its `scopes` option. This plugin checks them before the
// resolver runs (no valid key is 401, a key without any of them is 403), ends the field's description
// with "Scope: …." and publishes them as `extensions.scopes`, where the REST bridge, the OpenAPI
// document and the access tests read them. A field without `scopes` is public.

declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace -- Pothos plugins and their field options are declared in this global namespace
  export namespace PothosSchemaTypes {
    interface Plugins<Types extends SchemaTypes> {
      fieldScopes: FieldScopesPlugin<Types>
    }
    /* eslint-disable @typescript-eslint/no-unused-vars -- a declaration merged into Pothos' FieldOptions repeats all its type parameters */
    interface FieldOptions<
      Types extends SchemaTypes = SchemaTypes,
      ParentShape = unknown,
      Type extends TypeParam<Types> = TypeParam<Types>,
      Nullable extends FieldNullability<Type> = FieldNullability<Type>,
      Args extends InputFieldMap = InputFieldMap,
      ResolveShape = unknown,
      ResolveReturnShape = unknown,
    > {
      /** The scopes of which a key must hold one (CONTRACT §2). */
      scopes?: readonly Scope[]
    }
    /* eslint-enable @typescript-eslint/no-unused-vars */
  }
}

export class FieldScopesPlugin<Types extends SchemaTypes> extends BasePlugin<Types> {
  override onOutputFieldConfig(fieldConfig: PothosOutputFieldConfig<Types>): PothosOutputFieldConfig<Types> {
    const scopes = declaredScopes(fieldConfig)
    if (!scopes) return fieldConfig
    const sentence = describeScopes(scopes)
    return {
      ...fieldConfig,
      description: fieldConfig.description ? `${fieldConfig.description} ${sentence}` : sentence,
      extensions: { ...fieldConfig.extensions, scopes },
    }
  }

  override wrapResolve(
    resolver: GraphQLFieldResolver<unknown, Types['Context'], object>,
    fieldConfig: PothosOutputFieldConfig<Types>,
  ): GraphQLFieldResolver<unknown, Types['Context'], object> {
    const scopes = declaredScopes(fieldConfig)
    if (!scopes) return resolver
    return (parent, args, context, info) => {
      authorizeField(context as GraphQLContext, scopes)
      return resolver(parent, args, context, info)
    }
  }
}

function declaredScopes<Types extends SchemaTypes>(fieldConfig: PothosOutputFieldConfig<Types>): readonly Scope[] | undefined {
  const scopes = (fieldConfig.pothosOptions as { scopes?: readonly Scope[] }).scopes
  if (scopes !== undefined && scopes.length === 0) throw new Error(`${fieldConfig.parentType}.${fieldConfig.name}: scopes must name at least one scope`)
  return scopes
}

/** The scopes a field of the built schema accepts; empty for a public field. */
export function fieldScopes(field: GraphQLField<unknown, unknown>): readonly Scope[] {
  return (field.extensions.scopes as readonly Scope[] | undefined) ?? []
}

/** The plugin's name, as the builder's `plugins` option takes it; importing this module registers it. */
export const fieldScopesPlugin = 'fieldScopes'

SchemaBuilder.registerPlugin(fieldScopesPlugin, FieldScopesPlugin)
