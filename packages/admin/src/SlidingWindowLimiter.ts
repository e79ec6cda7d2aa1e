/**
 * A `RateLimiter` that never lets more than `limit` attempts start within any
 * `window`, measured anywhere, including at the server.
 *
 * Why not Effect's built-in algorithms: with limit 5 per second, a token bucket
 * starts 5 at once and then one every 200 ms (9 in the first second), and a
 * fixed window allows up to 10 across a window boundary. Both break a server
 * that counts a sliding one-second window.
 *
 * How: `limit` permits. An attempt takes one before it starts and gives it back
 * `window` after it ends (success, failure or interruption). So the permit of any
 * attempt is held from its start until `window` after its response, and 6
 * attempts within one window would need 6 permits at once. Because the server
 * sees a request between its start and its response, this holds for the
 * server's arrival times as well, whatever the latency: no safety margin needed.
 * The cost is the round trip: the steady rate is `limit / (window + latency)`.
 *
 * @example
 * const limiter = yield* SlidingWindowLimiter.make({ limit: 5, window: "1 second" })
 * yield* Effect.forEach(projectIds, (id) => limiter(admin.getProjectUsage(id)), { concurrency: "unbounded" })
 * @since 0.1.0
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import type * as RateLimiter from "effect/RateLimiter"
import type * as Scope from "effect/Scope"

/**
 * The limit: at most `limit` attempts start within any `window`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Attempts allowed to start within any `window`. */
  readonly limit: number
  readonly window: Duration.DurationInput
}

/**
 * Builds the limiter. Permits being returned live in the current scope, so
 * build it in a layer's scope (`Layer.scoped`) to share it across the app.
 *
 * @example
 * const limited = yield* SlidingWindowLimiter.make({ limit: 5, window: "1 second" })
 * yield* Effect.forEach(ids, (id) => limited(fetchUsage(id)), { concurrency: "unbounded" })
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Effect.Effect<RateLimiter.RateLimiter, never, Scope.Scope> =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const window = Duration.decode(options.window)
    const permits = yield* Effect.makeSemaphore(Math.max(1, Math.floor(options.limit)))
    // Returned in the background: the caller gets its result without waiting a window.
    // Forked from a finalizer, so made interruptible again: closing the scope must not wait a window.
    const giveBackLater = permits.release(1).pipe(
      Effect.delay(window),
      Effect.interruptible,
      Effect.forkIn(scope),
      Effect.asVoid
    )
    const limiter: RateLimiter.RateLimiter = (task) =>
      Effect.uninterruptibleMask((restore) =>
        restore(permits.take(1)).pipe(
          Effect.zipRight(restore(task).pipe(Effect.ensuring(giveBackLater)))
        )
      )
    return limiter
  })
