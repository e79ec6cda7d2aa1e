/**
 * The key sealed: user middleware (`transformClient`) records every request, response
 * and error it can see, a tracer records every span, over 1,000 calls with faults (key
 * echoed in bodies and a redirect's Location, 401, 429, 500, resets, refusals, bad
 * bodies), across JSON-RPC (key in the query), REST (key in the query) and the admin
 * host (key in `X-Api-Key`). Neither ever holds the key in any encoding (raw, URL- and
 * form-encoded in either hex case, base64, base64url, hex), while the server saw it
 * on every request.
 */
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as SolfxConfig from "@solfx/core/Config"
import type { ApiError } from "@solfx/core/Errors"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Spans from "@solfx/testing/Spans"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { inspect } from "node:util"

const KEY = "sEcr3t/Key+=&?é 42"
const bytes = new TextEncoder().encode(KEY)
/** Every encoding the key could travel in; percent escapes in either hex case. */
const FORMS = [
  KEY,
  encodeURIComponent(KEY),
  encodeURIComponent(KEY).toLowerCase(),
  new URLSearchParams({ k: KEY }).toString().slice(2),
  encodeURI(KEY),
  Buffer.from(bytes).toString("base64"),
  Buffer.from(bytes).toString("base64").replace(/=+$/, ""),
  Buffer.from(bytes).toString("base64url"),
  Buffer.from(bytes).toString("hex")
]
const holdsKey = (text: string): string | undefined => {
  const lower = text.toLowerCase()
  return FORMS.find((f) => lower.includes(f.toLowerCase()))
}

/** The faults, by call index: most echo whatever of the request reached the server. */
const handler: HttpTesting.Handler = (req, i) => {
  const echo = `${req.url.toString()} ${req.headers["x-api-key"] ?? ""}`
  switch (i % 10) {
    case 0:
      return Response.json({ error: `invalid api key ${echo}` }, { status: 401 })
    case 1:
      return new Response(`slow down ${echo}`, { status: 429, headers: { "retry-after": "0" } })
    case 2:
      return new Response(`oops ${echo}`, { status: 500 })
    case 3:
      return new Response(null, { status: 302, headers: { location: req.url.toString(), "x-echo": echo } })
    case 4:
      return Effect.fail("reset" as const)
    case 5:
      return Effect.fail("refused" as const)
    case 6:
      return new Response(`not json ${echo}`, { status: 200, headers: { "x-echo": echo } })
    case 7:
      return HttpTesting.rpcError(req, -32602, `bad params ${echo}`)
    default:
      return HttpTesting.rpcResult(req, 1, { headers: { "x-echo": echo } })
  }
}

