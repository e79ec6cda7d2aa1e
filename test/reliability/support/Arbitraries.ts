/**
 * `Arbitrary.make` for the SDK's response schemas. The schemas validate bytes
 * (base58 that decodes to exactly 32 bytes, u64 ranges, equal-length arrays),
 * which random strings and numbers almost never satisfy, so plain `Arbitrary.make`
 * would filter forever. `withArbitraries` rebuilds a schema's AST with an
 * `arbitrary` annotation on each such node (found by its identifier) and leaves
 * the rest to `Arbitrary.make`: the generated values still pass every filter.
 */
import { encodeBase58, encodeBase64 } from "@solfx/core/Primitives"
import * as SchemaAst from "@solfx/testing/SchemaAst"
import * as Arbitrary from "effect/Arbitrary"
import type * as FastCheck from "effect/FastCheck"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

type Lazy = (fc: typeof FastCheck) => FastCheck.Arbitrary<any>

const base58 = (n: number): Lazy => (fc) => fc.uint8Array({ minLength: n, maxLength: n }).map(encodeBase58)
const proofBytes = (n: number): Lazy => (fc) =>
  fc.oneof(fc.constant(new Uint8Array(0)), fc.uint8Array({ minLength: n, maxLength: n }))

const u64: Lazy = (fc) => fc.bigInt({ min: 0n, max: 2n ** 64n - 1n })

/** Arbitraries by identifier, or by brand (branding a refinement drops its identifier). */
const byIdentifier: Record<string, (node: AST.AST) => Lazy> = {
  Address: () => base58(32),
  Signature: () => base58(64),
  Hash32: () => base58(32),
  WalletAddress: () => base58(32),
  Base58: () => (fc) => fc.uint8Array({ maxLength: 64 }).map(encodeBase58),
  Base64: () => (fc) => fc.uint8Array({ maxLength: 96 }).map(encodeBase64),
  U64: () => u64,
  AmountRaw: () => (fc) => fc.bigInt({ min: 0n, max: 10n ** 40n - 1n }),
  "ProofBytes(32)": () => proofBytes(32),
  "ProofBytes(64)": () => proofBytes(64),
  // Five arrays of one length: generate the struct, then cut every array to the shortest.
  ValidityProof: (node) => {
    const from = Arbitrary.makeLazy(Schema.make(withArbitraries((node as AST.Refinement).from)))
    return (fc) =>
      from(fc).map((p: any) => {
        const n = Math.min(
          p.roots.length,
          p.rootIndices.length,
          p.leafIndices.length,
          p.leaves.length,
          p.merkleTrees.length
        )
        return {
          ...p,
          roots: p.roots.slice(0, n),
          rootIndices: p.rootIndices.slice(0, n),
          leafIndices: p.leafIndices.slice(0, n),
          leaves: p.leaves.slice(0, n),
          merkleTrees: p.merkleTrees.slice(0, n)
        }
      })
  }
}

const memo = new Map<AST.AST, AST.AST>()

/** The same AST with `arbitrary` annotations on the nodes `byIdentifier` knows. */
export const withArbitraries = (ast: AST.AST): AST.AST =>
  SchemaAst.rewrite(ast, (node) => {
    const id = Option.getOrUndefined(AST.getIdentifierAnnotation(node)) ??
      Option.getOrUndefined(
        Option.flatMap(AST.getBrandAnnotation(node), (brands) => Option.fromNullable(brands.at(-1)))
      )
    const known = typeof id === "string" ? byIdentifier[id] : undefined
    if (known !== undefined) return AST.annotations(node, { [AST.ArbitraryAnnotationId]: () => known(node) })
    // The type side of a transformation (`typeSchema`, a struct with defaults) loses the U64 node, keeping its
    // bigint: every bigint of a response is a u64 (or a smaller non-negative amount).
    if (node._tag === "BigIntKeyword") return AST.annotations(node, { [AST.ArbitraryAnnotationId]: () => u64 })
    return undefined
  }, memo)

/** `Arbitrary.make` of a response schema, with the byte-level primitives generated directly. */
export const arbitraryOf = <A, I>(schema: Schema.Schema<A, I>): FastCheck.Arbitrary<A> =>
  Arbitrary.make(Schema.make<A, I, never>(withArbitraries(schema.ast)))

/**
 * An encoded value as JSON can carry it: `number` fields hold finite doubles, and
 * integers within 2^53 (the SDK keeps bigger integer literals as digits, for u64
 * fields; in a `number` field they are a decode error, tested as corruption).
 */
export const jsonSafe = (u: unknown): unknown => {
  if (typeof u === "number") {
    if (!Number.isFinite(u)) return 0
    return Number.isInteger(u) && !Number.isSafeInteger(u) ? Math.sign(u) * Number.MAX_SAFE_INTEGER : u
  }
  if (Array.isArray(u)) return u.map(jsonSafe)
  if (typeof u === "object" && u !== null) {
    return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, jsonSafe(v)]))
  }
  return u
}
