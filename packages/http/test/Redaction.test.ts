/**
 * The API key never surfaces: drive every error kind with key SECRET-123 and
 * search every rendered form of the failure, the spans and the logs.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoint from "@solfx/core/Endpoint"
import { Derive, HttpTesting, HttpTransport, Redactor } from "@solfx/http"
import * as Spans from "@solfx/testing/Spans"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Schema from "effect/Schema"
import * as TestClock from "effect/TestClock"
import { inspect } from "node:util"

const KEY = "SECRET-123"

/** Every server behaviour that ends in a different error kind; several echo the key back. */
const scenarios: Record<string, [tag: string, handler: HttpTesting.Handler]> = {
  Unauthorized: [
    "Unauthorized",
    (req) => Response.json({ error: `invalid api key ${req.url.searchParams.get("api-key")}` }, { status: 401 })
  ],
  RateLimited: [
    "RateLimited",
    () => new Response(`slow down ${KEY}`, { status: 429, headers: { "retry-after": "0" } })
  ],
  CreditsExhausted: [
    "CreditsExhausted",
    (req) =>
      Response.json({ jsonrpc: "2.0", error: { code: -32429, message: `max usage reached, ${req.url}` } }, {
        status: 429
      })
  ],
  JsonRpcError: ["JsonRpcError", (req) =>
    Response.json({
      jsonrpc: "2.0",
      id: (req.body as { id: string }).id,
      error: { code: -32602, message: `bad params for ${req.url}`, data: { url: req.url.toString() } }
    })],
  HttpError: ["HttpError", (req) => new Response(`<html>${req.url}</html>`, { status: 418 })],
  DecodeError: ["DecodeError", (req) => HttpTesting.rpcResult(req, { value: KEY })],
  DecodeErrorBody: ["DecodeError", () => new Response(`not json ${KEY}`, { status: 200 })],
  TransportErrorReset: ["TransportError", () => Effect.fail("reset" as const)],
  TransportErrorRefused: ["TransportError", () => Effect.fail("refused" as const)],
  NullResult: ["DecodeError", (req) => HttpTesting.rpcResult(req, null)]
}

const renderings = (cause: Cause.Cause<unknown>): Array<string> => {
  const error = Cause.squash(cause) as Error
  return [
    error.message,
    String(error),
    JSON.stringify(error),
    inspect(error, { depth: 10 }),
    Cause.pretty(cause),
    inspect(cause, { depth: 10 }),
    JSON.stringify(cause)
  ]
}

describe("API key redaction", () => {
  for (const [name, [tag, handler]] of Object.entries(scenarios)) {
    it.effect(`${name}: no rendering, span or log shows the key`, () =>
      Effect.gen(function*() {
        const { spans, tracer } = yield* Spans.recording
        const logs: Array<string> = []
        const logger = Logger.make(({ message }) => logs.push(inspect(message, { depth: 10 })))
        const exit = yield* Effect.gen(function*() {
          const t = yield* HttpTransport.HttpTransport
          yield* Effect.logInfo("calling")
          return yield* t.rpc("getThing", { ok: true }, Schema.Struct({ value: Schema.Number }))
        }).pipe(
          Effect.provide(HttpTesting.layerTransport(handler, { apiKey: KEY, retry: { times: 1 } })),
          Effect.withTracer(tracer),
          Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
          Effect.exit,
          Effect.fork
        ).pipe(Effect.tap(() => TestClock.adjust("1 minute")), Effect.flatMap(Fiber.join))
        expect(Exit.isFailure(exit)).toBe(true)
        if (Exit.isFailure(exit)) {
          expect(Cause.isFailType(exit.cause) ? exit.cause.error : Cause.pretty(exit.cause)).toMatchObject({
            _tag: tag
          })
          for (const text of renderings(exit.cause)) expect(text).not.toContain(KEY)
        }
        expect(spans.length).toBeGreaterThan(0)
        for (const span of spans) {
          expect(span.name).not.toContain(KEY)
          expect(inspect([...span.attributes], { depth: 5 })).not.toContain(KEY)
        }
        for (const line of logs) expect(line).not.toContain(KEY)
      }))
  }

  it.effect("a successful call's spans end without its answer: the answer may echo the key, and a span outlives it", () =>
    Effect.gen(function*() {
      const { spans, tracer } = yield* Spans.recording
      const entry = Endpoint.rpc({
        area: "test",
        method: "getThing",
        params: Schema.Struct({}),
        result: Schema.Struct({ value: Schema.String }),
        cost: { credits: 1, usage: "rpc" },
        bucket: "rpc"
      })
      const answer = yield* Effect.flatMap(Derive.client(entry), (client) => client.call({})).pipe(
        Effect.withTracer(tracer)
      )
      expect(answer).toEqual({ value: KEY })
      // The call's own span and the transport's span of its request, at least.
      expect(spans.length).toBeGreaterThanOrEqual(2)
      for (const span of spans) {
        expect(span.status._tag).toBe("Ended")
        if (span.status._tag === "Ended") {
          expect(span.status.exit).toEqual(Exit.void)
          expect(inspect(span.status, { depth: 10 })).not.toContain(KEY)
        }
      }
    }).pipe(
      Effect.provide(HttpTesting.layerTransport((req) => HttpTesting.rpcResult(req, { value: KEY }), { apiKey: KEY }))
    ))

  it.effect("the key reaches the wire (and only there); the transport holds no key", () =>
    Effect.gen(function*() {
      const t = yield* HttpTransport.HttpTransport
      const log = yield* HttpTesting.RequestLog
      yield* t.rpc("getThing", {}, Schema.Number)
      const [req] = yield* log.requests
      expect(req!.url.searchParams.get("api-key")).toBe(KEY)
      expect("config" in t).toBe(false)
      expect(inspect(t, { depth: 10 })).not.toContain(KEY)
    }).pipe(Effect.provide(HttpTesting.layerTransport((req) => HttpTesting.rpcResult(req, 1), { apiKey: KEY }))))

  it.effect("a derived method's InvalidRequest is redacted where it is built", () =>
    Effect.gen(function*() {
      const entry = Endpoint.rpc({
        area: "test",
        method: "getThing",
        params: Schema.Struct({ tokenAccounts: Schema.Literal("none", "balanceChanged", "all") }),
        result: Schema.Number,
        cost: { credits: 1, usage: "rpc" },
        bucket: "rpc"
      })
      const client = yield* Derive.client(entry)
      const error = yield* Effect.flip(client.call({ tokenAccounts: KEY as "none" }))
      expect(error).toMatchObject({ _tag: "InvalidRequest", field: "tokenAccounts", value: "<redacted>" })
      for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
        expect(text).not.toContain(KEY)
      }
      expect(yield* Effect.flip(client.call({ tokenAccounts: "bogus" as "none" }))).toMatchObject({ value: "bogus" })
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(0)
    }).pipe(Effect.provide(HttpTesting.layerTransport(() => Response.json({}), { apiKey: KEY }))))
})

