/**
 * getTransactionWithCompressionInfo: a transaction with the compressed accounts it
 * closed and opened. The real service names the field `compressionInfo`; the docs
 * (and the service's documentation) write `compression_info`. Both decode to `compressionInfo`.
 *
 * @example
 * const tx = yield* compression.getTransactionWithCompressionInfo({ signature })
 * tx.compressionInfo.openedAccounts.length // whichever spelling the wire used
 * @since 0.1.0
 */

import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { CompressedAccount, TokenData } from "./CompressedAccount.js"
import { Count, nullable } from "./internal/schema.js"

/**
 * A compressed account closed or opened by the transaction, with its token data when
 * it is a token account (`null` otherwise).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountWithOptionalTokenData = Schema.Struct({
  account: CompressedAccount,
  optionalTokenData: nullable(TokenData)
}).annotations({ identifier: "AccountWithOptionalTokenData" })

/**
 * A decoded `AccountWithOptionalTokenData`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountWithOptionalTokenData = typeof AccountWithOptionalTokenData.Type

/**
 * The compressed accounts a transaction closed and opened, with their token data.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressionInfo = Schema.Struct({
  closedAccounts: Schema.Array(AccountWithOptionalTokenData),
  openedAccounts: Schema.Array(AccountWithOptionalTokenData)
}).annotations({ identifier: "CompressionInfo" })

/**
 * A decoded `CompressionInfo`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressionInfo = typeof CompressionInfo.Type

/**
 * The transaction, in the shape of the Solana `getTransaction` response
 * (`transaction` is `[base64, "base64"]` on the real service). Kept loose: only the
 * fields every response has are typed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressionTransactionBody = Schema.Struct({
  slot: Schema.optional(Count),
  blockTime: Schema.optional(Schema.NullOr(Count)),
  transaction: Schema.optional(Schema.Unknown),
  meta: Schema.optional(Schema.Unknown),
  version: Schema.optional(Schema.Unknown)
}).annotations({ identifier: "CompressionTransactionBody" })

/**
 * A decoded `CompressionTransactionBody`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressionTransactionBody = typeof CompressionTransactionBody.Type

const Target = Schema.Struct({
  compressionInfo: Schema.typeSchema(CompressionInfo),
  transaction: Schema.typeSchema(CompressionTransactionBody)
})

/**
 * The result of getTransactionWithCompressionInfo, from either spelling of the field.
 *
 * @since 0.1.0
 * @category results
 */
export const TransactionWithCompressionInfo = Schema.transformOrFail(
  Schema.Struct({
    compressionInfo: Schema.optional(CompressionInfo),
    compression_info: Schema.optional(CompressionInfo),
    transaction: CompressionTransactionBody
  }),
  Target,
  {
    strict: true,
    decode: (wire, _, ast) => {
      const info = wire.compressionInfo ?? wire.compression_info
      return info === undefined
        ? ParseResult.fail(new ParseResult.Type(ast, wire, "an object with compressionInfo (or compression_info)"))
        : ParseResult.succeed({ compressionInfo: info, transaction: wire.transaction })
    },
    encode: (value) => ParseResult.succeed({ compressionInfo: value.compressionInfo, transaction: value.transaction })
  }
).annotations({ identifier: "TransactionWithCompressionInfo" })

/**
 * A decoded `TransactionWithCompressionInfo`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionWithCompressionInfo = typeof TransactionWithCompressionInfo.Type
