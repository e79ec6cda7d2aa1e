/**
 * The limiter never lets more than L attempts of a bucket start within any closed
 * 1 s window, checked over every window of the recorded start times; the credit
 * budget lets exactly budget / cost attempts through and sends nothing after.
 * Timing runs on the TestClock; the Redis part (two limiters, one redis-server)
 * on the real clock, asserting counts per window only.
 */
import * as RateLimiter from "@effect/experimental/RateLimiter"
import { describe, expect, it } from "@effect/vitest"
import { CreditBudgetExceeded } from "@solfx/core/CreditBudget"
import * as Endpoint from "@solfx/core/Endpoint"
import { Derive, HttpTesting, HttpTransport } from "@solfx/http"
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import * as Servers from "@solfx/testing/Servers"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { Redis as IORedis } from "ioredis"

/** The most starts within any closed window of `windowMillis` beginning at a start. */
const maxInWindow = (starts: ReadonlyArray<number>, windowMillis = 1000): number => {
  const sorted = [...starts].sort((a, b) => a - b)
  let best = 0
  let end = 0
  for (let i = 0; i < sorted.length; i++) {
    while (end < sorted.length && sorted[end]! <= sorted[i]! + windowMillis) end++
    best = Math.max(best, end - i)
  }
  return best
}

interface Start {
  readonly bucket: RateLimits.Bucket
  readonly at: number
}

/**
 * Runs `calls` (bucket, delay before asking) concurrently through the limiter on
 * the TestClock and returns when each attempt started.
 */
const starts = (
  limits: RateLimits.RateLimitsShape,
  calls: ReadonlyArray<readonly [RateLimits.Bucket, number]>
) =>
  Effect.gen(function*() {
    const recorded: Array<Start> = []
    const fiber = yield* Effect.fork(
      Effect.forEach(calls, ([bucket, after]) =>
        limits.aroundAttempt(bucket)(
          Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.sync(() => recorded.push({ bucket, at })))
        ).pipe(Effect.delay(after)), { concurrency: "unbounded", discard: true })
    )
    yield* TestClock.adjust("10 minutes")
    yield* Fiber.join(fiber)
    return recorded
  })

const memory = (options: Omit<RateLimits.Options, "scope">) =>
  RateLimits.make({ scope: "test", ...options }).pipe(Effect.provide(RateLimits.layerStoreMemory))

/** N calls at once, then N more arriving every 37 ms, then a burst after a pause. */
const pattern = (bucket: RateLimits.Bucket, n: number): Array<readonly [RateLimits.Bucket, number]> => [
  ...Array.from({ length: n }, () => [bucket, 0] as const),
  ...Array.from({ length: n }, (_, i) => [bucket, 37 * i] as const),
  ...Array.from({ length: n }, () => [bucket, 60_000] as const)
]

describe("RateLimits: at most L requests in any closed second, on the TestClock", () => {
  for (const limit of [1, 2, 5, 10, 25]) {
    it.effect(`limit ${limit}/s`, () =>
      Effect.gen(function*() {
        const limits = yield* memory({ overrides: { das: limit } })
        const n = 2 * limit + 3
        const seen = yield* starts(limits, pattern("das", n))
        expect(seen).toHaveLength(3 * n)
        expect(maxInWindow(seen.map((s) => s.at))).toBeLessThanOrEqual(limit)
        // Not slower than the rule demands: L start at once, the next L as soon as the first left the window.
        const sorted = seen.map((s) => s.at).sort((a, b) => a - b)
        expect([sorted[limit - 1], sorted[limit]]).toEqual([0, 1001])
      }))
  }

  it.effect("the library's token bucket configured as L per second lets 2L start in one second (why the GCRA)", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.make.pipe(Effect.provide(RateLimiter.layerStoreMemory))
      const withLimiter = (effect: Effect.Effect<void>) =>
        Effect.flatMap(
          limiter.consume({
            key: "naive",
            limit: 10,
            window: "1 second",
            algorithm: "token-bucket",
            onExceeded: "delay"
          }),
          ({ delay }) => Effect.delay(effect, delay)
        )
      const recorded: Array<number> = []
      const fiber = yield* Effect.fork(
        Effect.forEach(
          Array.from({ length: 30 }),
          () =>
            withLimiter(Effect.flatMap(Clock.currentTimeMillis, (at) => Effect.sync(() => recorded.push(at)))).pipe(
              Effect.orDie
            ),
          { concurrency: "unbounded", discard: true }
        )
      )
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(maxInWindow(recorded)).toBeGreaterThan(10)
    }))

  it.effect("validityProof counts against its own bucket and photon", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ plan: "developer" })
      const calls = pattern("validityProof", 12).flatMap((c, i) => [c, ["photon", c[1] + (i % 3)] as const])
      const seen = yield* starts(limits, calls)
      expect(seen).toHaveLength(calls.length)
      expect(maxInWindow(seen.map((s) => s.at))).toBeLessThanOrEqual(10)
      expect(maxInWindow(seen.filter((s) => s.bucket === "validityProof").map((s) => s.at))).toBeLessThanOrEqual(5)
    }))

  it.effect("webhooks share the enhanced bucket", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ plan: "free" })
      const seen = yield* starts(limits, [...pattern("webhooks", 4), ...pattern("enhanced", 4)])
      expect(seen).toHaveLength(24)
      expect(maxInWindow(seen.map((s) => s.at))).toBeLessThanOrEqual(2)
    }))

  it.effect("without a plan only admin is limited; wallet is unlimited unless configured", () =>
    Effect.gen(function*() {
      const none = yield* memory({})
      const free = yield* starts(none, [
        ...Array.from({ length: 40 }, () => ["das", 0] as const),
        ...Array.from({ length: 40 }, () => ["wallet", 0] as const)
      ])
      expect(free.filter((s) => s.at === 0)).toHaveLength(80)
      const admin = yield* starts(none, Array.from({ length: 12 }, () => ["admin", 0] as const))
      expect(maxInWindow(admin.map((s) => s.at))).toBeLessThanOrEqual(5)

      const wallet = yield* memory({ plan: "professional", overrides: { wallet: 3 } })
      expect(maxInWindow((yield* starts(wallet, pattern("wallet", 6))).map((s) => s.at))).toBeLessThanOrEqual(3)
    }))
})

