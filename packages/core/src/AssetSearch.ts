/**
 * searchAssets (as the service documents): the filter object as a Schema. Every filter is
 * optional and they combine with AND (`conditionType: "any"` for OR, `negate` to
 * invert, as the reference implementation defines them). The result is
 * `DigitalAsset.DigitalAssetList`.
 *
 * Names follow Helius and the reference implementation (`ownerAddress`,
 * `grouping: [key, value]`, `delegate`, `royaltyTargetType`, ...). Metaplex's client
 * sends `delegateAddress` and `displayOptions`: both are accepted on the wire and
 * decode to `delegate` and `options`. See docs/peers.md for who sends what.
 *
 * @example
 * const page = yield* das.searchAssets({ ownerAddress, compressed: true, grouping: ["collection", collection] })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { displayAlias, listParamFields } from "./AssetQuery.js"
import { onePagingStyle } from "./DasParams.js"
import type * as Endpoint from "./Endpoint.js"
import { Count, withAliases } from "./internal/schema.js"
import { Address } from "./Primitives.js"

/**
 * The asset interfaces a search can ask for (the union of Helius's and Metaplex's lists).
 *
 * @since 0.1.0
 * @category params
 */
export const AssetInterface = Schema.Literal(
  "V1_NFT",
  "V1_PRINT",
  "LEGACY_NFT",
  "V2_NFT",
  "FungibleAsset",
  "FungibleToken",
  "Custom",
  "Identity",
  "Executable",
  "ProgrammableNFT",
  "MplCoreAsset",
  "MplCoreCollection",
  "MplCoreGroup",
  "MplBubblegumV2"
).annotations({ identifier: "AssetInterface" })
/** A decoded `AssetInterface`: the type of the schema of the same name. @since 0.1.0 @category params */
export type AssetInterface = typeof AssetInterface.Type

/**
 * The token types of `tokenType`, in Helius's spelling (`compressedNft`) and Metaplex's (`compressedNFT`).
 *
 * @since 0.1.0
 * @category params
 */
export const SearchTokenType = Schema.Literal(
  "fungible",
  "nonFungible",
  "regularNft",
  "compressedNft",
  "all",
  "Fungible",
  "NonFungible",
  "regularNFT",
  "compressedNFT",
  "All"
).annotations({ identifier: "SearchTokenType" })

const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty string" }))

/**
 * A grouping filter: `[groupKey, groupValue]`, for example `["collection", collectionAddress]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GroupingFilter = Schema.Tuple(NonEmpty, NonEmpty).annotations({ identifier: "GroupingFilter" })

/**
 * The filters of searchAssets.
 *
 * @since 0.1.0
 * @category params
 */
export const searchFilterFields = {
  /** Invert the filters: assets matching none of them (default false). */
  negate: Schema.optional(Schema.Boolean),
  /** `"all"` (default: every filter holds) or `"any"` (one does). */
  conditionType: Schema.optional(Schema.Literal("all", "any")),
  /** The asset's interface, such as `"V1_NFT"`, `"ProgrammableNFT"` or `"FungibleToken"`. */
  interface: Schema.optional(AssetInterface),
  /** The owner: a base58 address of 32 bytes. */
  ownerAddress: Schema.optional(Address),
  /** `"single"` (one owner) or `"token"` (fungible ownership). */
  ownerType: Schema.optional(Schema.Literal("single", "token")),
  /** A creator: a base58 address of 32 bytes. */
  creatorAddress: Schema.optional(Address),
  /** With `creatorAddress`: only where the creator signed (verified). */
  creatorVerified: Schema.optional(Schema.Boolean),
  /** The update authority: a base58 address of 32 bytes. */
  authorityAddress: Schema.optional(Address),
  /** `[groupKey, groupValue]`, both non-empty, e.g. `["collection", collectionAddress]`. */
  grouping: Schema.optional(GroupingFilter),
  /** The delegate: a base58 address of 32 bytes. Alias: `delegateAddress`. */
  delegate: Schema.optional(Address),
  /** Only frozen (true) or unfrozen (false) assets. */
  frozen: Schema.optional(Schema.Boolean),
  /** The edition supply: a non-negative integer. */
  supply: Schema.optional(Count),
  /** The mint whose supply is meant: a base58 address of 32 bytes. */
  supplyMint: Schema.optional(Address),
  /** Only compressed (true) or uncompressed (false) assets. */
  compressed: Schema.optional(Schema.Boolean),
  /** Only assets that can (true) or cannot (false) be compressed. */
  compressible: Schema.optional(Schema.Boolean),
  /** Who receives royalties: `"creators"`, `"fanout"` or `"single"`. */
  royaltyTargetType: Schema.optional(Schema.Literal("creators", "fanout", "single")),
  /** The royalty receiver: a base58 address of 32 bytes. */
  royaltyTarget: Schema.optional(Address),
  /** The royalty, in basis points: a non-negative integer. */
  royaltyAmount: Schema.optional(Count),
  /** Only burnt (true) or live (false) assets. */
  burnt: Schema.optional(Schema.Boolean),
  /** The JSON metadata's URI (a non-empty string). */
  jsonUri: Schema.optional(NonEmpty),
  /** The asset's name (a non-empty string). */
  name: Schema.optional(NonEmpty),
  /** `"fungible"`, `"nonFungible"`, `"regularNft"`, `"compressedNft"` or `"all"` (Metaplex's spellings too). */
  tokenType: Schema.optional(SearchTokenType),
  /** Helius only: the Merkle tree of a compressed asset (a base58 address of 32 bytes). */
  tree: Schema.optional(Address)
}

/**
 * The params of searchAssets: the filters, paging, `sortBy` and the display options.
 *
 * @example
 * Decode.validateInput(SearchAssetsParams)({ ownerAddress, burnt: false, interface: "V1_NFT", limit: 100 })
 * @since 0.1.0
 * @category params
 */
export const SearchAssetsParams = withAliases(
  { ...searchFilterFields, ...listParamFields },
  { ...displayAlias, delegateAddress: "delegate" }
).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "SearchAssetsParams" })
)
/** A decoded `SearchAssetsParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type SearchAssetsParams = typeof SearchAssetsParams.Type
/** The input of searchAssets, as callers write it. @since 0.1.0 @category params */
export type SearchAssetsInput = Endpoint.InputOf<typeof SearchAssetsParams>
