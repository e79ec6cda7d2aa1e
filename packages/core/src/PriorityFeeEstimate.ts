/**
 * getPriorityFeeEstimate (the service's priority fee API, 1 credit): what to pay per compute
 * unit, in micro-lamports, for a transaction that locks given accounts, from the fees of recent
 * transactions. Ask with the accounts (`accountKeys`) or with the serialized transaction itself
 * (`transaction`, base58 unless `transactionEncoding: "Base64"`), exactly one of them.
 *
 * The answer is one estimate at `priorityLevel` (default `Medium`), or every level with
 * `includeAllPriorityFeeLevels`, or the service's recommendation with `recommended`, which
 * cannot be combined with the others (the service refuses it, and so does the SDK, unsent).
 *
 * On the wire the params are one object in an array (`[{ accountKeys, options }]`); the SDK
 * takes the object.
 *
 * @example
 * const { priorityFeeEstimate } = yield* fees.getPriorityFeeEstimate({ accountKeys: [address] })
 * const { priorityFeeLevels } = yield* fees.getPriorityFeeEstimate({
 *   accountKeys: [address],
 *   options: { includeAllPriorityFeeLevels: true }
 * })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Address, Base58String, Base64String } from "./Primitives.js"

/**
 * The levels, lowest first: each is a percentile of the recent fees (0, 25, 50, 75, 95, 100).
 *
 * @since 0.1.0
 * @category constants
 */
export const PRIORITY_LEVELS = ["Min", "Low", "Medium", "High", "VeryHigh", "UnsafeMax"] as const

/**
 * The percentile of the recent fees each level reads, in `PRIORITY_LEVELS` order.
 *
 * @since 0.1.0
 * @category constants
 */
export const PERCENTILES = [0, 25, 50, 75, 95, 100] as const

/**
 * The most slots an estimate looks back over (and its default).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LOOKBACK_SLOTS = 150

/**
 * The most accounts one request names (the service refuses more).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_ACCOUNT_KEYS = 500

/**
 * A priority level.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriorityLevel = Schema.Literal(...PRIORITY_LEVELS).annotations({
  identifier: "PriorityLevel",
  message: () => ({ message: `one of ${PRIORITY_LEVELS.join(", ")}`, override: true })
})

/**
 * A decoded `PriorityLevel`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type PriorityLevel = typeof PriorityLevel.Type

const lookbackRule = `an integer from 1 to ${MAX_LOOKBACK_SLOTS}`

/**
 * The options of an estimate. `recommended` stands alone: with `priorityLevel`,
 * `includeAllPriorityFeeLevels`, `lookbackSlots` or `includeVote` it is refused.
 *
 * @since 0.1.0
 * @category params
 */
export const PriorityFeeOptions = Schema.Struct({
  /** The one level to answer with (default `Medium`): Min, Low, Medium, High, VeryHigh or UnsafeMax. */
  priorityLevel: Schema.optional(PriorityLevel),
  /** Answer every level in `priorityFeeLevels` instead of one estimate. */
  includeAllPriorityFeeLevels: Schema.optional(Schema.Boolean),
  /** How `transaction` is encoded: `Base58` (default) or `Base64`. */
  transactionEncoding: Schema.optional(
    Schema.Literal("Base58", "Base64").annotations({ message: () => ({ message: "Base58 or Base64", override: true }) })
  ),
  /** Slots to look back over, 1 to 150 (default 150). */
  lookbackSlots: Schema.optional(
    Schema.Number.pipe(
      Schema.int({ message: () => lookbackRule }),
      Schema.between(1, MAX_LOOKBACK_SLOTS, { message: () => lookbackRule })
    )
  ),
  /** Count vote transactions among the recent fees (default false). */
  includeVote: Schema.optional(Schema.Boolean),
  /** The service's recommendation: the Medium level, at least a floor; stands alone. */
  recommended: Schema.optional(Schema.Boolean),
  /** Count a slot without a matching transaction as a fee of 0. */
  evaluateEmptySlotAsZero: Schema.optional(Schema.Boolean),
  /** Also answer the estimates per account and globally (`priorityFeeEstimateDetails`). */
  includeDetails: Schema.optional(Schema.Boolean)
}).pipe(
  Schema.filter((o) => {
    if (o.recommended !== true) return true
    const other = (["priorityLevel", "includeAllPriorityFeeLevels", "lookbackSlots", "includeVote"] as const)
      .find((k) => o[k] !== undefined)
    return other === undefined || { path: [other], message: `recommended cannot be used with ${other}` }
  })
).annotations({ identifier: "PriorityFeeOptions" })

/**
 * The request as callers write it: exactly one of `accountKeys` (1 to 500 addresses) and
 * `transaction` (serialized, base58 or base64 as `options.transactionEncoding` says).
 *
 * @since 0.1.0
 * @category params
 */
