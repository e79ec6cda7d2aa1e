/**
 * Where the credit budget of `RateLimits` is counted: in memory (one process) or
 * in Redis (`RateLimitsRedis`, every process of a project). The budget is a plain
 * counter of the credits spent under a key, checked against its ceiling when
 * credits are taken: an attempt takes its credits before it is sent, an answer that
 * was not billed (or an attempt that never started) gives them back.
 *
 * The interface is three operations on one number, so that any ledger can read or
 * feed it: `spend` (check and add, atomically), `refund` (subtract, never below 0)
 * and `spent` (read).
 *
 * @example
 * const budget = yield* BudgetStore.BudgetStore
 * const taken = yield* budget.spend("scope:credits", 10, 1_000)
 * @since 0.1.0
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The store.
 *
 * @since 0.1.0
 * @category models
 */
export interface BudgetStoreShape {
  /** Counts `credits` more as spent under `key`, unless the count would pass `ceiling`: whether it did. */
  readonly spend: (
    key: string,
    credits: number,
    ceiling: number
  ) => Effect.Effect<boolean, RateLimiter.RateLimitStoreError>
  /** Counts `credits` as not spent after all (the count never goes below 0). */
  readonly refund: (key: string, credits: number) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
  /** The credits counted as spent under `key`. */
  readonly spent: (key: string) => Effect.Effect<number, RateLimiter.RateLimitStoreError>
}

/**
 * The store of the credit budget (`BudgetStoreShape`): in memory by default, or in Redis.
 *
 * @since 0.1.0
 * @category services
 */
export class BudgetStore extends Context.Tag("@solfx/http/BudgetStore")<BudgetStore, BudgetStoreShape>() {}

/**
 * The counters in this process.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<BudgetStore> = Layer.sync(BudgetStore, () => {
  const counts = new Map<string, number>()
  const get = (key: string) => counts.get(key) ?? 0
  return {
    spend: (key, credits, ceiling) =>
      Effect.sync(() => {
        if (get(key) + credits > ceiling) return false
        counts.set(key, get(key) + credits)
        return true
      }),
    refund: (key, credits) => Effect.sync(() => void counts.set(key, Math.max(0, get(key) - credits))),
    spent: (key) => Effect.sync(() => get(key))
  }
})
