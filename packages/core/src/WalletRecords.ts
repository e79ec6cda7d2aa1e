/**
 * The response records of the Wallet API (beta), as the service documents them,
 * including the shapes it documents elsewhere where its reference says "not shown".
 *
 * Decoding is tolerant where the real data is: labels a token may lack
 * (`symbol`, `name`, `logoUri`, prices) are `string | null` and a missing one
 * reads as `null`; a transfer `direction` other than `in`/`out` still decodes.
 * Identifiers stay strict (`Address`, `Signature`), so a record's values can be
 * passed straight to other calls.
 *
 * @example
 * const page = yield* Schema.decodeUnknown(WalletRecords.BalancesPage)(body)
 * const total = page.balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0)
 * @since 0.1.0
 */

import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { BAIL, DecodeId } from "./internal/fastDecoder.js"
import { nullable, plainTransform } from "./internal/schema.js"
import { Address, Signature } from "./Primitives.js"

/** What a `Decimal` decodes its wire value to. */
const decimalOf = (wire: number | string): number => (typeof wire === "number" ? wire : Number(wire))

/**
 * A decimal number (UI amounts, prices, USD values). The lossless JSON parser
 * keeps an integer literal beyond 2^53 as its digit string; in these fields,
 * which are doubles anyway, it reads as the nearest number instead of failing.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Decimal = Schema.transform(
  Schema.Union(Schema.Number, Schema.String.pipe(Schema.pattern(/^-?[0-9]{16,}$/))),
  Schema.Number,
  { strict: true, decode: decimalOf, encode: (n) => n }
).annotations({
  identifier: "Decimal",
  // The same decode without its Either (see FastDecoder.DecodeId).
  [DecodeId]: decimalOf
})

/**
 * The mint the Wallet API uses for native SOL (the wrapped-SOL mint).
 *
 * @since 0.1.0
 * @category constants
 */
export const NATIVE_MINT = "So11111111111111111111111111111111111111112"

const AMOUNT_RAW = /^[0-9]{1,40}$/

/**
 * A raw integer amount sent as a decimal string (`amountRaw`), decoded to an
 * exact `bigint` and encoded back to the string.
 *
 * @example
 * Schema.decodeUnknownSync(AmountRaw)("1500000000") // 1500000000n
 * @since 0.1.0
 * @category schemas
 */
export const AmountRaw = plainTransform(Schema.String, Schema.BigIntFromSelf, {
  identifier: "AmountRaw",
  decode: (s) => (AMOUNT_RAW.test(s) ? BigInt(s) : BAIL),
  refused: () => "a non-negative decimal integer string",
  encode: (n, ast) =>
    n >= 0n
      ? ParseResult.succeed(n.toString())
      : ParseResult.fail(new ParseResult.Type(ast, n, "a non-negative integer"))
})

/**
 * The token program of a balance.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TokenProgram = Schema.Literal("spl-token", "token-2022").annotations({ identifier: "TokenProgram" })

/**
 * A decoded `TokenProgram`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TokenProgram = typeof TokenProgram.Type

/**
 * The identity of a known wallet (an exchange, a protocol, a named account).
 * `domainNames` appears in newer docs and only when the wallet has one; it reads as `[]` when absent.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Identity = Schema.Struct({
  address: Address,
  type: Schema.String,
  name: Schema.String,
  category: Schema.String,
  tags: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  domainNames: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] })
}).annotations({ identifier: "Identity" })

/**
 * A decoded `Identity`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Identity = typeof Identity.Type

/**
 * The body of `POST /v1/wallet/batch-identity`: the identities the service knows.
 *
 * @since 0.1.0
 * @category schemas
 */
export const IdentityList = Schema.Array(Identity).annotations({ identifier: "IdentityList" })

/**
 * A token balance. `balance` is in UI units (decimal-adjusted). Native SOL, when
 * requested, is the first entry of page 1 with mint `NATIVE_MINT`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Balance = Schema.Struct({
  mint: Address,
  balance: Decimal,
  decimals: Schema.Int,
  tokenProgram: TokenProgram,
  symbol: nullable(Schema.String),
  name: nullable(Schema.String),
  pricePerToken: nullable(Decimal),
  /** `null` when the token has no price. */
  usdValue: nullable(Decimal),
  logoUri: nullable(Schema.String)
}).annotations({ identifier: "Balance" })

