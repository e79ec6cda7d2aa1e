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
export const ListSorting = Schema.Struct({ ...AssetSorting.fields, sortBy: ListSortByField }).annotations({
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
  sortBy: Schema.optional(ListSorting),
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
export const GetAssetParams = withAliases({ id: Address, options: Schema.optional(AssetDisplayOptions) }, displayAlias)
  .annotations({ identifier: "GetAssetParams" })
/** The input of getAsset, as callers write it. @since 0.1.0 @category params */
export type GetAssetInput = typeof GetAssetParams.Encoded

/**
 * The params of getAssetBatch (Metaplex's client calls it `getAssets`): 1 to 1000 ids.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetBatchParams = withAliases({
  ids: Schema.Array(Address).pipe(
    Schema.minItems(1, { message: () => "at least one asset id" }),
    Schema.maxItems(MAX_BATCH, { message: () => `at most ${MAX_BATCH} asset ids per request` })
  ),
  options: Schema.optional(AssetDisplayOptions)
}, displayAlias).annotations({ identifier: "GetAssetBatchParams" })
/** The input of getAssetBatch, as callers write it. @since 0.1.0 @category params */
export type GetAssetBatchInput = typeof GetAssetBatchParams.Encoded

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
export const GetAssetProofParams = Schema.Struct({ id: Address }).annotations({ identifier: "GetAssetProofParams" })
/** The input of getAssetProof, as callers write it. @since 0.1.0 @category params */
export type GetAssetProofInput = typeof GetAssetProofParams.Encoded

/**
 * The params of getAssetsByOwner. Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @example
 * Decode.validateInput(GetAssetsByOwnerParams)({ ownerAddress, page: 1, limit: 1000, sortBy: { sortBy: "id" } })
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByOwnerParams = withAliases({ ownerAddress: Address, ...listParamFields }, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByOwnerParams" })
)
/** The input of getAssetsByOwner, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByOwnerInput = typeof GetAssetsByOwnerParams.Encoded

const NonEmpty = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty string" }))

/**
 * The params of getAssetsByGroup: `groupKey` (usually `collection`) and `groupValue`
 * (the collection address). Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByGroupParams = withAliases({
  groupKey: NonEmpty,
  groupValue: NonEmpty,
  ...listParamFields
}, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByGroupParams" })
)
/** The input of getAssetsByGroup, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByGroupInput = typeof GetAssetsByGroupParams.Encoded

/**
 * The params of getAssetsByCreator: `onlyVerified` keeps the assets the creator signed.
 * Its result is `DigitalAsset.DigitalAssetList`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetAssetsByCreatorParams = withAliases({
  creatorAddress: Address,
  onlyVerified: Schema.optional(Schema.Boolean),
  ...listParamFields
}, displayAlias).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetAssetsByCreatorParams" })
)
/** The input of getAssetsByCreator, as callers write it. @since 0.1.0 @category params */
export type GetAssetsByCreatorInput = typeof GetAssetsByCreatorParams.Encoded
