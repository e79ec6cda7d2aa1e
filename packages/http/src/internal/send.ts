/**
 * The sending half of the transport: the HttpClient pipeline, the retry and the span.
 * Built once per transport; the key stays inside it.
 *
 * Every call pays for what wraps it, so the common case is kept short: one timer per
 * attempt bounds both the attempt's timeout and the call's budget, and the retry
 * Schedule is built only once an attempt has failed.
 */

import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import type { Host, SolfxConfigShape } from "@solfx/core/Config"
import { type ApiError, InsecureTransport, TransportError } from "@solfx/core/Errors"
import * as Json from "@solfx/core/Json"
import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"
import type { Options, RestRequest } from "../HttpTransport.js"
import type { Redactor } from "../Redactor.js"
import * as Retry from "../Retry.js"
import { aside } from "./aside.js"
import { readBounded } from "./body.js"
import { parseRetryAfter, transportFailure } from "./errors.js"
import { KEY_HEADER, sealedClient } from "./seal.js"
import { checkStatus, type RawResponse } from "./status.js"
import { within } from "./timer.js"

/** The default bound on a response body, in bytes (a 1,000-item DAS page is a few MB). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|::1)$/i

const MANUAL: RequestInit = { redirect: "manual" }

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
  const budgetMillis = Duration.toMillis(budget)
  const timeoutMillis = Duration.toMillis(config.timeout)
  const retryAfterCap = options.retryAfterCap === undefined
    ? config.retry.maxDelay
    : Duration.decode(options.retryAfterCap)
  // The key is added by the send step, under every user middleware: they never see it (see `seal`).
  const sealed = sealedClient(httpClient, config.apiKey, redactor)
  const client = options.transformClient ? options.transformClient(sealed) : sealed
  const hosts = Object.keys(config.urls) as Array<Host>
  // Reused by every request: the base URLs do not change.
  const bases = Object.fromEntries(hosts.map((h) => [h, config.urls[h].replace(/\/+$/, "")])) as Record<Host, string>

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
  const refusals = Object.fromEntries(hosts.map((h) => [h, insecure(h)])) as Record<
    Host,
    InsecureTransport | undefined
  >

  // fetch follows redirects by itself, with the key: ask it not to (other clients ignore this). The
  // caller's own RequestInit, if any, is kept.
  const noRedirects = (context: Context.Context<never>): RequestInit => {
    const init = Context.getOption(context, FetchHttpClient.RequestInit)
    return init._tag === "None" ? MANUAL : { ...init.value, redirect: "manual" }
  }

  const read = (operation: string, res: HttpClientResponse.HttpClientResponse) => {
    // The platform builds the headers object again on every read of `headers`: read it once.
    const headers = res.headers
    return Effect.flatMap(readBounded(operation, res, maxBody, headers), (text) => {
      const retryAfter = headers["retry-after"]
      const raw = (now: number): RawResponse => ({
        status: res.status,
        headers,
        text,
        retryAfterMillis: parseRetryAfter(retryAfter, now)
      })
      // The Clock only matters to a Retry-After given as a date.
      return retryAfter === undefined ? Effect.succeed(raw(0)) : Effect.map(Clock.currentTimeMillis, raw)
    })
  }

  const timedOut = (operation: string, ofBudget: boolean) =>
    new TransportError({
      operation,
      reason: "timeout",
      detail: ofBudget
        ? `no answer within the call's budget of ${Duration.format(budget)}`
        : `no complete response within ${Duration.format(config.timeout)}`,
      sent: true
    })

  /** The budget ended while the call waited for a rate-limit permit, before any attempt of it was sent. */
  const waitedOut = (operation: string) =>
    new TransportError({
      operation,
      reason: "timeout",
      detail: `no rate-limit permit within the call's budget of ${Duration.format(budget)}: nothing was sent`,
      sent: false
    })

  const send = (request: RestRequest): Effect.Effect<RawResponse, ApiError> => {
    const refused = refusals[request.host]
    if (refused) {
      return Effect.fail(refused)
    }
    let req = HttpClientRequest.make(request.method)(bases[request.host] + request.path).pipe(
      HttpClientRequest.acceptJson
    )
    if (request.query !== undefined) {
      const params: Array<[string, string]> = []
      for (const k in request.query) {
        const v = request.query[k]
        if (v !== undefined) params.push([k, String(v)])
      }
      req = HttpClientRequest.setUrlParams(req, params)
    }
    if (request.headers) {
      req = HttpClientRequest.setHeaders(req, request.headers)
    }
    // The auth mode travels with the request: an empty slot the send step fills with the key.
    if (request.auth === "header") {
      req = HttpClientRequest.setHeader(req, KEY_HEADER, "")
    }
    if (request.body !== undefined) {
      req = HttpClientRequest.bodyText(req, Json.stringify(request.body), "application/json")
    }
    const operation = request.operation
    const retryable = Retry.isRetryable(request.idempotent)
    // A permit may wait long before the attempt starts: the budget then needs a timer of its own around
    // the whole call. Without one, the budget's end is one more bound on each attempt's single timer
    // (the retry Schedule already takes no sleep that ends past it).
    const wrapped = request.aroundAttempt !== undefined

    const run = (span: Tracer.Span, clock: Clock.Clock) => {
      const deadline = clock.unsafeCurrentTimeMillis() + budgetMillis
      let attempts = 0
      // Whether any attempt got past its permit (and so may have left the process).
      let started = false
      const attempt = Effect.suspend(() => {
        span.attribute("solfx.attempt", ++attempts)
        // The one timer of the attempt: its own timeout, or what is left of the call's budget if that ends first.
        const left = wrapped ? timeoutMillis : deadline - clock.unsafeCurrentTimeMillis()
        const byBudget = left < timeoutMillis
        if (left <= 0) return Effect.fail(timedOut(operation, true))
        let status: number | undefined
        const exchange = Effect.flatMap(Effect.suspend(() => (started = true, client.execute(req))), (res) => {
          status = res.status
          return read(operation, res)
        }).pipe(
          Effect.mapError((e) => e._tag === "ResponseTooLarge" ? e : transportFailure(operation, e, redactor))
        )
        const bounded = Effect.flatMap(
          within(
            exchange,
            byBudget ? left : timeoutMillis,
            () => timedOut(operation, byBudget)
          ),
          (raw) => checkStatus(operation, raw, redactor)
        )
        const reported = request.onAttempt === undefined ?
          bounded :
          Effect.onExit(
            bounded,
            () => request.onAttempt!(status === undefined ? { _tag: "NoAnswer" } : { _tag: "Answered", status })
          )
        return wrapped ? request.aroundAttempt!(reported) : reported
      })
      // The retry Schedule is built only after a failure, which it is handed unchanged as its first input.
      const retried = Effect.catchAll(attempt, (first) => {
        if (!retryable(first)) return Effect.fail(first)
        let handed = false
        const again = Effect.suspend(() => {
          if (handed) return attempt
          handed = true
          return Effect.fail(first)
        })
        return Effect.retry(again, Retry.schedule(config.retry, retryable, { deadline, retryAfterCap }))
      })
      return wrapped
        ? within(retried, budgetMillis, () => started ? timedOut(operation, true) : waitedOut(operation))
        : retried
    }

    // The answer is kept aside (see `aside`): it holds the whole body, and may echo the key.
    return aside((keep: (raw: RawResponse) => void) =>
      Effect.useSpan(`solfx ${operation}`, {
        kind: "client",
        captureStackTrace: false,
        attributes: {
          "solfx.host": request.host,
          "http.request.method": request.method,
          "solfx.operation": operation
        }
      }, (span) =>
        Effect.mapInputContext(
          Effect.clockWith((clock) =>
            Effect.map(run(span, clock), (raw) => {
              span.attribute("http.response.status_code", raw.status)
              keep(raw)
            })
          ),
          // `Effect.withParentSpan`, and no redirects, in one change of the context (each costs a copy of it).
          (context: Context.Context<never>) =>
            Context.add(
              Context.add(context, Tracer.ParentSpan, span),
              FetchHttpClient.RequestInit,
              noRedirects(context)
            )
        ))
    )
  }
  return send
}
