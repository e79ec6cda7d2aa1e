import { describe, expect, it } from "@effect/vitest"
import * as SolfxConfig from "@solfx/core/Config"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"

const run = <A, E>(
  handler: HttpTesting.Handler,
  f: (t: HttpTransport.HttpTransportShape) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const t = yield* HttpTransport.HttpTransport
    const log = yield* HttpTesting.RequestLog
    const exit = yield* Effect.exit(f(t))
    return { exit, count: yield* log.count, requests: yield* log.requests }
  }).pipe(Effect.provide(HttpTesting.layerTransport(handler)))

const failureTag = (exit: any) => exit._tag === "Failure" ? exit.cause.error?._tag : "Success"

describe("HttpTransport", () => {
  it.effect("JSON-RPC: sends the envelope with the key as api-key and decodes result", () =>
    Effect.gen(function*() {
      const r = yield* run((req) => HttpTesting.rpcResult(req, 42), (t) => t.rpc("getX", { a: 1 }, Schema.Number))
      expect(r.exit).toMatchObject({ _tag: "Success", value: 42 })
      expect(r.requests[0]!.url.searchParams.get("api-key")).toBe("test-key")
      expect(r.requests[0]!.body).toMatchObject({ jsonrpc: "2.0", method: "getX", params: { a: 1 } })
    }))

  it.effect("rpcRaw: the answer's text and result as they came (null included), errors and ids as execute's", () =>
    Effect.gen(function*() {
      const big = "{\"jsonrpc\":\"2.0\",\"id\":\"ID\",\"result\":{\"value\":18446744073709551615}}"
      const raw = yield* run(
        (req) =>
          new Response(big.replace("ID", String((req.body as { id: string }).id)), {
            headers: { "content-type": "application/json" }
          }),
        (t) => t.rpcRaw("getBig", [1n])
      )
      expect(raw.exit._tag).toBe("Success")
      const answer = (raw.exit as any).value as HttpTransport.RawAnswer
      expect(answer.text).toContain("18446744073709551615")
      expect(answer.value).toEqual({ value: 18446744073709551615 })
      expect(raw.requests[0]!.body).toMatchObject({ method: "getBig", params: [1] })

      const none = yield* run((req) => HttpTesting.rpcResult(req, null), (t) => t.rpcRaw("getTransaction", []))
      expect(none.exit).toMatchObject({ _tag: "Success", value: { value: null } })
      // execute keeps refusing a null result
      const decoded = yield* run((req) => HttpTesting.rpcResult(req, null), (t) => t.rpc("getX", [], Schema.Unknown))
      expect(failureTag(decoded.exit)).toBe("DecodeError")

      const error = yield* run(
        () =>
          Response.json({ jsonrpc: "2.0", id: null, error: { code: -32002, message: "preflight", data: { x: 1 } } }),
        (t) => t.rpcRaw("sendTransaction", [], { idempotent: false })
      )
      expect(error.exit).toMatchObject({
        _tag: "Failure",
        cause: { error: { _tag: "JsonRpcError", code: -32002, data: { x: 1 } } }
      })
      const otherId = yield* run(
        () => Response.json({ jsonrpc: "2.0", id: "someone-else", result: 1 }),
        (t) => t.rpcRaw("getX", [])
      )
      expect(otherId.exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DecodeError", path: "$.id" } } })
    }))

  it.effect("maps statuses and JSON-RPC errors to tagged errors", () =>
    Effect.gen(function*() {
      const cases: Array<[number, unknown, string]> = [
        [401, { jsonrpc: "2.0", error: { code: -32401, message: "invalid api key provided" } }, "Unauthorized"],
        [403, { error: "forbidden" }, "Unauthorized"],
        [400, { jsonrpc: "2.0", error: { code: -32602, message: "Invalid params" } }, "JsonRpcError"],
        [404, { error: "not found" }, "HttpError"],
        [500, "<html>oops</html>", "HttpError"],
        [200, { jsonrpc: "2.0", id: "x", error: { code: -32000, message: "boom" } }, "JsonRpcError"]
      ]
      for (const [status, body, tag] of cases) {
        const r = yield* run(
          () => new Response(typeof body === "string" ? body : JSON.stringify(body), { status }),
          (t) => t.rpc("m", {}, Schema.Number, { idempotent: false })
        )
        expect([status, failureTag(r.exit)]).toEqual([status, tag])
      }
    }))

  it.effect("honours Retry-After on 429 under the TestClock", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(run(
        (req, i) =>
          i === 0
            ? new Response("{}", { status: 429, headers: { "retry-after": "3" } })
            : HttpTesting.rpcResult(req, 7),
        (t) => t.rpc("m", {}, Schema.Number)
      ))
      yield* TestClock.adjust("2999 millis")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      const r = yield* Fiber.join(fiber)
      expect(r.exit).toMatchObject({ _tag: "Success", value: 7 })
      expect(r.count).toBe(2)
    }))

  it.effect("does not retry a non-idempotent call after a 503", () =>
    Effect.gen(function*() {
      const r = yield* run(() => new Response("busy", { status: 503 }), (t) =>
        t.rpc("sendBundle", [], Schema.String, { idempotent: false }))
      expect(failureTag(r.exit)).toBe("HttpError")
      expect(r.count).toBe(1)
    }))

  it.effect("a 200 REST body carrying { error } is a failure, not data", () =>
    Effect.gen(function*() {
      const r = yield* run(() => Response.json({ error: "wallet not indexed" }), (t) =>
        t.rest({ operation: "GET /x", host: "rest", method: "GET", path: "/x", idempotent: true }, Schema.Unknown))
      expect(r.exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "HttpError", status: 200 } } })
    }))

  it.effect("restOption turns 404 into None, other statuses stay errors", () =>
    Effect.gen(function*() {
      const spec = { operation: "GET /id", host: "rest", method: "GET", path: "/id", idempotent: true } as const
      const missing = yield* run(() => Response.json({ error: "not found" }, { status: 404 }), (t) =>
        t.restOption(spec, Schema.Unknown))
      expect(missing.exit).toMatchObject({ _tag: "Success", value: { _tag: "None" } })
      const found = yield* run(() =>
        Response.json({ a: 1 }), (t) =>
        t.restOption(spec, Schema.Struct({ a: Schema.Number })))
      expect(found.exit).toMatchObject({ _tag: "Success", value: { _tag: "Some", value: { a: 1 } } })
    }))

  it.effect("admin-style header auth sends X-Api-Key and no api-key parameter", () =>
    Effect.gen(function*() {
      const r = yield* run(() => Response.json({}), (t) =>
        t.rest(
          { operation: "GET /u", host: "admin", method: "GET", path: "/u", idempotent: true, auth: "header" },
          Schema.Unknown
        ))
      expect(r.requests[0]!.headers["x-api-key"]).toBe("test-key")
      expect(r.requests[0]!.url.searchParams.has("api-key")).toBe(false)
    }))

  it.effect("a JSON-RPC response with another id is a DecodeError at $.id", () =>
    Effect.gen(function*() {
      const r = yield* run(() => Response.json({ jsonrpc: "2.0", id: "someone-else", result: 1 }), (t) =>
        t.rpc("m", {}, Schema.Number))
      expect(r.exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DecodeError", path: "$.id" } } })
    }))

  it.effect("a bad result is a DecodeError with the JSON path", () =>
    Effect.gen(function*() {
      const r = yield* run((req) => HttpTesting.rpcResult(req, { items: [{ id: 1 }, { id: "x" }] }), (t) =>
        t.rpc("m", {}, Schema.Struct({ items: Schema.Array(Schema.Struct({ id: Schema.Number })) })))
      expect(r.exit).toMatchObject({
        _tag: "Failure",
        cause: { error: { _tag: "DecodeError", path: "$.result.items[1].id" } }
      })
    }))

  it.effect("idempotent calls retry 502-504, resets and 500; they stop at the policy's bound", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(run(
        (req, i) =>
          i === 0 ? new Response("", { status: 502 }) : i === 1 ? Effect.fail("reset" as const) : i === 2
            ? new Response("", { status: 500 })
            : HttpTesting.rpcResult(req, 3),
        (t) => t.rpc("m", {}, Schema.Number)
      ))
      yield* TestClock.adjust("1 minute")
      const r = yield* Fiber.join(fiber)
      expect(r.exit).toMatchObject({ _tag: "Success", value: 3 })
      expect(r.count).toBe(4)
      const always = yield* Effect.fork(
        run(() => new Response("", { status: 503 }), (t) => t.rpc("m", {}, Schema.Number))
      )
      yield* TestClock.adjust("10 minutes")
      const bounded = yield* Fiber.join(always)
      expect(failureTag(bounded.exit)).toBe("HttpError")
      expect(bounded.count).toBe(5) // 1 + defaultRetry.times
    }))

  it.effect("a non-idempotent call is retried only when the connection was refused", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(run(
        (req, i) => i === 0 ? Effect.fail("refused" as const) : HttpTesting.rpcResult(req, "id"),
        (t) => t.rpc("sendBundle", [], Schema.String, { idempotent: false })
      ))
      yield* TestClock.adjust("1 minute")
      expect((yield* Fiber.join(fiber)).count).toBe(2)
      const reset = yield* Effect.fork(
        run(() => Effect.fail("reset" as const), (t) => t.rpc("sendBundle", [], Schema.String, { idempotent: false }))
      )
      yield* TestClock.adjust("1 minute")
      const r = yield* Fiber.join(reset)
      expect(failureTag(r.exit)).toBe("TransportError")
      expect(r.count).toBe(1)
    }))

  it.effect("a response that never arrives is a TransportError after the timeout, retried when idempotent", () =>
    Effect.gen(function*() {
      const fiber = yield* Effect.fork(
        Effect.gen(function*() {
          const t = yield* HttpTransport.HttpTransport
          const log = yield* HttpTesting.RequestLog
          const exit = yield* Effect.exit(t.rpc("m", {}, Schema.Number))
          return { exit, count: yield* log.count }
        }).pipe(Effect.provide(HttpTesting.layerTransport(
          (req, i) => i < 2 ? Effect.never : HttpTesting.rpcResult(req, 9),
          { timeout: "5 seconds" }
        )))
      )
      yield* TestClock.adjust("4 seconds")
      expect(fiber.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 minute")
      const r = yield* Fiber.join(fiber)
      expect(r.exit).toMatchObject({ _tag: "Success", value: 9 })
      expect(r.count).toBe(3)
      const once = yield* Effect.fork(
        Effect.gen(function*() {
          const t = yield* HttpTransport.HttpTransport
          return yield* Effect.flip(t.rpc("sendBundle", [], Schema.String, { idempotent: false }))
        }).pipe(Effect.provide(HttpTesting.layerTransport(() => Effect.never, { timeout: "5 seconds" })))
      )
      yield* TestClock.adjust("6 seconds")
      expect(yield* Fiber.join(once)).toMatchObject({ _tag: "TransportError", reason: "timeout", sent: true })
    }))

  it.effect("the call's budget ends a waiting attempt, and a permit's wait, with or without a permit around it", () =>
    Effect.gen(function*() {
      // Each attempt may take 50 s, the whole call 30 s; the server never answers.
      const layer = HttpTransport.layerWith({ budget: "30 seconds" }).pipe(
        Layer.provideMerge(HttpTesting.layer(() => Effect.never)),
        Layer.provideMerge(Layer.succeed(
          SolfxConfig.SolfxConfig,
          SolfxConfig.make({
            apiKey: "test-key",
            baseUrl: "http://solfx.test",
            allowInsecureHttp: true,
            timeout: "50 seconds"
          })
        ))
      )
      const permit = (wait: Duration.DurationInput) => <A, E>(attempt: Effect.Effect<A, E>) =>
        Effect.zipRight(Effect.sleep(wait), attempt)
      const call = (aroundAttempt?: (attempt: Effect.Effect<any, any>) => Effect.Effect<any, any>) =>
        Effect.fork(
          Effect.gen(function*() {
            const t = yield* HttpTransport.HttpTransport
            const log = yield* HttpTesting.RequestLog
            const error = yield* Effect.flip(t.rpc("m", {}, Schema.Number, { aroundAttempt }))
            return { error, count: yield* log.count }
          }).pipe(Effect.provide(layer))
        )
      const cases = [[undefined, 1], [permit("20 seconds"), 1], [permit("40 seconds"), 0]] as const
      for (const [around, sent] of cases) {
        const fiber = yield* call(around)
        yield* TestClock.adjust("29 seconds")
        expect(fiber.unsafePoll()).toBeNull()
        yield* TestClock.adjust("1 second")
        const r = yield* Fiber.join(fiber)
        expect(r.error).toMatchObject({ _tag: "TransportError", reason: "timeout" })
        expect((r.error as { detail: string }).detail).toContain("budget of 30s")
        // A permit still waiting when the budget ends: nothing was sent, and the error says so.
        expect(r.count).toBe(sent)
        expect(r.error).toMatchObject({ sent: sent === 1 })
        expect((r.error as { detail: string }).detail.includes("nothing was sent")).toBe(sent === 0)
      }
    }))

  it.effect("refuses to send the key over plain http to a non-loopback host", () =>
    Effect.gen(function*() {
      const attempt = (baseUrl: string, allowInsecureHttp: boolean) =>
        Effect.gen(function*() {
          const t = yield* HttpTransport.HttpTransport
          const log = yield* HttpTesting.RequestLog
          const exit = yield* Effect.exit(t.rpc("m", {}, Schema.Number))
          return { exit, count: yield* log.count }
        }).pipe(Effect.provide(HttpTesting.layerTransport((req) =>
          HttpTesting.rpcResult(req, 1), { baseUrl, allowInsecureHttp })))
      const refused = yield* attempt("http://rpc.example.com", false)
      expect(failureTag(refused.exit)).toBe("InsecureTransport")
      expect(refused.count).toBe(0)
      expect((yield* attempt("http://127.0.0.1:8899", false)).exit._tag).toBe("Success")
      expect((yield* attempt("http://localhost:8899", false)).exit._tag).toBe("Success")
      expect((yield* attempt("https://rpc.example.com", false)).exit._tag).toBe("Success")
      expect((yield* attempt("http://rpc.example.com", true)).exit._tag).toBe("Success")
    }))
})
