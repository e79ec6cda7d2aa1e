import { describe, expect, it } from "@effect/vitest"
import {
  address,
  createSolanaRpcFromTransport,
  isSolanaError,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS
} from "@solana/kit"
import * as SolfxConfig from "@solfx/core/Config"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Credits from "@solfx/http/Credits"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as RateLimits from "@solfx/http/RateLimits"
import { SolanaRpc } from "@solfx/kit"
import * as Spans from "@solfx/testing/Spans"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as TestClock from "effect/TestClock"

const ADDRESS = address("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY")

/** The service over a test client answering with `handler`, a key, and optionally the limits of a plan. */
const layerOf = (handler: HttpTesting.Handler, limits?: Omit<RateLimits.Options, "scope">) => {
  const config = Layer.succeed(
    SolfxConfig.SolfxConfig,
    SolfxConfig.make({
      apiKey: "test-key",
      baseUrl: "http://solfx.test",
      allowInsecureHttp: true,
      retry: { base: Duration.millis(1), maxDelay: Duration.millis(1) }
    })
  )
  const transport = HttpTransport.layer.pipe(
    Layer.provideMerge(HttpTesting.layer(handler)),
    Layer.provideMerge(config),
    Layer.provideMerge(
      limits === undefined ? Layer.empty as never : RateLimits.layerMemory({ scope: "test", ...limits })
    )
  )
  return SolanaRpc.layer.pipe(Layer.provideMerge(transport))
}

const method = (req: HttpTesting.RecordedRequest) => (req.body as { method: string }).method

