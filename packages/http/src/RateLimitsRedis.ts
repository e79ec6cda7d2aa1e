/**
 * The rate limits and credit budget shared through Redis: every process whose
 * limiter has the same `scope` (a key fingerprint) and Redis shares each bucket
 * and the budget. A separate module so that only its users need `ioredis`.
 *
 * @example
 * const limits = RateLimitsRedis.layer(
 *   { plan: "developer", scope: RateLimits.fingerprint(apiKey) },
 *   { host: "127.0.0.1", port: 6379 }
 * )
 * @since 0.1.0
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as RedisStore from "@effect/experimental/RateLimiter/Redis"
import type { InvalidRequest } from "@solfx/core/Errors"
import * as Layer from "effect/Layer"
import type { RedisOptions } from "ioredis"
import * as RateLimits from "./RateLimits.js"

/**
 * The store: `@effect/experimental`'s Redis store (one connection, closed with the layer),
 * under its own key prefix.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerStore = (redis: RedisOptions): Layer.Layer<RateLimiter.RateLimiterStore> =>
  RedisStore.layerStore({ ...redis, prefix: "solfx:limits:" })

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
