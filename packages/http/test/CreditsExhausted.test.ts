/**
 * Used-up credits are not a rate limit: a 429 "max usage reached" (REST or
 * JSON-RPC), or the JSON-RPC -32429 "max usage reached" at any status, is
 * `CreditsExhausted` after one request, never retried, even for idempotent calls
 * and even with a `Retry-After`. A plain 429 is still `RateLimited` and retried.
 */
import { describe, expect, it } from "@effect/vitest"
import { CreditsExhausted, RateLimited } from "@solfx/core/Errors"
import { HttpTesting, HttpTransport, Retry } from "@solfx/http"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"

const exhausted = { code: -32429, message: "max usage reached" }

/** Runs `f` with generous retries, letting the TestClock run far past every backoff. */
const run = <A, E>(handler: HttpTesting.Handler, f: (t: HttpTransport.HttpTransportShape) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    const fiber = yield* Effect.fork(
      Effect.gen(function*() {
        const t = yield* HttpTransport.HttpTransport
        const log = yield* HttpTesting.RequestLog
        const exit = yield* Effect.exit(f(t))
        return { exit, count: yield* log.count }
      }).pipe(Effect.provide(HttpTesting.layerTransport(handler, { retry: { times: 5 } })))
    )
    yield* TestClock.adjust("10 minutes")
    return yield* Fiber.join(fiber)
  })

const rpc = (t: HttpTransport.HttpTransportShape) => t.rpc("getAssetsByAuthority", {}, Schema.Unknown)
const rest = (t: HttpTransport.HttpTransportShape) =>
  t.rest(
    { operation: "GET /v1/wallet/{wallet}/balances", host: "rest", method: "GET", path: "/x", idempotent: true },
    Schema.Unknown
  )

const envelope = (req: HttpTesting.RecordedRequest, error: object) => ({
  jsonrpc: "2.0",
  id: (req.body as { id?: unknown } | undefined)?.id ?? null,
  error
})

describe("CreditsExhausted", () => {
  const cases: ReadonlyArray<[name: string, handler: HttpTesting.Handler, call: typeof rpc]> = [
    [
      "JSON-RPC -32429 at HTTP 429",
      (req) => Response.json(envelope(req, exhausted), { status: 429, headers: { "retry-after": "1" } }),
      rpc
    ],
    ["JSON-RPC -32429 at HTTP 200", (req) => Response.json(envelope(req, exhausted)), rpc],
    ["JSON-RPC -32429 at HTTP 503", (req) => Response.json(envelope(req, exhausted), { status: 503 }), rpc],
    [
      "REST 429 { error: \"max usage reached\" }",
      () => Response.json({ error: "max usage reached" }, { status: 429 }),
      rest
    ],
    ["REST 429 with a plain-text body", () => new Response("Max usage reached", { status: 429 }), rest]
  ]
  for (const [name, handler, call] of cases) {
    it.effect(`${name}: CreditsExhausted after exactly one request`, () =>
      Effect.gen(function*() {
        const r = yield* run(handler, call)
        expect(r.count).toBe(1)
        expect(Exit.isFailure(r.exit) && r.exit.cause).toMatchObject({ error: { _tag: "CreditsExhausted" } })
        const error = Exit.isFailure(r.exit) ? (r.exit.cause as { error?: CreditsExhausted }).error : undefined
        expect(error?.detail).toMatch(/max usage reached/i)
        expect(error?.message).toMatch(/credits exhausted/)
      }))
  }

  it.effect("a plain 429 (\"rate limited\") is still RateLimited, retried until it passes", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req, i) =>
          i < 2
            ? Response.json(envelope(req, { code: -32429, message: "rate limited" }), { status: 429 })
            : HttpTesting.rpcResult(req, 7),
        rpc
      )
      expect(r.exit).toEqual(Exit.succeed(7))
      expect(r.count).toBe(3)
    }))

  it("isRetryable: never for CreditsExhausted, always for RateLimited", () => {
    const used = new CreditsExhausted({ operation: "m", detail: "max usage reached" })
    const limited = new RateLimited({ operation: "m", detail: "rate limited" })
    for (const idempotent of [true, false]) {
      expect(Retry.isRetryable(idempotent)(used)).toBe(false)
      expect(Retry.isRetryable(idempotent)(limited)).toBe(true)
    }
  })
})
