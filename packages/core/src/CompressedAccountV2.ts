/**
 * Compressed accounts in the shape of Photon's V2 methods (as the service documents), which
 * stateless.js 0.23 calls by default: getCompressedTokenAccountsByOwnerV2 and
 * getMultipleCompressedAccountsV2. A V2 account drops V1's `tree` for a
 * `merkleContext` (tree, queue, tree type, CPI context) and adds `proveByIndex`; its
 * other fields are V1's. Token data is unchanged.
 *
 * @example
 * const page = yield* compression.getCompressedTokenAccountsByOwnerV2({ owner })
 * for (const { account } of page.value.items) console.log(account.merkleContext.tree, account.proveByIndex)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { CompressedAccount, TokenData } from "./CompressedAccount.js"
import { MAX_LIMIT } from "./CompressionRequest.js"
import type * as Endpoint from "./Endpoint.js"
import { Count, nullable } from "./internal/schema.js"
import { Address, FieldHash } from "./Primitives.js"
import { cursorPage, withContext } from "./SlotContext.js"

/**
 * The tree a rollover moves to, as stateless.js reads it (`tree`, not Photon's
 * `merkleTree`; every known Photon response sends `null` here).
 *
 * @since 0.1.0
 * @category schemas
 */
export const NextTreeContext = Schema.Struct({
  treeType: Count,
  tree: Address,
  queue: Address,
  cpiContext: nullable(Address)
}).annotations({ identifier: "NextTreeContext" })

/**
 * Where an account lives: its state tree, the queue (nullifier queue of a V1 tree,
 * output queue of a batched V2 tree) and the tree type: 1 state V1, 2 address V1,
 * 3 state V2 (batched), 4 address V2. stateless.js requires `cpiContext`
 * (nullable); `nextTreeContext` may be absent.
 *
 * @since 0.1.0
 * @category schemas
 */
export const MerkleContextV2 = Schema.Struct({
  treeType: Count,
  tree: Address,
  queue: Address,
  cpiContext: Schema.NullOr(Address),
  nextTreeContext: Schema.optional(Schema.NullOr(NextTreeContext))
}).annotations({ identifier: "MerkleContextV2" })

/**
 * A decoded `MerkleContextV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type MerkleContextV2 = typeof MerkleContextV2.Type

const { tree: _tree, ...v1Fields } = CompressedAccount.fields

/**
 * A compressed account of the V2 methods: V1's fields without `tree`, plus
 * `merkleContext` and `proveByIndex` (true while the account sits in a batched
 * tree's output queue and is proven by its leaf index alone). Its `hash` must be a
 * BN254 field element, as stateless.js requires.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedAccountV2 = Schema.Struct({
  ...v1Fields,
  hash: FieldHash,
  proveByIndex: Schema.Boolean,
  merkleContext: MerkleContextV2
}).annotations({ identifier: "CompressedAccountV2" })

/**
 * A decoded `CompressedAccountV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedAccountV2 = typeof CompressedAccountV2.Type

/**
 * An item of getCompressedTokenAccountsByOwnerV2.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressedTokenAccountV2 = Schema.Struct({
  account: CompressedAccountV2,
  tokenData: TokenData
}).annotations({ identifier: "CompressedTokenAccountV2" })

/**
 * A decoded `CompressedTokenAccountV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressedTokenAccountV2 = typeof CompressedTokenAccountV2.Type

/**
 * The result of getCompressedTokenAccountsByOwnerV2 (params: `CompressionRequest.TokenAccountsByOwnerParams`).
 *
 * @since 0.1.0
 * @category results
 */
export const TokenAccountsV2Result = withContext(cursorPage(CompressedTokenAccountV2)).annotations({
  identifier: "TokenAccountsV2Result"
})

/**
 * The params of getMultipleCompressedAccountsV2: account hashes or account
 * addresses, exactly one of the two, at most 1000 (Photon's page limit).
 *
 * @since 0.1.0
 * @category params
 */
export const MultipleCompressedAccountsParams = Schema.Struct({
  /** The accounts' hashes (field elements, base58), at most 1000. Exactly one of `hashes` and `addresses`. */
  hashes: Schema.optional(
    Schema.Array(FieldHash).pipe(Schema.maxItems(MAX_LIMIT, { message: () => `at most ${MAX_LIMIT} hashes` }))
  ),
  /** The accounts' addresses (base58 of 32 bytes), at most 1000. Exactly one of `hashes` and `addresses`. */
  addresses: Schema.optional(
    Schema.Array(Address).pipe(Schema.maxItems(MAX_LIMIT, { message: () => `at most ${MAX_LIMIT} addresses` }))
  )
}).pipe(
  Schema.filter((p) =>
    p.hashes === undefined && p.addresses === undefined
      ? { path: ["hashes"], message: "hashes or addresses is required" }
      : p.hashes !== undefined && p.addresses !== undefined
      ? { path: ["addresses"], message: "cannot be combined with hashes: give one of the two" }
      : undefined
  ),
  Schema.annotations({ identifier: "MultipleCompressedAccountsParams" })
)

/**
 * `MultipleCompressedAccountsParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type MultipleCompressedAccountsParams = Endpoint.InputOf<typeof MultipleCompressedAccountsParams>

/**
 * The result of getMultipleCompressedAccountsV2: one item per requested hash or
 * address, in request order, `null` where Photon knows none (stateless.js itself
 * accepts no `null` item: it expects every hash it asks for to exist).
 *
 * @since 0.1.0
 * @category results
 */
export const MultipleAccountsV2Result = withContext(
  Schema.Struct({ items: Schema.Array(Schema.NullOr(CompressedAccountV2)) })
).annotations({ identifier: "MultipleAccountsV2Result" })

/**
 * The answer of getCompressedAccountsByOwnerV2: a page of the owner's V2 accounts at a slot.
 *
 * @since 0.1.0
 * @category models
 */
export const AccountsV2Result = withContext(cursorPage(CompressedAccountV2)).annotations({
  identifier: "AccountsV2Result"
})
