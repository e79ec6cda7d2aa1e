/**
 * Plan-aware rate limits and the credit budget: before each attempt (retries
 * included) a call takes a start slot of its bucket, and its credits from the
 * budget, through `@effect/experimental`'s `RateLimiterStore` (in memory by
 * default, Redis to share one project's limits among processes: `RateLimitsRedis`).
 *
 * The server's rule is a sliding 1 s window. The library's `consume` algorithms,
 * configured as "L per second", allow up to 2L in a sliding second (a full token
 * bucket plus its refill; two fixed windows back to back). So this module uses the
 * store's fixed-window counter with no limit and a refill of one `spacing` per
 * token, which is a virtual schedule (GCRA): the counter's expiry is the next free
 * start `tat`; a reservation of `k` tokens at `now` starts at `max(now, tat)` and
 * moves `tat` to that start plus `k × spacing` (both stores do exactly this,
 * atomically). Hence:
 *
 * - Starts of one key are at least `spacing` apart, in the order of reservation.
 * - `spacing = floor((1000 + margin) / L) + 1` ms, so `spacing > (1000 + margin) / L`.
 *   If n requests arrive at the server within a closed 1 s window, and each one's
 *   delay from start to arrival varies by at most `jitter ≤ margin`, then
 *   `(n - 1) × spacing ≤ 1000 + jitter ≤ 1000 + margin < L × spacing`, so n ≤ L.
 *   The margin (default 100 ms) covers network jitter and, with Redis, the spread of
 *   the store's round trip; it costs throughput: L × 1000 / (1000 + margin) at best
 *   (9.0/s for L = 10). Whole milliseconds (Redis' PX), so high limits lose more
 *   (L = 500: 3 ms, 333/s).
 * - `validityProof` counts against both its own bucket and Photon. One reservation
 *   of `k = ceil(spacing_v / spacing_p)` Photon tokens does both: the call starts at
 *   the first of its k slots, every Photon start stays `spacing_p` apart, and the
 *   next start of any Photon call, a validity proof included, is at least
 *   `k × spacing_p ≥ spacing_v` later. (Two separate keys cannot be reserved
 *   atomically through the store, and waiting for the later of two slots would
 *   bunch starts.)
 *
 * The budget is the same store's token bucket, full at the ceiling and never
 * refilled (a refill period of ~35,000 years): an attempt takes its credits before
 * it is sent, and the one that would cross the ceiling fails with
 * `CreditBudgetExceeded` and sends nothing. `refund` puts credits back (negative
 * tokens, which both stores add back atomically): the transport refunds an attempt
 * that `Billing` says was not billed (a 429, a 5xx, no answer) or that never started,
 * so the budget agrees with the server's usage. (The fixed-window counter cannot take
 * refunds: its expiry would fall to zero with its count.)
 *
 * @example
 * const limits = RateLimits.layerMemory({ plan: "developer", scope: RateLimits.fingerprint(apiKey), creditBudget: 1000 })
 * const withPermit = (yield* RateLimits.RateLimits).aroundAttempt("das", 10)
 * yield* withPermit(sendOnce)
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { SolfxConfig } from "@solfx/core/Config"
import { CreditBudgetExceeded } from "@solfx/core/CreditBudget"
import type * as Endpoint from "@solfx/core/Endpoint"
import { InvalidRequest } from "@solfx/core/Errors"
import { type Limits, limitsFor, type Plan, plans } from "@solfx/core/Plans"
import * as ConfigError from "effect/ConfigError"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { createHash } from "node:crypto"

/**
 * The rate-limit bucket of a method: the endpoint table's own type.
 *
 * @since 0.1.0
 * @category models
 */
export type Bucket = Endpoint.Bucket

export type { Limits, Plan } from "@solfx/core/Plans"
export { limitsFor, plans } from "@solfx/core/Plans"

/**
 * What a limiter is built from.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Without a plan, only admin is limited. */
  readonly plan?: Plan | undefined
  /** Per-bucket requests per second over the plan's; `undefined` lifts a limit. */
  readonly overrides?: Limits | undefined
  /**
   * Whose limits these are: every limiter with the same scope and store shares
   * each bucket and the budget. Use `fingerprint(apiKey)`, never the key itself.
   */
  readonly scope: string
  /** Network jitter the spacing absorbs, in ms (default 100; see the module's proof). */
  readonly marginMillis?: number | undefined
  /** A ceiling on the credits spent through this scope. */
  readonly creditBudget?: number | undefined
}