export const PriorityFeeRequest = Schema.Struct({
  /** The accounts the transaction will lock, 1 to 500 base58 addresses (or give `transaction`). */
  accountKeys: Schema.optional(
    Schema.Array(Address).pipe(
      Schema.minItems(1, { message: () => ({ message: `1 to ${MAX_ACCOUNT_KEYS} addresses`, override: true }) }),
      Schema.maxItems(MAX_ACCOUNT_KEYS, {
        message: () => ({ message: `1 to ${MAX_ACCOUNT_KEYS} addresses`, override: true })
      })
    )
  ),
  /** The serialized transaction (or give `accountKeys`): its accounts are the ones it locks. */
  transaction: Schema.optional(
    Schema.String.pipe(
      Schema.minLength(1, { message: () => ({ message: "a serialized transaction", override: true }) })
    )
  ),
  /** What to answer and how far to look back. */
  options: Schema.optional(PriorityFeeOptions)
}).pipe(
  Schema.filter((r) => {
    const keys = r.accountKeys !== undefined
    const tx = r.transaction !== undefined
    if (keys && tx) return { path: ["transaction"], message: "transaction and accountKeys cannot both be provided" }
    if (!keys && !tx) return { path: ["accountKeys"], message: "give accountKeys or transaction (exactly one)" }
    if (tx) {
      const base64 = r.options?.transactionEncoding === "Base64"
      const valid = Schema.is(base64 ? Base64String : Base58String)(r.transaction)
      if (!valid) return { path: ["transaction"], message: `a ${base64 ? "base64" : "base58"} serialized transaction` }
    }
    return true
  })
).annotations({ identifier: "PriorityFeeRequest" })

/**
 * `PriorityFeeRequest` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type PriorityFeeRequest = typeof PriorityFeeRequest.Encoded

/**
 * The params of getPriorityFeeEstimate: the request in, `[request]` sent (the wire's array of one object).
 *
 * @since 0.1.0
 * @category params
 */
export const GetPriorityFeeEstimateParams = Schema.transform(
  PriorityFeeRequest,
  Schema.Tuple(Schema.typeSchema(PriorityFeeRequest)),
  { strict: true, decode: (request) => [request] as const, encode: ([request]) => request }
).annotations({ identifier: "GetPriorityFeeEstimateParams" })

/**
 * Every level, micro-lamports per compute unit (the service writes floats such as `10082.0`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriorityFeeLevels = Schema.Struct({
  /** The 0th percentile: the lowest recent fee. */
  min: Schema.Number,
  /** The 25th percentile. */
  low: Schema.Number,
  /** The 50th percentile (the default level). */
  medium: Schema.Number,
  /** The 75th percentile. */
  high: Schema.Number,
  /** The 95th percentile. */
  veryHigh: Schema.Number,
  /** The 100th percentile: the highest recent fee. */
  unsafeMax: Schema.Number
}).annotations({ identifier: "PriorityFeeLevels" })

/**
 * A decoded `PriorityFeeLevels`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type PriorityFeeLevels = typeof PriorityFeeLevels.Type

/**
 * The statistics behind one set of estimates (`includeDetails`): an account's, or `Global`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriorityFeeDetail = Schema.Struct({
  /** The levels of these fees. */
  estimates: PriorityFeeLevels,
  /** Mean fee, micro-lamports per compute unit. */
  mean: Schema.Number,
  /** Standard deviation of the fees. */
  stdev: Schema.Number,
  /** Skew of the fees; null when not computed. */
  skew: Schema.NullOr(Schema.Number),
  /** How many fees were counted. */
  count: Schema.Number
}).annotations({ identifier: "PriorityFeeDetail" })

/**
 * A decoded `PriorityFeeDetail`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type PriorityFeeDetail = typeof PriorityFeeDetail.Type

/**
 * The answer: `priorityFeeEstimate` (one level, or the recommendation), or `priorityFeeLevels`
 * (every level), and with `includeDetails` the statistics as `[account or "Global", detail]` pairs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PriorityFeeEstimate = Schema.Struct({
  /** The estimate at the level asked (default Medium), micro-lamports per compute unit. */
  priorityFeeEstimate: Schema.optional(Schema.Number),
  /** Every level, when `includeAllPriorityFeeLevels` was asked. */
  priorityFeeLevels: Schema.optional(PriorityFeeLevels),
  /** Per account and `Global`, when `includeDetails` was asked. */
  priorityFeeEstimateDetails: Schema.optional(Schema.Array(Schema.Tuple(Schema.String, PriorityFeeDetail)))
}).annotations({ identifier: "PriorityFeeEstimate" })

/**
 * A decoded `PriorityFeeEstimate`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type PriorityFeeEstimate = typeof PriorityFeeEstimate.Type

/**
 * The key of a level in `PriorityFeeLevels` (`VeryHigh` → `veryHigh`).
 *
 * @since 0.1.0
 * @category getters
 */
export const levelKey = (level: PriorityLevel): keyof PriorityFeeLevels =>
  (level.charAt(0).toLowerCase() + level.slice(1)) as keyof PriorityFeeLevels
