/**
 * Where the sliding-window permits of `RateLimits` live: in memory (one process)
 * or in Redis (`RateLimitsRedis`, every process of a project).
 *
 * A permit of a key is held from before its attempt starts until `window` after
 * the attempt ended; at most `limit` are held at once. The server sees a request
 * between its start and its end, so two requests it sees within one closed window
 * held two permits at once, whatever the latency, the event-loop stalls or the
 * clock skew between processes: `limit + 1` within a window would need
 * `limit + 1` permits. (A start slot schedule, GCRA, holds only when every request
 * arrives within a fixed margin of its slot, which a loaded machine breaks.) The
 * cost is the round trip: a key's steady rate is `limit / (window + latency)`.
 *
 * A permit in flight is a lease of `leaseMs` (longer than any attempt), so the
 * permits of a process that died come back by themselves.
 *
 * @example
 * const store = yield* WindowStore.WindowStore
 * const wait = yield* store.acquire([{ key: "p:das", limit: 10 }], id, { leaseMs: 120_000, pollMs: 50 })
 * @since 0.1.0
 */
import type * as RateLimiter from "@effect/experimental/RateLimiter"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * One key a permit is taken in, with its limit.
 *
 * @since 0.1.0
 * @category models
 */
export interface Slot {
  readonly key: string
  readonly limit: number
}

/**
 * Timing of an acquisition.
 *
 * @since 0.1.0
 * @category models
 */
export interface Timing {
  /** How long a permit in flight is held at most. */
  readonly leaseMs: number
  /** How long to wait before asking again while every permit is in flight. */
  readonly pollMs: number
  /** How long a permit stays held after its attempt ended. */
  readonly windowMs: number
}

/**
 * The store.
 *
 * @since 0.1.0
 * @category models
 */
export interface WindowStoreShape {
  /**
   * Takes a permit under `id` in every slot at once, or none: 0 when taken, else
   * the milliseconds to wait before asking again (until the earliest release, or
   * `pollMs` while they are all in flight).
   */
  readonly acquire: (
    slots: ReadonlyArray<Slot>,
    id: string,
    timing: Timing
  ) => Effect.Effect<number, RateLimiter.RateLimitStoreError>
  /** The attempt under `id` ended: its permits stay held `windowMs` from now, then go. */
  readonly release: (
    slots: ReadonlyArray<Slot>,
    id: string,
    timing: Timing
  ) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
}

/**
 * The store of sliding-window permits (`WindowStoreShape`): in memory by default, or in Redis.
 *
 * @since 0.1.0
 * @category services
 */
export class WindowStore extends Context.Tag("@solfx/http/WindowStore")<WindowStore, WindowStoreShape>() {}

/**
 * The milliseconds to wait given the held permits' expiries: until the earliest
 * release, or `pollMs` while it is a lease in flight (it ends with its attempt).
 */
export const waitFor = (earliest: number, now: number, timing: Timing): number =>
  earliest - now > timing.windowMs ? timing.pollMs : Math.max(1, earliest - now + 1)

/**
 * The store in this process, on the `Clock` (so the TestClock drives it).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<WindowStore> = Layer.sync(WindowStore, () => {
  // Per key: permit id -> when it stops counting (a lease's end, or its release + window).
  const held = new Map<string, Map<string, number>>()
  const live = (key: string, now: number) => {
    let permits = held.get(key)
    if (permits === undefined) held.set(key, permits = new Map())
    // Strictly before `now`: a permit released at t counts until t + window inclusive, like a closed window.
    for (const [id, until] of permits) if (until < now) permits.delete(id)
    return permits
  }
  return {
    acquire: (slots, id, timing) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const now = clock.unsafeCurrentTimeMillis()
          let wait = 0
          for (const { key, limit } of slots) {
            const permits = live(key, now)
            if (permits.size >= limit) wait = Math.max(wait, waitFor(Math.min(...permits.values()), now, timing))
          }
          if (wait === 0) { for (const { key } of slots) live(key, now).set(id, now + timing.leaseMs) }
          return wait
        })
      ),
    release: (slots, id, timing) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const now = clock.unsafeCurrentTimeMillis()
          for (const { key } of slots) {
            const permits = held.get(key)
            if (permits?.has(id)) permits.set(id, now + timing.windowMs)
          }
        })
      )
  }
})