describe("RateLimits: options", () => {
  it.effect("a bad limit, margin, budget or plan is an InvalidRequest naming the field, before any store is used", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [Omit<RateLimits.Options, "scope">, string]> = [
        [{ overrides: { das: 0 } }, "overrides.das"],
        [{ overrides: { rpc: Number.NaN } }, "overrides.rpc"],
        [{ creditBudget: -5 }, "creditBudget"],
        [{ plan: "enterprise" as RateLimits.Plan }, "plan"]
      ]
      for (const [options, field] of cases) {
        const error = yield* Effect.flip(memory(options))
        expect(error._tag).toBe("InvalidRequest")
        expect(error.field).toBe(field)
      }
      expect(RateLimits.fingerprint("my-secret-key")).not.toContain("secret")
      // The first 16 hex digits of SHA-256("solfx-rate-limits:k"): the keys already in a project's Redis stay its own.
      expect(RateLimits.fingerprint("k")).toBe("b2b6f7a6d28557e0")
    }))
})

/** Sends `attempt` through the limiter until the budget refuses; returns the attempts sent and the refusal. */
const spendUntilRefused = (limits: RateLimits.RateLimitsShape, sent: { count: number }) =>
  Effect.gen(function*() {
    for (let i = 0; i < 1_000; i++) {
      const result = yield* Effect.either(
        limits.aroundAttempt("das", 10)(Effect.sync(() => sent.count++))
      )
      if (Either.isLeft(result)) return result.left
    }
    return undefined
  })

describe("RateLimits: waiters in request order", () => {
  it.effect("permits go to waiters in the order they asked, and one that gives up holds no one back", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ overrides: { das: 1 } })
      const order: Array<number> = []
      const call = (i: number) => limits.aroundAttempt("das")(Effect.sync(() => order.push(i)))
      yield* call(0)
      // Six waiters behind the held permit, asking one after another; the third gives up.
      const waiters: Array<Fiber.RuntimeFiber<number, unknown>> = []
      for (let i = 1; i <= 6; i++) {
        waiters.push(yield* Effect.fork(call(i)))
        yield* TestClock.adjust("7 millis")
      }
      yield* Fiber.interrupt(waiters[2]!)
      yield* TestClock.adjust("1 minute")
      yield* Fiber.joinAll([...waiters.slice(0, 2), ...waiters.slice(3)])
      expect(order).toEqual([0, 1, 2, 4, 5, 6])
    }))
})