/**
 * A decoded `Balance`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Balance = typeof Balance.Type

/**
 * An NFT held by the wallet (first balances page only, at most 100).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Nft = Schema.Struct({
  mint: Address,
  compressed: Schema.Boolean,
  name: nullable(Schema.String),
  imageUri: nullable(Schema.String),
  collectionName: nullable(Schema.String),
  collectionAddress: nullable(Address)
}).annotations({ identifier: "Nft" })

/**
 * A decoded `Nft`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Nft = typeof Nft.Type

/**
 * Page-number pagination of the balances endpoint.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PagePagination = Schema.Struct({
  page: Schema.Int,
  limit: Schema.Int,
  hasMore: Schema.Boolean
}).annotations({ identifier: "PagePagination" })

/**
 * Cursor pagination of history and transfers. `nextCursor` is absent or null on the last page.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CursorPagination = Schema.Struct({
  hasMore: Schema.Boolean,
  nextCursor: Schema.optionalWith(Schema.String, { nullable: true })
}).annotations({ identifier: "CursorPagination" })

/**
 * A decoded `CursorPagination`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CursorPagination = typeof CursorPagination.Type

/**
 * The body of `GET /v1/wallet/{wallet}/balances`.
 *
 * `totalUsdValue` is the total of THIS PAGE only, not of the portfolio (as the service documents).
 * `nfts` is present only when `showNfts` was true, and only on page 1; it reads as `[]` otherwise.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BalancesPage = Schema.Struct({
  balances: Schema.Array(Balance),
  nfts: Schema.optionalWith(Schema.Array(Nft), { default: () => [] }),
  /** The total of this page only. */
  totalUsdValue: Decimal,
  pagination: PagePagination
}).annotations({ identifier: "BalancesPage" })

/**
 * A decoded `BalancesPage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type BalancesPage = typeof BalancesPage.Type

/**
 * A balance change within a history entry. `mint` is `"SOL"` for native SOL;
 * `amount` is signed, in UI units.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BalanceChange = Schema.Struct({
  mint: Schema.String,
  amount: Decimal,
  decimals: Schema.Int
}).annotations({ identifier: "BalanceChange" })

/**
 * A decoded `BalanceChange`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type BalanceChange = typeof BalanceChange.Type

/**
 * A transaction of the wallet's history. `timestamp` (Unix seconds) is null when
 * the block time is unknown; `fee` is in SOL; `error` is null for a success.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HistoryEntry = Schema.Struct({
  signature: Signature,
  timestamp: Schema.NullOr(Schema.Int),
  slot: Schema.Int,
  fee: Decimal,
  feePayer: Address,
  error: nullable(Schema.String),
  balanceChanges: Schema.optionalWith(Schema.Array(BalanceChange), { default: () => [] })
}).annotations({ identifier: "HistoryEntry" })

/**
 * A decoded `HistoryEntry`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type HistoryEntry = typeof HistoryEntry.Type

/**
 * The body of `GET /v1/wallet/{wallet}/history`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const HistoryPage = Schema.Struct({
  data: Schema.Array(HistoryEntry),
  pagination: CursorPagination
}).annotations({ identifier: "HistoryPage" })

/**
 * A decoded `HistoryPage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type HistoryPage = typeof HistoryPage.Type

/**
 * The direction of a transfer. The service documents only `in`, the real SDK types
 * `in | out`; the API is beta, so any other string still decodes (as itself)
 * rather than making the whole page unreadable. Compare with `=== "in"`.
 *
 * @since 0.1.0
 * @category models
 */
export type Direction = "in" | "out" | (string & {})

/**
 * The schema of `Direction`: any string, `in` and `out` being the known ones.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Direction: Schema.Schema<Direction, string> = Schema.String.annotations({
  identifier: "Direction",
  description: "in, out, or another value of the beta API"
})

/**
 * A token transfer. `amount` is decimal-adjusted; `amountRaw` is the exact raw amount.
 * `mint` is `NATIVE_MINT` for SOL. `timestamp` is in Unix seconds.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Transfer = Schema.Struct({
  signature: Signature,
  timestamp: Schema.Int,
  direction: Direction,
  counterparty: Address,
  mint: Address,
  symbol: nullable(Schema.String),
  amount: Decimal,
  amountRaw: AmountRaw,
  decimals: Schema.Int
}).annotations({ identifier: "Transfer" })

/**
 * A decoded `Transfer`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Transfer = typeof Transfer.Type

/**
 * The body of `GET /v1/wallet/{wallet}/transfers`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransfersPage = Schema.Struct({
  data: Schema.Array(Transfer),
  pagination: CursorPagination
}).annotations({ identifier: "TransfersPage" })

/**
 * A decoded `TransfersPage`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransfersPage = typeof TransfersPage.Type

/**
 * The original funding transaction of a wallet (`GET /v1/wallet/{wallet}/funded-by`).
 * `date` is the ISO-8601 rendering of `timestamp` (Unix seconds).
 *
 * @since 0.1.0
 * @category schemas
 */
export const FundedBy = Schema.Struct({
  funder: Address,
  funderName: nullable(Schema.String),
  funderType: nullable(Schema.String),
  mint: Address,
  symbol: nullable(Schema.String),
  amount: Decimal,
  amountRaw: AmountRaw,
  decimals: Schema.Int,
  signature: Signature,
  timestamp: Schema.Int,
  date: Schema.String,
  slot: Schema.Int,
  explorerUrl: Schema.String
}).annotations({ identifier: "FundedBy" })

/**
 * A decoded `FundedBy`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type FundedBy = typeof FundedBy.Type
