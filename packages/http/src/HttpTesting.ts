/**
 * Test helpers: an `HttpClient` that answers with a function and records every
 * request, so a service can be unit-tested without a server, and a test can
 * assert that no request was sent.
 *
 * @example
 * const TestLayer = Wallet.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(() =>
 *   Response.json({ address: "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY", name: "Alice", type: "user", category: "x" })
 * )))
 * // in a test: run the service, then `expect(yield* (yield* HttpTesting.RequestLog).count).toBe(1)`
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as SolfxConfig from "@solfx/core/Config"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as HttpTransport from "./HttpTransport.js"

/**
 * A request as the handler sees it. `url` includes the query (and so the key).
 *
 * @since 0.1.0
 * @category models
 */
export interface RecordedRequest {
  readonly method: string
  readonly url: URL
  readonly headers: Readonly<Record<string, string>>
  /** The body parsed as JSON, the raw text when it is not JSON, undefined when empty. */
  readonly body: unknown
}

/**
 * What the handler returns: a web `Response`, or an Effect of one. Failing with
 * `"reset"` simulates a reset connection, `"refused"` a refused one.
 *
 * @since 0.1.0
 * @category models
 */
export type Handler = (
  request: RecordedRequest,
  index: number
) => Response | Effect.Effect<Response, "reset" | "refused">

/**
 * The requests a test client has recorded.
 *
 * @since 0.1.0
 * @category models
 */
export interface RequestLogShape {
  readonly requests: Effect.Effect<ReadonlyArray<RecordedRequest>>
  readonly count: Effect.Effect<number>
}

/**
 * The requests the fake client received, to assert what was (or was not) sent.
 *
 * @example
 * const log = yield* HttpTesting.RequestLog
 * expect(yield* log.count).toBe(0)
 *
 * @since 0.1.0
 * @category tags
 */
export class RequestLog extends Context.Tag("@solfx/http/RequestLog")<RequestLog, RequestLogShape>() {}

const bodyOf = (request: HttpClientRequest.HttpClientRequest): unknown => {
  const body = request.body
  const text = body._tag === "Uint8Array"
    ? new TextDecoder().decode(body.body)
    : body._tag === "Raw" && typeof body.body === "string"
    ? body.body
    : undefined
  if (text === undefined || text === "") return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

/**
 * An `HttpClient` answered by `handler`, plus the `RequestLog`.
 *
 * @example
 * HttpTesting.layer(() => Response.json({ jsonrpc: "2.0", id: "solfx-1", result: 1 }))
 * @since 0.1.0
 * @category layers
 */
export const layer = (handler: Handler): Layer.Layer<HttpClient.HttpClient | RequestLog> =>
  Layer.effectContext(Effect.sync(() => {
    const recorded: Array<RecordedRequest> = []
    const client = HttpClient.make((request, url) =>
      Effect.suspend(() => {
        const entry: RecordedRequest = { method: request.method, url, headers: request.headers, body: bodyOf(request) }
        recorded.push(entry)
        const answer = handler(entry, recorded.length - 1)
        return (Effect.isEffect(answer) ? answer : Effect.succeed(answer)).pipe(
          Effect.map((response) => HttpClientResponse.fromWeb(request, response)),
          Effect.mapError((kind) =>
            new HttpClientError.RequestError({
              request,
              reason: "Transport",
              cause: Object.assign(new Error(kind === "refused" ? "connect ECONNREFUSED" : "socket hang up"), {
                code: kind === "refused" ? "ECONNREFUSED" : "ECONNRESET"
              })
            })
          )
        )
      })
    )
    const log: RequestLogShape = {
      requests: Effect.sync(() => recorded.slice()),
      count: Effect.sync(() => recorded.length)
    }
    return Context.make(HttpClient.HttpClient, client).pipe(Context.add(RequestLog, log))
  }))

/**
 * `HttpTransport` over a test client, with a config pointing every host at
 * `http://solfx.test` (plain http allowed) and key `test-key` unless overridden.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerTransport = (
  handler: Handler,
  options?: Partial<SolfxConfig.Options>
): Layer.Layer<HttpTransport.HttpTransport | RequestLog | SolfxConfig.SolfxConfig> => {
  // `make`, not the checked `layer`: tests may hand the transport any key, even one `layer` would refuse.
  const config = Layer.succeed(
    SolfxConfig.SolfxConfig,
    SolfxConfig.make({ apiKey: "test-key", baseUrl: "http://solfx.test", allowInsecureHttp: true, ...options })
  )
  return HttpTransport.layer.pipe(
    Layer.provideMerge(layer(handler)),
    Layer.provideMerge(config)
  )
}

/**
 * A JSON-RPC success body echoing the request's id.
 *
 * @since 0.1.0
 * @category helpers
 */
export const rpcResult = (request: RecordedRequest, result: unknown, init?: ResponseInit): Response =>
  Response.json({ jsonrpc: "2.0", id: (request.body as { id?: unknown } | undefined)?.id ?? null, result }, init)

/**
 * A JSON-RPC error body echoing the request's id.
 *
 * @since 0.1.0
 * @category helpers
 */
export const rpcError = (request: RecordedRequest, code: number, message: string, init?: ResponseInit): Response =>
  Response.json(
    { jsonrpc: "2.0", id: (request.body as { id?: unknown } | undefined)?.id ?? null, error: { code, message } },
    init
  )
