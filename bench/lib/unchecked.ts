/**
 * A copy of a response schema without its byte-level checks, for the decode bench to
 * measure what those checks cost: every refinement that carries a compiled predicate
 * (core's base58 addresses, signatures and hashes, base64, field elements) passes
 * every string of its type. On a valid body the copy decodes to the same value.
 * Nothing but the bench uses it: a client that skipped these checks would accept
 * a 33-byte address.
 */
import * as SchemaAst from "@solfx/testing/SchemaAst"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/** Core's annotation for a refinement's compiled predicate (`FastDecoder.PredicateId`, internal to core). */
const PREDICATE = Symbol.for("@solfx/core/FastDecoder/Predicate")

const pass = () => true
/** A Schema filter that lets every value through. */
const passFilter = () => Option.none()

export const withoutByteChecks = <A, I>(schema: Schema.Schema<A, I>): Schema.Schema<A, I> =>
  Schema.make(
    SchemaAst.rewrite(schema.ast, (node, copy) =>
      node._tag === "Refinement" && typeof node.annotations[PREDICATE] === "function"
        ? new AST.Refinement(copy(node.from), passFilter, { ...node.annotations, [PREDICATE]: pass })
        : undefined)
  )
