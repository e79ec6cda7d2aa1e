/**
 * Request params of the compression (Photon) methods the service documents, with the limits
 * of the real indexer (as the service documents): `limit` from 1 to 1000, `cursor` an opaque
 * base58 string taken from a previous page. Unknown keys are refused, as Photon
 * refuses them (`deny_unknown_fields`).
 *
 * @example
 * const params = yield* Decode.validateInput(CompressionRequest.MintTokenHoldersParams)({ mint, limit: 1000 })
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import type { CompressionMethod as Method } from "./Endpoints.js"
import { Address, decodeBase58, Hash32, Signature } from "./Primitives.js"

/**
 * The largest page the indexer serves.
 *
 * @since 0.1.0
 * @category limits
 */
export const MAX_LIMIT = 1000

/**
 * Most entries of each kind in one getValidityProof request: the largest proof circuit takes 8 inputs.
 *
 * @since 0.1.0
 * @category limits
 */
export const MAX_PROOF_INPUTS = 8

const limitRule = `an integer from 1 to ${MAX_LIMIT}`

/**
 * A page size: an integer from 1 to 1000.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Limit = Schema.Number.pipe(
  Schema.int({ message: () => limitRule }),
  Schema.between(1, MAX_LIMIT, { message: () => limitRule }),
  Schema.annotations({ identifier: "Limit", message: () => limitRule })
)

/**
 * A cursor from a previous page: non-empty base58.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Cursor = Schema.String.pipe(
  Schema.filter((s) => s.length > 0 && s.length <= 512 && decodeBase58(s) !== undefined, {
    message: () => "a base58 cursor from a previous page"
  }),
  Schema.annotations({ identifier: "Cursor" })
)

const paging = {
  cursor: Schema.optional(Cursor),
  limit: Schema.optional(Limit)
}

/**
 * Params of getCompressionSignaturesForAddress: the account address, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForAddressParams = Schema.Struct({ address: Address, ...paging }).annotations({
  identifier: "SignaturesForAddressParams"
})

/**
 * `SignaturesForAddressParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForAddressParams = typeof SignaturesForAddressParams.Encoded

/**
 * Params of getCompressedMintTokenHolders: the mint, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const MintTokenHoldersParams = Schema.Struct({ mint: Address, ...paging }).annotations({
  identifier: "MintTokenHoldersParams"
})

/**
 * `MintTokenHoldersParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type MintTokenHoldersParams = typeof MintTokenHoldersParams.Encoded

/**
 * Params of getLatestNonVotingSignatures: cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const LatestNonVotingSignaturesParams = Schema.Struct(paging).annotations({
  identifier: "LatestNonVotingSignaturesParams"
})

/**
 * `LatestNonVotingSignaturesParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type LatestNonVotingSignaturesParams = typeof LatestNonVotingSignaturesParams.Encoded

/**
 * `mint` keeps only the accounts of that mint.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenAccountsByOwnerParams = Schema.Struct({
  owner: Address,
  mint: Schema.optional(Address),
  ...paging
}).annotations({ identifier: "TokenAccountsByOwnerParams" })

/**
 * `TokenAccountsByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TokenAccountsByOwnerParams = typeof TokenAccountsByOwnerParams.Encoded

/**
 * `mint` keeps only the balance of that mint.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenBalancesByOwnerParams = Schema.Struct({
  owner: Address,
  mint: Schema.optional(Address),
  ...paging
}).annotations({ identifier: "TokenBalancesByOwnerParams" })

/**
 * `TokenBalancesByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TokenBalancesByOwnerParams = typeof TokenBalancesByOwnerParams.Encoded

/**
 * Params of getCompressionSignaturesForTokenOwner: the owner, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForTokenOwnerParams = Schema.Struct({ owner: Address, ...paging }).annotations({
  identifier: "SignaturesForTokenOwnerParams"
})

/**
 * `SignaturesForTokenOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForTokenOwnerParams = typeof SignaturesForTokenOwnerParams.Encoded

/**
 * Params of getCompressionSignaturesForOwner (not in the service's documentation; stateless.js calls it):
 * the owner of the compressed accounts, cursor and limit. Its result is
 * `CompressionSignature.SignaturesResult`.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForOwnerParams = Schema.Struct({ owner: Address, ...paging }).annotations({
  identifier: "SignaturesForOwnerParams"
})

/**
 * `SignaturesForOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForOwnerParams = typeof SignaturesForOwnerParams.Encoded

/**
 * The params of getCompressedAccountsByOwnerV2: the owner, and the cursor and limit of the page.
 *
 * @since 0.1.0
 * @category params
 */
export const AccountsByOwnerParams = Schema.Struct({ owner: Address, ...paging }).annotations({
  identifier: "AccountsByOwnerParams"
})

/**
 * `AccountsByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type AccountsByOwnerParams = typeof AccountsByOwnerParams.Encoded

/**
 * A new address to prove creatable, with the address tree it goes into.
 *
 * @since 0.1.0
 * @category params
 */
export const NewAddressWithTree = Schema.Struct({ address: Address, tree: Address }).annotations({
  identifier: "NewAddressWithTree"
})

/**
 * Account hashes to prove valid and new addresses to prove creatable; at least one entry in all.
 *
 * @since 0.1.0
 * @category params
 */
export const ValidityProofParams = Schema.Struct({
  hashes: Schema.optional(
    Schema.Array(Hash32).pipe(
      Schema.maxItems(MAX_PROOF_INPUTS, { message: () => `at most ${MAX_PROOF_INPUTS} hashes` })
    )
  ),
  newAddressesWithTrees: Schema.optional(
    Schema.Array(NewAddressWithTree).pipe(
      Schema.maxItems(MAX_PROOF_INPUTS, { message: () => `at most ${MAX_PROOF_INPUTS} new addresses` })
    )
  )
}).pipe(
  Schema.filter((p) =>
    (p.hashes?.length ?? 0) + (p.newAddressesWithTrees?.length ?? 0) > 0
      ? undefined
      : { path: ["hashes"], message: "at least one hash or new address to prove" }
  ),
  Schema.annotations({ identifier: "ValidityProofParams" })
)

/**
 * `ValidityProofParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type ValidityProofParams = typeof ValidityProofParams.Encoded

/**
 * Params of getTransactionWithCompressionInfo: the transaction signature.
 *
 * @since 0.1.0
 * @category params
 */
export const TransactionWithCompressionInfoParams = Schema.Struct({ signature: Signature }).annotations({
  identifier: "TransactionWithCompressionInfoParams"
})

/**
 * `TransactionWithCompressionInfoParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TransactionWithCompressionInfoParams = typeof TransactionWithCompressionInfoParams.Encoded

/**
 * The name of a compression method: a key of `Endpoints.compression`.
 *
 * @deprecated Use `Endpoints.CompressionMethod`.
 * @since 0.1.0
 * @category methods
 */
export type CompressionMethod = Method
