/**
 * The API key never surfaces: drive every error kind with key SECRET-123 and
 * search every rendered form of the failure, the spans and the logs.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Decode from "@solfx/core/Decode"
import { InvalidRequest, ProjectMismatch } from "@solfx/core/Errors"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"
import * as Tracer from "effect/Tracer"
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
        const spans: Array<Tracer.Span> = []
        const logs: Array<string> = []
        const base = yield* Effect.tracer
        const tracer = Tracer.make({
          span: (...args) => {
            const span = base.span(...args)
            spans.push(span)
            return span
          },
          context: (f, fiber) => base.context(f, fiber)
        })
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

  it.effect("the key reaches the wire (and only there)", () =>
    Effect.gen(function*() {
      const t = yield* HttpTransport.HttpTransport
      const log = yield* HttpTesting.RequestLog
      yield* t.rpc("getThing", {}, Schema.Number)
      const [req] = yield* log.requests
      expect(req!.url.searchParams.get("api-key")).toBe(KEY)
      expect(String(t.config.apiKey)).not.toContain(KEY)
      expect(JSON.stringify(t.config)).not.toContain(KEY)
      expect(inspect(t.config, { depth: 10 })).not.toContain(KEY)
    }).pipe(Effect.provide(HttpTesting.layerTransport((req) => HttpTesting.rpcResult(req, 1), { apiKey: KEY }))))

  describe("redactFailures: a service's own failures", () => {
    const Literal = Schema.Literal("none", "balanceChanged", "all")
    const probe = (t: HttpTransport.HttpTransportShape) =>
      t.redactFailures({
        // A rule that quotes the input, and a value that echoes it.
        validate: (input: string) =>
          Decode.validateInput(Schema.Struct({ tokenAccounts: Literal }))({ tokenAccounts: input }),
        stream: (input: string) =>
          Stream.fail(new InvalidRequest({ field: "wallet", rule: "an address", value: input })),
        effect: Effect.fail(new ProjectMismatch({ projectId: KEY, detail: `no project ${KEY}` })),
        ok: (n: number) => Effect.succeed(n + 1),
        option: Option.some(KEY),
        size: 3
      })

    it.effect("scrub the configured key from every field; leave other failures and members as they are", () =>
      Effect.gen(function*() {
        const service = probe(yield* HttpTransport.HttpTransport)
        const fromValidate = yield* Effect.flip(service.validate(KEY))
        const fromStream = yield* Effect.flip(Stream.runDrain(service.stream(`wallet ${KEY}`)))
        const fromEffect = yield* Effect.flip(service.effect)
        expect(fromValidate).toMatchObject({ _tag: "InvalidRequest", field: "tokenAccounts", value: "<redacted>" })
        expect(fromStream).toMatchObject({ _tag: "InvalidRequest", field: "wallet", value: "wallet <redacted>" })
        expect(fromEffect).toMatchObject({ _tag: "ProjectMismatch", projectId: "<redacted>" })
        for (const error of [fromValidate, fromStream, fromEffect]) {
          for (const text of [error.message, String(error), JSON.stringify(error), inspect(error, { depth: 10 })]) {
            expect(text).not.toContain(KEY)
          }
        }
        // Without the key an error is the very same object; other members are untouched.
        const clean = yield* Effect.flip(service.validate("bogus"))
        expect(clean).toMatchObject({ field: "tokenAccounts", value: "bogus" })
        expect(yield* service.ok(1)).toBe(2)
        expect(service.option).toEqual(Option.some(KEY))
        expect(service.size).toBe(3)
      }).pipe(Effect.provide(HttpTesting.layerTransport(() => Response.json({}), { apiKey: KEY }))))
  })
})
