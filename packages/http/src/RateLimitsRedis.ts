/**
 * The rate limits and credit budget shared through Redis: every process whose
 * limiter has the same `scope` (a key fingerprint) and Redis shares each bucket
 * and the budget. A separate module so that only its users need `ioredis`.
 *
 * The permits and the budget are small Lua scripts of ours (`internal/redisScripts`):
 * the library's stores have no "held until a window after the response", no queue
 * and no holder. What a fleet can count on:
 * - **A process that dies gives its permits back within `livenessTtlMs`** (default
 *   5 s) and one window: each process keeps a liveness key that it refreshes every
 *   fifth of that, every permit names its process, and the next request of any
 *   process treats the leases of a process without a liveness key as released then.
 *   A lease lost otherwise (a release that failed) ends after `leaseMs` (`RateLimits`).
 * - **Nothing runs late**: the connection queues nothing while it is down and resends
 *   nothing after a reconnect, each request gives up after `commandTimeoutMs`
 *   (default 2 s), and a permit or budget request carries that deadline, which the
 *   script checks against Redis' own clock: a request that arrives later does nothing.
 * - **Fair waits**: permits go to waiters in the order they first asked (a ticket
 *   queue per bucket); a waiter that has not asked again within 400 ms (its process
 *   lagging) keeps its place but does not hold a free permit back.
 * - **Outages are typed and bounded**: while Redis is unreachable each call fails at
 *   once with a `TransportError` (`reason: "connect"`, `sent: false`) saying the
 *   rate-limit store could not be reached; nothing is sent un-paced. The client's
 *   errors are logged once per outage (a warning through Effect's logger). It
 *   reconnects by itself (at most 2 s apart).
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
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Runtime from "effect/Runtime"
import * as Schedule from "effect/Schedule"
import { Redis, type RedisOptions } from "ioredis"
import * as BudgetStore from "./BudgetStore.js"
import * as Scripts from "./internal/redisScripts.js"
import * as RateLimits from "./RateLimits.js"
import * as WindowStore from "./WindowStore.js"

const PREFIX = "solfx:limits:"

/**
 * How the Redis store keeps time.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoreOptions {
  /** How long a process' permits outlive it, at most (plus one window), in ms: default 5,000. */
  readonly livenessTtlMs?: number | undefined
  /** How long one request to Redis may take, in ms: default 2,000. */
  readonly commandTimeoutMs?: number | undefined
}

interface Scripted extends Redis {
  solfxAcquire(...args: Array<string | number>): Promise<Array<number>>
  solfxRelease(...args: Array<string | number>): Promise<number>
  solfxCancel(...args: Array<string | number>): Promise<number>
  solfxHeartbeat(key: string, ttl: number): Promise<number>
  solfxSpend(key: string, credits: number, ceiling: number, validUntil: number): Promise<number>
  solfxRefund(key: string, credits: number): Promise<number>
}

const storeError = (what: string) => (cause: unknown) =>
  new RateLimiter.RateLimitStoreError({ message: `Failed to ${what} in Redis`, cause })

const late = (what: string) =>
  new RateLimiter.RateLimitStoreError({ message: `Redis answered a request to ${what} after its deadline` })

/** One connection with our scripts: no offline queue, no resend, a timeout on every request; closed with the scope. */
const connect = (redis: RedisOptions, commandTimeout: number) =>
  Effect.gen(function*() {
    const runtime = yield* Effect.runtime<never>()
    const client = yield* Effect.acquireRelease(
      Effect.sync(() => {
        const c = new Redis({
          ...redis,
          keyPrefix: PREFIX,
          enableOfflineQueue: false,
          autoResendUnfulfilledCommands: false,
          maxRetriesPerRequest: 0,
          commandTimeout,
          connectTimeout: redis.connectTimeout ?? commandTimeout
        }) as Scripted
        for (const [name, lua] of Object.entries({ Release: Scripts.RELEASE, Acquire: Scripts.ACQUIRE })) {
          c.defineCommand(`solfx${name}`, { lua })
        }
        c.defineCommand("solfxCancel", { lua: Scripts.CANCEL })
        c.defineCommand("solfxHeartbeat", { lua: Scripts.HEARTBEAT, numberOfKeys: 1 })
        c.defineCommand("solfxSpend", { lua: Scripts.SPEND, numberOfKeys: 1 })
        c.defineCommand("solfxRefund", { lua: Scripts.REFUND, numberOfKeys: 1 })
        // Handled, so never "[ioredis] Unhandled error event": one warning per outage, through Effect's logger.
        let down = false
        c.on("ready", () => (down = false))
        c.on("error", (error: Error) => {
          if (down) return
          down = true
          Runtime.runFork(runtime)(
            Effect.logWarning(
              `rate-limit store: Redis unreachable (${error.message}); calls fail with TransportError until it is back`
            )
          )
        })
        return c
      }),
      (c) => Effect.promise(() => c.quit().catch(() => c.disconnect()))
    )
    // Ready before the first call (or given up after the connect timeout: calls then fail until it is).
    yield* Effect.async<void>((resume) => {
      if (client.status === "ready") return resume(Effect.void)
      const done = () => resume(Effect.void)
      client.once("ready", done).once("error", done)
    }).pipe(Effect.timeout(commandTimeout), Effect.ignore)
    return client
  })

