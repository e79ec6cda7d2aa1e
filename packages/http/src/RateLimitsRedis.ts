/**
 * The rate limits and credit budget shared through Redis: every process whose
 * limiter has the same `scope` (a key fingerprint) and Redis shares each bucket
 * and the budget. A separate module so that only its users need `ioredis`.
 *
 * The budget is a counter of ours; the windows' permits are a
 * `WindowStore` of two small scripts of ours (the library has no "held until a
 * window after the response"). Both scripts read Redis' own clock (`TIME`), so the
 * processes' clocks never meet, and take or release a permit in every key of a
 * call atomically (a validity proof holds one in its bucket and one in Photon).
 *
 * @example
 * const limits = RateLimitsRedis.layer(
 *   { plan: "developer", scope: RateLimits.fingerprint(apiKey) },
 *   { host: "127.0.0.1", port: 6379 }
 * )
 * @since 0.1.0
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import type { InvalidRequest } from "@solfx/core/Errors"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Redis, type RedisOptions } from "ioredis"
import * as BudgetStore from "./BudgetStore.js"
import * as RateLimits from "./RateLimits.js"
import * as WindowStore from "./WindowStore.js"

const PREFIX = "solfx:limits:"

// KEYS: the call's windows. ARGV: id, leaseMs, windowMs, pollMs, then each key's limit.
// A permit's score is when it stops counting; only scores before now are dropped.
const ACQUIRE = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lease = tonumber(ARGV[2])
local window = tonumber(ARGV[3])
local wait = 0
for i, key in ipairs(KEYS) do
  redis.call("ZREMRANGEBYSCORE", key, "-inf", "(" .. now)
  if redis.call("ZCARD", key) >= tonumber(ARGV[4 + i]) then
    local first = tonumber(redis.call("ZRANGE", key, 0, 0, "WITHSCORES")[2])
    local w = tonumber(ARGV[4])
    if first - now <= window then w = math.max(1, first - now + 1) end
    if w > wait then wait = w end
  end
end
if wait == 0 then
  for _, key in ipairs(KEYS) do
    redis.call("ZADD", key, now + lease, ARGV[1])
    redis.call("PEXPIRE", key, lease + window)
  end
end
return wait
`

// KEYS: the call's windows. ARGV: id, windowMs. The permit counts until a window from now.
const RELEASE = `
local t = redis.call("TIME")
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
for _, key in ipairs(KEYS) do
  if redis.call("ZSCORE", key, ARGV[1]) then redis.call("ZADD", key, "XX", now + tonumber(ARGV[2]), ARGV[1]) end
end
return 0
`

// KEYS: the budget's count. ARGV: credits, ceiling. 1 when counted, 0 when it would pass the ceiling.
const SPEND = `
local spent = tonumber(redis.call("GET", KEYS[1]) or "0")
if spent + tonumber(ARGV[1]) > tonumber(ARGV[2]) then return 0 end
redis.call("INCRBYFLOAT", KEYS[1], ARGV[1])
return 1
`

// KEYS: the budget's count. ARGV: credits. Never below 0.
const REFUND = `
if tonumber(redis.call("INCRBYFLOAT", KEYS[1], -tonumber(ARGV[1]))) < 0 then redis.call("SET", KEYS[1], "0") end
return 0
`

interface Scripted extends Redis {
  solfxSpend(key: string, credits: number, ceiling: number): Promise<number>
  solfxRefund(key: string, credits: number): Promise<number>
  solfxAcquire(...args: Array<string | number>): Promise<number>
  solfxRelease(...args: Array<string | number>): Promise<number>
}

const storeError = (what: string) => (cause: unknown) =>
  new RateLimiter.RateLimitStoreError({ message: `Failed to ${what} in Redis`, cause })

/** One connection with our scripts, closed with the scope. */
const connect = (redis: RedisOptions) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const c = new Redis({ ...redis, keyPrefix: PREFIX }) as Scripted
      c.defineCommand("solfxAcquire", { lua: ACQUIRE })
      c.defineCommand("solfxRelease", { lua: RELEASE })
      c.defineCommand("solfxSpend", { lua: SPEND, numberOfKeys: 1 })
      c.defineCommand("solfxRefund", { lua: REFUND, numberOfKeys: 1 })
      return c
    }),
    (c) => Effect.promise(() => c.quit().catch(() => undefined))
  )

const budgetStore = (client: Scripted): BudgetStore.BudgetStoreShape => ({
  spend: (key, credits, ceiling) =>
    Effect.tryPromise({ try: () => client.solfxSpend(key, credits, ceiling), catch: storeError("count credits") }).pipe(
      Effect.map((taken) => taken === 1)
    ),
  refund: (key, credits) =>
    Effect.asVoid(
      Effect.tryPromise({ try: () => client.solfxRefund(key, credits), catch: storeError("refund credits") })
    ),
  spent: (key) =>
    Effect.tryPromise({ try: () => client.get(key), catch: storeError("read the credits spent") }).pipe(
      Effect.map((v) => v === null ? 0 : Number(v))
    )
})

/**
 * The windows' permits in Redis (one connection, closed with the layer).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWindowStore = (redis: RedisOptions): Layer.Layer<WindowStore.WindowStore> =>
  Layer.scoped(
    WindowStore.WindowStore,
    Effect.gen(function*() {
      const client = yield* connect(redis)
      return {
        acquire: (slots, id, timing) =>
          Effect.tryPromise({
            try: () =>
              client.solfxAcquire(
                slots.length,
                ...slots.map((s) => s.key),
                id,
                timing.leaseMs,
                timing.windowMs,
                timing.pollMs,
                ...slots.map((s) => s.limit)
              ),
            catch: storeError("take a rate-limit permit")
          }),
        release: (slots, id, timing) =>
          Effect.tryPromise({
            try: () => client.solfxRelease(slots.length, ...slots.map((s) => s.key), id, timing.windowMs),
            catch: storeError("release a rate-limit permit")
          }).pipe(Effect.asVoid)
      }
    })
  )

/**
 * Both stores over Redis, on one connection: the windows' permits and the budget's
 * count, under one key prefix. Pass it as `rateLimits.store`.
 *
 * @example
 * Solfx.layer({ apiKey, rateLimits: { plan: "developer", store: RateLimitsRedis.layerStore({ port: 6379 }) } })
 * @since 0.1.0
 * @category layers
 */
export const layerStore = (redis: RedisOptions): Layer.Layer<RateLimits.Stores> =>
  Layer.merge(layerWindowStore(redis), layerBudgetStore(redis))

/**
 * The budget's count in Redis (one connection, closed with the layer).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerBudgetStore = (redis: RedisOptions): Layer.Layer<BudgetStore.BudgetStore> =>
  Layer.scoped(BudgetStore.BudgetStore, Effect.map(connect(redis), budgetStore))

/**
 * The limiter over Redis.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: RateLimits.Options,
  redis: RedisOptions
): Layer.Layer<RateLimits.RateLimits, InvalidRequest> =>
  RateLimits.layer(options).pipe(Layer.provide(layerStore(redis)))
