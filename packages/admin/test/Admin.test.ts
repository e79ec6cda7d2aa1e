/**
 * Admin and Webhooks over the HTTP test layer, on the TestClock: the rate
 * limiter's sliding window, Retry-After, the UUID check, the 400 mapping, and
 * the redaction of webhook auth headers.
 */
import { describe, expect, it } from "@effect/vitest"
import { Admin, Webhooks } from "@solfx/admin"
import { HttpTesting } from "@solfx/http"
import * as RateLimits from "@solfx/http/RateLimits"
import * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as RateLimiter from "effect/RateLimiter"
import * as Redacted from "effect/Redacted"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
import { inspect } from "node:util"

const PROJECT = "123e4567-e89b-12d3-a456-426614174000"

const usageBody = {
  creditsRemaining: 487500,
  creditsUsed: 12500,
  prepaidCreditsRemaining: 50000,
  prepaidCreditsUsed: 0,
  subscriptionDetails: {
    billingCycle: { start: "2026-04-01", end: "2026-05-01" },
    creditsLimit: 500000,
    plan: "business"
  },
  usage: {
    api: 1,
    archival: 2,
    das: 3,
    grpc: 4,
    grpcGeyser: 5,
    photon: 6,
    rpc: 7,
    stream: 8,
    webhook: 9,
    websocket: 10
  }
}

/** Admin over a test client whose handler also sees the TestClock time of each request. */
const withAdmin = <A, E>(
  answer: (index: number) => Response | Effect.Effect<Response, "reset" | "refused">,
  body: (admin: Admin.AdminShape, times: Array<number>) => Effect.Effect<A, E>
) => {
  const times: Array<number> = []
  const handler: HttpTesting.Handler = (_req, index) =>
    Effect.flatMap(Clock.currentTimeMillis, (now) => {
      times.push(now)
      const r = answer(index)
      return Effect.isEffect(r) ? r : Effect.succeed(r)
    })
  return Effect.gen(function*() {
    return yield* body(yield* Admin.Admin, times)
  }).pipe(Effect.provide(Admin.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(handler)))))
}

/** Advances the TestClock in small steps until the fiber is done. */
const drive = <A, E>(fiber: Fiber.Fiber<A, E>, step: Duration.DurationInput = "50 millis", maxSteps = 1000) =>
  Effect.gen(function*() {
    for (let i = 0; i < maxSteps && Option.isNone(yield* fiber.poll); i++) yield* TestClock.adjust(step)
    return yield* Fiber.join(fiber)
  })

/** The most request start times found in any half-open window [t, t + window). */
const maxInWindow = (times: ReadonlyArray<number>, window = 1000): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let best = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! - sorted[i]! < window) j++
    best = Math.max(best, j - i)
  }
  return best
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

describe("Admin rate limit", () => {
  it.effect("50 concurrent getProjectUsage calls never put more than 5 requests in any 1-second window", () =>
    withAdmin(() => Response.json(usageBody), (admin, times) =>
      Effect.gen(function*() {
        const fiber = yield* Effect.fork(
          Effect.forEach(range(50), () => admin.getProjectUsage(PROJECT), { concurrency: "unbounded" })
        )
        const results = yield* drive(fiber)
        expect(results).toHaveLength(50)
        expect(results.every((u) => u.creditsRemaining === 487500)).toBe(true)
        expect(times).toHaveLength(50)
        expect(maxInWindow(times)).toBe(5)
        // 10 groups of 5, a window (and a millisecond: the window is closed) apart: the limiter does not idle.
        expect(Math.max(...times) - Math.min(...times)).toBe(9 * 1001)
      })))

  it.effect("Effect's built-in limiters would break the sliding window (why RateLimits spaces starts)", () =>
    Effect.gen(function*() {
      for (const algorithm of ["token-bucket", "fixed-window"] as const) {
        const builtIn = yield* RateLimiter.make({ limit: 5, interval: "1 second", algorithm })
        const times: Array<number> = []
        const stamp = Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => times.push(t)))
        // One early start, then a burst: the shape that crosses a fixed window's boundary.
        yield* builtIn(stamp)
        yield* TestClock.adjust("999 millis")
        const fiber = yield* Effect.fork(Effect.forEach(range(14), () => builtIn(stamp), { concurrency: "unbounded" }))
        yield* drive(fiber)
        expect([algorithm, maxInWindow(times) > 5]).toEqual([algorithm, true])
      }
      const limits = yield* RateLimits.makeMemory({ scope: "admin-test" })
      const ours = limits.aroundAttempt("admin")
      const times: Array<number> = []
      const stamp = Effect.flatMap(Clock.currentTimeMillis, (t) => Effect.sync(() => times.push(t)))
      yield* ours(stamp)
      yield* TestClock.adjust("999 millis")
      yield* drive(yield* Effect.fork(Effect.forEach(range(14), () => ours(stamp), { concurrency: "unbounded" })))
      expect(times).toHaveLength(15)
      expect(maxInWindow(times)).toBe(5)
    }).pipe(Effect.scoped))

  it.effect("a 429 with Retry-After is retried after that delay", () =>
    withAdmin(
      (i) =>
        i === 0
          ? new Response(JSON.stringify({ error: "rate limited" }), { status: 429, headers: { "retry-after": "2" } })
          : Response.json(usageBody),
      (admin, times) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(admin.getProjectUsage(PROJECT))
          yield* TestClock.adjust("1999 millis")
          expect(fiber.unsafePoll()).toBeNull()
          yield* TestClock.adjust("1 millis")
          const usage = yield* Fiber.join(fiber)
          expect(usage.usage?.rpc).toBe(7)
          expect(times).toEqual([0, 2000])
        })
    ))

  it.effect("the limiter applies to retries: a retry waits for a permit like any attempt", () =>
    withAdmin(
      (i) =>
        i === 0
          ? new Response(JSON.stringify({ error: "rate limited" }), { status: 429, headers: { "retry-after": "0" } })
          : Response.json(usageBody),
      (admin, times) =>
        Effect.gen(function*() {
          const fiber = yield* Effect.fork(
            Effect.forEach(range(5), () => admin.getProjectUsage(PROJECT), { concurrency: "unbounded" })
          )
          const results = yield* drive(fiber)
          expect(results).toHaveLength(5)
          expect(times).toHaveLength(6)
          // Retry-After 0 asks for an immediate retry, but 5 attempts already started at 0.
          expect(times.filter((t) => t === 0)).toHaveLength(5)
          expect(times[5]).toBe(1001)
          expect(maxInWindow(times)).toBe(5)
        })
    ))

  it.effect("a reset connection is retried (admin reads are idempotent)", () =>
    withAdmin(
      (i) => (i === 0 ? Effect.fail("reset" as const) : Response.json(usageBody)),
      (admin, times) =>
        Effect.gen(function*() {
          const usage = yield* drive(yield* Effect.fork(admin.getProjectUsage(PROJECT)))
          expect(usage.creditsUsed).toBe(12500)
          expect(times).toHaveLength(2)
        })
    ))
})