/**
 * The limiter: `aroundAttempt(bucket, credits)` wraps one attempt, taking its
 * credits from the budget (or failing, before anything is sent) and then waiting
 * for the bucket's next start slot.
 *
 * @since 0.1.0
 * @category services
 */
export interface RateLimitsShape {
  readonly limits: Limits
  readonly aroundAttempt: (
    bucket: Bucket,
    credits?: number
  ) => <A, E, R>(
    attempt: Effect.Effect<A, E, R>
  ) => Effect.Effect<A, E | CreditBudgetExceeded | RateLimiter.RateLimitStoreError, R>
  /** Gives back credits taken by an attempt that was sent but not billed. */
  readonly refund: (credits: number) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
}

/**
 * @since 0.1.0
 * @category services
 */
export class RateLimits extends Context.Tag("@solfx/http/RateLimits")<RateLimits, RateLimitsShape>() {}

/**
 * A scope for an API key that does not reveal it: a truncated SHA-256 of the key.
 *
 * @since 0.1.0
 * @category scope
 */
export const fingerprint = (apiKey: Redacted.Redacted<string> | string): string =>
  createHash("sha256")
    .update("solfx-rate-limits:")
    .update(typeof apiKey === "string" ? apiKey : Redacted.value(apiKey))
    .digest("hex")
    .slice(0, 16)

/**
 * Milliseconds between two starts of a bucket limited to `limit` per second (see the module's proof).
 *
 * @since 0.1.0
 * @category plans
 */
export const spacingMillis = (limit: number, marginMillis: number): number =>
  Math.floor((1000 + marginMillis) / limit) + 1

/** Webhooks count as enhanced: they share its key. */
const keyBucket = (bucket: Bucket): Bucket => bucket === "webhooks" ? "enhanced" : bucket

/** One reservation: `tokens` slots of `spacing` ms on `key`. */
interface Reservation {
  readonly key: string
  readonly spacing: Duration.Duration
  readonly tokens: number
}

/** The budget's token bucket never refills within any job: one credit per ~35,000 years. */
const NEVER_REFILL = Duration.millis(2 ** 50)

const positive = (n: number | undefined) => n === undefined || (Number.isFinite(n) && n > 0)

/** The stores' fixedWindow and tokenBucket only ever fail with a store error; `consume` is what raises Exceeded. */
const storeError = <A, E>(
  effect: Effect.Effect<A, E>
): Effect.Effect<A, Exclude<E, RateLimiter.RateLimitExceeded> | RateLimiter.RateLimitStoreError> =>
  Effect.mapError(effect, (e) =>
    e instanceof RateLimiter.RateLimitExceeded
      ? new RateLimiter.RateLimitStoreError({ message: e.message })
      : e as Exclude<E, RateLimiter.RateLimitExceeded>)

/** Bad options are a typed error naming the field and the rule, before any store is touched. */
const validate = (options: Options): Effect.Effect<void, InvalidRequest> => {
  const fail = (field: string, rule: string, value: unknown) =>
    Effect.fail(new InvalidRequest({ field, rule, value: String(value) }))
  if (options.plan !== undefined && !Object.hasOwn(plans, options.plan)) {
    return fail("plan", `one of ${Object.keys(plans).join(", ")}`, options.plan)
  }
  for (const [bucket, limit] of Object.entries(options.overrides ?? {})) {
    if (!positive(limit)) return fail(`overrides.${bucket}`, "a positive number of requests per second", limit)
  }
  if (options.scope === "") return fail("scope", "a non-empty string (a key fingerprint)", "")
  const margin = options.marginMillis
  if (margin !== undefined && !(Number.isFinite(margin) && margin >= 0)) {
    return fail("marginMillis", "a number of milliseconds, 0 or more", margin)
  }
  if (!positive(options.creditBudget)) return fail("creditBudget", "a positive number of credits", options.creditBudget)
  return Effect.void
}

