/**
 * Plan-aware rate limits and the credit budget: before each attempt (retries
 * included) a call takes a permit of its bucket's sliding window (`WindowStore`),
 * and its credits from the budget (`BudgetStore`); both in memory by default, or
 * in Redis to share one project's limits among processes (`RateLimitsRedis`).
 *
 * The server's rule is a sliding 1 s window: a bucket limited to L holds L permits,
 * and an attempt holds one from before it starts until 1 s after it ended
 * (`WindowStore` says why no closed second at the server can then see L + 1, which
 * the library's token bucket, fixed window and GCRA cannot promise). Waiters are
 * served in the order they asked; one that gives up cancels its place.
 *
 * - Webhooks count as enhanced (they share its key).
 * - `validityProof` counts against both its own bucket and Photon: one permit in
 *   each, taken atomically (both or neither).
 *
 * The budget is a counter of the credits spent under the scope (`BudgetStore`): an
 * attempt adds its credits before it is sent, and the one that would pass the
 * ceiling fails with `CreditBudgetExceeded` and sends nothing. `refund` takes credits
 * back off the count: the transport refunds an answer that `Billing` says was not
 * billed (a 429, a 5xx) and an attempt that never started. An attempt with no answer
 * keeps its credits: the server may have billed it, and the budget is a ceiling.
 * `spent` reads the count.
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
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as BudgetStore from "./BudgetStore.js"
import { fingerprint } from "./Fingerprint.js"
import * as WindowStore from "./WindowStore.js"

/**
 * The rate-limit bucket of a method: the endpoint table's own type.
 *
 * @since 0.1.0
 * @category models
 */
export type Bucket = Endpoint.Bucket

export type { Limits, Plan } from "@solfx/core/Plans"
export { limitsFor, plans } from "@solfx/core/Plans"
export { fingerprint }

/**
 * The stores a limiter needs: the windows' permits and the budget's counter.
 *
 * @since 0.1.0
 * @category models
 */
export type Stores = WindowStore.WindowStore | BudgetStore.BudgetStore

/**
 * Both stores in this process (on the `Clock`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStoreMemory: Layer.Layer<Stores> = Layer.merge(WindowStore.layerMemory, BudgetStore.layerMemory)

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
  /** A ceiling on the credits spent through this scope. */
  readonly creditBudget?: number | undefined
  /**
   * The longest a permit in flight counts before it is taken for lost, in ms: default
   * 61,000, the transport's default call budget (60 s) and the 1 s hold. Give a longer
   * call budget a longer lease.
   */
  readonly leaseMs?: number | undefined
}

/**
 * The limiter: `aroundAttempt(bucket, credits)` wraps one attempt, taking its
 * credits from the budget (or failing, before anything is sent), then a permit of
 * its bucket, which it holds until 1 s after the attempt.
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
  /** The credits counted against the budget so far (0 without a budget: nothing is counted). */
  readonly spent: Effect.Effect<number, RateLimiter.RateLimitStoreError>
}

/**
 * The rate limits and credit budget every call goes through (`RateLimitsShape`): `layerMemory` keeps
 * them in this process, `layer` over `RateLimitsRedis`'s stores shares them among processes.
 *
 * @since 0.1.0
 * @category services
 */
export class RateLimits extends Context.Tag("@solfx/http/RateLimits")<RateLimits, RateLimitsShape>() {}

/**
 * What `aroundAttempt` returns for a call with nothing to take (no permit, no budget):
 * the attempt itself. A caller may compare against it to leave such attempts unwrapped.
 *
 * @since 0.1.0
 * @category constructors
 */
export const passThrough = <A, E, R>(attempt: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => attempt

/** Webhooks count as enhanced: they share its key. */
const keyBucket = (bucket: Bucket): Bucket => bucket === "webhooks" ? "enhanced" : bucket

/** The sliding window of the server's rule, in ms. */
const WINDOW_MS = 1000

/** The transport's default call budget and the hold after it: no attempt outlasts it. */
const LEASE_MS = 61_000

const positive = (n: number | undefined) => n === undefined || (Number.isFinite(n) && n > 0)

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
  if (!positive(options.creditBudget)) return fail("creditBudget", "a positive number of credits", options.creditBudget)
  if (!positive(options.leaseMs)) return fail("leaseMs", "a positive number of milliseconds", options.leaseMs)
  return Effect.void
}

