/**
 * Where a webhook receiver remembers the signatures it has handed to the app, so that the
 * service's retries (and its duplicates, late or out of order) reach the app once per window.
 * `memory` is one process's memory (the default); `DedupeStoreRedis` shares it between every
 * receiver behind one URL.
 *
 * @example
 * const store = DedupeStore.memory({ capacity: 10_000 })
 * const receiver = yield* WebhookReceiver.make({ authHeader, onEvents, dedupeStore: store })
 * @since 0.1.0
 */

import * as Clock from "effect/Clock"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"

/**
 * The store could not answer (Redis unreachable, or slower than its deadline). The receiver answers
 * 503 and hands nothing to the app: the service retries the delivery, so nothing is lost.
 *
 * @since 0.1.0
 * @category errors
 */
export class DedupeUnavailable extends Data.TaggedError("DedupeUnavailable")<{
  readonly message: string
  readonly cause?: unknown
  /**
   * Set on a failed `claim` when the store may have taken the claim though its answer never came
   * (a timeout, a connection lost with the request in flight). For everyone else those signatures
   * are now taken, so the service's retries are dropped as duplicates: whoever made this claim asks,
   * once the store answers again, which of them it took, and hands those over itself.
   */
  readonly outcome?: Effect.Effect<ReadonlyArray<boolean>, DedupeUnavailable> | undefined
}> {}

/**
 * A place that claims signatures for a window.
 *
 * @since 0.1.0
 * @category models
 */
export interface DedupeStore {
  /**
   * Claims each signature for `windowMillis`: `true` where this call claimed it (no one had within
   * the window), `false` for a duplicate. On failure either none is claimed, or the error's
   * `outcome` tells which were.
   */
  readonly claim: (
    signatures: ReadonlyArray<string>,
    windowMillis: number
  ) => Effect.Effect<ReadonlyArray<boolean>, DedupeUnavailable>
  /** Gives claims back (the handler failed and the service will retry, or the queue was full). */
  readonly release: (signatures: ReadonlyArray<string>) => Effect.Effect<void, DedupeUnavailable>
}

/**
 * One process's memory: at most `capacity` signatures, the oldest forgotten first.
 *
 * @since 0.1.0
 * @category constructors
 */
export const memory = (options: { readonly capacity: number }): DedupeStore => {
  // Signature -> expiry (epoch ms). Insertion order is expiry order (the window is fixed).
  const seen = new Map<string, number>()
  const prune = (now: number) => {
    for (const [signature, expiresAt] of seen) {
      if (expiresAt > now && seen.size <= options.capacity) break
      seen.delete(signature)
    }
  }
  return {
    claim: (signatures, windowMillis) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        prune(now)
        return signatures.map((signature) => {
          const expiresAt = seen.get(signature)
          if (expiresAt !== undefined && expiresAt > now) return false
          seen.delete(signature)
          seen.set(signature, now + windowMillis)
          return true
        })
      }),
    release: (signatures) => Effect.sync(() => signatures.forEach((s) => seen.delete(s)))
  }
}
