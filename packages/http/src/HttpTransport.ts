/**
 * The shared transport every API area builds on: an `HttpClient` pipeline in the
 * way of Effect's own SDK clients. It is the only place that knows URLs, the API
 * key, status codes, JSON-RPC envelopes, retries and timeouts. It needs a platform
 * `HttpClient` (NodeHttpClient, FetchHttpClient or a test one).
 *
 * One call:
 * 1. the retry (`Retry.schedule`, on the Clock, Retry-After capped, a total budget) runs attempts;
 * 2. each attempt takes the permit (`aroundAttempt`) and reports its billing outcome (`onAttempt`);
 * 3. the request goes through the user's `transformClient`, then the key is added last, at send time;
 * 4. redirects are refused, the body is read up to `maxBodyBytes`, statuses and envelopes map to
 *    tagged errors built through the one `Redactor`;
 * 5. the result Schema decodes (`Decode.decodeWith`, compiled fast path).
 *
 * @example
 * const live = HttpTransport.layerWith({ transformClient: HttpClient.tapRequest(Effect.log) }).pipe(
 *   Layer.provide(NodeHttpClient.layerUndici), Layer.provide(Config.layerConfig))
 * @since 0.1.0
 */
import * as HttpClient from "@effect/platform/HttpClient"
import type { Outcome } from "@solfx/core/Billing"
import { SolfxConfig } from "@solfx/core/Config"
import type { Host } from "@solfx/core/Config"
import type { CreditBudgetExceeded } from "@solfx/core/CreditBudget"
import { decodeWith } from "@solfx/core/Decode"
import { type ApiError, DecodeError, type HttpError, type TransportError } from "@solfx/core/Errors"
import * as Json from "@solfx/core/Json"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Credits from "./Credits.js"
import { redactorOf } from "./internal/seal.js"
import { DEFAULT_MAX_BODY_BYTES as SEND_MAX_BODY, makeSend } from "./internal/send.js"
import { type RawResponse, restBodyError, rpcResult } from "./internal/status.js"
import { rpcRequest } from "./internal/wire.js"
import * as RateLimits from "./RateLimits.js"
import * as Redactor from "./Redactor.js"

/**
 * Hooks of one attempt: the permit around it and the report of its billing outcome.
 *
 * @since 0.1.0
 * @category models
 */
export interface AttemptHooks {
  /**
   * Wraps every attempt, e.g. a rate limiter, so retries are limited too. It may refuse
   * the attempt before it is sent: the credit budget (`CreditBudgetExceeded`), or a
   * limiter store out of reach (`TransportError`, not sent).
   */
  readonly aroundAttempt?:
    | (<A, E>(attempt: Effect.Effect<A, E>) => Effect.Effect<A, E | CreditBudgetExceeded | TransportError>)
    | undefined
  /** Told what became of each attempt (answered with a status, or not), once per attempt. */
  readonly onAttempt?: ((outcome: Outcome) => Effect.Effect<void>) | undefined
}

/**
 * One REST request.
 *
 * @since 0.1.0
 * @category models
 */
export interface RestRequest extends AttemptHooks {
  /** A name for errors and spans, e.g. `GET /v1/wallet/{wallet}/balances`. Never contains the key. */
  readonly operation: string
  readonly host: Host
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>> | undefined
  readonly body?: unknown
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Safe to send twice. Non-idempotent calls are retried only when certainly not processed. */
  readonly idempotent: boolean
  /** `header` sends `X-Api-Key` (the admin host's recommended form); default `query` (`api-key`). */
  readonly auth?: "query" | "header" | undefined
}

/**
 * A request in either wire format, as `execute` sends it: a JSON-RPC call also carries its
 * envelope's `id`, and its answer is read as an envelope that must carry the same id.
 *
 * @since 0.1.0
 * @category models
 */
export interface WireRequest extends RestRequest {
  readonly rpcId?: string | number | undefined
}

/**
 * Options of one JSON-RPC call.
 *
 * @since 0.1.0
 * @category models
 */
export interface RpcOptions extends AttemptHooks {
  /** Default true: every data method only reads. `sendBundle` is not idempotent. */
  readonly idempotent?: boolean | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** JSON-RPC `id` as a number (as the service documents for sendBundle) rather than a string. */
  readonly numericId?: boolean | undefined
}

