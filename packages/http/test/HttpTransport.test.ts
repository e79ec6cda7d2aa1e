import { describe, expect, it } from "@effect/vitest"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
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
})
