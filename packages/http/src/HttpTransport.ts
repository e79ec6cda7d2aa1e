/**
 * The shared transport every API area builds on. It is the only place that knows
 * URLs, the API key, status codes, JSON-RPC envelopes, retries and timeouts.
 * It needs a platform `HttpClient` (NodeHttpClient, FetchHttpClient or a test one).
 *
 * @example
 * const transport = yield* HttpTransport.HttpTransport
 * const slot = yield* transport.rpc("getSlot", [], Schema.Number)
 * const live = HttpTransport.layer.pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(Config.layerConfig))
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import { SolfxConfig } from "@solfx/core/Config"
import type { Host, RetryPolicy, SolfxConfigShape } from "@solfx/core/Config"
import { decodeWith } from "@solfx/core/Decode"
import {
  type ApiError,
  CreditsExhausted,
  DecodeError,
  HttpError,
  InsecureTransport,
  JsonRpcError,
  RateLimited,
  TransportError,
  Unauthorized
} from "@solfx/core/Errors"
import * as Json from "@solfx/core/Json"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { excerpt, parseRetryAfter, transportFailure } from "./internal/errors.js"

/**
 * One REST request.
 *
 * @since 0.1.0
 * @category models
 */
export interface RestRequest {
  /** A name for errors and spans, e.g. `GET /v1/wallet/{wallet}/balances`. Never contains the key. */
  readonly operation: string
  readonly host: Host
  readonly method: "GET" | "POST"
  readonly path: string
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Safe to send twice. Non-idempotent calls are retried only when certainly not processed. */
  readonly idempotent: boolean
  /** `header` sends `X-Api-Key` (the admin host's recommended form); default `query` (`api-key`). */
  readonly auth?: "query" | "header" | undefined
  /** Wraps every attempt, e.g. a rate limiter, so retries are limited too. */
  readonly aroundAttempt?: (<A, E>(attempt: Effect.Effect<A, E>) => Effect.Effect<A, E>) | undefined
}

/**
 * Options of one JSON-RPC call.
 *
 * @since 0.1.0
 * @category models
 */
export interface RpcOptions {
  /** Default true: every data method only reads. `sendBundle` is not idempotent. */
  readonly idempotent?: boolean | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** JSON-RPC `id` as a number (sendBundle's spec) rather than a string. */
  readonly numericId?: boolean | undefined
}

/**
 * What the transport offers the services: typed REST and JSON-RPC calls, and the config.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpTransportShape {
  readonly config: SolfxConfigShape
  /** A REST call decoded with `schema`. A 404 fails with `HttpError` (see `restOption`). */
  readonly rest: <A, I>(request: RestRequest, schema: Schema.Schema<A, I>) => Effect.Effect<A, ApiError>
  /** A REST call where 404 is a normal answer: `Option.none()`. */
  readonly restOption: <A, I>(
    request: RestRequest,
    schema: Schema.Schema<A, I>
  ) => Effect.Effect<Option.Option<A>, ApiError>
  /** A JSON-RPC call: `result` decoded with `schema`. A `null` result fails with `DecodeError`. */
  readonly rpc: <A, I>(
    method: string,
    params: unknown,
    schema: Schema.Schema<A, I>,
    options?: RpcOptions
  ) => Effect.Effect<A, ApiError>
  /**
   * `service` with the configured API key scrubbed from every failure of its
   * members (Effects, and functions returning Effects or Streams). The transport
   * already scrubs its own failures; this covers the ones a service makes before
   * or after it: `InvalidRequest` echoes the input (its `value`, and a rule may
   * quote it), `ProjectMismatch` names the id it was given, and a key passed by
   * mistake as a wallet or an id must not come back in them. Services wrap what
   * they build with it.
   */
  readonly redactFailures: <S extends object>(service: S) => S
}

/**
 * The transport as a service: one per program, shared by every API service.
 *
 * @example
 * const live = HttpTransport.layer.pipe(
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Config.layer({ apiKey: "my-key" }))
 * )
 *
 * @since 0.1.0
 * @category tags
 */
export class HttpTransport extends Context.Tag("@solfx/http/HttpTransport")<HttpTransport, HttpTransportShape>() {}

interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
}

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i

/**
 * Statuses a retry may fix. 500 is included for idempotent reads: the emulator's
 * fault mix (and the real service under load) answers 500 for transient faults.
 *
 * @since 0.1.0
 * @category retry
 */
export const RETRYABLE_STATUSES: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

/**
 * Whether a failure may be retried. Idempotent calls retry transport failures,
 * 429 and 500/502/503/504. Other calls retry only what certainly never reached the
 * server: a refused connection, or a 429 (the server rejected it unprocessed).
 * Exhausted credits (`CreditsExhausted`, a 429 "max usage reached") are never
 * retried: no delay brings credits back.
 *
 * A complete 2xx answer is never retried, even when its body is broken (not JSON,
 * or not the expected shape): the server answered, so it is a `DecodeError` after
 * one request, not a transient fault. Only a body cut off in transit (the
 * connection dropped before `Content-Length` bytes arrived) is a `TransportError`.
 *
 * @since 0.1.0
 * @category retry
 */
export const isRetryable = (idempotent: boolean) => (error: ApiError): boolean => {
  switch (error._tag) {
    case "RateLimited":
      // A rate-limited request was rejected before processing: safe to resend even when not idempotent.
      return true
    case "CreditsExhausted":
      return false
    case "TransportError":
      return idempotent || !error.sent
    case "HttpError":
      return idempotent && RETRYABLE_STATUSES.has(error.status)
    default:
      return false
  }
}

/**
 * The retry Schedule: jittered exponential backoff capped at `maxDelay`, at most
 * `times` retries, a server's `Retry-After` taking precedence, only while `retryable`.
 *
 * @since 0.1.0
 * @category retry
 */
export const retrySchedule = (
  policy: RetryPolicy,
  retryable: (error: ApiError) => boolean
): Schedule.Schedule<unknown, ApiError> =>
  Schedule.exponential(policy.base).pipe(
    Schedule.jittered,
    Schedule.modifyDelay((_, delay) => Duration.min(delay, policy.maxDelay)),
    Schedule.intersect(Schedule.recurs(policy.times)),
    Schedule.intersect(Schedule.identity<ApiError>()),
    Schedule.modifyDelay(([, error], delay) =>
      error._tag === "RateLimited" && error.retryAfterMillis !== undefined
        ? Duration.millis(error.retryAfterMillis)
        : delay
    ),
    Schedule.whileInput(retryable)
  )