describe("the key sealed", () => {
  it.effect("middleware and tracer never hold the key, over 1,000 calls with faults", () =>
    Effect.gen(function*() {
      const seen: Array<unknown> = []
      const transformClient = (client: HttpClient.HttpClient) =>
        client.pipe(
          // Asks for the platform's span back: it must still not come.
          HttpClient.withTracerDisabledWhen(() => false),
          HttpClient.tapRequest((req) =>
            Effect.sync(() => seen.push(req, req.url, req.urlParams, req.headers, req.body, String(req)))
          ),
          HttpClient.tap((res) =>
            Effect.sync(() => seen.push(res, res.request, res.request.urlParams, res.headers, res.status))
          ),
          HttpClient.tapError((e) =>
            Effect.sync(() =>
              seen.push(
                e,
                e.message,
                String(e),
                e.stack ?? "",
                e.cause,
                e.request,
                "response" in e ? e.response : undefined,
                "response" in e ? e.response.headers : undefined
              )
            )
          )
        )
      const config = Layer.succeed(
        SolfxConfig.SolfxConfig,
        SolfxConfig.make({
          apiKey: KEY,
          baseUrl: "http://solfx.test",
          allowInsecureHttp: true,
          retry: { times: 1 }
        })
      )
      const transport = HttpTransport.layerWith({ transformClient }).pipe(
        Layer.provideMerge(HttpTesting.layer(handler)),
        Layer.provide(config)
      )
      const { spans, tracer } = yield* Spans.recording
      const calls = Effect.gen(function*() {
        const t = yield* HttpTransport.HttpTransport
        const exits = yield* Effect.forEach(
          Array.from({ length: 1000 }, (_, i) => i),
          (i) =>
            Effect.exit<unknown, ApiError, never>(
              i % 3 === 0
                ? t.rpc("getThing", { i }, Schema.Number)
                : i % 3 === 1
                ? t.rest(
                  { operation: "GET /w", host: "rest", method: "GET", path: "/w", query: { i }, idempotent: true },
                  Schema.Unknown
                )
                : t.rest(
                  { operation: "GET /u", host: "admin", method: "GET", path: "/u", idempotent: true, auth: "header" },
                  Schema.Unknown
                )
            ),
          { concurrency: 20 }
        )
        return { exits, received: yield* (yield* HttpTesting.RequestLog).requests }
      }).pipe(Effect.provide(transport), Effect.withTracer(tracer))
      const fiber = yield* Effect.fork(calls)
      while ((yield* Fiber.poll(fiber))._tag === "None") yield* TestClock.adjust("1 minute")
      const { exits, received } = yield* Fiber.join(fiber)
      expect(exits.length).toBe(1000)
      // Faults happened: some calls failed, some succeeded.
      expect(exits.some(Exit.isFailure)).toBe(true)
      expect(exits.some(Exit.isSuccess)).toBe(true)
      // Every failure is one of the transport's tagged errors, never a defect.
      const tags = new Set(
        exits.flatMap((e) => Exit.isFailure(e) && e.cause._tag === "Fail" ? [e.cause.error._tag] : [])
      )
      expect(exits.every((e) => Exit.isSuccess(e) || e.cause._tag === "Fail")).toBe(true)
      expect([...tags].sort()).toEqual(
        ["DecodeError", "HttpError", "JsonRpcError", "RateLimited", "RedirectRefused", "TransportError", "Unauthorized"]
      )
      // The middleware saw every attempt (requests and, for each, a response or an error).
      expect(seen.length).toBeGreaterThan(1000 * 4)
      for (const thing of seen) {
        const text = typeof thing === "string" ? thing : inspect(thing, { depth: 20, showHidden: true })
        expect(holdsKey(text), text.slice(0, 300)).toBeUndefined()
        let json = ""
        try {
          json = JSON.stringify(thing) ?? ""
        } catch {
          // A value that does not serialise holds nothing readable that way.
        }
        expect(holdsKey(json)).toBeUndefined()
      }
      expect(spans.length).toBeGreaterThanOrEqual(1000)
      // Only solfx's own spans: the platform's (with `url.full`) never opens.
      for (const span of spans) {
        expect(span.name.startsWith("solfx "), span.name).toBe(true)
        expect(holdsKey(span.name)).toBeUndefined()
        expect(holdsKey(inspect([...span.attributes], { depth: 10 }))).toBeUndefined()
        // Events (the native span keeps them) and the exit it ended with, errors and causes included.
        expect(holdsKey(inspect((span as { events?: unknown }).events ?? [], { depth: 10 }))).toBeUndefined()
        expect(holdsKey(inspect(span.status, { depth: 10 }))).toBeUndefined()
      }
      // Failures only: a success is the server's answer, which this test's server makes echo the key.
      const failures = exits.filter(Exit.isFailure)
      expect(failures.length).toBeGreaterThan(100)
      for (const exit of failures) {
        const error = Cause.squash(exit.cause) as ApiError
        const text = [
          inspect(exit, { depth: 10, showHidden: true }),
          Cause.pretty(exit.cause),
          String(error),
          error.message,
          JSON.stringify(error)
        ].join("\n")
        expect(holdsKey(text), text).toBeUndefined()
      }
      // Not vacuous: every request the server got carried the key, in the mode it asked for.
      expect(received.length).toBeGreaterThan(1000)
      for (const req of received) {
        const inHeader = req.url.pathname === "/u"
        expect(inHeader ? req.headers["x-api-key"] : req.url.searchParams.get("api-key")).toBe(KEY)
        expect(inHeader ? req.url.searchParams.has("api-key") : "x-api-key" in req.headers).toBe(false)
      }
      expect(new Set(received.map((r) => r.url.pathname))).toEqual(new Set(["/", "/w", "/u"]))
    }))

  it.effect("the key still reaches the wire, in the mode the request asked for", () =>
    Effect.gen(function*() {
      const t = yield* HttpTransport.HttpTransport
      const log = yield* HttpTesting.RequestLog
      yield* t.rpc("getThing", {}, Schema.Number)
      yield* t.rest(
        { operation: "GET /u", host: "admin", method: "GET", path: "/u", idempotent: true, auth: "header" },
        Schema.Number
      )
      const [rpc, admin] = yield* log.requests
      expect(rpc!.url.searchParams.get("api-key")).toBe(KEY)
      expect(rpc!.headers["x-api-key"]).toBeUndefined()
      expect(admin!.headers["x-api-key"]).toBe(KEY)
      expect(admin!.url.searchParams.has("api-key")).toBe(false)
    }).pipe(Effect.provide(
      HttpTesting.layerTransport(
        (req) => req.url.pathname === "/u" ? Response.json(1) : HttpTesting.rpcResult(req, 1),
        { apiKey: KEY }
      )
    )))
})
