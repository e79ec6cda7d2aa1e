/**
 * getTransactionWithCompressionInfoV2 (as the service documents), which stateless.js 0.23 calls
 * by default. Same params as V1 (`CompressionRequest.TransactionWithCompressionInfoParams`)
 * and, like V1, no `{ context, value }` wrapper. Opened accounts are V2 accounts; a
 * closed account nests one level deeper, with the `nullifier` and `txHash` of its
 * spending (32 zero bytes for a V1 tree). Only the camelCase `compressionInfo` is
 * known for V2.
 *
 * @example
 * const tx = yield* compression.getTransactionWithCompressionInfoV2({ signature })
 * tx.compressionInfo.closedAccounts.map((c) => c.account.nullifier)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { TokenData } from "./CompressedAccount.js"
import { CompressedAccountV2 } from "./CompressedAccountV2.js"
import { CompressionTransactionBody } from "./CompressionTransaction.js"
import { nullable } from "./internal/schema.js"
import { FieldHash } from "./Primitives.js"

/**
 * A closed (spent) account: the account, its nullifier and the hash of the spending transaction.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ClosedAccountV2 = Schema.Struct({
  account: CompressedAccountV2,
  nullifier: FieldHash,
  txHash: FieldHash
}).annotations({ identifier: "ClosedAccountV2" })

/**
 * The compressed accounts a transaction closed and opened, with their token data (`null` for a non-token account).
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressionInfoV2 = Schema.Struct({
  closedAccounts: Schema.Array(
    Schema.Struct({ account: ClosedAccountV2, optionalTokenData: nullable(TokenData) })
  ),
  openedAccounts: Schema.Array(
    Schema.Struct({ account: CompressedAccountV2, optionalTokenData: nullable(TokenData) })
  )
}).annotations({ identifier: "CompressionInfoV2" })

/**
 * A decoded `CompressionInfoV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressionInfoV2 = typeof CompressionInfoV2.Type

/**
 * The result of getTransactionWithCompressionInfoV2.
 *
 * @since 0.1.0
 * @category results
 */
export const TransactionWithCompressionInfoV2 = Schema.Struct({
  compressionInfo: CompressionInfoV2,
  transaction: CompressionTransactionBody
}).annotations({ identifier: "TransactionWithCompressionInfoV2" })

/**
 * A decoded `TransactionWithCompressionInfoV2`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionWithCompressionInfoV2 = typeof TransactionWithCompressionInfoV2.Type