/**
 * Builds the transport from the config and a platform `HttpClient`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<HttpTransportShape, never, SolfxConfig | HttpClient.HttpClient> = Effect.gen(
  function*() {
    const config = yield* SolfxConfig
    // Our own span (below) redacts; the platform's would record url.full with the key in it.
    const client = (yield* HttpClient.HttpClient).pipe(HttpClient.withTracerDisabledWhen(() => true))
    const secret = () => Redacted.value(config.apiKey)
    const scrub = (s: string) => {
      const key = secret()
      return key.length > 0 ? s.split(key).join("<redacted>") : s
    }
    let rpcId = 0

    const insecure = (host: Host): InsecureTransport | undefined => {
      if (config.allowInsecureHttp) return undefined
      try {
        const url = new URL(config.urls[host])
        return url.protocol === "http:" && !LOOPBACK.test(url.hostname)
          ? new InsecureTransport({ host: url.hostname })
          : undefined
      } catch {
        return new InsecureTransport({ host: "an invalid URL" })
      }
    }

    const send = (request: RestRequest): Effect.Effect<RawResponse, ApiError> => {
      const refused = insecure(request.host)
      if (refused) return Effect.fail(refused)
      const base = config.urls[request.host].replace(/\/+$/, "")
      let req = HttpClientRequest.make(request.method)(base + request.path).pipe(
        HttpClientRequest.acceptJson
      )
      const params: Array<[string, string]> = []
      for (const [k, v] of Object.entries(request.query ?? {})) if (v !== undefined) params.push([k, String(v)])
      if (request.auth === "header") req = HttpClientRequest.setHeader(req, "x-api-key", secret())
      else params.push(["api-key", secret()])
      req = HttpClientRequest.setUrlParams(req, params)
      if (request.headers) req = HttpClientRequest.setHeaders(req, request.headers)
      if (request.body !== undefined) {
        req = HttpClientRequest.bodyText(req, Json.stringify(request.body), "application/json")
      }
      const attempt = client.execute(req).pipe(
        Effect.flatMap((res) =>
          Effect.map(res.text, (text): RawResponse => ({ status: res.status, headers: res.headers, text }))
        ),
        Effect.scoped,
        Effect.mapError((e) => transportFailure(request.operation, e, scrub)),
        Effect.timeoutFail({
          duration: config.timeout,
          onTimeout: () =>
            new TransportError({
              operation: request.operation,
              reason: "timeout",
              detail: `no complete response within ${Duration.format(config.timeout)}`,
              sent: true
            })
        }),
        Effect.flatMap((raw) => checkStatus(request.operation, raw, scrub))
      )
      const limited = request.aroundAttempt ? request.aroundAttempt(attempt) : attempt
      let attempts = 0
      const counted = Effect.suspend(() => {
        attempts++
        return Effect.annotateCurrentSpan("solfx.attempt", attempts).pipe(Effect.zipRight(limited))
      })
      return counted.pipe(
        Effect.retry(retrySchedule(config.retry, isRetryable(request.idempotent))),
        Effect.tap((raw) => Effect.annotateCurrentSpan("http.response.status_code", raw.status)),
        // A span keeps its exit for the tracer: the raw body (which may echo the key, or carry
        // secrets such as webhook auth headers) goes through it redacted.
        Effect.map(Redacted.make),
        Effect.withSpan(`solfx ${request.operation}`, {
          kind: "client",
          attributes: {
            "solfx.host": request.host,
            "http.request.method": request.method,
            "solfx.operation": request.operation
          }
        }),
        Effect.map(Redacted.value)
      )
    }

    // Plain JSON.parse: the decode gets the text too and makes any integer beyond 2^53
    // exact where it matters (Decode.decodeWith's `source`), so a body pays for the
    // lossless parse only when it holds one. Error bodies are re-read losslessly.
    const parseBody = (operation: string, raw: RawResponse): Effect.Effect<unknown, DecodeError> =>
      Effect.try({
        try: () => JSON.parse(raw.text) as unknown,
        catch: () =>
          new DecodeError({
            operation,
            path: "$",
            expected: `a JSON body, got ${
              raw.text.length === 0 ? "an empty body" : JSON.stringify(excerpt(raw.text, scrub))
            }`
          })
      })

    const rest = <A, I>(request: RestRequest, schema: Schema.Schema<A, I>) =>
      send(request).pipe(
        Effect.flatMap((raw) =>
          Effect.flatMap(parseBody(request.operation, raw), (body) =>
            restBodyError(request.operation, exactIfError(body, raw.text)) ??
              decodeWith(schema, request.operation, body, "$", {
                text: raw.text,
                select: (b) =>
                  b
              }))
        )
      )

    const restOption = <A, I>(request: RestRequest, schema: Schema.Schema<A, I>) =>
      rest(request, schema).pipe(
        Effect.map(Option.some),
        Effect.catchIf(
          (e): e is HttpError => e._tag === "HttpError" && e.status === 404,
          () => Effect.succeed(Option.none<A>())
        )
      )

    const rpc = <A, I>(method: string, params: unknown, schema: Schema.Schema<A, I>, options?: RpcOptions) => {
      const n = ++rpcId
      const id: string | number = options?.numericId ? n : `solfx-${n}`
      return send({
        operation: method,
        host: "rpc",
        method: "POST",
        path: "/",
        body: { jsonrpc: "2.0", id, method, params },
        headers: options?.headers,
        idempotent: options?.idempotent ?? true
      }).pipe(
        Effect.flatMap((raw) =>
          parseBody(method, raw).pipe(
            Effect.flatMap((body) => rpcResult(method, id, exactIfError(body, raw.text))),
            Effect.flatMap((result) =>
              decodeWith(schema, method, result, "$.result", {
                text: raw.text,
                select: (b) => (b as { result?: unknown }).result
              })
            )
          )
        )
      )
    }

    // Last line of defence: a server may echo the key (in a message, in `data`, in a
    // field that fails to decode). No failure leaves the transport with it inside.
    const guard = <A>(effect: Effect.Effect<A, ApiError>): Effect.Effect<A, ApiError> =>
      Effect.mapError(effect, (error) => scrubError(error, scrub))

    const redactFailure = (error: unknown): unknown =>
      typeof error === "string"
        ? scrub(error)
        : error instanceof Error && Predicate.hasProperty(error, "_tag") && typeof error._tag === "string"
        ? scrubError(error as Error & { readonly _tag: string }, scrub)
        : error
    const redactResult = (value: unknown): unknown => {
      if (typeof value !== "object" || value === null) return value
      // Option and Either are Effects too, but plain values here.
      if (Option.isOption(value) || Either.isEither(value)) return value
      // Every Effect is also marked as a Stream: test for Effects first.
      if (Effect.isEffect(value)) return Effect.mapError(value, redactFailure)
      if (Stream.StreamTypeId in value) return Stream.mapError(value as Stream.Stream<unknown, unknown>, redactFailure)
      return value
    }
    const redactFailures = <S extends object>(service: S): S => {
      const out: Record<string, unknown> = {}
      for (const [name, member] of Object.entries(service)) {
        out[name] = typeof member === "function"
          ? (...args: ReadonlyArray<unknown>) => redactResult(member(...args))
          : redactResult(member)
      }
      return out as S
    }

    return {
      config,
      rest: (request, schema) => guard(rest(request, schema)),
      restOption: (request, schema) => guard(restOption(request, schema)),
      rpc: (method, params, schema, options) => guard(rpc(method, params, schema, options)),
      redactFailures
    }
  }
)

const scrubValue = (value: unknown, scrub: (s: string) => string): unknown => {
  if (typeof value === "string") return scrub(value)
  if (typeof value !== "object" || value === null) return value
  try {
    const text = JSON.stringify(value)
    const clean = scrub(text)
    return clean === text ? value : JSON.parse(clean)
  } catch {
    return "<unserialisable>"
  }
}

/** The error rebuilt with every field scrubbed; the same error when nothing changed. */
const scrubError = <E extends { readonly _tag: string }>(error: E, scrub: (s: string) => string): E => {
  const fields: Record<string, unknown> = {}
  let changed = false
  for (const [key, value] of Object.entries(error)) {
    const clean = scrubValue(value, scrub)
    if (clean !== value) changed = true
    fields[key] = clean
  }
  if (!changed) return error
  const Ctor = error.constructor as new(fields: Record<string, unknown>) => E
  const { _tag, ...rest } = fields
  void _tag
  return new Ctor(rest)
}