describe("Admin.getProjectUsage", () => {
  it.effect("sends GET /v0/admin/projects/{id}/usage with X-Api-Key, not the query key", () =>
    Effect.gen(function*() {
      const admin = yield* Admin.Admin
      const usage = yield* admin.getProjectUsage(PROJECT)
      const [req] = yield* (yield* HttpTesting.RequestLog).requests
      expect(req!.method).toBe("GET")
      expect(req!.url.pathname).toBe(`/v0/admin/projects/${PROJECT}/usage`)
      expect(req!.headers["x-api-key"]).toBe("test-key")
      expect(req!.url.searchParams.has("api-key")).toBe(false)
      expect(usage.subscriptionDetails.billingCycle).toEqual({ start: "2026-04-01", end: "2026-05-01" })
    }).pipe(
      Effect.provide(Admin.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(() => Response.json(usageBody)))))
    ))

  it.effect("checks the id is a UUID before any request", () =>
    Effect.gen(function*() {
      const admin = yield* Admin.Admin
      for (const bad of ["not-a-uuid", "", "123e4567e89b12d3a456426614174000", `${PROJECT}/../x`]) {
        const exit = yield* Effect.exit(admin.getProjectUsage(bad))
        expect(exit).toMatchObject({
          _tag: "Failure",
          cause: { error: { _tag: "InvalidRequest", field: "projectId" } }
        })
      }
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(0)
    }).pipe(
      Effect.provide(Admin.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(() => Response.json(usageBody)))))
    ))

  it.effect("a 400 is ProjectMismatch carrying the project id, and is not retried", () =>
    withAdmin(
      () => new Response(JSON.stringify({ error: "project mismatch" }), { status: 400 }),
      (admin, times) =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(admin.getProjectUsage(PROJECT))
          expect(Exit.isFailure(exit)).toBe(true)
          expect(exit).toMatchObject({
            cause: { error: { _tag: "ProjectMismatch", projectId: PROJECT, detail: "project mismatch" } }
          })
          expect(times).toHaveLength(1)
        })
    ))

  it.effect("the API key passed by mistake as the project id (both are UUIDs) shows in neither the error nor a span", () => {
    const KEY = "0b7e4c1a-5d2f-4e8b-9a3c-6f1d2e3a4b5c"
    const attributes: Array<string> = []
    return Effect.gen(function*() {
      const admin = yield* Admin.Admin
      const base = yield* Effect.tracer
      const tracer = Tracer.make({
        span: (...args) => {
          const span = base.span(...args)
          const attribute = span.attribute.bind(span)
          span.attribute = (key, value) => {
            attributes.push(`${key}=${String(value)}`)
            attribute(key, value)
          }
          return span
        },
        context: (f, fiber) => base.context(f, fiber)
      })
      const error = yield* Effect.flip(admin.getProjectUsage(KEY).pipe(Effect.withTracer(tracer)))
      expect(error).toMatchObject({ _tag: "ProjectMismatch", projectId: "<redacted>" })
      for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 10 })]) {
        expect(text).not.toContain(KEY)
      }
      expect(attributes).toContain("solfx.projectId=<redacted>")
      expect(attributes.join("\n")).not.toContain(KEY)
    }).pipe(
      Effect.provide(
        Admin.layer.pipe(
          Layer.provideMerge(HttpTesting.layerTransport(
            () => Response.json({ error: "project mismatch" }, { status: 400 }),
            { apiKey: KEY }
          ))
        )
      )
    )
  })

  it.effect("decodes the newer layout (credits/requests/dataTransfer, no usage)", () =>
    withAdmin(
      () =>
        Response.json({
          ...usageBody,
          usage: undefined,
          credits: { rpc: 4500, walletApi: 0, laserstreamGrpc: 1500 },
          requests: { rpc: 4500, preConfirmations: 50 },
          dataTransfer: { laserstreamGrpc: 15000000 },
          creditCycle: { start: "2026-04-01", end: "2026-05-01" }
        }),
      (admin) =>
        Effect.gen(function*() {
          const usage = yield* admin.getProjectUsage(PROJECT)
          expect(usage.usage).toBeUndefined()
          expect(usage.credits?.laserstreamGrpc).toBe(1500)
          expect(usage.requests?.preConfirmations).toBe(50)
          expect(usage.dataTransfer?.laserstreamGrpc).toBe(15000000)
          expect(usage.creditCycle?.end).toBe("2026-05-01")
        })
    ))

  it.effect("a billing date that is not YYYY-MM-DD is a DecodeError naming the path", () =>
    withAdmin(
      () =>
        Response.json({
          ...usageBody,
          subscriptionDetails: { ...usageBody.subscriptionDetails, billingCycle: { start: "04/01/2026", end: "x" } }
        }),
      (admin) =>
        Effect.gen(function*() {
          const exit = yield* Effect.exit(admin.getProjectUsage(PROJECT))
          expect(exit).toMatchObject({
            cause: { error: { _tag: "DecodeError", path: "$.subscriptionDetails.billingCycle.start" } }
          })
        })
    ))
})

