/**
 * The retry policy of every call, as one Schedule on the `Clock`: jittered
 * exponential backoff capped at `maxDelay`, at most `times` retries, a server's
 * `Retry-After` honoured but capped (`retryAfterCap`, default `maxDelay`), and no
 * sleep that would end at or past the call's total budget. Only what `isRetryable` allows.
 *
 * @example
 * attempt.pipe(Effect.retry(Retry.schedule(policy, Retry.isRetryable(true), { deadline, retryAfterCap })))
 * @since 0.1.0
 */
import type { RetryPolicy } from "@solfx/core/Config"
import type { ApiError } from "@solfx/core/Errors"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"

/**
 * Statuses a retry may fix. 500 is included for idempotent reads: the emulator's
 * fault mix (and the real service under load) answers 500 for transient faults.
 *
 * @since 0.1.0
 * @category retry
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

/**
 * Whether a failure may be retried. Idempotent calls retry transport failures,
 * 429 and 500/502/503/504. Other calls retry only what certainly never reached the
 * server: a refused connection, or a 429 (the server rejected it unprocessed).
 * Exhausted credits, a redirect and a body too large are never retried: no delay
 * changes them, and a large body is not downloaded twice.
 *
 * A complete 2xx answer is never retried, even when its body is broken: the server
 * answered, so it is a `DecodeError` after one request. Only a body cut off in
 * transit is a `TransportError`.
 *
 * @since 0.1.0
 * @category retry
 */
export const isRetryable = (idempotent: boolean) => (error: ApiError): boolean => {
  switch (error._tag) {
    case "RateLimited":
      // A rate-limited request was rejected before processing: safe to resend even when not idempotent.
      return true
    case "TransportError":
      return idempotent || !error.sent
    case "HttpError":
      return idempotent && RETRYABLE_STATUSES.has(error.status)
    default:
      return false
  }
}

/**
 * Bounds of one call's retries.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bounds {
  /** Epoch milliseconds (on the `Clock`) past which no retry starts. */
  readonly deadline: number
  /** The longest wait a `Retry-After` may impose. */
  readonly retryAfterCap: Duration.Duration
}

/**
 * The retry Schedule of one call (see the module).
 *
 * @since 0.1.0
 * @category retry
 */
export const schedule = (
  policy: RetryPolicy,
  retryable: (error: ApiError) => boolean,
  bounds: Bounds
): Schedule.Schedule<Duration.Duration, ApiError> =>
  Schedule.exponential(policy.base).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, policy.maxDelay)),
    Schedule.intersect(Schedule.recurs(policy.times)),
    Schedule.intersect(Schedule.identity<ApiError>()),
    Schedule.modifyDelay(([, error], delay) =>
      error._tag === "RateLimited" && error.retryAfterMillis !== undefined
        ? Duration.min(Duration.millis(error.retryAfterMillis), bounds.retryAfterCap)
        : delay
    ),
    Schedule.whileInput(retryable),
    Schedule.delays,
    // The budget counts the sleeps: a wait that would end at or past the deadline is not taken (the
    // attempt after it would have no time left).
    Schedule.checkEffect((_, delay) =>
      Effect.map(Clock.currentTimeMillis, (now) => now + Duration.toMillis(delay) < bounds.deadline)
    )
  )