/** A body with an `error` member, read again losslessly: its `data` goes into the failure as it is. */
const exactIfError = (body: unknown, text: string): unknown =>
  typeof body === "object" && body !== null && !Array.isArray(body) && "error" in body ? Json.parse(text) : body

/** A 200 that carries `{ error }` instead of data is a failure, as the real SDK treats it. */
const restBodyError = (operation: string, body: unknown): Effect.Effect<never, ApiError> | undefined => {
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("error" in body)) return undefined
  const keys = Object.keys(body)
  if (keys.length > 2) return undefined
  const err = (body as { error: unknown }).error
  if (typeof err === "string") return Effect.fail(new HttpError({ operation, status: 200, body: err }))
  if (isRpcErrorObject(err)) return Effect.fail(rpcError(operation, err))
  return undefined
}

interface RpcErrorObject {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

const isRpcErrorObject = (u: unknown): u is RpcErrorObject =>
  typeof u === "object" && u !== null && typeof (u as RpcErrorObject).code === "number" &&
  typeof (u as RpcErrorObject).message === "string"

/** JSON-RPC codes the real service (documented and observed) uses for rate limits and exhausted credits. */
const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([-32429, -32029, -32005, -32097])

/** What the real service says when the credits are used up (REAL-WORLD.md §5: -32429 "max usage reached"). */
const MAX_USAGE = /max usage reached/i

/** A rate-limit code whose message says the credits are used up. */
const isExhaustedRpc = (err: RpcErrorObject): boolean => RATE_LIMIT_CODES.has(err.code) && MAX_USAGE.test(err.message)

const rpcError = (method: string, err: RpcErrorObject): JsonRpcError | RateLimited | CreditsExhausted =>
  isExhaustedRpc(err)
    ? new CreditsExhausted({ operation: method, detail: `${err.message} (JSON-RPC ${err.code})` })
    : RATE_LIMIT_CODES.has(err.code)
    ? new RateLimited({ operation: method, detail: `${err.message} (JSON-RPC ${err.code})` })
    : new JsonRpcError({
      method,
      code: err.code,
      detail: err.message,
      ...(err.data === undefined || err.data === null ? {} : { data: err.data })
    })

const rpcResult = (method: string, id: string | number, body: unknown): Effect.Effect<unknown, ApiError> => {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return Effect.fail(new DecodeError({ operation: method, path: "$", expected: "a JSON-RPC response object" }))
  }
  const envelope = body as { id?: unknown; error?: unknown; result?: unknown }
  if (envelope.error !== undefined && envelope.error !== null) {
    return isRpcErrorObject(envelope.error)
      ? Effect.fail(rpcError(method, envelope.error))
      : Effect.fail(
        new DecodeError({ operation: method, path: "$.error", expected: "{ code: number, message: string }" })
      )
  }
  if (envelope.id !== undefined && envelope.id !== null && envelope.id !== id) {
    return Effect.fail(
      new DecodeError({ operation: method, path: "$.id", expected: `the request id ${JSON.stringify(id)}` })
    )
  }
  if (envelope.result === undefined || envelope.result === null) {
    return Effect.fail(
      new DecodeError({ operation: method, path: "$.result", expected: `a result, got ${String(envelope.result)}` })
    )
  }
  return Effect.succeed(envelope.result)
}

