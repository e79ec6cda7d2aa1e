/**
 * getTransactionsForAddress (the service's history call, 100 credits): the transactions of an
 * address, as signatures (`transactionDetails: "signatures"`, up to 1,000 a page) or whole
 * (`"full"`, up to 100), newest first unless `sortOrder: "asc"`, narrowed by `filters` (slot,
 * block time and signature ranges, status, token accounts), paged by `paginationToken`
 * (`"slot:position"`, handed back by the previous page; null on the last).
 *
 * On the wire it is positional (`[address, { transactionDetails, … }]`); the SDK takes one object.
 * `commitment` is `confirmed` or `finalized` (the service refuses `processed`).
 *
 * @example
 * const page = yield* history.getTransactionsForAddress({ address, limit: 100, filters: { status: "succeeded" } })
 * page.data.map((t) => `${t.slot} ${t.signature}`)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"
import { Address, Signature, U64 } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { RawTransactionBody, TransactionMeta } from "./WebhookDelivery.js"

/**
 * The most signatures one page holds (`transactionDetails: "signatures"`), and its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_SIGNATURES = 1000

/**
 * The most whole transactions one page holds (`transactionDetails: "full"`), and its default.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_FULL = 100

const int = (rule: string) =>
  Schema.Number.pipe(Schema.filter((n) => Number.isSafeInteger(n) && n >= 0, { message: () => rule }))
const slotRule = "a slot (a non-negative integer)"
const timeRule = "a block time (unix seconds, a non-negative integer)"

/**
 * A range of slots: each bound optional, all given must hold.
 *
 * @since 0.1.0
 * @category params
 */
export const SlotRange = Schema.Struct({
  /** At or after this slot. */
  gte: Schema.optional(int(slotRule)),
  /** After this slot. */
  gt: Schema.optional(int(slotRule)),
  /** At or before this slot. */
  lte: Schema.optional(int(slotRule)),
  /** Before this slot. */
  lt: Schema.optional(int(slotRule))
}).annotations({ identifier: "SlotRange" })

/**
 * A range of block times (unix seconds), or one exact time (`eq`).
 *
 * @since 0.1.0
 * @category params
 */
export const BlockTimeRange = Schema.Struct({
  /** At or after this time. */
  gte: Schema.optional(int(timeRule)),
  /** After this time. */
  gt: Schema.optional(int(timeRule)),
  /** At or before this time. */
  lte: Schema.optional(int(timeRule)),
  /** Before this time. */
  lt: Schema.optional(int(timeRule)),
  /** Exactly this time. */
  eq: Schema.optional(int(timeRule))
}).annotations({ identifier: "BlockTimeRange" })

/**
 * A range of the address's history by signature: bounds are transactions of the address, compared
 * by their place in it (slot, then position in the slot).
 *
 * @since 0.1.0
 * @category params
 */
export const SignatureRange = Schema.Struct({
  /** This transaction and those after it. */
  gte: Schema.optional(Signature),
  /** The transactions after this one. */
  gt: Schema.optional(Signature),
  /** This transaction and those before it. */
  lte: Schema.optional(Signature),
  /** The transactions before this one. */
  lt: Schema.optional(Signature)
}).annotations({ identifier: "SignatureRange" })

/**
 * What to keep of the address's history.
 *
 * @since 0.1.0
 * @category params
 */
export const Filters = Schema.Struct({
  /** Slots to keep. */
  slot: Schema.optional(SlotRange),
  /** Block times to keep (unix seconds). */
  blockTime: Schema.optional(BlockTimeRange),
  /** A stretch of the history, bounded by its own transactions. */
  signature: Schema.optional(SignatureRange),
  /** `succeeded`, `failed` or `any` (default). */
  status: Schema.optional(
    Schema.Literal("succeeded", "failed", "any").annotations({
      message: () => ({ message: "succeeded, failed or any", override: true })
    })
  ),
  /**
   * Transactions of token accounts the address owns: `none` (default: only those naming the
   * address), `balanceChanged` (also those changing such an account's balance), `all`.
   */
  tokenAccounts: Schema.optional(
    Schema.Literal("none", "balanceChanged", "all").annotations({
      message: () => ({ message: "none, balanceChanged or all", override: true })
    })
  )
}).annotations({ identifier: "TransactionFilters" })

const PAGINATION_TOKEN = /^\d{1,20}:\d{1,10}$/

/**
 * Params of getTransactionsForAddress: the address, then its config.
 *
 * @since 0.1.0
 * @category params
 */
