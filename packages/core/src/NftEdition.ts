/**
 * getNftEditions (as the service documents): the print editions of a master edition NFT, paged
 * by page number. Helius names the param `mint`; Metaplex's client, unless told
 * `heliusCompatibility`, sends `mintAddress`. Both are accepted, one at a time, and decode to `mint`.
 *
 * @example
 * const page = yield* das.getNftEditions({ mint: master, page: 1, limit: 100 })
 * page.editions.map((e) => `${e.edition} ${e.mint}`)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { listFields, onePagingStyle, pagingFields } from "./DasParams.js"
import type * as Endpoint from "./Endpoint.js"
import { Count, withAliases } from "./internal/schema.js"
import { Address, U64 } from "./Primitives.js"

/**
 * The params of getNftEditions: the master edition's mint and paging.
 *
 * @since 0.1.0
 * @category params
 */
export const GetNftEditionsParams = withAliases({
  /** The master edition's mint: a base58 address of 32 bytes (required). Alias: `mintAddress`. */
  mint: Schema.optional(Address),
  ...pagingFields
}, { mintAddress: "mint" }).pipe(
  Schema.filter((p) =>
    p.mint === undefined ? { path: ["mint"], message: "the master edition's mint is required" } : onePagingStyle(p)
  ),
  Schema.annotations({ identifier: "GetNftEditionsParams" })
)
/** The input of getNftEditions, as callers write it. @since 0.1.0 @category params */
export type GetNftEditionsInput = Endpoint.InputOf<typeof GetNftEditionsParams>

/**
 * One print edition, in Helius's names (Metaplex's client maps `edition` and `mint`
 * to its `edition_number` and `mint_address`).
 *
 * @since 0.1.0
 * @category models
 */
export const NftEdition = Schema.Struct({
  mint: Address,
  edition_address: Address,
  edition: Count,
  burnt: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "NftEdition" })
/** A decoded `NftEdition`: the type of the schema of the same name. @since 0.1.0 @category models */
export type NftEdition = typeof NftEdition.Type

/**
 * The result of getNftEditions: the master edition, its supply and one page of editions.
 *
 * @since 0.1.0
 * @category models
 */
export const NftEditionList = Schema.Struct({
  ...listFields,
  master_edition_address: Address,
  // u64 in the DAS reference implementation; an open print run can exceed 2^53.
  supply: U64,
  max_supply: Schema.optional(Schema.NullOr(U64)),
  editions: Schema.Array(NftEdition)
}).annotations({ identifier: "NftEditionList" })
/** A decoded `NftEditionList`: the type of the schema of the same name. @since 0.1.0 @category models */
export type NftEditionList = typeof NftEditionList.Type
