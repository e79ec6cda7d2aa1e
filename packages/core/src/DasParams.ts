/**
 * Request and response pieces shared by the digital-asset (DAS) methods: the
 * page/limit/cursor parameters, the display `options` object and the fields of
 * every list wrapper (as the service documents).
 *
 * @example
 * const sorting: typeof DasParams.AssetSorting.Encoded = { sortBy: "created", sortDirection: "asc" }
 * das.getAssetsByAuthority({ authorityAddress, page: 1, limit: DasParams.MAX_LIMIT, sortBy: sorting })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"

/**
 * The most items one DAS page can hold.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LIMIT = 1000

/**
 * A page size: an integer from 1 to 1000.
 *
 * @since 0.1.0
 * @category params
 */
export const Limit = Schema.Number.pipe(
  Schema.int({ message: () => "an integer from 1 to 1000" }),
  Schema.between(1, MAX_LIMIT, { message: () => "an integer from 1 to 1000" })
).annotations({ identifier: "Limit" })

/**
 * A 1-indexed page number.
 *
 * @since 0.1.0
 * @category params
 */
export const PageNumber = Schema.Number.pipe(
  Schema.int({ message: () => "an integer of at least 1" }),
  Schema.greaterThanOrEqualTo(1, { message: () => "an integer of at least 1" })
).annotations({ identifier: "PageNumber" })

/**
 * A pagination cursor (opaque, non-empty).
 *
 * @since 0.1.0
 * @category params
 */
export const Cursor = Schema.String.pipe(Schema.minLength(1, { message: () => "a non-empty cursor" }))

/**
 * The pagination fields every paginated DAS method accepts.
 *
 * @since 0.1.0
 * @category params
 */
export const pagingFields = {
  /** The page of this call, 1-indexed: an integer of at least 1. Not with `cursor`, `before` or `after` (one paging style a query). */
  page: Schema.optional(PageNumber),
  /** Items a page: an integer from 1 to 1000 (a walk asks 1000 unless told). */
  limit: Schema.optional(Limit),
  /** Keyset paging: the previous page's `cursor` (non-empty). Not with `page`, `before` or `after`. */
  cursor: Schema.optional(Cursor),
  /** Items before this id (non-empty). Not with `page` or `cursor`. */
  before: Schema.optional(Cursor),
  /** Items after this id (non-empty). Not with `page` or `cursor`. */
  after: Schema.optional(Cursor)
}

/**
 * The pagination fields as a type.
 *
 * @since 0.1.0
 * @category params
 */
export interface Paging {
  readonly page?: number | undefined
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
  readonly before?: string | undefined
  readonly after?: string | undefined
}

/**
 * One pagination style per query: `page`, or `cursor`, or `before`/`after` (the
 * reference implementation rejects a mix). Returns the issue, or undefined.
 *
 * @since 0.1.0
 * @category params
 */
export const pagingIssue = (
  p: Paging
): { readonly path: ReadonlyArray<string>; readonly message: string } | undefined => {
  const cursors = (["cursor", "before", "after"] as const).filter((k) => p[k] !== undefined)
  if (p.page !== undefined && cursors.length > 0) {
    return { path: [cursors[0]!], message: "cannot be combined with page: use one pagination style per query" }
  }
  if (p.cursor !== undefined && cursors.length > 1) {
    return { path: [cursors[1]!], message: "cannot be combined with cursor: use one pagination style per query" }
  }
  return undefined
}

/**
 * A filter predicate applying `pagingIssue` (use with `Schema.filter`).
 *
 * @since 0.1.0
 * @category params
 */
export const onePagingStyle = (p: Paging): true | { readonly path: ReadonlyArray<string>; readonly message: string } =>
  pagingIssue(p) ?? true

/**
 * The display `options` of getAssetsByAuthority (Helius names, plus the
 * reference implementation's `showFungible` and `showZeroBalance`).
 *
 * @since 0.1.0
 * @category params
 */
export const AssetDisplayOptions = Schema.Struct({
  /** Include assets of collections that are not verified (default false). */
  showUnverifiedCollections: Schema.optional(Schema.Boolean),
  /** Add each collection's metadata to its assets (default false). */
  showCollectionMetadata: Schema.optional(Schema.Boolean),
  /** Count every matching asset in `grand_total` (default false; a walk by page reads it as the total). */
  showGrandTotal: Schema.optional(Schema.Boolean),
  /** Add inscription data to the assets that have it (default false). */
  showInscription: Schema.optional(Schema.Boolean),
  /** Include fungible tokens, with their `token_info` (default false). */
  showFungible: Schema.optional(Schema.Boolean),
  /** Include tokens the owner holds none of (default false). */
  showZeroBalance: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "AssetDisplayOptions" })

/**
 * The sort orders of getAssetsByAuthority (as the service documents).
 *
 * @since 0.1.0
 * @category params
 */
export const SortByField = Schema.Literal("created", "recent_action", "updated", "none")
/** A decoded `SortByField`: the type of the schema of the same name. @since 0.1.0 @category params */
export type SortByField = typeof SortByField.Type

/**
 * The order of a sorted DAS list: `asc` or `desc`.
 *
 * @since 0.1.0
 * @category params
 */
export const SortDirection = Schema.Literal("asc", "desc")
/** A decoded `SortDirection`: the type of the schema of the same name. @since 0.1.0 @category params */
export type SortDirection = typeof SortDirection.Type

/**
 * The `sortBy` object: `{ sortBy, sortDirection }`.
 *
 * @since 0.1.0
 * @category params
 */
export const AssetSorting = Schema.Struct({
  /** The order: `"created"`, `"recent_action"`, `"updated"` or `"none"`. */
  sortBy: SortByField,
  /** `"asc"` or `"desc"` (the service's default: `"desc"`). */
  sortDirection: Schema.optional(SortDirection)
}).annotations({ identifier: "AssetSorting" })

/**
 * The fields of every DAS list wrapper. `last_indexed_slot` is absent from the
 * reference snapshots; `cursor` is null on the last cursor page; `errors` lists
 * per-item indexing errors when the reference implementation has any.
 *
 * @since 0.1.0
 * @category responses
 */
export const listFields = {
  last_indexed_slot: Schema.optional(Schema.Number),
  total: Schema.Number,
  limit: Schema.Number,
  page: Schema.optional(Schema.Number),
  cursor: Schema.optional(Schema.NullOr(Schema.String)),
  before: Schema.optional(Schema.NullOr(Schema.String)),
  after: Schema.optional(Schema.NullOr(Schema.String)),
  /** With `showGrandTotal`: the number of all matching items. */
  grand_total: Schema.optional(Schema.Number),
  errors: Schema.optional(Schema.Array(Schema.Unknown))
}
