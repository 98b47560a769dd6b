import { GraphQLError, type ASTVisitor, type FloatValueNode, type IntValueNode, type ValidationContext } from 'graphql'
import { keepsItsDigits } from '../domain/money'

/**
 * A number literal in the document with more significant digits than a double keeps would be rounded
 * silently when coerced (a quantity of 1.00000000000000001 recorded as 1): refused instead, as REST does.
 */
export function exactNumbersRule(context: ValidationContext): ASTVisitor {
  const check = (node: FloatValueNode | IntValueNode) => {
    if (!keepsItsDigits(node.value)) {
      context.reportError(new GraphQLError(`${node.value} has more than 15 significant digits and would be rounded`, { nodes: [node] }))
    }
  }
  return { FloatValue: check, IntValue: check }
}