/** The one status-to-error mapping, shared by REST and JSON-RPC. */
const checkStatus = (
  operation: string,
  raw: RawResponse,
  scrub: (s: string) => string
): Effect.Effect<RawResponse, ApiError> => {
  if (raw.status >= 200 && raw.status < 300) return Effect.succeed(raw)
  const detail = errorDetail(raw.text, scrub)
  // Used-up credits, whatever the status that carries the JSON-RPC error: not a rate limit.
  const exhausted = (raw.status === 429 && MAX_USAGE.test(detail.message)) ||
    (detail.rpc !== undefined && isExhaustedRpc(detail.rpc))
  if (exhausted) return Effect.fail(new CreditsExhausted({ operation, detail: detail.message }))
  if (raw.status === 401 || raw.status === 403) {
    return Effect.fail(new Unauthorized({ operation, status: raw.status, detail: detail.message }))
  }
  if (raw.status === 429) {
    const retryAfter = parseRetryAfter(raw.headers["retry-after"])
    return Effect.fail(
      new RateLimited({
        operation,
        detail: detail.message,
        ...(retryAfter === undefined ? {} : { retryAfterMillis: retryAfter })
      })
    )
  }
  if (raw.status < 500 && detail.rpc) return Effect.fail(rpcError(operation, detail.rpc))
  return Effect.fail(new HttpError({ operation, status: raw.status, body: detail.message }))
}

const errorDetail = (text: string, scrub: (s: string) => string): { message: string; rpc?: RpcErrorObject } => {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown }
    if (typeof body === "object" && body !== null) {
      if (isRpcErrorObject(body.error)) {
        const rpc = { ...body.error, message: scrub(body.error.message) }
        return { message: `${rpc.message} (JSON-RPC ${rpc.code})`, rpc }
      }
      if (typeof body.error === "string") return { message: excerpt(body.error, scrub) }
      if (typeof body.message === "string") return { message: excerpt(body.message, scrub) }
    }
  } catch {
    // not JSON: an HTML error page or plain text
  }
  return { message: excerpt(text, scrub) }
}

/**
 * The transport layer. Provide a platform `HttpClient` and `SolfxConfig`.
 *
 * @example
 * HttpTransport.layer.pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(Config.layer({ apiKey })))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpTransport, never, SolfxConfig | HttpClient.HttpClient> = Layer.effect(
  HttpTransport,
  make
)
