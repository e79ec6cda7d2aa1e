/**
 * The zero-knowledge validity proof of getValidityProof (as the service documents).
 *
 * The proof is a Groth16 proof over BN254: `a` is 32 bytes, `b` 64, `c` 32. The real
 * service sends each part as an array of byte values; the docs type them as strings.
 * Both decode to one form, a `Uint8Array`, and a non-empty part must have its exact
 * length (an empty part is what the indexer sends when it skipped proving). The proof
 * is otherwise opaque: verifying it needs the circuit keys.
 *
 * @example
 * const { value } = yield* compression.getValidityProof({ hashes: [accountHash] })
 * value.compressedProof.a.length // 32 bytes, whatever form the wire used
 * @since 0.1.0
 */

import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"
import { Address, decodeBase58, decodeBase64, Hash32 } from "./Primitives.js"
import { withContext } from "./SlotContext.js"

const HEX_RE = /^(?:0x)?((?:[0-9a-fA-F]{2})*)$/

const decodeHex = (s: string): Uint8Array | undefined => {
  const m = HEX_RE.exec(s)
  if (!m) return undefined
  const hex = m[1]!
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16)
  return out
}

/**
 * The bytes of a proof part sent as a string. The encoding is not documented, so the
 * one that yields exactly `length` bytes wins: base64, base58, then hex. Their
 * alphabets and lengths do not overlap at these sizes.
 */
const decodeProofString = (s: string, length: number): Uint8Array | undefined => {
  if (s === "") return new Uint8Array(0)
  for (const decode of [decodeBase64, decodeBase58, decodeHex]) {
    const bytes = decode(s)
    if (bytes !== undefined && bytes.length === length) return bytes
  }
  return undefined
}

const ByteValues = Schema.Array(
  Schema.Number.pipe(Schema.int(), Schema.between(0, 255, { message: () => "a byte value from 0 to 255" }))
)

/**
 * One part of a compressed proof: byte values or a string on the wire, a `Uint8Array`
 * of `length` bytes (or empty) once decoded. Encodes back to byte values.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ProofBytes = (length: number) =>
  Schema.transformOrFail(
    Schema.Union(ByteValues, Schema.String).annotations({ identifier: `ProofBytesWire(${length})` }),
    Schema.Uint8ArrayFromSelf,
    {
      strict: true,
      decode: (wire, _, ast) => {
        const bytes = typeof wire === "string" ? decodeProofString(wire, length) : Uint8Array.from(wire)
        return bytes !== undefined && (bytes.length === 0 || bytes.length === length)
          ? ParseResult.succeed(bytes)
          : ParseResult.fail(
            new ParseResult.Type(
              ast,
              wire,
              `exactly ${length} bytes (or none), as byte values or a base64, base58 or hex string`
            )
          )
      },
      encode: (bytes) => ParseResult.succeed(Array.from(bytes))
    }
  ).annotations({ identifier: `ProofBytes(${length})` })

/**
 * A Groth16 proof: `a` 32 bytes, `b` 64 bytes, `c` 32 bytes (each may be empty).
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedProof = Schema.Struct({
  a: ProofBytes(32),
  b: ProofBytes(64),
  c: ProofBytes(32)
}).annotations({ identifier: "CompressedProof" })

/**
 * A decoded `CompressedProof`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedProof = typeof CompressedProof.Type

/**
 * A validity proof: one entry per proven account hash, then one per new address, in
 * every array, so the five arrays have the same length.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ValidityProof = Schema.Struct({
  compressedProof: CompressedProof,
  roots: Schema.Array(Hash32),
  rootIndices: Schema.Array(Count),
  leafIndices: Schema.Array(Count),
  leaves: Schema.Array(Hash32),
  merkleTrees: Schema.Array(Address)
}).pipe(
  Schema.filter((p) => {
    const n = p.roots.length
    for (const key of ["rootIndices", "leafIndices", "leaves", "merkleTrees"] as const) {
      if (p[key].length !== n) {
        return { path: [key], message: `as many entries as roots (${n}), got ${p[key].length}` }
      }
    }
    return undefined
  }),
  Schema.annotations({ identifier: "ValidityProof" })
)

/**
 * A decoded `ValidityProof`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type ValidityProof = typeof ValidityProof.Type

/**
 * The result of getValidityProof.
 *
 * @since 0.1.0
 * @category results
 */
export const ValidityProofResult = withContext(ValidityProof).annotations({ identifier: "ValidityProofResult" })
