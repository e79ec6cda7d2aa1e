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
 * Waiters are served in the order they first asked: the first `acquire` of an id
 * takes a ticket in the key's queue, and a permit goes only to a ticket among the
 * first `limit - held` of the queue. A waiter that gives up `cancel`s: its ticket
 * leaves the queue, and a permit granted to it but never used is dropped (nothing
 * was sent under it).
 *
 * A permit in flight is a lease of `leaseMs`: a permit whose release got lost comes
 * back by itself. (In Redis, the permits of a process that died come back sooner:
 * see `RateLimitsRedis`.)
 *
 * @example
 * const store = yield* WindowStore.WindowStore
 * const taken = yield* store.acquire([{ key: "p:das", limit: 10 }], id, { leaseMs: 61_000, windowMs: 1000, pollMs: 50 })
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
  /** How long to wait before asking again while the permits ahead are in flight. */
  readonly pollMs: number
  /** How long a permit stays held after its attempt ended. */
  readonly windowMs: number
}

/**
 * What one `acquire` gives: a permit, with the waiter's place in the queue
 * (`ticket`, the order it asked in) and the permit's (`grant`, the order it was
 * granted in), both counted per key (the first slot's); or how long to wait before
 * asking again.
 *
 * @since 0.1.0
 * @category models
 */
export type Acquired =
  | { readonly granted: true; readonly ticket: number; readonly grant: number }
  | { readonly granted: false; readonly waitMs: number }

/**
 * The store.
 *
 * @since 0.1.0
 * @category models
 */
export interface WindowStoreShape {
  /**
   * Takes a permit under `id` in every slot at once, or none. The first call of an
   * `id` queues it; ask again after `waitMs` until granted, or `cancel`.
   */
  readonly acquire: (
    slots: ReadonlyArray<Slot>,
    id: string,
    timing: Timing
  ) => Effect.Effect<Acquired, RateLimiter.RateLimitStoreError>
  /** The attempt under `id` ended: its permits stay held `windowMs` from now, then go. */
  readonly release: (
    slots: ReadonlyArray<Slot>,
    id: string,
    timing: Timing
  ) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
  /** The waiter `id` gave up before its attempt started: its ticket and any permit granted to it go now. */
  readonly cancel: (slots: ReadonlyArray<Slot>, id: string) => Effect.Effect<void, RateLimiter.RateLimitStoreError>
}

/**
 * The store of sliding-window permits (`WindowStoreShape`): in memory by default, or in Redis.
 *
 * @since 0.1.0
 * @category services
 */
export class WindowStore extends Context.Tag("@solfx/http/WindowStore")<WindowStore, WindowStoreShape>() {}

/**
 * The milliseconds to wait given the earliest end among the held permits: until
 * it, or `pollMs` while it is a lease in flight (it ends with its attempt).
 *
 * @since 0.1.0
 * @category models
 */
export const waitFor = (earliest: number, now: number, timing: Timing): number =>
  earliest - now > timing.windowMs ? timing.pollMs : Math.max(1, earliest - now + 1)

interface Key {
  /** Permit id -> when it stops counting (a lease's end, or its release + window). */
  readonly permits: Map<string, number>
  /** Waiting ids in the order they asked (a Map keeps insertion order), with their tickets. */
  readonly queue: Map<string, number>
  tickets: number
  grants: number
}

/**
 * The store in this process, on the `Clock` (so the TestClock drives it).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerMemory: Layer.Layer<WindowStore> = Layer.sync(WindowStore, () => {
  const keys = new Map<string, Key>()
  const live = (key: string, now: number): Key => {
    let k = keys.get(key)
    if (k === undefined) keys.set(key, k = { permits: new Map(), queue: new Map(), tickets: 0, grants: 0 })
    // Strictly before `now`: a permit released at t counts until t + window inclusive, like a closed window.
    for (const [id, until] of k.permits) if (until < now) k.permits.delete(id)
    return k
  }
  const rank = (k: Key, id: string) => {
    let r = 0
    for (const waiting of k.queue.keys()) {
      if (waiting === id) return r
      r++
    }
    return r
  }
  return {
    acquire: (slots, id, timing) =>
      Effect.clockWith((clock) =>
        Effect.sync((): Acquired => {
          const now = clock.unsafeCurrentTimeMillis()
          let waitMs = 0
          for (const { key, limit } of slots) {
            const k = live(key, now)
            if (!k.queue.has(id)) k.queue.set(id, ++k.tickets)
            if (k.permits.size + rank(k, id) < limit) continue
            const wait = k.permits.size >= limit ? waitFor(Math.min(...k.permits.values()), now, timing) : timing.pollMs
            waitMs = Math.max(waitMs, wait)
          }
          if (waitMs > 0) return { granted: false, waitMs }
          const first = keys.get(slots[0]!.key)!
          const ticket = first.queue.get(id)!
          for (const { key } of slots) {
            const k = keys.get(key)!
            k.queue.delete(id)
            k.permits.set(id, now + timing.leaseMs)
          }
          return { granted: true, ticket, grant: ++first.grants }
        })
      ),
    release: (slots, id, timing) =>
      Effect.clockWith((clock) =>
        Effect.sync(() => {
          const now = clock.unsafeCurrentTimeMillis()
          for (const { key } of slots) {
            const permits = keys.get(key)?.permits
            if (permits?.has(id)) permits.set(id, now + timing.windowMs)
          }
        })
      ),
    cancel: (slots, id) =>
      Effect.sync(() => {
        for (const { key } of slots) {
          keys.get(key)?.queue.delete(id)
          keys.get(key)?.permits.delete(id)
        }
      })
  }
})
