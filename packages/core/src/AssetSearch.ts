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
  negate: Schema.optional(Schema.Boolean),
  conditionType: Schema.optional(Schema.Literal("all", "any")),
  interface: Schema.optional(AssetInterface),
  ownerAddress: Schema.optional(Address),
  ownerType: Schema.optional(Schema.Literal("single", "token")),
  creatorAddress: Schema.optional(Address),
  creatorVerified: Schema.optional(Schema.Boolean),
  authorityAddress: Schema.optional(Address),
  grouping: Schema.optional(GroupingFilter),
  delegate: Schema.optional(Address),
  frozen: Schema.optional(Schema.Boolean),
  supply: Schema.optional(Count),
  supplyMint: Schema.optional(Address),
  compressed: Schema.optional(Schema.Boolean),
  compressible: Schema.optional(Schema.Boolean),
  royaltyTargetType: Schema.optional(Schema.Literal("creators", "fanout", "single")),
  royaltyTarget: Schema.optional(Address),
  royaltyAmount: Schema.optional(Count),
  burnt: Schema.optional(Schema.Boolean),
  jsonUri: Schema.optional(NonEmpty),
  name: Schema.optional(NonEmpty),
  tokenType: Schema.optional(SearchTokenType),
  /** Helius only: the Merkle tree of a compressed asset. */
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
export type SearchAssetsInput = typeof SearchAssetsParams.Encoded
