/**
 * Digital assets (getAssetsByAuthority): NFTs,
 * compressed NFTs and tokens. The request params, one asset and the list wrapper.
 *
 * @example
 * const list = yield* das.getAssetsByAuthority({ authorityAddress, limit: 100 })
 * for (const asset of list.items) console.log(asset.id, asset.compression.compressed)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { AssetDisplayOptions, AssetSorting, listFields, onePagingStyle, pagingFields } from "./DasParams.js"
import type * as Endpoint from "./Endpoint.js"
import { Address, U64 } from "./Primitives.js"

/**
 * The params of getAssetsByAuthority.
 *
 * @example
 * Decode.validateInput(GetAssetsByAuthorityParams)({
 *   authorityAddress, page: 1, limit: 1000, sortBy: { sortBy: "created", sortDirection: "asc" }
 * })
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByAuthorityParams = Schema.Struct({
  /** The update authority: a base58 address of 32 bytes. */
  authorityAddress: Address,
  ...pagingFields,
  /** The list's order: `{ sortBy, sortDirection }`. */
  sortBy: Schema.optional(AssetSorting),
  /** What the answer shows beyond the assets (fungibles, grand total, collection metadata, …). */
  options: Schema.optional(AssetDisplayOptions)
}).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByAuthorityParams" })
)
/** A decoded `GetAssetsByAuthorityParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type GetAssetsByAuthorityParams = typeof GetAssetsByAuthorityParams.Type
/** The input of the call, as callers write it: the encoded side of `GetAssetsByAuthorityParams`. @since 0.1.0 @category params */
export type GetAssetsByAuthorityInput = Endpoint.InputOf<typeof GetAssetsByAuthorityParams>

/**
 * A file of the asset's content.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetFile = Schema.Struct({
  uri: Schema.optional(Schema.String),
  cdn_uri: Schema.optional(Schema.String),
  mime: Schema.optional(Schema.String)
})

/**
 * The asset's content: JSON metadata location, files and (reference impl) parsed metadata and links.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetContent = Schema.Struct({
  $schema: Schema.optional(Schema.String),
  json_uri: Schema.optional(Schema.String),
  files: Schema.optional(Schema.Array(AssetFile)),
  metadata: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown })),
  links: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

/**
 * An authority of an asset and the scopes it holds.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetAuthority = Schema.Struct({
  address: Address,
  scopes: Schema.Array(Schema.String)
})

/**
 * Compression info. For an uncompressed asset the hashes and tree are empty strings.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetCompression = Schema.Struct({
  eligible: Schema.Boolean,
  compressed: Schema.Boolean,
  data_hash: Schema.String,
  creator_hash: Schema.String,
  asset_hash: Schema.String,
  tree: Schema.String,
  seq: Schema.Number,
  leaf_id: Schema.Number
})

/**
 * A grouping such as `{ group_key: "collection", group_value }`. The reference
 * implementation gives a null value for an unverified collection.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetGroup = Schema.Struct({
  group_key: Schema.String,
  group_value: Schema.NullOr(Schema.String)
})

/**
 * The royalty terms of an asset: model, basis points, target, and whether the
 * primary sale happened.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetRoyalty = Schema.Struct({
  royalty_model: Schema.String,
  target: Schema.NullOr(Schema.String),
  percent: Schema.Number,
  basis_points: Schema.Number,
  primary_sale_happened: Schema.Boolean,
  locked: Schema.Boolean
})

/**
 * A creator of an asset, its share of royalties, and whether it signed (verified).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetCreator = Schema.Struct({
  address: Address,
  share: Schema.Number,
  verified: Schema.Boolean
})

/**
 * Who owns an asset, and whether it is frozen or delegated.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetOwnership = Schema.Struct({
  frozen: Schema.Boolean,
  delegated: Schema.Boolean,
  delegate: Schema.NullOr(Address),
  ownership_model: Schema.String,
  owner: Address
})

/**
 * Edition supply (reference implementation).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetSupply = Schema.Struct({
  print_max_supply: Schema.optional(Schema.NullOr(U64)),
  print_current_supply: Schema.optional(Schema.NullOr(U64)),
  edition_nonce: Schema.optional(Schema.NullOr(Schema.Number))
})

/**
 * Mint info of fungible and NFT assets (with `showFungible` and in Helius responses).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetTokenInfo = Schema.Struct({
  supply: Schema.optional(U64),
  decimals: Schema.optional(Schema.Number),
  token_program: Schema.optional(Address),
  mint_authority: Schema.optional(Schema.NullOr(Address)),
  freeze_authority: Schema.optional(Schema.NullOr(Address)),
  balance: Schema.optional(U64),
  associated_token_address: Schema.optional(Address),
  symbol: Schema.optional(Schema.String),
  price_info: Schema.optional(Schema.Record({ key: Schema.String, value: Schema.Unknown }))
})

/**
 * A digital asset. `burnt` is typed boolean (the service's documentation leaves its type open; every
 * known implementation sends a boolean). Program-specific extras (`plugins`,
 * `mpl_core_info`, ...) are kept as unknown records.
 *
 * @since 0.1.0
 * @category models
 */
export const DigitalAsset = Schema.Struct({
  interface: Schema.String,
  id: Address,
  content: Schema.optional(AssetContent),
  authorities: Schema.Array(AssetAuthority),
  compression: AssetCompression,
  grouping: Schema.Array(AssetGroup),
  royalty: AssetRoyalty,
  creators: Schema.Array(AssetCreator),
  ownership: AssetOwnership,
  burnt: Schema.optional(Schema.Boolean),
  mutable: Schema.optional(Schema.Boolean),
  supply: Schema.optional(Schema.NullOr(AssetSupply)),
  token_info: Schema.optional(AssetTokenInfo),
  plugins: Schema.optional(Schema.Unknown),
  mpl_core_info: Schema.optional(Schema.Unknown),
  external_plugins: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "DigitalAsset" })
/** A decoded `DigitalAsset`: the type of the schema of the same name. @since 0.1.0 @category models */
export type DigitalAsset = typeof DigitalAsset.Type

/**
 * The result of getAssetsByAuthority.
 *
 * @since 0.1.0
 * @category models
 */
export const DigitalAssetList = Schema.Struct({
  ...listFields,
  items: Schema.Array(DigitalAsset)
}).annotations({ identifier: "DigitalAssetList" })
/** A decoded `DigitalAssetList`: the type of the schema of the same name. @since 0.1.0 @category models */
export type DigitalAssetList = typeof DigitalAssetList.Type
