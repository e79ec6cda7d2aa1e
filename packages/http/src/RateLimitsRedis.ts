/**
 * The rate limits and credit budget shared through Redis: every process whose
 * limiter has the same `scope` (a key fingerprint) and Redis shares each bucket
 * and the budget. A separate module so that only its users need `ioredis`.
 *
 * The budget is `@effect/experimental`'s Redis store; the windows' permits are a
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
import * as RedisStore from "@effect/experimental/RateLimiter/Redis"
import type { InvalidRequest } from "@solfx/core/Errors"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Redis, type RedisOptions } from "ioredis"
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

interface Scripted extends Redis {
  solfxAcquire(...args: Array<string | number>): Promise<number>
  solfxRelease(...args: Array<string | number>): Promise<number>
}

const storeError = (what: string) => (cause: unknown) =>
  new RateLimiter.RateLimitStoreError({ message: `Failed to ${what} a rate-limit permit in Redis`, cause })

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
      const client = yield* Effect.acquireRelease(
        Effect.sync(() => {
          const c = new Redis({ ...redis, keyPrefix: PREFIX }) as Scripted
          c.defineCommand("solfxAcquire", { lua: ACQUIRE })
          c.defineCommand("solfxRelease", { lua: RELEASE })
          return c
        }),
        (c) => Effect.promise(() => c.quit().catch(() => undefined))
      )
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
            catch: storeError("take")
          }),
        release: (slots, id, timing) =>
          Effect.tryPromise({
            try: () => client.solfxRelease(slots.length, ...slots.map((s) => s.key), id, timing.windowMs),
            catch: storeError("release")
          }).pipe(Effect.asVoid)
      }
    })
  )

/**
 * Both stores over Redis: the windows' permits and `@effect/experimental`'s
 * store for the budget, under one key prefix. Pass it as `rateLimits.store`.
 *
 * @example
 * Solfx.layer({ apiKey, rateLimits: { plan: "developer", store: RateLimitsRedis.layerStore({ port: 6379 }) } })
 * @since 0.1.0
 * @category layers
 */
export const layerStore = (redis: RedisOptions): Layer.Layer<RateLimits.Stores> =>
  Layer.merge(layerWindowStore(redis), RedisStore.layerStore({ ...redis, prefix: PREFIX }))

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