const SECRET = "Bearer super-secret-9f3e"

const hooksBody = [
  {
    webhookID: "wh-1",
    wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    webhookURL: "https://example.test/hook",
    transactionTypes: ["NFT_SALE", "NFT_RENT_END"],
    accountAddresses: ["9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"],
    webhookType: "enhanced",
    authHeader: SECRET
  },
  {
    webhookID: "wh-2",
    wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
    webhookURL: "https://example.test/raw",
    transactionTypes: [],
    accountAddresses: [],
    webhookType: "rawDevnet",
    active: false
  }
]

const webhooksLayer = Webhooks.layer.pipe(
  Layer.provideMerge(HttpTesting.layerTransport(() => Response.json(hooksBody)))
)

describe("Webhooks.list", () => {
  it.effect("GET /v0/webhooks with the key as api-key; active defaults to true; open type vocabulary", () =>
    Effect.gen(function*() {
      const hooks = yield* (yield* Webhooks.Webhooks).list()
      const [req] = yield* (yield* HttpTesting.RequestLog).requests
      expect(req!.url.pathname).toBe("/v0/webhooks")
      expect(req!.url.searchParams.get("api-key")).toBe("test-key")
      expect(hooks.map((h) => [h.webhookID, h.webhookType, h.active])).toEqual([
        ["wh-1", "enhanced", true],
        ["wh-2", "rawDevnet", false]
      ])
      expect(hooks[0]!.transactionTypes).toEqual(["NFT_SALE", "NFT_RENT_END"])
      expect(hooks[1]!.authHeader).toBeUndefined()
    }).pipe(Effect.provide(webhooksLayer)))

  it.effect("no printed or logged record shows its authHeader", () =>
    Effect.gen(function*() {
      const hooks = yield* (yield* Webhooks.Webhooks).list()
      const hook = hooks[0]!
      // The secret is there, only hidden.
      expect(Redacted.value(hook.authHeader!)).toBe(SECRET)

      const lines: Array<string> = []
      const capture = Logger.make<unknown, void>((options) => {
        lines.push(String(Logger.stringLogger.log(options)))
        lines.push(String(Logger.logfmtLogger.log(options)))
        lines.push(String(Logger.jsonLogger.log(options)))
        lines.push(JSON.stringify(Logger.structuredLogger.log(options)))
      })
      yield* Effect.log("webhooks", hooks, hook).pipe(
        Effect.annotateLogs("hook", hook),
        Effect.provide(Logger.replace(Logger.defaultLogger, capture))
      )
      yield* Effect.logError(hook.authHeader).pipe(Effect.provide(Logger.replace(Logger.defaultLogger, capture)))
      expect(lines).toHaveLength(8)

      const printed = [
        String(hook),
        String(hook.authHeader),
        `${hook.authHeader}`,
        JSON.stringify(hook),
        JSON.stringify(hooks),
        inspect(hook, { depth: 10 }),
        inspect(hooks, { depth: 10 }),
        ...lines
      ]
      for (const text of printed) expect(text).not.toContain("super-secret")
      expect(JSON.stringify(hook)).toContain("<redacted>")
      expect(inspect(hook)).toContain("<redacted>")
    }).pipe(Effect.provide(webhooksLayer)))
})