describe("RateLimits: credit budget", () => {
  it.effect("1,000 credits at 10 per call: exactly 100 calls sent, the 101st fails before sending", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ creditBudget: 1_000 })
      const sent = { count: 0 }
      const refused = yield* spendUntilRefused(limits, sent)
      expect(sent.count).toBe(100)
      expect(refused).toEqual(new CreditBudgetExceeded({ budget: 1_000, credits: 10 }))
      // Every later call is refused too, whatever its bucket.
      expect(yield* Effect.flip(limits.aroundAttempt("rpc", 1)(Effect.sync(() => sent.count++)))).toBeInstanceOf(
        CreditBudgetExceeded
      )
      expect(sent.count).toBe(100)
    }))

  it.effect("a refund puts credits back: 90 sent, 10 refunded, then exactly one more call of 10", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ creditBudget: 100 })
      const sent = { count: 0 }
      expect(yield* spendUntilRefused(limits, sent)).toBeInstanceOf(CreditBudgetExceeded)
      expect(sent.count).toBe(10)
      yield* limits.refund(10)
      expect(yield* spendUntilRefused(limits, sent)).toBeInstanceOf(CreditBudgetExceeded)
      expect(sent.count).toBe(11)
    }))

  it.effect("credits taken by a call interrupted while it waits for its slot are given back", () =>
    Effect.gen(function*() {
      const limits = yield* memory({ overrides: { das: 1 }, creditBudget: 20 })
      const sent = { count: 0 }
      const call = limits.aroundAttempt("das", 10)(Effect.sync(() => sent.count++))
      yield* call
      // The second call waits for the first's permit: interrupted there, it sent nothing and spent nothing.
      const waiting = yield* Effect.fork(call)
      yield* TestClock.adjust("10 millis")
      yield* Fiber.interrupt(waiting)
      expect(sent.count).toBe(1)
      yield* Effect.fork(call).pipe(
        Effect.flatMap((f) => Effect.zipRight(TestClock.adjust("10 minutes"), Fiber.join(f)))
      )
      expect(sent.count).toBe(2)
      expect(yield* Effect.flip(call)).toBeInstanceOf(CreditBudgetExceeded)
    }))
})

/** A DAS-priced method over the HTTP test layer whose transport carries `limits`. */
const ping = Endpoint.rpc({
  area: "das",
  method: "ping",
  params: Schema.Tuple(),
  result: Schema.Number,
  cost: { credits: 10, usage: "das" },
  bucket: "das"
})

const tooMany = () =>
  Response.json({ jsonrpc: "2.0", id: null, error: { code: -32429, message: "rate limited" } }, {
    status: 429,
    headers: { "retry-after": "0" }
  })

describe("RateLimits through the transport (every derived call)", () => {
  it.effect("the budget refuses in the method's error channel before sending; a 429 attempt is refunded", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(ping)
      const log = yield* HttpTesting.RequestLog
      // 30 credits: the 429 attempt hands its 10 back, so three calls are answered and billed, then a refusal.
      for (let i = 0; i < 3; i++) expect(yield* client.call([])).toBe(1)
      const refused = yield* client.call([]).pipe(
        Effect.as("sent"),
        Effect.catchTag("CreditBudgetExceeded", (e) => Effect.succeed(`refused ${e.credits} of ${e.budget}`))
      )
      expect(refused).toBe("refused 10 of 30")
      expect(yield* log.count).toBe(4)
      const t = yield* HttpTransport.HttpTransport
      expect(yield* t.credits.used()).toBe(30)
    }).pipe(
      Effect.provide(
        HttpTesting.layerTransport((req, index) => index === 0 ? tooMany() : HttpTesting.rpcResult(req, 1)).pipe(
          Layer.provide(RateLimits.layerMemory({ scope: "t", creditBudget: 30 }))
        )
      )
    ))

  it.effect("an attempt cut off in flight keeps its credits: the server may have billed it", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(ping)
      const log = yield* HttpTesting.RequestLog
      const inFlight = yield* Effect.fork(client.call([]))
      while ((yield* log.count) === 0) yield* Effect.yieldNow()
      yield* Fiber.interrupt(inFlight)
      // 20 credits: the interrupted attempt's 10 stay spent, so one more call, then a refusal.
      expect(yield* client.call([])).toBe(1)
      const refused = yield* client.call([]).pipe(
        Effect.as("sent"),
        Effect.catchTag("CreditBudgetExceeded", () => Effect.succeed("refused"))
      )
      expect(refused).toBe("refused")
      expect(yield* log.count).toBe(2)
    }).pipe(
      Effect.provide(
        HttpTesting.layerTransport((req, index) => index === 0 ? Effect.never : HttpTesting.rpcResult(req, 1)).pipe(
          Layer.provide(RateLimits.layerMemory({ scope: "t", creditBudget: 20 }))
        )
      )
    ))

  const times: Array<number> = []
  it.effect("with a plan, every area's calls are paced by their bucket, retries included", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(ping)
      const fiber = yield* Effect.fork(Effect.forEach(Array.from({ length: 6 }), () => client.call([]), {
        concurrency: "unbounded"
      }))
      yield* TestClock.adjust("1 minute")
      expect(yield* Fiber.join(fiber)).toHaveLength(6)
      // Free plan: DAS 2/s. 7 attempts (one retried after a 429), two per window, the retry waiting like any.
      expect(times).toEqual(Array.from({ length: 7 }, (_, i) => Math.floor(i / 2) * 1001))
    }).pipe(
      Effect.provide(
        HttpTesting.layerTransport((req, index) =>
          Effect.map(Clock.currentTimeMillis, (now) => {
            times.push(now)
            return index === 2 ? tooMany() : HttpTesting.rpcResult(req, 1)
          })
        ).pipe(Layer.provide(RateLimits.layerMemory({ scope: "t", plan: "free" })))
      )
    ))
})

