/**
 * The sending half of the transport: the HttpClient pipeline, the retry and the span.
 * Built once per transport; the key stays inside it.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type { Host, SolfxConfigShape } from "@solfx/core/Config"
import { type ApiError, InsecureTransport, TransportError } from "@solfx/core/Errors"
import * as Json from "@solfx/core/Json"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type { Options, RestRequest } from "../HttpTransport.js"
import type { Redactor } from "../Redactor.js"
import * as Retry from "../Retry.js"
import { readBounded } from "./body.js"
import { parseRetryAfter, transportFailure } from "./errors.js"
import { checkStatus, type RawResponse } from "./status.js"

/** The default bound on a response body, in bytes (a 1,000-item DAS page is a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i

/** How the attempt running on this fiber sends the key; read where the key is added. */
const authMode = FiberRef.unsafeMake<"query" | "header">("query")

/** `send` of a transport: one request, retried, bounded, in a span. */
export const makeSend = (
  config: SolfxConfigShape,
  httpClient: HttpClient.HttpClient,
  options: Options,
  redactor: Redactor
): (request: RestRequest) => Effect.Effect<RawResponse, ApiError> => {
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const budget = options.budget === undefined
    ? Duration.max(Duration.seconds(60), Duration.times(config.timeout, 2))
    : Duration.decode(options.budget)
  const retryAfterCap = options.retryAfterCap === undefined
    ? config.retry.maxDelay
    : Duration.decode(options.retryAfterCap)
  // Our own span (below) redacts; the platform's would record url.full with the key in it.
  const platform = httpClient.pipe(HttpClient.withTracerDisabledWhen(() => true))
  // The key is added when the request is sent, inside every user middleware: they never see it.
  const keyed: HttpClient.HttpClient = HttpClient.makeWith(
    (request: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
      Effect.flatMap(
        Effect.zip(request, FiberRef.get(authMode)),
        ([req, mode]) =>
          platform.execute(
            mode === "header"
              ? HttpClientRequest.setHeader(req, "x-api-key", Redacted.value(config.apiKey))
              : HttpClientRequest.appendUrlParam(req, "api-key", Redacted.value(config.apiKey))
          )
      ),
    (request) => Effect.succeed(request)
  )
  const client = options.transformClient ? options.transformClient(keyed) : keyed

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

  // fetch follows redirects by itself, with the key: ask it not to (other clients ignore this).
  const noRedirects = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
    Effect.flatMap(
      Effect.serviceOption(FetchHttpClient.RequestInit),
      (init) =>
        Effect.provideService(effect, FetchHttpClient.RequestInit, {
          ...Option.getOrElse(init, () => ({})),
          redirect: "manual"
        })
    )

  const read = (operation: string, res: HttpClientResponse.HttpClientResponse) =>
    Effect.zipWith(
      readBounded(operation, res, maxBody),
      Clock.currentTimeMillis,
      (text, now): RawResponse => ({
        status: res.status,
        headers: res.headers,
        text,
        retryAfterMillis: parseRetryAfter(res.headers["retry-after"], now)
      })
    )

  const send = (request: RestRequest): Effect.Effect<RawResponse, ApiError> => {
    const refused = insecure(request.host)
    if (refused) {
      return Effect.fail(refused)
    }
    const base = config.urls[request.host].replace(/\/+$/, "")
    let req = HttpClientRequest.make(request.method)(base + request.path).pipe(HttpClientRequest.acceptJson)
    const params: Array<[string, string]> = []
    for (const [k, v] of Object.entries(request.query ?? {})) {
      if (v !== undefined) {
        params.push([k, String(v)])
      }
    }
    req = HttpClientRequest.setUrlParams(req, params)
    if (request.headers) {
      req = HttpClientRequest.setHeaders(req, request.headers)
    }
    if (request.body !== undefined) {
      req = HttpClientRequest.bodyText(req, Json.stringify(request.body), "application/json")
    }
    const attempt = Effect.suspend(() => {
      let status: number | undefined
      const once = client.execute(req).pipe(
        Effect.tap((res) => {
          status = res.status
        }),
        Effect.flatMap((res) => read(request.operation, res)),
        Effect.scoped,
        noRedirects,
        Effect.locally(authMode, request.auth ?? "query"),
        Effect.mapError((e) => e._tag === "ResponseTooLarge" ? e : transportFailure(request.operation, e, redactor)),
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
        Effect.flatMap((raw) => checkStatus(request.operation, raw, redactor))
      )
      const reported = request.onAttempt === undefined ?
        once :
        Effect.onExit(
          once,
          () => request.onAttempt!(status === undefined ? { _tag: "NoAnswer" } : { _tag: "Answered", status })
        )
      return request.aroundAttempt ? request.aroundAttempt(reported) : reported
    })
    let attempts = 0
    const counted = Effect.suspend(() => {
      attempts++
      return Effect.annotateCurrentSpan("solfx.attempt", attempts).pipe(Effect.zipRight(attempt))
    })
    return Effect.flatMap(Clock.currentTimeMillis, (start) =>
      counted.pipe(
        Effect.retry(Retry.schedule(config.retry, Retry.isRetryable(request.idempotent), {
          deadline: start + Duration.toMillis(budget),
          retryAfterCap
        })),
        Effect.timeoutFail({
          duration: budget,
          onTimeout: () =>
            new TransportError({
              operation: request.operation,
              reason: "timeout",
              detail: `no answer within the call's budget of ${Duration.format(budget)}`,
              sent: true
            })
        })
      )).pipe(
        Effect.tap((raw) => Effect.annotateCurrentSpan("http.response.status_code", raw.status)),
        // A span keeps its exit for the tracer: the raw body goes through it redacted.
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
  return send
}