/**
 * An answer as `executeRaw` gives it, before any Schema: the text of the body, and its value
 * as `JSON.parse` reads it (integers beyond 2^53 rounded: read `text` again where they matter).
 *
 * @since 0.1.0
 * @category models
 */
export interface RawAnswer {
  readonly text: string
  /** The body, or a JSON-RPC envelope's `result` (which may be `null`). */
  readonly value: unknown
}

/**
 * What the transport offers the services. It holds no key: only the redactor
 * that knows it, and the credits ledger of this transport.
 *
 * @since 0.1.0
 * @category models
 */
export interface HttpTransportShape {
  /**
   * One request of either wire format (built from a table entry by `Derive`), sent and decoded
   * with `schema`: the body, or a JSON-RPC envelope's `result`.
   */
  readonly execute: <A, I>(request: WireRequest, schema: Schema.Schema<A, I>) => Effect.Effect<A, ApiError>
  /**
   * `execute` without the Schema: the same attempts, statuses and envelope checks (a JSON-RPC
   * error is its tagged error, the id must echo the request's), the answer as it came. For a
   * client that reads answers itself (a kit transport); a JSON-RPC `result` may be `null`.
   */
  readonly executeRaw: (request: WireRequest) => Effect.Effect<RawAnswer, ApiError>
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
  /** `rpc` without the Schema (see `executeRaw`). */
  readonly rpcRaw: (method: string, params: unknown, options?: RpcOptions) => Effect.Effect<RawAnswer, ApiError>
  /** The one redactor: services pass every text they put in an error or span through it. */
  readonly redactor: Redactor.Redactor
  /** Credits charged through this transport. */
  readonly credits: Credits.Ledger
  /**
   * The plan-aware limits and credit budget every derived call goes through (`Derive`):
   * the `RateLimits` service when one is provided, else limits of no plan (admin only).
   */
  readonly limits: RateLimits.RateLimitsShape
}

/**
 * The transport as a service: one per program, shared by every API service.
 *
 * @since 0.1.0
 * @category tags
 */
export class HttpTransport extends Context.Tag("@solfx/http/HttpTransport")<HttpTransport, HttpTransportShape>() {}

/**
 * Options of the pipeline.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /**
   * The user's own middleware. It wraps the send step, which adds the key: the requests, responses
   * and platform errors it sees hold no key, and the platform's span (with `url.full`) never opens.
   */
  readonly transformClient?: ((client: HttpClient.HttpClient) => HttpClient.HttpClient) | undefined
  /** The largest response body read (default 32 MiB: a 1,000-item DAS page is a few MB). */
  readonly maxBodyBytes?: number | undefined
  /** The time one call may take, attempts and sleeps included (default: 60 s, or twice the timeout if longer). */
  readonly budget?: Duration.DurationInput | undefined
  /** The longest wait a `Retry-After` may impose (default: the retry policy's `maxDelay`). */
  readonly retryAfterCap?: Duration.DurationInput | undefined
}