describe("Redactor", () => {
  const key = "a&b=c#d%20 é+/x"
  const r = Redactor.make(key)
  const bytes = new TextEncoder().encode(key)
  const forms = [
    key,
    encodeURIComponent(key),
    encodeURIComponent(key).toLowerCase(),
    new URLSearchParams({ k: key }).toString().slice(2),
    Buffer.from(bytes).toString("base64"),
    Buffer.from(bytes).toString("base64url")
  ]
  it("knows the key raw, URL-encoded (either case, form encoding) and in base64", () => {
    for (const form of forms) expect(r.redact(`before ${form} after`), form).toBe("before <redacted> after")
  })
  it("an excerpt cut anywhere inside the key leaves no piece of it (4 characters or more)", () => {
    const noPiece = (out: string, form: string, what: string, placeholder = true) => {
      if (placeholder) expect(out, what).toContain("<redacted>")
      for (let i = 0; i + 4 <= form.length; i++) expect(out, what).not.toContain(form.slice(i, i + 4))
    }
    for (const form of forms) {
      // Apart from its neighbours, as a key stands in a body (a key inside a longer word is that word).
      const text = `${"x".repeat(49)} ${form} ${"y".repeat(49)}`
      for (let cut = 54; cut < 50 + form.length; cut++) {
        // A body the server cut short, and the end of one it cut at the start.
        noPiece(r.excerpt(text.slice(0, cut), 500), form, `${form} cut at ${cut}`)
        if (50 + form.length - cut >= 4) noPiece(r.excerpt(text.slice(cut), 500), form, `${form} from ${cut}`)
      }
      // Our own cut, at every length.
      for (let max = 54; max < 50 + form.length + 10; max++) {
        noPiece(r.excerpt(text, max), form, `${form} max ${max}`, false)
      }
    }
  })
  it("only whole occurrences: never a piece of another word", () => {
    const short = Redactor.make("http1234")
    expect(short.redact("GET http12345 and xhttp1234 and http1234.")).toBe(
      "GET http12345 and xhttp1234 and <redacted>."
    )
    expect(short.redact("?api-key=http1234&x=1")).toBe("?api-key=<redacted>&x=1")
    expect(short.excerpt("see http://host", 200)).toBe("see http://host")
    expect(short.excerpt("a body cut at http12", 200)).toBe("a body cut at <redacted>")
    expect(short.excerpt("a body cut at xhttp12", 200)).toBe("a body cut at xhttp12")
  })
  it("an empty key redacts nothing", () => {
    expect(Redactor.make("").redact("anything")).toBe("anything")
  })
})
