/**
 * A copy of a response schema without its byte-level checks, for the decode bench to
 * measure what those checks cost: every refinement that carries a compiled predicate
 * (core's base58 addresses, signatures and hashes, base64, field elements) passes
 * every string of its type. On a valid body the copy decodes to the same value.
 * Nothing but the bench uses it: a client that skipped these checks would accept
 * a 33-byte address.
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** Core's annotation for a refinement's compiled predicate (`FastDecoder.PredicateId`, internal to core). */
const PREDICATE = Symbol.for("@solfx/core/FastDecoder/Predicate")

const pass = () => true

export const withoutByteChecks = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, I> => {
  const copies = new Map<AST.AST, AST.AST>()
  const go = (ast: AST.AST): AST.AST => {
    const seen = copies.get(ast)
    if (seen !== undefined) return seen
    const copy = rebuild(ast)
    copies.set(ast, copy)
    return copy
  }
  const rebuild = (ast: AST.AST): AST.AST => {
    switch (ast._tag) {
      case "Refinement":
        return typeof ast.annotations[PREDICATE] === "function"
          ? new AST.Refinement(go(ast.from), () => Option.none(), { ...ast.annotations, [PREDICATE]: pass })
          : new AST.Refinement(go(ast.from), ast.filter, ast.annotations)
      case "Transformation":
        return new AST.Transformation(go(ast.from), go(ast.to), ast.transformation, ast.annotations)
      case "TypeLiteral":
        return new AST.TypeLiteral(
          ast.propertySignatures.map((p) =>
            new AST.PropertySignature(p.name, go(p.type), p.isOptional, p.isReadonly, p.annotations)
          ),
          ast.indexSignatures.map((i) => new AST.IndexSignature(i.parameter, go(i.type), i.isReadonly)),
          ast.annotations
        )
      case "TupleType":
        return new AST.TupleType(
          ast.elements.map((e) => new AST.OptionalType(go(e.type), e.isOptional, e.annotations)),
          ast.rest.map((r) => new AST.Type(go(r.type), r.annotations)),
          ast.isReadonly,
          ast.annotations
        )
      case "Union":
        return AST.Union.make(ast.types.map(go), ast.annotations)
      case "Suspend":
        return new AST.Suspend(() => go(ast.f()), ast.annotations)
      default:
        return ast
    }
  }
  return Schema.make(go(schema.ast))
}