const redisMissing = Servers.unavailable("redis")
describe.skipIf(redisMissing !== undefined)(Servers.title("RateLimits over redis-server", redisMissing), () => {
  /** Two limiters, each with its own connection to one Redis, as two processes would have. */
  const twoLimiters = (options: RateLimits.Options) =>
    Effect.gen(function*() {
      const redis = yield* Servers.redis
      const build = Effect.map(
        Layer.build(RateLimitsRedis.layer(options, { host: redis.host, port: redis.port })),
        Context.get(RateLimits.RateLimits)
      )
      return [yield* build, yield* build, redis] as const
    })

  it.live(
    "two limiters sharing one Redis never put more than 10 DAS starts in any second together",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const [a, b] = yield* twoLimiters({ plan: "developer", scope: RateLimits.fingerprint("k") })
        const recorded: Array<{ readonly by: string; readonly at: number }> = []
        const run = (limits: RateLimits.RateLimitsShape, by: string) =>
          Effect.forEach(
            Array.from({ length: 14 }),
            () => limits.aroundAttempt("das")(Effect.sync(() => recorded.push({ by, at: Date.now() }))),
            { concurrency: "unbounded", discard: true }
          )
        yield* Effect.all([run(a, "a"), run(b, "b")], { concurrency: 2 })
        expect(recorded.filter((r) => r.by === "a")).toHaveLength(14)
        expect(recorded.filter((r) => r.by === "b")).toHaveLength(14)
        expect(maxInWindow(recorded.map((r) => r.at))).toBeLessThanOrEqual(10)
      })),
    30_000
  )

  it.live(
    "validity proofs over Redis hold a permit in their bucket and in Photon at once: ≤ 5 and ≤ 10 in any second",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const [a, b] = yield* twoLimiters({ plan: "developer", scope: RateLimits.fingerprint("vp") })
        const recorded: Array<{ readonly bucket: RateLimits.Bucket; readonly at: number }> = []
        const run = (limits: RateLimits.RateLimitsShape, bucket: RateLimits.Bucket) =>
          Effect.forEach(
            Array.from({ length: 7 }),
            () => limits.aroundAttempt(bucket)(Effect.sync(() => recorded.push({ bucket, at: Date.now() }))),
            { concurrency: "unbounded", discard: true }
          )
        yield* Effect.all([run(a, "validityProof"), run(b, "photon"), run(b, "validityProof")], {
          concurrency: "unbounded"
        })
        expect(recorded).toHaveLength(21)
        expect(maxInWindow(recorded.filter((r) => r.bucket === "validityProof").map((r) => r.at))).toBeLessThanOrEqual(
          5
        )
        expect(maxInWindow(recorded.map((r) => r.at))).toBeLessThanOrEqual(10)
      })),
    30_000
  )

  it.live(
    "a budget of 1,000 credits shared by two limiters sends exactly 100 calls of 10",
    () =>
      Effect.scoped(Effect.gen(function*() {
        const apiKey = "rate-limits-test-api-key-7f3a"
        const [a, b, redis] = yield* twoLimiters({ scope: RateLimits.fingerprint(apiKey), creditBudget: 1_000 })
        const sent = { count: 0 }
        const [ra, rb] = yield* Effect.all([spendUntilRefused(a, sent), spendUntilRefused(b, sent)], {
          concurrency: 2
        })
        expect(sent.count).toBe(100)
        expect(ra).toBeInstanceOf(CreditBudgetExceeded)
        expect(rb).toBeInstanceOf(CreditBudgetExceeded)
        // Redis holds the budget under the key's fingerprint, never the key.
        const client = yield* Effect.acquireRelease(
          Effect.sync(() => new IORedis(redis.port, redis.host, { lazyConnect: true, maxRetriesPerRequest: 0 })),
          (c) => Effect.promise(() => c.quit())
        )
        const keys = yield* Effect.promise(async () => {
          await client.connect()
          return client.keys("*")
        })
        const budgetKey = `solfx:limits:${RateLimits.fingerprint(apiKey)}:credits`
        // The budget is one counter of the credits spent: 100 calls of 10.
        // (Besides each process' liveness key, named by a random id.)
        expect(keys.filter((k) => !k.startsWith("solfx:limits:live:")).sort()).toEqual([budgetKey])
        expect(yield* Effect.promise(() => client.get(budgetKey))).toBe("1000")
        expect(yield* a.spent).toBe(1_000)
        expect(keys.join()).not.toContain(apiKey)
      })),
    30_000
  )
})
