/**
 * The send step: the only code that reads the API key. It sits under the user's
 * middleware (`transformClient`), adds the key to the request it is handed, sends it
 * with the platform's tracing off (its span would record `url.full`, key included),
 * and hands back a response and errors that show the request as the middleware gave
 * it: without the key. The config holds the key sealed (`@solfx/core/Config`'s `ApiKey`);
 * this module is the only one in http that opens it: for the closure of the sealed
 * client, the redactor that knows its forms, and the fingerprint that names it.
 */

import * as Headers from "@effect/platform/Headers"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientError from "@effect/platform/HttpClientError"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import * as HttpIncomingMessage from "@effect/platform/HttpIncomingMessage"
import type { ApiKey } from "@solfx/core/Config"
import { open } from "@solfx/core/internal/apiKey"
import * as Effect from "effect/Effect"
import { NodeInspectSymbol } from "effect/Inspectable"
import * as Stream from "effect/Stream"
import * as Redactors from "../Redactor.js"
import type { Redactor } from "../Redactor.js"

/**
 * Where the key goes travels with the request, so it survives any middleware: a request
 * with an empty `X-Api-Key` header (the admin host's form) gets the key there; any other
 * gets it as the `api-key` query parameter. The send step fills the slot.
 */
export const KEY_HEADER = "x-api-key"

/** A platform error's cause, rebuilt with its messages redacted and its codes kept (they classify the failure). */
const scrub = (cause: unknown, r: Redactor, depth = 0): unknown => {
  if (typeof cause !== "object" || cause === null) return typeof cause === "string" ? r.redact(cause) : cause
  if (depth > 4) return undefined
  const message = cause instanceof Error ? cause.message : String(cause)
  const code = (cause as { code?: unknown }).code
  const inner = (cause as { cause?: unknown }).cause
  const out = new Error(r.redact(message), inner === undefined ? undefined : { cause: scrub(inner, r, depth + 1) })
  if (typeof code === "string") Object.assign(out, { code })
  return out
}

const sealError = (
  error: HttpClientError.HttpClientError,
  request: HttpClientRequest.HttpClientRequest,
  r: Redactor
): HttpClientError.HttpClientError => {
  const common = {
    request,
    cause: error.cause === undefined ? undefined : scrub(error.cause, r),
    ...(error.description === undefined ? {} : { description: r.redact(error.description) })
  }
  return error._tag === "RequestError"
    ? new HttpClientError.RequestError({ ...common, reason: error.reason })
    : new HttpClientError.ResponseError({
      ...common,
      reason: error.reason,
      response: new SealedResponse(error.response, request, r)
    })
}

/**
 * A response as the middleware sees it: the request without the key, headers redacted
 * (a server may echo the key, e.g. in a redirect's `Location`), failures of its body
 * sealed too. The platform's response is held in a private field that no reflection reaches.
 */
class SealedResponse implements HttpClientResponse.HttpClientResponse {
  readonly [HttpClientResponse.TypeId]: HttpClientResponse.TypeId = HttpClientResponse.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId
  readonly #original: HttpClientResponse.HttpClientResponse
  readonly #redactor: Redactor
  #headers: Headers.Headers | undefined
  readonly request: HttpClientRequest.HttpClientRequest
  constructor(
    original: HttpClientResponse.HttpClientResponse,
    request: HttpClientRequest.HttpClientRequest,
    r: Redactor
  ) {
    this.#original = original
    this.#redactor = r
    this.request = request
  }
  #seal<A>(effect: Effect.Effect<A, HttpClientError.ResponseError>): Effect.Effect<A, HttpClientError.ResponseError> {
    return Effect.mapError(effect, (e) => sealError(e, this.request, this.#redactor) as HttpClientError.ResponseError)
  }
  get status() {
    return this.#original.status
  }
  get headers(): Headers.Headers {
    if (this.#headers === undefined) {
      const raw = this.#original.headers
      const out: Record<string, string> = {}
      for (const name in raw) out[name] = this.#redactor.redact(raw[name]!)
      this.#headers = Headers.unsafeFromRecord(out)
    }
    return this.#headers
  }
  get cookies() {
    return this.#original.cookies
  }
  get remoteAddress() {
    return this.#original.remoteAddress
  }
  get formData() {
    return this.#seal(this.#original.formData)
  }
  get text() {
    return this.#seal(this.#original.text)
  }
  get json() {
    return this.#seal(this.#original.json)
  }
  get urlParamsBody() {
    return this.#seal(this.#original.urlParamsBody)
  }
  get arrayBuffer() {
    return this.#seal(this.#original.arrayBuffer)
  }
  get stream() {
    return Stream.mapError(
      this.#original.stream,
      (e) => sealError(e, this.request, this.#redactor) as HttpClientError.ResponseError
    )
  }
  toJSON(): unknown {
    return { _id: "@effect/platform/HttpClientResponse", request: this.request.toJSON(), status: this.status }
  }
  toString(): string {
    return JSON.stringify(this.toJSON())
  }
  [NodeInspectSymbol](): unknown {
    return this.toJSON()
  }
}

/**
 * The client the user's middleware wraps: it adds the key to each request and sends
 * it on `platform`, with the platform's tracing off.
 */
export const sealedClient = (
  platform: HttpClient.HttpClient,
  apiKey: ApiKey,
  r: Redactor
): HttpClient.HttpClient => {
  const key = open(apiKey)
  return HttpClient.makeWith(
    (effect: Effect.Effect<HttpClientRequest.HttpClientRequest>) =>
      Effect.flatMap(effect, (request) => {
        const keyed = KEY_HEADER in request.headers
          ? HttpClientRequest.setHeader(request, KEY_HEADER, key)
          : HttpClientRequest.appendUrlParam(request, "api-key", key)
        return platform.execute(keyed).pipe(
          Effect.withTracerEnabled(false),
          Effect.mapBoth({
            onFailure: (e) => sealError(e, request, r),
            onSuccess: (res) => new SealedResponse(res, request, r) as HttpClientResponse.HttpClientResponse
          })
        )
      }),
    Effect.succeed
  )
}

/** The redactor of the key: it must know the key to erase it. */
export const redactorOf = (apiKey: ApiKey): Redactor => Redactors.make(open(apiKey))

/** The key itself, for the one-way hash that names it (`Fingerprint`): never sent or kept. */
export const hashInput = (apiKey: ApiKey): string => open(apiKey)
