/**
 * The DAS read API (as the service documents): getAsset, getAssetBatch, getAssetProof and the
 * list methods getAssetsByOwner, getAssetsByGroup and getAssetsByCreator. Their
 * results reuse `DigitalAsset`, `DigitalAssetList` and `AssetProof`; this module
 * holds their params and the batch result.
 *
 * Peers spell the display options differently: Helius writes `options`, Metaplex's
 * client sends `displayOptions` (the reference implementation's alias). Both are
 * accepted, one at a time, and decode to `options`. See docs/peers.md.
 *
 * @example
 * const page = yield* das.getAssetsByOwner({ ownerAddress, page: 1, limit: 1000 })
 * const [first] = yield* das.getAssetBatch({ ids: [page.items[0]!.id] })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { AssetDisplayOptions, AssetSorting, onePagingStyle, pagingFields, SortByField } from "./DasParams.js"
import { DigitalAsset } from "./DigitalAsset.js"
import type * as Endpoint from "./Endpoint.js"
import { withAliases } from "./internal/schema.js"
import { Address } from "./Primitives.js"

/**
 * The most ids one getAssetBatch request may carry (the reference implementation's batch limit).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_BATCH = 1000

/**
 * Metaplex's name for `options`, accepted on the wire and decoded to `options`.
 *
 * @since 0.1.0
 * @category params
 */
export const displayAlias = { displayOptions: "options" } as const

/**
 * The sort fields of the read API: the four the service documents, plus `id`, which Helius's SDK,
 * Metaplex's client and the reference implementation (its default) accept.
 *
 * @since 0.1.0
 * @category params
 */
export const ListSortByField = Schema.Literal(...SortByField.literals, "id")
/** A decoded `ListSortByField`: the type of the schema of the same name. @since 0.1.0 @category params */
export type ListSortByField = typeof ListSortByField.Type

/**
 * The `sortBy` object of the list methods: `{ sortBy, sortDirection }`.
 *
 * @since 0.1.0
 * @category params
 */
export const ListSorting = Schema.Struct({
  ...AssetSorting.fields,
  /** The order: `"created"`, `"recent_action"`, `"updated"`, `"id"` or `"none"`. */
  sortBy: ListSortByField
}).annotations({
  identifier: "ListSorting"
})

/**
 * The fields every list method takes besides its key: paging, `sortBy` and `options`.
 *
 * @since 0.1.0
 * @category params
 */
export const listParamFields = {
  ...pagingFields,
  /** The list's order: `{ sortBy, sortDirection }`. */
  sortBy: Schema.optional(ListSorting),
  /** What the answer shows beyond the assets (fungibles, grand total, collection metadata, …). Alias: `displayOptions`. */
  options: Schema.optional(AssetDisplayOptions)
}

/**
 * The params of getAsset.
 *
 * @example
 * Decode.validateInput(GetAssetParams)({ id, options: { showFungible: true } })
 * @since 0.1.0
 * @category params
 */
export const GetAssetParams = withAliases({
  /** The asset's id: a base58 address of 32 bytes. */
  id: Address,
  /** What the answer shows beyond the asset (fungible info, collection metadata, …). Alias: `displayOptions`. */
  options: Schema.optional(AssetDisplayOptions)
}, displayAlias)
  .annotations({ identifier: "GetAssetParams" })
/** The input of getAsset, as callers write it. @since 0.1.0 @category params */
export type GetAssetInput = Endpoint.InputOf<typeof GetAssetParams>

/**
 * The params of getAssetBatch (Metaplex's client calls it `getAssets`): 1 to 1000 ids.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetBatchParams = withAliases({
  /** The assets' ids, base58 addresses of 32 bytes: 1 to 1000 a request. */
  ids: Schema.Array(Address).pipe(
    Schema.minItems(1, { message: () => "at least one asset id" }),
    Schema.maxItems(MAX_BATCH, { message: () => `at most ${MAX_BATCH} asset ids per request` })
  ),
  /** What the answer shows beyond the assets (fungible info, collection metadata, …). Alias: `displayOptions`. */
  options: Schema.optional(AssetDisplayOptions)
}, displayAlias).annotations({ identifier: "GetAssetBatchParams" })
/** The input of getAssetBatch, as callers write it. @since 0.1.0 @category params */
export type GetAssetBatchInput = Endpoint.InputOf<typeof GetAssetBatchParams>

/**
 * The result of getAssetBatch: one entry per requested id, in request order, `null`
 * for an id the service does not know.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetBatch = Schema.Array(Schema.NullOr(DigitalAsset)).annotations({ identifier: "AssetBatch" })
/** A decoded `AssetBatch`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AssetBatch = typeof AssetBatch.Type

/**
 * The params of getAssetProof: one asset id. Its result is `AssetProof.AssetProof`,
 * the same record as that id's getAssetProofBatch entry.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetProofParams = Schema.Struct({
  /** The compressed asset's id: a base58 address of 32 bytes. */
  id: Address
}).annotations({ identifier: "GetAssetProofParams" })
/** The input of getAssetProof, as callers write it. @since 0.1.0 @category params */
export type GetAssetProofInput = Endpoint.InputOf<typeof GetAssetProofParams>

/**
 * The params of getAssetsByOwner. Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @example
 * Decode.validateInput(GetAssetsByOwnerParams)({ ownerAddress, page: 1, limit: 1000, sortBy: { sortBy: "id" } })
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByOwnerParams = withAliases({
  /** The owner's wallet: a base58 address of 32 bytes. */
  ownerAddress: Address,
  ...listParamFields
}, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByOwnerParams" })
)
/** The input of getAssetsByOwner, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByOwnerInput = Endpoint.InputOf<typeof GetAssetsByOwnerParams>

const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty string" }))

/**
 * The params of getAssetsByGroup: `groupKey` (usually `collection`) and `groupValue`
 * (the collection address). Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByGroupParams = withAliases({
  /** The grouping, usually `"collection"` (a non-empty string). */
  groupKey: NonEmpty,
  /** The group's value: for `"collection"`, the collection's address (a non-empty string). */
  groupValue: NonEmpty,
  ...listParamFields
}, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByGroupParams" })
)
/** The input of getAssetsByGroup, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByGroupInput = Endpoint.InputOf<typeof GetAssetsByGroupParams>

/**
 * The params of getAssetsByCreator: `onlyVerified` keeps the assets the creator signed.
 * Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByCreatorParams = withAliases({
  /** The creator: a base58 address of 32 bytes. */
  creatorAddress: Address,
  /** Only the assets whose creator entry the creator signed (verified; default false). */
  onlyVerified: Schema.optional(Schema.Boolean),
  ...listParamFields
}, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByCreatorParams" })
)
/** The input of getAssetsByCreator, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByCreatorInput = Endpoint.InputOf<typeof GetAssetsByCreatorParams>
