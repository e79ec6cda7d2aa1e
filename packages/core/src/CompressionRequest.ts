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
import type * as Endpoint from "./Endpoint.js"
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
  /** Resume after this cursor, a page's `cursor` (base58, at most 512 characters). A walk starts from `start` instead. */
  cursor: Schema.optional(Cursor),
  /** Items a page: an integer from 1 to 1000 (a walk asks 1000 unless told). */
  limit: Schema.optional(Limit)
}

/**
 * Params of getCompressionSignaturesForAddress: the account address, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForAddressParams = Schema.Struct({
  /** The account (or compressed account) address: base58 of 32 bytes. */
  address: Address,
  ...paging
}).annotations({
  identifier: "SignaturesForAddressParams"
})

/**
 * `SignaturesForAddressParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForAddressParams = Endpoint.InputOf<typeof SignaturesForAddressParams>

/**
 * Params of getCompressedMintTokenHolders: the mint, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const MintTokenHoldersParams = Schema.Struct({
  /** The token's mint: a base58 address of 32 bytes. */
  mint: Address,
  ...paging
}).annotations({
  identifier: "MintTokenHoldersParams"
})

/**
 * `MintTokenHoldersParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type MintTokenHoldersParams = Endpoint.InputOf<typeof MintTokenHoldersParams>

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
export type LatestNonVotingSignaturesParams = Endpoint.InputOf<typeof LatestNonVotingSignaturesParams>

/**
 * `mint` keeps only the accounts of that mint.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenAccountsByOwnerParams = Schema.Struct({
  /** The accounts' owner: a base58 address of 32 bytes. */
  owner: Address,
  /** Only the accounts of this mint (a base58 address of 32 bytes). */
  mint: Schema.optional(Address),
  ...paging
}).annotations({ identifier: "TokenAccountsByOwnerParams" })

/**
 * `TokenAccountsByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TokenAccountsByOwnerParams = Endpoint.InputOf<typeof TokenAccountsByOwnerParams>

/**
 * `mint` keeps only the balance of that mint.
 *
 * @since 0.1.0
 * @category params
 */
export const TokenBalancesByOwnerParams = Schema.Struct({
  /** The balances' owner: a base58 address of 32 bytes. */
  owner: Address,
  /** Only the balance of this mint (a base58 address of 32 bytes). */
  mint: Schema.optional(Address),
  ...paging
}).annotations({ identifier: "TokenBalancesByOwnerParams" })

/**
 * `TokenBalancesByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TokenBalancesByOwnerParams = Endpoint.InputOf<typeof TokenBalancesByOwnerParams>

/**
 * Params of getCompressionSignaturesForTokenOwner: the owner, cursor and limit.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForTokenOwnerParams = Schema.Struct({
  /** The owner of the compressed token accounts: a base58 address of 32 bytes. */
  owner: Address,
  ...paging
}).annotations({
  identifier: "SignaturesForTokenOwnerParams"
})

/**
 * `SignaturesForTokenOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForTokenOwnerParams = Endpoint.InputOf<typeof SignaturesForTokenOwnerParams>

/**
 * Params of getCompressionSignaturesForOwner (not in the service's documentation; stateless.js calls it):
 * the owner of the compressed accounts, cursor and limit. Its result is
 * `CompressionSignature.SignaturesResult`.
 *
 * @since 0.1.0
 * @category params
 */
export const SignaturesForOwnerParams = Schema.Struct({
  /** The owner of the compressed accounts: a base58 address of 32 bytes. */
  owner: Address,
  ...paging
}).annotations({
  identifier: "SignaturesForOwnerParams"
})

/**
 * `SignaturesForOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type SignaturesForOwnerParams = Endpoint.InputOf<typeof SignaturesForOwnerParams>

/**
 * The params of getCompressedAccountsByOwnerV2: the owner, and the cursor and limit of the page.
 *
 * @since 0.1.0
 * @category params
 */
export const AccountsByOwnerParams = Schema.Struct({
  /** The owner of the compressed accounts: a base58 address of 32 bytes. */
  owner: Address,
  ...paging
}).annotations({
  identifier: "AccountsByOwnerParams"
})

/**
 * `AccountsByOwnerParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type AccountsByOwnerParams = Endpoint.InputOf<typeof AccountsByOwnerParams>

/**
 * A new address to prove creatable, with the address tree it goes into.
 *
 * @since 0.1.0
 * @category params
 */
export const NewAddressWithTree = Schema.Struct({
  /** The new address: base58 of 32 bytes. */
  address: Address,
  /** The address tree it goes into: base58 of 32 bytes. */
  tree: Address
}).annotations({
  identifier: "NewAddressWithTree"
})

/**
 * Account hashes to prove valid and new addresses to prove creatable; at least one entry in all.
 *
 * @since 0.1.0
 * @category params
 */
export const ValidityProofParams = Schema.Struct({
  /** Hashes of the accounts to prove valid: base58 of 32 bytes, at most 8. With `newAddressesWithTrees`, at least one entry in all. */
  hashes: Schema.optional(
    Schema.Array(Hash32).pipe(
      Schema.maxItems(MAX_PROOF_INPUTS, { message: () => `at most ${MAX_PROOF_INPUTS} hashes` })
    )
  ),
  /** New addresses to prove creatable, each with its tree: at most 8. With `hashes`, at least one entry in all. */
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
export type ValidityProofParams = Endpoint.InputOf<typeof ValidityProofParams>

/**
 * Params of getTransactionWithCompressionInfo: the transaction signature.
 *
 * @since 0.1.0
 * @category params
 */
export const TransactionWithCompressionInfoParams = Schema.Struct({
  /** The transaction's signature: base58 of 64 bytes. */
  signature: Signature
}).annotations({
  identifier: "TransactionWithCompressionInfoParams"
})

/**
 * `TransactionWithCompressionInfoParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type TransactionWithCompressionInfoParams = Endpoint.InputOf<typeof TransactionWithCompressionInfoParams>

/**
 * The name of a compression method: a key of `Endpoints.compression`.
 *
 * @deprecated Use `Endpoints.CompressionMethod`.
 * @since 0.1.0
 * @category methods
 */
export type CompressionMethod = Method
