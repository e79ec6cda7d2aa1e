/**
 * The Redis store against a real redis-server on loopback, read back through a
 * connection of the test's own: what Redis holds after a waiter gives up, after a
 * holder dies, after a request arrives late, and across a Redis restart. Short
 * liveness TTLs and command timeouts keep each case to a few seconds; the
 * assertions are on what Redis holds and how each call ended, never on time.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { describe, expect, it, vi } from "@effect/vitest"
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import * as Servers from "@solfx/testing/Servers"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import { Redis as IORedis } from "ioredis"

const PREFIX = "solfx:limits:"

/** The test's own connection, to read what Redis holds. */
const reader = (port: number) =>
  Effect.acquireRelease(
    // Its own errors (while the server is stopped) are expected: handled, so that stderr shows only the limiter's.
    Effect.sync(() => new IORedis(port, "127.0.0.1", { maxRetriesPerRequest: 0 }).on("error", () => undefined)),
    (c) => Effect.promise(() => c.quit().catch(() => "closed"))
  )

/** The permits of a bucket key that still count (scored at or after Redis' now), and its waiting tickets. */
const held = (client: IORedis, key: string) =>
  Effect.promise(async () => {
    const [s, us] = await client.time()
    const now = Number(s) * 1000 + Math.floor(Number(us) / 1000)
    return {
      permits: await client.zrangebyscore(PREFIX + key, now, "+inf"),
      queue: await client.zrange(PREFIX + key + ":queue", 0, -1)
    }
  })

/**
 * Polls what Redis holds until `until` is true: spaced, and bounded, so that a state never reached (say, a
 * starved machine let a waiter's own timeout fire first) fails the test instead of spinning forever.
 */
const heldWhen = (
  client: IORedis,
  key: string,
  until: (h: Effect.Effect.Success<ReturnType<typeof held>>) => boolean
) =>
  Effect.repeat(held(client, key), { until, schedule: Schedule.spaced("10 millis") }).pipe(
    Effect.timeoutFail({ duration: "20 seconds", onTimeout: () => new Error(`${key}: the awaited state never came`) }),
    Effect.orDie
  )

/** A limiter over its own connection (as a process would have), with the store's short timings. */
const limiter = (port: number, options: Partial<RateLimits.Options>, store: RateLimitsRedis.StoreOptions = {}) =>
  Effect.map(
    Layer.build(
      RateLimitsRedis.layer({ scope: "t", ...options }, { host: "127.0.0.1", port }, {
        livenessTtlMs: 500,
        commandTimeoutMs: 300,
        ...store
      })
    ),
    Context.get(RateLimits.RateLimits)
  )

/** Whether `exit` failed with the store's typed error (which the transport reports as a TransportError). */
const storeFailed = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) &&
  Option.exists(Cause.failureOption(exit.cause), (e) => e instanceof RateLimiter.RateLimitStoreError)

const missing = Servers.unavailable("redis")

