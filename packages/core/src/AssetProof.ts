/**
 * Merkle proofs of compressed assets (getAssetProofBatch). The proof array decodes from both shapes seen in the
 * wild (flat, or the docs' one-level-too-deep nesting) to a flat array.
 *
 * @example
 * const proofs = yield* das.getAssetProofBatch([assetId]) // Map of id -> Option<AssetProof>
 * const proof = Option.getOrThrow(proofs.get(assetId)!)
 * MerkleProof.isValid(proof) // checked locally, no I/O
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Address, Hash32 } from "./Primitives.js"

/**
 * The most ids one getAssetProofBatch request may carry (the reference
 * implementation's batch limit).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_BATCH = 1000

/**
 * The params of one getAssetProofBatch request: 1 to 1000 asset ids.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetProofBatchParams = Schema.Struct({
  /** The compressed assets' ids, base58 addresses of 32 bytes: 1 to 1000 a request (the SDK splits longer lists). */
  ids: Schema.Array(Address).pipe(
    Schema.minItems(1, { message: () => "at least one asset id" }),
    Schema.maxItems(MAX_BATCH, { message: () => `at most ${MAX_BATCH} asset ids per request` })
  )
}).annotations({ identifier: "GetAssetProofBatchParams" })
/** A decoded `GetAssetProofBatchParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type GetAssetProofBatchParams = typeof GetAssetProofBatchParams.Type

/**
 * Proof nodes, flat on the wire or nested one level too deep (the docs' example); always flat once decoded.
 *
 * @since 0.1.0
 * @category models
 */
export const ProofNodes = Schema.transform(
  Schema.Union(Schema.Array(Hash32), Schema.Array(Schema.Array(Hash32))),
  Schema.typeSchema(Schema.Array(Hash32)),
  {
    strict: true,
    decode: (nodes) =>
      (nodes as ReadonlyArray<Hash32 | ReadonlyArray<Hash32>>).flatMap((n) => Array.isArray(n) ? n : [n as Hash32]),
    encode: (nodes) => nodes
  }
).annotations({ identifier: "ProofNodes" })

/**
 * The proof of one asset. `burnt` is typed boolean (the service's documentation leaves it open).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetProof = Schema.Struct({
  last_indexed_slot: Schema.optional(Schema.Number),
  root: Hash32,
  proof: ProofNodes,
  node_index: Schema.Number.pipe(Schema.int(), Schema.positive()),
  leaf: Hash32,
  tree_id: Address,
  burnt: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "AssetProof" })
/** A decoded `AssetProof`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AssetProof = typeof AssetProof.Type

/**
 * The result of getAssetProofBatch: proofs keyed by asset id, `null` for an id
 * the service does not know (or that is not compressed).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetProofBatch = Schema.Record({ key: Schema.String, value: Schema.NullOr(AssetProof) })
  .annotations({ identifier: "AssetProofBatch" })
/** A decoded `AssetProofBatch`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AssetProofBatch = typeof AssetProofBatch.Type