/**
 * The default bound on a response body, in bytes.
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_MAX_BODY_BYTES: number = SEND_MAX_BODY

/**
 * Builds the transport from the config, a platform `HttpClient` and the options.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<HttpTransportShape, never, SolfxConfig | HttpClient.HttpClient> =>
  Effect.gen(function*() {
    const config = yield* SolfxConfig
    const redactor = redactorOf(config.apiKey)
    // Without a RateLimits service, today's behaviour: only admin is limited, within this transport.
    const limits = yield* Effect.serviceOption(RateLimits.RateLimits).pipe(
      Effect.flatMap(Option.match({
        onSome: Effect.succeed,
        onNone: () => Effect.orDie(RateLimits.makeMemory({ scope: RateLimits.fingerprint(config.apiKey) }))
      }))
    )
    const send = makeSend(config, yield* HttpClient.HttpClient, options, redactor)

    // Plain JSON.parse: the decode gets the text too and makes any integer beyond 2^53
    // exact where it matters (Decode.decodeWith's `source`). Error bodies are re-read losslessly.
    // A plain function, not `Effect.try`: the steps after the answer run as one (each Effect step is paid per call).
    const parseBody = (operation: string, raw: RawResponse): unknown => {
      try {
        return JSON.parse(raw.text) as unknown
      } catch {
        return new DecodeError({
          operation,
          path: "$",
          expected: `a JSON body, got ${
            raw.text.length === 0 ? "an empty body" : JSON.stringify(redactor.excerpt(raw.text))
          }`
        })
      }
    }

    const decode = <A, I>(
      schema: Schema.Schema<A, I>,
      operation: string,
      input: unknown,
      root: string,
      text: string,
      select: (body: unknown) => unknown
    ) =>
      decodeWith(schema, operation, input, root, { text, select }).pipe(
        // The schema's message may quote the value: it is built here, so it is redacted here.
        Effect.mapError((e) =>
          new DecodeError({ operation, path: redactor.redact(e.path), expected: redactor.redact(e.expected) })
        )
      )

    // One answer, either wire format, read up to its value: a JSON-RPC answer is an envelope whose
    // `result` is its value (its error a tagged failure, its id checked).
    const answerOf = (request: WireRequest, raw: RawResponse): Effect.Effect<RawAnswer, ApiError> => {
      const operation = request.operation
      const body = parseBody(operation, raw)
      if (body instanceof DecodeError) return Effect.fail(body)
      const id = request.rpcId
      if (id === undefined) {
        return restBodyError(operation, exactIfError(body, raw.text), redactor) ??
          Effect.succeed({ text: raw.text, value: body })
      }
      return Effect.map(
        rpcResult(operation, id, exactIfError(body, raw.text), redactor, true),
        (value) => ({ text: raw.text, value })
      )
    }

    const executeRaw = (request: WireRequest) => Effect.flatMap(send(request), (raw) => answerOf(request, raw))

    // One answer decoded with the schema: the body, or the envelope's `result` (which must be present).
    const execute = <A, I>(request: WireRequest, schema: Schema.Schema<A, I>) =>
      Effect.flatMap(send(request), (raw) => {
        const operation = request.operation
        // A delete may answer with no body at all: that is its answer when its schema takes no value.
        if (request.rpcId === undefined && raw.text === "") {
          const none = Schema.decodeUnknownOption(schema)(undefined)
          if (Option.isSome(none)) return Effect.succeed(none.value)
        }
        return Effect.flatMap(answerOf(request, raw), ({ value }) => {
          if (request.rpcId === undefined) return decode(schema, operation, value, "$", raw.text, (b) => b)
          if (value === null) {
            return Effect.fail(new DecodeError({ operation, path: "$.result", expected: "a result, got null" }))
          }
          return decode(schema, operation, value, "$.result", raw.text, (b) => (b as { result?: unknown }).result)
        })
      })

    const restOption = <A, I>(request: RestRequest, schema: Schema.Schema<A, I>) =>
      execute(request, schema).pipe(
        Effect.map(Option.some),
        Effect.catchIf(
          (e): e is HttpError => e._tag === "HttpError" && e.status === 404,
          () => Effect.succeed(Option.none<A>())
        )
      )

    const rpc = <A, I>(method: string, params: unknown, schema: Schema.Schema<A, I>, o: RpcOptions = {}) =>
      Effect.suspend(() => execute(rpcRequest(method, params, o), schema))

    const rpcRaw = (method: string, params: unknown, o: RpcOptions = {}) =>
      Effect.suspend(() => executeRaw(rpcRequest(method, params, o)))

    return {
      execute,
      executeRaw,
      rest: execute,
      restOption,
      rpc,
      rpcRaw,
      redactor,
      credits: Credits.makeLedger(),
      limits
    }
  })

/** A body with an `error` member, read again losslessly: its `data` goes into the failure as it is. */
const exactIfError = (body: unknown, text: string): unknown =>
  typeof body === "object" && body !== null && !Array.isArray(body) && "error" in body ? Json.parse(text) : body

/**
 * The transport layer with options (`transformClient`, body bound, budget, Retry-After cap).
 *
 * @example
 * HttpTransport.layerWith({ maxBodyBytes: 8 * 1024 * 1024 }).pipe(Layer.provide(NodeHttpClient.layerUndici))
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<HttpTransport, never, SolfxConfig | HttpClient.HttpClient> =>
  Layer.effect(HttpTransport, make(options))

/**
 * The transport layer. Provide a platform `HttpClient` and `SolfxConfig`.
 *
 * @example
 * HttpTransport.layer.pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(Config.layer({ apiKey })))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<HttpTransport, never, SolfxConfig | HttpClient.HttpClient> = layerWith({})
