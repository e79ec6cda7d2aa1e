/**
 * Signatures of an asset's transactions (getSignaturesForAsset). On the wire each entry is a `[signature, kind]` pair; it
 * decodes to `{ signature, kind }`.
 *
 * @example
 * const page = yield* das.getSignaturesForAsset({ id: assetId, limit: 100 })
 * page.items.map((s) => `${s.kind} ${s.signature}`) // wire pairs decoded to { signature, kind }
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { listFields, onePagingStyle, pagingFields, SortDirection } from "./DasParams.js"
import type * as Endpoint from "./Endpoint.js"
import { Address, Signature } from "./Primitives.js"

/**
 * The params of getSignaturesForAsset.
 *
 * @example
 * Decode.validateInput(GetSignaturesForAssetParams)({ id: assetId, page: 1, limit: 1000 })
 * @since 0.1.0
 * @category params
 */
export const GetSignaturesForAssetParams = Schema.Struct({
  /** The compressed asset's id: a base58 address of 32 bytes. */
  id: Address,
  ...pagingFields,
  /** `"asc"` (oldest first) or `"desc"` (newest first, the service's default). */
  sortDirection: Schema.optional(SortDirection)
}).pipe(
  Schema.filter(onePagingStyle),
  Schema.annotations({ identifier: "GetSignaturesForAssetParams" })
)
/** A decoded `GetSignaturesForAssetParams`: the type of the schema of the same name. @since 0.1.0 @category params */
export type GetSignaturesForAssetParams = typeof GetSignaturesForAssetParams.Type
/** The input of the call, as callers write it: the encoded side of `GetSignaturesForAssetParams`. @since 0.1.0 @category params */
export type GetSignaturesForAssetInput = Endpoint.InputOf<typeof GetSignaturesForAssetParams>

/**
 * One entry: the transaction signature and its instruction kind (e.g.
 * `MintToCollectionV1`, `Transfer`).
 *
 * @since 0.1.0
 * @category models
 */
export const AssetSignature = Schema.transform(
  Schema.Tuple(Signature, Schema.String),
  Schema.Struct({ signature: Schema.typeSchema(Signature), kind: Schema.String }),
  {
    strict: true,
    decode: ([signature, kind]) => ({ signature, kind }),
    encode: ({ kind, signature }) => [signature, kind] as const
  }
).annotations({ identifier: "AssetSignature" })
/** A decoded `AssetSignature`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AssetSignature = typeof AssetSignature.Type

/**
 * The result of getSignaturesForAsset.
 *
 * @since 0.1.0
 * @category models
 */
export const AssetSignatureList = Schema.Struct({
  ...listFields,
  items: Schema.Array(AssetSignature)
}).annotations({ identifier: "AssetSignatureList" })
/** A decoded `AssetSignatureList`: the type of the schema of the same name. @since 0.1.0 @category models */
export type AssetSignatureList = typeof AssetSignatureList.Type
