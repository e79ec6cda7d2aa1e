/**
 * The enhanced transactions API (REST, 100 credits a request): `POST /v0/transactions` parses up
 * to 100 signatures a request into enhanced transactions, and `GET /v0/addresses/{address}/transactions`
 * lists an address's, newest first. Both answer a bare JSON array of the record enhanced webhooks
 * deliver (`WebhookDelivery.EnhancedTransaction`): `tokenTransfers[].tokenAmount` is a number (decimals
 * applied) while `accountData[].tokenBalanceChanges[].rawTokenAmount` is `{ tokenAmount: string, decimals }`.
 *
 * The SDK takes `before` and `until` for the listing and sends them as the service's
 * `before-signature` and `after-signature` (`until` bounds a newest-first walk from below, as
 * `after-signature` does).
 *
 * @example
 * const parsed = yield* enhanced.parseTransactions([signature])
 * const page = yield* enhanced.addressTransactions(address, { type: "TRANSFER", limit: 50 })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Address, Signature } from "./Primitives.js"
import { TransactionType } from "./Webhook.js"
import { EnhancedTransaction } from "./WebhookDelivery.js"

/**
 * The most signatures one `POST /v0/transactions` takes (the SDK batches longer lists).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_PARSE = 100

/**
 * The largest page of an address's enhanced transactions (and its default).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LIMIT = 100

const commitment = Schema.Literal("confirmed", "finalized").annotations({
  message: () => ({ message: "confirmed or finalized", override: true })
})

/**
 * `POST /v0/transactions`: the signatures (any number: the SDK sends them 100 a request).
 *
 * @since 0.1.0
 * @category params
 */
export const ParseTransactionsParams = Schema.Struct({
  /** The transactions to parse, by signature. */
  transactions: Schema.Array(Signature),
  /** `confirmed` or `finalized` (the service's default). */
  commitment: Schema.optional(commitment)
}).annotations({ identifier: "ParseTransactionsParams" })

/**
 * `ParseTransactionsParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type ParseTransactionsParams = typeof ParseTransactionsParams.Encoded

const limitRule = `an integer from 1 to ${MAX_LIMIT}`

/**
 * `GET /v0/addresses/{address}/transactions`, as the SDK takes it: `before` and `until` are sent
 * as `before-signature` and `after-signature`.
 *
 * @since 0.1.0
 * @category params
 */
export const AddressTransactionsParams = Schema.Struct({
  /** The address whose transactions are listed. */
  address: Address,
  /** Only transactions older than this one (a page's last signature continues a walk). */
  "before-signature": Schema.optional(Signature).pipe(Schema.fromKey("before")),
  /** Only transactions newer than this one: the walk stops there. */
  "after-signature": Schema.optional(Signature).pipe(Schema.fromKey("until")),
  /** Only this type (TRANSFER, SWAP, NFT_SALE, …). */
  type: Schema.optional(TransactionType),
  /** Only from this source (SYSTEM_PROGRAM, JUPITER, MAGIC_EDEN, …). */
  source: Schema.optional(
    Schema.String.pipe(
      Schema.pattern(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, { message: () => "an UPPER_SNAKE_CASE source" })
    )
  ),
  /** The page size, 1 to 100 (default 100). */
  limit: Schema.optional(
    Schema.Number.pipe(
      Schema.int({ message: () => limitRule }),
      Schema.between(1, MAX_LIMIT, { message: () => limitRule })
    )
  ),
  /** `confirmed` or `finalized` (the service's default). */
  commitment: Schema.optional(commitment)
}).annotations({ identifier: "AddressTransactionsParams" })

/**
 * `AddressTransactionsParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type AddressTransactionsParams = typeof AddressTransactionsParams.Encoded

/**
 * The answer of both routes: enhanced transactions, in the order asked (parse) or newest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EnhancedTransactionList = Schema.Array(EnhancedTransaction).annotations({
  identifier: "EnhancedTransactionList"
})

/**
 * A decoded `EnhancedTransactionList`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type EnhancedTransactionList = typeof EnhancedTransactionList.Type