/**
 * Both stores over Redis, on one connection: the windows' permits and the budget's
 * count, under one key prefix. Pass it as `rateLimits.store`.
 *
 * @example
 * Solfx.layer({ apiKey, rateLimits: { plan: "developer", store: RateLimitsRedis.layerStore({ port: 6379 }) } })
 * @since 0.1.0
 * @category layers
 */
export const layerStore = (redis: RedisOptions, options: StoreOptions = {}): Layer.Layer<RateLimits.Stores> =>
  Layer.scopedContext(Effect.gen(function*() {
    const ttl = options.livenessTtlMs ?? 5_000
    const commandTimeout = options.commandTimeoutMs ?? 2_000
    const client = yield* connect(redis, commandTimeout)
    const holder = globalThis.crypto.randomUUID()
    const live = `live:${holder}`
    // Redis' clock minus ours, so that a deadline of ours can be checked by Redis.
    let offset = 0
    const validUntil = () => Date.now() + offset + commandTimeout
    const call = <A>(what: string, f: () => Promise<A>) => Effect.tryPromise({ try: f, catch: storeError(what) })

    // Cancels that could not reach Redis are tried again with the next heartbeat.
    const pending = new Map<string, Array<string>>()
    const cancel = (member: string, keys: Array<string>) =>
      call("cancel a permit request", () => client.solfxCancel(keys.length, ...keys, member)).pipe(
        Effect.tapError(() => Effect.sync(() => pending.set(member, keys))),
        Effect.asVoid
      )
    const beat = Effect.gen(function*() {
      const t0 = Date.now()
      const now = yield* call("refresh the liveness key", () => client.solfxHeartbeat(live, ttl))
      offset = now - (t0 + Date.now()) / 2
      for (const [member, keys] of pending) {
        pending.delete(member)
        yield* Effect.ignore(cancel(member, keys))
      }
    })
    yield* Effect.ignore(beat)
    yield* Effect.forkScoped(Effect.repeat(Effect.ignore(beat), Schedule.spaced(Math.max(50, ttl / 5))))
    // A process that closes its layer is gone at once: its leases count as released by the next request.
    yield* Effect.addFinalizer(() => Effect.ignore(call("drop the liveness key", () => client.del(live))))

    const member = (id: string) => `${holder}|${id}`
    const queueKeys = (slots: ReadonlyArray<WindowStore.Slot>, suffixes: ReadonlyArray<string>) =>
      slots.flatMap((s) => suffixes.map((x) => s.key + x))
    const windows: WindowStore.WindowStoreShape = {
      acquire: (slots, id, timing) => {
        const keys = [...queueKeys(slots, ["", ":queue", ":seen", ":tickets", ":grants"]), live]
        const args = [member(id), PREFIX + "live:", timing.leaseMs, timing.windowMs, timing.pollMs, ttl]
        return call("take a rate-limit permit", () =>
          client.solfxAcquire(
            keys.length,
            ...keys,
            ...args,
            validUntil(),
            Math.max(2_000, 4 * timing.pollMs),
            Math.max(400, 4 * timing.pollMs),
            ...slots.map((s) => s.limit)
          )).pipe(
            Effect.flatMap((r): Effect.Effect<WindowStore.Acquired, RateLimiter.RateLimitStoreError> =>
              r[0] === 1
                ? Effect.succeed({ granted: true, ticket: r[1]!, grant: r[2]! })
                : r[0] === 0
                ? Effect.succeed({ granted: false, waitMs: r[1]! })
                : Effect.fail(late("take a rate-limit permit"))
            )
          )
      },
      release: (slots, id, timing) =>
        Effect.asVoid(
          call("release a rate-limit permit", () =>
            client.solfxRelease(
              slots.length,
              ...slots.map((s) => s.key),
              member(id),
              timing.windowMs
            ))
        ),
      cancel: (slots, id) => cancel(member(id), queueKeys(slots, ["", ":queue", ":seen"]))
    }
    const budget: BudgetStore.BudgetStoreShape = {
      spend: (key, credits, ceiling) =>
        call("count credits", () => client.solfxSpend(key, credits, ceiling, validUntil())).pipe(
          Effect.flatMap((r) => r === -1 ? Effect.fail(late("count credits")) : Effect.succeed(r === 1))
        ),
      refund: (key, credits) => Effect.asVoid(call("refund credits", () => client.solfxRefund(key, credits))),
      spent: (key) =>
        Effect.map(call("read the credits spent", () => client.get(key)), (v) => v === null ? 0 : Number(v))
    }
    return Context.make(BudgetStore.BudgetStore, budget).pipe(Context.add(WindowStore.WindowStore, windows))
  }))

/**
 * The limiter over Redis.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: RateLimits.Options,
  redis: RedisOptions,
  store?: StoreOptions
): Layer.Layer<RateLimits.RateLimits, InvalidRequest> =>
  RateLimits.layer(options).pipe(Layer.provide(layerStore(redis, store)))
