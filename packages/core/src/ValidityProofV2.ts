/**
 * getValidityProofV2 (as the service documents), which stateless.js 0.23 calls by default for
 * every validity proof. Same params as V1 (`CompressionRequest.ValidityProofParams`);
 * the result groups per input instead of V1's parallel arrays: one entry per proven
 * account hash, then one per new address, each with its root, root index and Merkle
 * context. `compressedProof` is `null` when nothing needed proving (every account
 * proven by index).
 *
 * @example
 * const { value } = yield* compression.getValidityProofV2({ hashes: [accountHash] })
 * value.accounts[0]!.rootIndex.proveByIndex
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { MerkleContextV2 } from "./CompressedAccountV2.js"
import { Count } from "./internal/schema.js"
import { Address, FieldHash } from "./Primitives.js"
import { withContext } from "./SlotContext.js"
import { CompressedProof } from "./ValidityProof.js"

/**
 * The root index of an account input; with `proveByIndex` the index is ignored (0).
 *
 * @since 0.1.0
 * @category schemas
 */
export const RootIndex = Schema.Struct({
  rootIndex: Count,
  proveByIndex: Schema.Boolean
}).annotations({ identifier: "RootIndex" })

/**
 * The proof input of one account hash. Hashes and roots are BN254 field elements.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountProofInputs = Schema.Struct({
  hash: FieldHash,
  root: FieldHash,
  rootIndex: RootIndex,
  leafIndex: Count,
  merkleContext: MerkleContextV2
}).annotations({ identifier: "AccountProofInputs" })

/**
 * A decoded `AccountProofInputs`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountProofInputs = typeof AccountProofInputs.Type

/**
 * The proof input of one new address (its root index is a plain number).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AddressProofInputs = Schema.Struct({
  address: Address,
  root: FieldHash,
  rootIndex: Count,
  merkleContext: MerkleContextV2
}).annotations({ identifier: "AddressProofInputs" })

/**
 * A decoded `AddressProofInputs`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type AddressProofInputs = typeof AddressProofInputs.Type

/**
 * A V2 validity proof: the Groth16 proof (or `null`) and the inputs it covers.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ValidityProofV2 = Schema.Struct({
  compressedProof: Schema.NullOr(CompressedProof),
  accounts: Schema.Array(AccountProofInputs),
  addresses: Schema.Array(AddressProofInputs)
}).annotations({ identifier: "ValidityProofV2" })

/**
 * A decoded `ValidityProofV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type ValidityProofV2 = typeof ValidityProofV2.Type

/**
 * The result of getValidityProofV2.
 *
 * @since 0.1.0
 * @category results
 */
export const ValidityProofV2Result = withContext(ValidityProofV2).annotations({
  identifier: "ValidityProofV2Result"
})