export const GetTransactionsForAddressParams = Schema.Struct({
  /** The address whose history is read (a wallet, a mint, a program, a token account). */
  address: Address,
  /** `signatures` (default): a signature and its status each; `full`: the whole transaction. */
  transactionDetails: Schema.optional(
    Schema.Literal("signatures", "full").annotations({
      message: () => ({ message: "signatures or full", override: true })
    })
  ),
  /** `desc` (default): newest first; `asc`: oldest first. */
  sortOrder: Schema.optional(
    Schema.Literal("asc", "desc").annotations({ message: () => ({ message: "asc or desc", override: true }) })
  ),
  /** The page size: 1 to 1,000 signatures, or 1 to 100 whole transactions. */
  limit: Schema.optional(Schema.Number),
  /** Where the previous page ended: its `paginationToken` (`"slot:position"`). */
  paginationToken: Schema.optional(
    Schema.String.pipe(Schema.filter((s) => PAGINATION_TOKEN.test(s), { message: () => "a token \"slot:position\"" }))
  ),
  /** `confirmed` or `finalized` (default); `processed` is refused. */
  commitment: Schema.optional(
    Schema.Literal("confirmed", "finalized").annotations({
      message: () => ({ message: "confirmed or finalized (processed is not supported)", override: true })
    })
  ),
  /** Answer only from a node at or past this slot. */
  minContextSlot: Schema.optional(int(slotRule)),
  /** With `full`: `json` (default), `jsonParsed`, `base58` or `base64`. */
  encoding: Schema.optional(
    Schema.Literal("json", "jsonParsed", "base58", "base64").annotations({
      message: () => ({ message: "json, jsonParsed, base58 or base64", override: true })
    })
  ),
  /** With `full`: the newest transaction version to return (0). */
  maxSupportedTransactionVersion: Schema.optional(Schema.Literal(0)),
  /** What to keep: slot, block time and signature ranges, status, token accounts. */
  filters: Schema.optional(Filters)
}).pipe(
  Schema.filter((p) => {
    if (p.limit === undefined) return true
    const max = p.transactionDetails === "full" ? MAX_FULL : MAX_SIGNATURES
    return (Number.isInteger(p.limit) && p.limit >= 1 && p.limit <= max) ||
      {
        path: ["limit"],
        message: `an integer from 1 to ${max} (transactionDetails ${p.transactionDetails ?? "signatures"})`
      }
  })
).annotations({ identifier: "GetTransactionsForAddressParams" })

/**
 * `GetTransactionsForAddressParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetTransactionsForAddressParams = typeof GetTransactionsForAddressParams.Encoded

/**
 * The largest page for some params: 100 whole transactions, else 1,000 signatures.
 *
 * @since 0.1.0
 * @category params
 */
export const maxLimitOf = (params: unknown): number =>
  (params as { transactionDetails?: unknown } | null)?.transactionDetails === "full" ? MAX_FULL : MAX_SIGNATURES

/**
 * A transaction of the history as a signature (`transactionDetails: "signatures"`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureItem = Schema.Struct({
  /** The transaction's first signature. */
  signature: Signature,
  /** The slot it landed in. */
  slot: U64,
  /** Its position in the slot. */
  transactionIndex: Schema.optional(Count),
  /** The runtime's error, null on success. */
  err: Schema.Unknown,
  /** Its memo, if it had one. */
  memo: nullable(Schema.String),
  /** Unix seconds; null when unknown. */
  blockTime: nullable(Schema.Number),
  /** How final it is. */
  confirmationStatus: nullable(Commitment)
}).annotations({ identifier: "AddressSignature" })

/**
 * A decoded `SignatureItem`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureItem = typeof SignatureItem.Type

/**
 * A whole transaction of the history (`transactionDetails: "full"`), as getTransaction gives it:
 * with `json`, the message and signatures; with `base58`/`base64`, `[data, encoding]`; with
 * `jsonParsed`, the parsed message (kept as JSON).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FullItem = Schema.Struct({
  /** The slot it landed in. */
  slot: U64,
  /** Its position in the slot. */
  transactionIndex: Schema.optional(Count),
  /** Unix seconds; null when unknown. */
  blockTime: nullable(Schema.Number),
  /** The signed transaction, in the encoding asked. */
  transaction: Schema.Union(
    RawTransactionBody,
    Schema.Tuple(Schema.String, Schema.String),
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  ),
  /** Its status: error, fee, balances before and after, logs. */
  meta: nullable(TransactionMeta),
  /** `legacy` or 0. */
  version: Schema.optional(Schema.Union(Schema.Literal("legacy"), Schema.Number))
}).annotations({ identifier: "AddressTransaction" })

/**
 * A decoded `FullItem`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type FullItem = typeof FullItem.Type

/**
 * A page of getTransactionsForAddress: its transactions, and the token of the next page (null on
 * the last).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionsPage = Schema.Struct({
  /** Signatures or whole transactions, as `transactionDetails` asked. */
  data: Schema.Array(Schema.Union(SignatureItem, FullItem)),
  /** Give it back as `paginationToken` for the next page; null when there is none. */
  paginationToken: nullable(Schema.String)
}).annotations({ identifier: "TransactionsForAddressPage" })

/**
 * A decoded `TransactionsPage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionsPage = typeof TransactionsPage.Type