/**
 * The limiter over its stores.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options
): Effect.Effect<RateLimitsShape, InvalidRequest, Stores> =>
  Effect.gen(function*() {
    yield* validate(options)
    const counter = yield* BudgetStore.BudgetStore
    const limits = limitsFor(options.plan, options.overrides)
    const windows = yield* WindowStore.WindowStore
    const slotsOf = (bucket: Bucket): ReadonlyArray<WindowStore.Slot> =>
      (bucket === "validityProof" ? ["validityProof", "photon"] as const : [keyBucket(bucket)]).flatMap((b) => {
        const limit = limits[b]
        return limit === undefined ? [] : [{ key: `${options.scope}:${b}`, limit }]
      })
    const slots = new Map<Bucket, ReadonlyArray<WindowStore.Slot>>()
    for (const bucket of Object.keys(plans.professional).concat("wallet", "webhooks") as Array<Bucket>) {
      slots.set(bucket, slotsOf(bucket))
    }
    const timingOf = (held: ReadonlyArray<WindowStore.Slot>): WindowStore.Timing => ({
      leaseMs: options.leaseMs ?? LEASE_MS,
      windowMs: WINDOW_MS,
      // While every permit is in flight: ask again about twice per 1/L s of the tightest limit.
      pollMs: Math.max(5, Math.floor(WINDOW_MS / (2 * Math.max(...held.map((h) => h.limit)))))
    })

    /**
     * Takes the permits of `held` under `id`, asking again until its turn comes. Interrupted or failed
     * while waiting: the ticket is cancelled, and so is a permit granted by a request still on its way.
     */
    const acquire = (held: ReadonlyArray<WindowStore.Slot>, id: string, timing: WindowStore.Timing) =>
      windows.acquire(held, id, timing).pipe(
        Effect.flatMap((a): Effect.Effect<WindowStore.Acquired> =>
          a.granted ? Effect.succeed(a) : Effect.as(Effect.sleep(a.waitMs), a)
        ),
        Effect.repeat({ until: (a) => a.granted }),
        Effect.tap((a) => a.granted && Effect.annotateCurrentSpan({ "solfx.permit.ticket": a.ticket })),
        Effect.onError(() => Effect.ignore(windows.cancel(held, id)))
      )

    const budget = options.creditBudget
    const budgetKey = `${options.scope}:credits`
    const spend = (credits: number) =>
      budget === undefined || credits <= 0
        ? Effect.void
        : Effect.flatMap(
          counter.spend(budgetKey, credits, budget),
          (taken) => taken ? Effect.void : Effect.fail(new CreditBudgetExceeded({ budget, credits }))
        )
    const refund = (credits: number) =>
      budget === undefined || credits <= 0 ? Effect.void : counter.refund(budgetKey, credits)
    const spent = budget === undefined ? Effect.succeed(0) : counter.spent(budgetKey)

    const aroundAttempt: RateLimitsShape["aroundAttempt"] = (bucket, credits = 0) => {
      const held = slots.get(bucket) ?? slotsOf(bucket)
      const timing = held.length === 0 ? undefined : timingOf(held)
      // No permit and no budget to take (every call without a plan but admin's): nothing to wrap on the hot path.
      if (timing === undefined && (budget === undefined || credits <= 0)) return passThrough
      return (attempt) =>
        Effect.uninterruptibleMask((restore) =>
          Effect.gen(function*() {
            yield* spend(credits)
            if (timing === undefined) return yield* restore(attempt)
            const id = globalThis.crypto.randomUUID()
            // Credits taken and no attempt started (interrupted or failed while waiting): given back.
            yield* restore(acquire(held, id, timing)).pipe(
              Effect.onError(() => Effect.ignore(refund(credits)))
            )
            // Released whatever the attempt's end; a store error leaves the lease to expire by itself.
            return yield* restore(attempt).pipe(Effect.ensuring(Effect.ignore(windows.release(held, id, timing))))
          })
        )
    }
    return { limits, aroundAttempt, refund, spent }
  })

/**
 * The limiter with its own in-memory store.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeMemory = (options: Options): Effect.Effect<RateLimitsShape, InvalidRequest> =>
  Effect.provide(make(options), layerStoreMemory)

/**
 * The limiter as a layer over a store.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (options: Options): Layer.Layer<RateLimits, InvalidRequest, Stores> =>
  Layer.effect(RateLimits, make(options))

/**
 * The limiter with its own in-memory store: limits shared within this layer only.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory = (options: Options): Layer.Layer<RateLimits, InvalidRequest> =>
  layer(options).pipe(Layer.provide(layerStoreMemory))

/**
 * What the SDK's `rateLimits` option takes: the limiter's options without the scope
 * (the config's API key, fingerprinted), and the store (default: in memory).
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfigOptions extends Omit<Options, "scope"> {
  /** Where the buckets and the budget live: `RateLimitsRedis.layerStore(...)` to share them among processes. */
  readonly store?: Layer.Layer<Stores> | undefined
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
  ).pipe(Layer.provide(options.store ?? layerStoreMemory))