describe("SolanaRpc", () => {
  it.effect("call(rpc.getBalance(a)): kit's request through the transport, the key added, u64 exact", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const log = yield* HttpTesting.RequestLog
      const { value, context } = yield* solana.call(solana.rpc.getBalance(ADDRESS))
      expect(value).toBe(18446744073709551615n)
      expect(context.slot).toBe(7n)
      const [req] = yield* log.requests
      expect(req!.url.searchParams.get("api-key")).toBe("test-key")
      expect(req!.body).toMatchObject({
        jsonrpc: "2.0",
        method: "getBalance",
        params: [ADDRESS, { commitment: "confirmed" }]
      })
      // Strings of digits stay strings; small integers come as kit makes them (bigint).
      const info = yield* solana.call(solana.rpc.getTokenAccountBalance(ADDRESS))
      expect(info.value).toEqual({ amount: "12345678901234567890", decimals: 6, uiAmountString: "1.5" })
    }).pipe(Effect.provide(layerOf((req) =>
      method(req) === "getBalance"
        ? new Response(
          `{"jsonrpc":"2.0","id":${
            JSON.stringify((req.body as { id: unknown }).id)
          },"result":{"context":{"slot":7},"value":18446744073709551615}}`
        )
        : HttpTesting.rpcResult(req, {
          context: { slot: 7 },
          value: { amount: "12345678901234567890", decimals: 6, uiAmountString: "1.5" }
        })
    ))))

  it.effect("a JSON-RPC error is a JsonRpcError through call, kit's SolanaError through the plain transport", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const failed = yield* Effect.flip(solana.call(solana.rpc.getBalance(ADDRESS)))
      expect(failed).toMatchObject({ _tag: "JsonRpcError", method: "getBalance", code: -32602, detail: "bad params" })
      // The same service's rpc, sent outside Effect: kit reads the envelope and throws as it always does.
      const thrown = yield* Effect.promise(() => solana.rpc.getBalance(ADDRESS).send().catch((e: unknown) => e))
      expect(isSolanaError(thrown, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true)
      // An rpc of the user's own over the plain transport: call still gives a typed error.
      const own = createSolanaRpcFromTransport(solana.transport)
      const viaOwn = yield* Effect.flip(solana.call(own.getBalance(ADDRESS)))
      expect(viaOwn).toMatchObject({ _tag: "JsonRpcError", code: -32602 })
    }).pipe(Effect.provide(layerOf((req) => HttpTesting.rpcError(req, -32602, "bad params", { status: 400 })))))

  it.effect("429s are retried with Retry-After; past the retries the failure is RateLimited", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const log = yield* HttpTesting.RequestLog
      const fiber = yield* Effect.fork(solana.call(solana.rpc.getSlot()))
      for (let i = 0; i < 20 && (yield* log.count) < 5; i++) {
        yield* TestClock.adjust("1 second")
        yield* Effect.promise(() => new Promise((r) => setTimeout(r, 1)))
      }
      const failure = yield* Effect.flip(Fiber.join(fiber))
      expect(failure._tag).toBe("RateLimited")
      // the first attempt and the policy's 4 retries
      expect(yield* log.count).toBe(5)
    }).pipe(
      Effect.provide(
        layerOf(() =>
          new Response(JSON.stringify({ jsonrpc: "2.0", error: { code: -32429, message: "rate limited" } }), {
            status: 429,
            headers: { "retry-after": "1" }
          })
        )
      )
    ))

  it.live("plan buckets: sendTransaction takes its own (1/s on free), getBalance rpc's; the budget counts kit's calls", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const limits = yield* RateLimits.RateLimits
      const log = yield* HttpTesting.RequestLog
      expect(Endpoints.standardRpcMethod("sendTransaction").bucket).toBe("sendTransaction")
      expect(Endpoints.standardRpcMethod("getBalance").bucket).toBe("rpc")
      expect(limits.limits.sendTransaction).toBe(1)
      yield* solana.call(solana.rpc.getBalance(ADDRESS))
      yield* solana.call(solana.rpc.getProgramAccounts(ADDRESS))
      // 1 + 10 credits, counted against the budget and in the credits series
      expect(yield* limits.spent).toBe(11)
      expect((yield* Metric.value(Credits.forMethod("rpc", "getProgramAccounts"))).count).toBeGreaterThanOrEqual(10)
      // Two sends at once on a 1/s bucket: the second waits for the first's permit (held 1 s past its answer).
      const tx = "AQ==" as never
      const two = yield* Effect.fork(
        Effect.all([
          solana.call(solana.rpc.sendTransaction(tx, { encoding: "base64" })),
          solana.call(solana.rpc.sendTransaction(tx, { encoding: "base64" }))
        ], { concurrency: 2 })
      )
      yield* Effect.sleep("300 millis")
      expect((yield* log.requests).filter((r) => method(r) === "sendTransaction").length).toBe(1)
      yield* Fiber.join(two)
      expect((yield* log.requests).filter((r) => method(r) === "sendTransaction").length).toBe(2)
      expect(yield* limits.spent).toBe(13)
    }).pipe(Effect.provide(layerOf(
      (req) =>
        HttpTesting.rpcResult(
          req,
          method(req) === "sendTransaction" ? "sig" : method(req) === "getProgramAccounts" ? [] : {
            context: { slot: 1 },
            value: 5
          }
        ),
      { plan: "free", creditBudget: 100 }
    ))))

  it.live("interrupting call aborts the request; the span sits under the caller's", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const log = yield* HttpTesting.RequestLog
      const { spans, tracer } = yield* Spans.recording
      const fiber = yield* Effect.fork(
        solana.call(solana.rpc.getSlot()).pipe(Effect.withSpan("app.outer"), Effect.withTracer(tracer))
      )
      for (let i = 0; i < 100 && (yield* log.count) === 0; i++) yield* Effect.sleep("10 millis")
      expect(yield* log.count).toBe(1)
      yield* Fiber.interrupt(fiber)
      const names = spans.map((s) => s.name)
      expect(names).toEqual(["app.outer", "solfx.rpc.getSlot.call", "solfx getSlot"])
      const call = spans[1]!
      expect(call.parent._tag === "Some" && call.parent.value.spanId).toBe(spans[0]!.spanId)
      expect(spans.every((s) => s.status._tag === "Ended")).toBe(true)
      yield* Effect.sleep("50 millis")
      expect(yield* log.count).toBe(1)
    }).pipe(Effect.provide(layerOf(() => Effect.never))))

  it.effect("send: any method by name, its result as JSON", () =>
    Effect.gen(function*() {
      const solana = yield* SolanaRpc.SolanaRpc
      const result = yield* solana.send("getBlockHeight", [{ commitment: "finalized" }])
      expect(result).toBe(42)
      const big = yield* solana.send("getBlockHeight", [])
      expect(big).toBe(9007199254740993n)
    }).pipe(Effect.provide(layerOf((req, i) =>
      i === 0
        ? HttpTesting.rpcResult(req, 42)
        : new Response(
          `{"jsonrpc":"2.0","id":${JSON.stringify((req.body as { id: unknown }).id)},"result":9007199254740993}`
        )
    ))))
})
