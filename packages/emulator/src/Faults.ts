/**
 * Fault injection for reliability tests: rate-limit and server errors,
 * connection resets, slow responses, truncated and malformed bodies. Decisions
 * come from a seeded generator, so a seed replays the same sequence of faults
 * for the same sequence of requests.
 *
 * @example
 * emulator.setFaults({ rate: 0.2, kinds: ["429", "503", "reset"], retryAfterSeconds: 0 })
 * // ... run the code under test, then
 * emulator.faultsHit["503"] // how many were injected
 * @since 0.1.0
 */

/**
 * - `429`: HTTP 429 with `Retry-After`, before the handler (not charged).
 * - `500`, `503`: server errors, before the handler (not charged).
 * - `reset`: the socket is destroyed without a response, before the handler.
 * - `slow`: the response is delayed by `slowMs`.
 * - `truncate`: the handler runs (and is charged); the response announces more bytes
 *   than it sends, then the socket is destroyed.
 * - `malformed`: the handler runs (and is charged); a 200 with a broken JSON body.
 *
 * On WebSocket connections (`PubSub`), decided per notification or ping answer,
 * named by its method (a notification's, from the subscriptions table, or `ping`):
 * - `drop`: the socket is destroyed instead of sending the frame.
 * - `stall`: the connection sends and answers nothing more, but stays open.
 * - `malformedFrame`: a frame cut in the middle of its JSON is sent instead.
 *
 * @since 0.1.0
 * @category models
 */
export type FaultKind =
  | "429"
  | "500"
  | "503"
  | "reset"
  | "slow"
  | "truncate"
  | "malformed"
  | "drop"
  | "stall"
  | "malformedFrame"

/**
 * Every fault kind of HTTP requests.
 *
 * @since 0.1.0
 * @category constants
 */
export const kinds: ReadonlyArray<FaultKind> = ["429", "500", "503", "reset", "slow", "truncate", "malformed"]

/**
 * Every fault kind of WebSocket frames.
 *
 * @since 0.1.0
 * @category constants
 */
export const socketKinds: ReadonlyArray<FaultKind> = ["drop", "stall", "malformedFrame"]

const all = [...kinds, ...socketKinds]

/**
 * What to inject: how often, which kinds, where, and how many times at most.
 *
 * @since 0.1.0
 * @category models
 */
export interface FaultOptions {
  /** Probability (0..1) that a request gets a fault. */
  readonly rate: number
  /** The kinds to choose from, uniformly. */
  readonly kinds: ReadonlyArray<FaultKind>
  /** `Retry-After` of a 429, in seconds (default 1). */
  readonly retryAfterSeconds?: number | undefined
  /** Delay of a `slow` response (default 1000). */
  readonly slowMs?: number | undefined
  /** Seed of the decisions (default: the emulator's seed). */
  readonly seed?: number | undefined
  /** Operations never faulted, e.g. `["GET /v0/admin/projects/:id/usage"]`. */
  readonly exempt?: ReadonlyArray<string> | undefined
  /** When set, only these operations are faulted. */
  readonly only?: ReadonlyArray<string> | undefined
  /** Stop after this many faults (e.g. "the first two requests fail"). */
  readonly times?: number | undefined
}

/**
 * mulberry32: small, fast, good enough to spread faults.
 *
 * @since 0.1.0
 * @category constructors
 */
export const prng = (seed: number): () => number => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/**
 * The fault state of one emulator: the options in force, the generator and the counts.
 *
 * @since 0.1.0
 * @category models
 */
export interface Injector {
  readonly options: () => FaultOptions | undefined
  readonly set: (options: FaultOptions | undefined) => void
  /** The fault for the next request (or, for `"socket"`, frame) of `operation`, among the kinds of that family. */
  readonly decide: (operation: string, family?: "http" | "socket") => FaultKind | undefined
  readonly hits: () => Readonly<Record<FaultKind, number>>
  readonly resetHits: () => void
}

const zero = (): Record<FaultKind, number> => Object.fromEntries(all.map((k) => [k, 0])) as Record<FaultKind, number>

/**
 * The fault decisions of a server: seeded, changeable at run time, counting hits.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeInjector = (initial: FaultOptions | undefined, defaultSeed: number): Injector => {
  let options: FaultOptions | undefined
  let random = prng(defaultSeed)
  let injected = 0
  let hits = zero()
  const set = (next: FaultOptions | undefined) => {
    if (next !== undefined) {
      if (!(next.rate >= 0 && next.rate <= 1)) throw new RangeError(`fault rate must be within 0..1: ${next.rate}`)
      for (const k of next.kinds) if (!all.includes(k)) throw new RangeError(`unknown fault kind: ${k}`)
    }
    options = next
    random = prng(next?.seed ?? defaultSeed)
    injected = 0
  }
  set(initial)
  return {
    options: () => options,
    set,
    decide: (operation, family = "http") => {
      const o = options
      const among = o?.kinds.filter((k) => socketKinds.includes(k) === (family === "socket")) ?? []
      if (o === undefined || o.rate <= 0 || among.length === 0) return undefined
      if (o.exempt?.includes(operation) || (o.only !== undefined && !o.only.includes(operation))) return undefined
      if (o.times !== undefined && injected >= o.times) return undefined
      // Two draws per eligible request, whatever the outcome, so the sequence depends only on the order.
      const hit = random() < o.rate
      const pick = among[Math.floor(random() * among.length)]!
      if (!hit) return undefined
      injected++
      hits[pick]++
      return pick
    },
    hits: () => ({ ...hits }),
    resetHits: () => {
      hits = zero()
    }
  }
}
