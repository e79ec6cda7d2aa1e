/**
 * The request parameters of the Wallet API (beta) with the limits the service documents,
 * and the query names the real service uses. The SDK
 * checks them before any request; the field names match the service's.
 *
 * @example
 * const request = yield* Decode.validateInput(WalletParams.BalancesRequest)({ wallet, page: 1, limit: 100 })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { WalletAddress, WalletOrDomain } from "./Primitives.js"
import { TransactionType } from "./Webhook.js"

/**
 * At most this many addresses or domains per batch-identity request (as the service documents).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_BATCH_IDENTITY = 100

/**
 * The largest page of balances, history and transfers (as the service documents).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LIMIT = 100

/**
 * An integer in `[min, max]`, with one rule message for every way of missing it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const intBetween = (min: number, max: number) =>
  Schema.Number.pipe(
    Schema.filter((n) => Number.isInteger(n) && n >= min && n <= max, {
      message: () => `an integer from ${min} to ${max}`
    })
  )

/**
 * A page size of 1 to 100.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Limit = intBetween(1, MAX_LIMIT).annotations({ identifier: "Limit" })

/**
 * A 1-indexed page number.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PageNumber = Schema.Number.pipe(
  Schema.filter((n) => Number.isSafeInteger(n) && n >= 1, { message: () => "an integer of at least 1" }),
  Schema.annotations({ identifier: "PageNumber" })
)

/**
 * A cursor handed back by the service (history `before`/`after`, transfers `cursor`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Cursor = Schema.String.pipe(
  Schema.filter((s) => s.length > 0 && s.length <= 512 && !/[\s]/.test(s), {
    message: () => "a non-empty cursor without spaces (at most 512 characters)"
  }),
  Schema.annotations({ identifier: "Cursor" })
)

/**
 * Which token-account transactions history includes: none, those that changed a balance (default), or all.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenAccounts = Schema.Literal("none", "balanceChanged", "all").annotations({
  identifier: "TokenAccounts"
})

/**
 * A decoded `TokenAccounts`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenAccounts = typeof TokenAccounts.Type

/**
 * An address or a name-service domain, with one rule message naming both forms.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AddressOrDomain = WalletOrDomain.annotations({
  // override: the members' own messages would otherwise name only the address rule
  message: () => ({
    message: "a base58 wallet address (32 bytes) or a name-service domain such as name.sol",
    override: true
  })
})

/**
 * `identity` and `funded-by` path input. Identity also takes a domain (see `IdentityRequest`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const WalletRequest = Schema.Struct({
  /** The wallet: a base58 address of 32 bytes. */
  wallet: WalletAddress
})

/**
 * `GET /v1/wallet/{wallet}/identity`: an address or a name-service domain.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IdentityRequest = Schema.Struct({
  /** The wallet: a base58 address of 32 bytes, or a name-service domain such as `name.sol`. */
  wallet: AddressOrDomain
})

/**
 * `POST /v1/wallet/batch-identity` as the SDK takes it: any number of addresses or
 * domains; the SDK sends them in chunks of at most `MAX_BATCH_IDENTITY`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BatchIdentityRequest = Schema.Array(AddressOrDomain)

/**
 * Query of `GET /v1/wallet/{wallet}/balances`. Server defaults: page 1, limit 100,
 * showNative true, showNfts false, showZeroBalance false.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BalancesQuery = Schema.Struct({
  /** The page of this call, 1-indexed: an integer of at least 1 (default 1). A walk starts from `start` instead. */
  page: Schema.optional(PageNumber),
  /** Balances a page: an integer from 1 to 100 (default 100). */
  limit: Schema.optional(Limit),
  /** Include native SOL as a balance (default true). */
  showNative: Schema.optional(Schema.Boolean),
  /** Include NFTs, listed on page 1 only (default false). */
  showNfts: Schema.optional(Schema.Boolean),
  /** Include tokens with a zero balance (default false): the documented "zero-balance flag". */
  showZeroBalance: Schema.optional(Schema.Boolean)
})

/**
 * A decoded `BalancesQuery`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type BalancesQuery = typeof BalancesQuery.Type

/**
 * The wallet and the balances query, as the SDK validates them.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BalancesRequest = Schema.Struct({ ...WalletRequest.fields, ...BalancesQuery.fields })

/**
 * Query of `GET /v1/wallet/{wallet}/history`. `before` takes the previous page's
 * `nextCursor` (or a signature); `after` is a lower bound (a signature).
 *
 * @since 0.1.0
 * @category schemas
 */
export const HistoryQuery = Schema.Struct({
  /** Transactions a page: an integer from 1 to 100 (default 100). */
  limit: Schema.optional(Limit),
  /**
   * Transactions older than this: a page's `nextCursor` or a signature (a non-empty cursor without spaces, at
   * most 512 characters). A walk starts from `start` instead.
   */
  before: Schema.optional(Cursor),
  /** Transactions newer than this signature (a lower bound every page keeps; non-empty, no spaces, ≤ 512 characters). */
  after: Schema.optional(Cursor),
  /** Only transactions of this enhanced type (UPPER_SNAKE_CASE, one of the service's types, such as `SWAP` or `TRANSFER`). */
  type: Schema.optional(TransactionType.annotations({
    // override: a union reports its first member's failure (`Expected "ANY"`), not the rule
    message: () => ({
      message: "an enhanced transaction type in UPPER_SNAKE_CASE, such as SWAP or TRANSFER",
      override: true
    })
  })),
  /**
   * Which token-account transactions count as the wallet's: `"none"`, `"balanceChanged"` (default: those that
   * changed one of its balances) or `"all"`.
   */
  tokenAccounts: Schema.optional(TokenAccounts)
})

/**
 * A decoded `HistoryQuery`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type HistoryQuery = typeof HistoryQuery.Type

/**
 * The wallet and the history query, as the SDK validates them.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HistoryRequest = Schema.Struct({ ...WalletRequest.fields, ...HistoryQuery.fields })

/**
 * Query of `GET /v1/wallet/{wallet}/transfers`. Server default limit: 50.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransfersQuery = Schema.Struct({
  /** Transfers a page: an integer from 1 to 100 (the service's default 50; a walk asks 100). */
  limit: Schema.optional(Limit),
  /** Resume after this cursor, a page's `nextCursor` (non-empty, no spaces, ≤ 512 characters). A walk starts from `start` instead. */
  cursor: Schema.optional(Cursor)
})

/**
 * A decoded `TransfersQuery`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransfersQuery = typeof TransfersQuery.Type

/**
 * The wallet and the transfers query, as the SDK validates them.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransfersRequest = Schema.Struct({ ...WalletRequest.fields, ...TransfersQuery.fields })
