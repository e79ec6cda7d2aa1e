/**
 * getTransaction: a landed transaction with its status meta, or `null` when the node does not
 * know it (not landed, not yet at the asked commitment). The transaction is written as asked:
 * `json` (the message with account keys and compiled instructions), `jsonParsed` (keys as
 * objects, known programs' instructions parsed) or `base64` (`[bytes, "base64"]`). A v0
 * transaction is only returned when `maxSupportedTransactionVersion` is 0 (else error -32015), and
 * then the answer has `version`.
 *
 * @example
 * const tx = yield* rpc.getTransaction({ signature, encoding: "json", maxSupportedTransactionVersion: 0 })
 * tx?.meta?.err === null
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"
import { Signature, U64 } from "./Primitives.js"

/**
 * Params of getTransaction: the signature, then its config (`encoding`, default json;
 * `commitment`, confirmed or finalized; `maxSupportedTransactionVersion`).
 *
 * @since 0.1.0
 * @category params
 */
export const GetTransactionParams = Schema.Struct({
  signature: Signature,
  encoding: Schema.optional(Schema.Literal("json", "jsonParsed", "base64", "base58")),
  commitment: Schema.optional(
    Schema.Literal("confirmed", "finalized").annotations({ message: () => "confirmed or finalized" })
  ),
  maxSupportedTransactionVersion: Schema.optional(Schema.Literal(0))
}).annotations({ identifier: "GetTransactionParams" })

/**
 * `GetTransactionParams` as callers write it.
 *
 * @since 0.1.0
 * @category params
 */
export type GetTransactionParams = typeof GetTransactionParams.Encoded

/**
 * A token balance of `preTokenBalances` / `postTokenBalances`: the account's index among the
 * transaction's keys, its mint, owner, program and amount.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenBalance = Schema.Struct({
  accountIndex: Count,
  mint: Schema.String,
  owner: Schema.optional(Schema.String),
  programId: Schema.optional(Schema.String),
  uiTokenAmount: Schema.Struct({
    amount: Schema.String,
    decimals: Count,
    uiAmount: Schema.NullOr(Schema.Number),
    uiAmountString: Schema.String
  })
}).annotations({ identifier: "TokenBalance" })

/**
 * The status meta of a landed transaction: `err` (null on success), the fee, every key's
 * lamports before and after, token balances, logs, inner instructions, compute units.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionMeta = Schema.Struct({
  err: Schema.Unknown,
  status: Schema.optional(Schema.Unknown),
  fee: U64,
  preBalances: Schema.Array(U64),
  postBalances: Schema.Array(U64),
  innerInstructions: nullable(Schema.Array(Schema.Unknown)),
  logMessages: nullable(Schema.Array(Schema.String)),
  preTokenBalances: nullable(Schema.Array(TokenBalance)),
  postTokenBalances: nullable(Schema.Array(TokenBalance)),
  rewards: nullable(Schema.Array(Schema.Unknown)),
  loadedAddresses: Schema.optional(Schema.Struct({
    writable: Schema.Array(Schema.String),
    readonly: Schema.Array(Schema.String)
  })),
  computeUnitsConsumed: Schema.optional(U64)
}).annotations({ identifier: "TransactionMeta" })

/**
 * A decoded `TransactionMeta`.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionMeta = typeof TransactionMeta.Type

/**
 * A landed transaction: slot, block time, the transaction as encoded, its meta and (when
 * `maxSupportedTransactionVersion` was given) its version, `"legacy"` or `0`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ConfirmedTransaction = Schema.Struct({
  slot: U64,
  blockTime: nullable(Schema.Number),
  transaction: Schema.Unknown,
  meta: nullable(TransactionMeta),
  version: Schema.optional(Schema.Union(Schema.Literal("legacy"), Schema.Literal(0)))
}).annotations({ identifier: "ConfirmedTransaction" })

/**
 * A decoded `ConfirmedTransaction`.
 *
 * @since 0.1.0
 * @category models
 */
export type ConfirmedTransaction = typeof ConfirmedTransaction.Type

/**
 * The result of getTransaction: the transaction, or `null` when not found.
 *
 * @since 0.1.0
 * @category schemas
 */
export const GetTransactionResult = Schema.NullOr(ConfirmedTransaction).annotations({
  identifier: "GetTransactionResult"
})