/**
 * The limiter over a `RateLimiterStore`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<RateLimitsShape, InvalidRequest, RateLimiter.RateLimiterStore> =>
  Effect.gen(function*() {
    yield* validate(options)
    const store = yield* RateLimiter.RateLimiterStore
    const limits = limitsFor(options.plan, options.overrides)
    const margin = options.marginMillis ?? 100
    const spacingOf = (bucket: Bucket): number | undefined => {
      const limit = limits[bucket]
      return limit === undefined ? undefined : spacingMillis(limit, margin)
    }
    const reservationOf = (bucket: Bucket): Reservation | undefined => {
      const own = keyBucket(bucket)
      const ownSpacing = spacingOf(own)
      const photon = own === "validityProof" ? spacingOf("photon") : undefined
      if (photon !== undefined) {
        const tokens = ownSpacing === undefined ? 1 : Math.ceil(ownSpacing / photon)
        return { key: `${options.scope}:photon`, spacing: Duration.millis(photon), tokens }
      }
      return ownSpacing === undefined
        ? undefined
        : { key: `${options.scope}:${own}`, spacing: Duration.millis(ownSpacing), tokens: 1 }
    }
    const reservations = new Map<Bucket, Reservation | undefined>()
    for (const bucket of Object.keys(plans.professional).concat("wallet", "webhooks") as Array<Bucket>) {
      reservations.set(bucket, reservationOf(bucket))
    }

    // The slot is `tat` before this reservation: the store returns the new expiry.
    const waitForSlot = (r: Reservation) =>
      store.fixedWindow({ key: r.key, tokens: r.tokens, refillRate: r.spacing, limit: undefined }).pipe(
        Effect.flatMap(([, ttl]) => {
          const delay = ttl - r.tokens * Duration.toMillis(r.spacing)
          return delay > 0 ? Effect.sleep(Duration.millis(delay)) : Effect.void
        })
      )

    const budget = options.creditBudget
    const budgetKey = `${options.scope}:credits`
    const take = (tokens: number) =>
      store.tokenBucket({ key: budgetKey, tokens, limit: budget!, refillRate: NEVER_REFILL, allowOverflow: false })
    const spend = (credits: number) =>
      budget === undefined || credits <= 0
        ? Effect.void
        : Effect.flatMap(
          take(credits),
          (left) => left < 0 ? Effect.fail(new CreditBudgetExceeded({ budget, credits })) : Effect.void
        )
    const refund = (credits: number) =>
      budget === undefined || credits <= 0 ? Effect.void : storeError(Effect.asVoid(take(-credits)))

    const aroundAttempt: RateLimitsShape["aroundAttempt"] = (bucket, credits = 0) => {
      const reservation = reservations.get(bucket)
      const slot = reservation === undefined ? Effect.void : storeError(waitForSlot(reservation))
      // Credits taken and no attempt started (interrupted or failed while waiting for the slot): given back.
      return (attempt) =>
        Effect.uninterruptibleMask((restore) =>
          storeError(spend(credits)).pipe(
            Effect.zipRight(restore(slot).pipe(Effect.onError(() => Effect.ignore(refund(credits))))),
            Effect.zipRight(restore(attempt))
          )
        )
    }
    return { limits, aroundAttempt, refund }
  })

/**
 * The limiter with its own in-memory store.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (options: Options): Effect.Effect<RateLimitsShape, InvalidRequest> =>
  Effect.provide(make(options), RateLimiter.layerStoreMemory)

/**
 * The limiter as a layer over a store.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RateLimits, InvalidRequest, RateLimiter.RateLimiterStore> =>
  Layer.effect(RateLimits, make(options))

/**
 * The limiter with its own in-memory store: limits shared within this layer only.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options: Options): Layer.Layer<RateLimits, InvalidRequest> =>
  layer(options).pipe(Layer.provide(RateLimiter.layerStoreMemory))

/**
 * What the SDK's `rateLimits` option takes: the limiter's options without the scope
 * (the config's API key, fingerprinted), and the store (default: in memory).
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfigOptions extends Omit<Options, "scope"> {
  /** Where the buckets and the budget live: `RateLimitsRedis.layerStore(...)` to share them among processes. */
  readonly store?: Layer.Layer<RateLimiter.RateLimiterStore> | undefined
}

/**
 * The limiter of the configured API key (scope: its `fingerprint`). Bad options fail
 * building the layer with a `ConfigError` at `rateLimits.<field>`, like a bad key.
 *
 * @example
 * const limits = RateLimits.layerConfig({ plan: "developer", creditBudget: 1_000 })
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = (options: ConfigOptions): Layer.Layer<RateLimits, ConfigError.ConfigError, SolfxConfig> =>
  Layer.effect(
    RateLimits,
    Effect.flatMap(SolfxConfig, (config) => make({ ...options, scope: fingerprint(config.apiKey) })).pipe(
      Effect.mapError((e) => ConfigError.InvalidData(["rateLimits", ...e.field.split(".")], e.message))
    )
  ).pipe(Layer.provide(options.store ?? RateLimiter.layerStoreMemory))