describe.skipIf(missing !== undefined)(Servers.title("RateLimitsRedis against redis-server", missing), () => {
  it.live(
    "a waiter interrupted while it waits takes no permit afterwards, and leaves the queue",
    () =>
      Effect.gen(function*() {
        const redis = yield* Servers.redis
        const client = yield* reader(redis.port)
        // Liveness is not what this case is about: a long TTL, so a starved event loop cannot let the holder's lapse.
        const limits = yield* limiter(redis.port, { overrides: { das: 2 } }, { livenessTtlMs: 10_000 })
        const inside = yield* Deferred.make<void>()
        const hold = limits.aroundAttempt("das")(Effect.zipRight(Deferred.succeed(inside, void 0), Effect.never))
        const holders = yield* Effect.forEach([1, 2], () => Effect.fork(hold))
        yield* Deferred.await(inside)
        // Ten waiters queued behind the two held permits, then all interrupted (a Stream.take, a race, a timeout).
        const sent = { count: 0 }
        const waiters = yield* Effect.forEach(
          Array.from({ length: 10 }),
          () => Effect.fork(limits.aroundAttempt("das")(Effect.sync(() => sent.count++)))
        )
        yield* heldWhen(client, "t:das", (h) => h.queue.length === 10 && h.permits.length === 2)
        yield* Fiber.interruptAll(waiters)
        yield* Fiber.interruptAll(holders)
        const after = yield* held(client, "t:das")
        expect(sent.count).toBe(0)
        expect(after.queue).toEqual([])
        // The two interrupted attempts were released as answered ones are: they count one window more, no longer.
        expect(after.permits).toHaveLength(2)
        const scores = yield* Effect.promise(() => client.zrange(PREFIX + "t:das", 0, -1, "WITHSCORES"))
        const [s] = yield* Effect.promise(() => client.time())
        for (let i = 1; i < scores.length; i += 2) {
          expect(Number(scores[i])).toBeLessThanOrEqual(Number(s) * 1000 + 2_000)
        }
      }).pipe(Effect.scoped),
    60_000
  )

  it.live(
    "the leases of a holder whose liveness key is gone count as released by the next request",
    () =>
      Effect.gen(function*() {
        const redis = yield* Servers.redis
        const client = yield* reader(redis.port)
        // A holder that died with 2 permits of 2 in flight, its leases 10 minutes long: no liveness key.
        const [s] = yield* Effect.promise(() => client.time())
        const leaseEnd = Number(s) * 1000 + 600_000
        yield* Effect.promise(() => client.zadd(PREFIX + "t:das", leaseEnd, "dead|a", leaseEnd, "dead|b"))
        const limits = yield* limiter(redis.port, { overrides: { das: 2 } })
        const sent = { count: 0 }
        yield* limits.aroundAttempt("das")(Effect.sync(() => sent.count++))
        expect(sent.count).toBe(1)
        const scores = yield* Effect.promise(() => client.zrange(PREFIX + "t:das", 0, -1, "WITHSCORES"))
        // Without a holder, the two leases counted one window more, then went (else the call would wait 10 minutes).
        expect(scores.filter((member) => member.startsWith("dead|"))).toEqual([])
      }).pipe(Effect.scoped),
    60_000
  )

  it.live("a permit request that reaches Redis after the caller gave up does nothing", () =>
    Effect.gen(function*() {
      const redis = yield* Servers.redis
      const client = yield* reader(redis.port)
      const permits = yield* limiter(redis.port, { overrides: { das: 2, photon: 2 } })
      const budget = yield* limiter(redis.port, { creditBudget: 100 })
      // Redis holds every write for 1 s: each call's request times out (300 ms) and fails, typed, with nothing sent.
      yield* Effect.promise(() => client.call("CLIENT", "PAUSE", "1000", "WRITE"))
      const sent = { count: 0 }
      const exits = yield* Effect.all([
        Effect.exit(permits.aroundAttempt("das")(Effect.sync(() => sent.count++))),
        Effect.exit(budget.aroundAttempt("das", 10)(Effect.sync(() => sent.count++)))
      ], { concurrency: 2 })
      expect(exits.map(storeFailed)).toEqual([true, true])
      // Once Redis runs them, the requests find their deadline passed: no permit, no credits. (A request on the
      // same connection runs after them: a photon call, a read of the budget.)
      yield* Effect.promise(() => client.call("CLIENT", "UNPAUSE"))
      yield* permits.aroundAttempt("photon")(Effect.void)
      expect(yield* budget.spent).toBe(0)
      expect(yield* held(client, "t:das")).toEqual({ permits: [], queue: [] })
      expect(sent.count).toBe(0)
    }).pipe(Effect.scoped), 60_000)

  const logs: Array<string> = []
  it.live(
    "Redis stopped while calls wait: each fails at once, typed, logged once; after a restart it holds none",
    () =>
      Effect.gen(function*() {
        const stderr = vi.spyOn(console, "error")
        const firstServer = yield* Scope.make()
        const { port } = yield* Scope.extend(Servers.redis, firstServer)
        const limits = yield* limiter(port, { overrides: { das: 2 }, creditBudget: 1_000 })
        const inside = yield* Deferred.make<void>()
        const gate = yield* Deferred.make<void>()
        const attempt = Effect.zipRight(Deferred.succeed(inside, void 0), Deferred.await(gate))
        const holders = yield* Effect.forEach([1, 2], () => Effect.fork(limits.aroundAttempt("das", 10)(attempt)))
        yield* Deferred.await(inside)
        const sent = { count: 0 }
        // Eight calls waiting behind them, each bounded: one still waiting after 20 s would fail the test.
        const waiters = yield* Effect.forEach(
          Array.from({ length: 8 }),
          () =>
            Effect.fork(
              limits.aroundAttempt("das", 10)(Effect.sync(() => sent.count++)).pipe(Effect.timeout("20 seconds"))
            )
        )
        const client = yield* reader(port)
        yield* heldWhen(client, "t:das", (h) => h.queue.length === 8)
        yield* Scope.close(firstServer, Exit.void)
        for (const waiter of waiters) {
          const exit = yield* Fiber.await(waiter)
          expect(storeFailed(exit)).toBe(true)
        }
        expect(sent.count).toBe(0)
        yield* Deferred.succeed(gate, void 0)
        yield* Fiber.joinAll(holders)
        // Redis is back on the same port (empty: no persistence): the limiter reconnects by itself.
        yield* Servers.redisOn(port)
        yield* limits.aroundAttempt("das", 10)(Effect.sync(() => sent.count++)).pipe(
          Effect.retry(Schedule.spaced("100 millis").pipe(Schedule.intersect(Schedule.recurs(50))))
        )
        expect(sent.count).toBe(1)
        // Nothing of the calls that gave up was replayed: one permit and 10 credits, the new call's.
        const after = yield* held(yield* reader(port), "t:das")
        expect(after.permits).toHaveLength(1)
        expect(after.queue).toEqual([])
        expect(yield* limits.spent).toBe(10)
        expect(logs.filter((l) => l.includes("Redis unreachable"))).toHaveLength(1)
        expect(stderr.mock.calls.flat().join("\n")).not.toContain("[ioredis]")
        stderr.mockRestore()
      }).pipe(
        Effect.scoped,
        Effect.provide(Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => logs.push(String(message)))))
      ),
    60_000
  )
})
