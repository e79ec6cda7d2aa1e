/**
 * Statuses, JSON-RPC envelopes and error bodies to tagged errors: the one mapping,
 * shared by REST and JSON-RPC. Every text that goes into an error passes through
 * the redactor here, where the error is built.
 */
import {
  type ApiError,
  CreditsExhausted,
  DecodeError,
  HttpError,
  JsonRpcError,
  RateLimited,
  RedirectRefused,
  Unauthorized
} from "@solfx/core/Errors"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Redactor } from "../Redactor.js"

/** A response as the transport reads it: the body already bounded and read. */
export interface RawResponse {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  /** Retry-After in milliseconds, read on the Clock when the response arrived. */
  readonly retryAfterMillis: number | undefined
}

/** A JSON-RPC error object. */
const ErrorObject = Schema.Struct({
  code: Schema.Number,
  message: Schema.String,
  data: Schema.optional(Schema.Unknown)
})
type ErrorObject = typeof ErrorObject.Type

/** The JSON-RPC response envelope; `result` is decoded afterwards with the method's own Schema. */
const Envelope = Schema.Struct({
  id: Schema.optional(Schema.NullOr(Schema.Union(Schema.String, Schema.Number))),
  error: Schema.optional(Schema.NullOr(Schema.Unknown)),
  result: Schema.optional(Schema.Unknown)
})

const decodeEnvelope = Schema.decodeUnknownEither(Envelope)
const decodeErrorObject = Schema.decodeUnknownEither(ErrorObject)

/** JSON-RPC codes the real service (documented and observed) uses for rate limits and exhausted credits. */
const RATE_LIMIT_CODES: ReadonlySet<number> = new Set([-32429, -32029, -32005, -32097])

/** What the real service says when the credits are used up (as the service documents: -32429 "max usage reached"). */
const MAX_USAGE = /max usage reached/i

const isExhaustedRpc = (err: ErrorObject): boolean => RATE_LIMIT_CODES.has(err.code) && MAX_USAGE.test(err.message)

/** A JSON-RPC error object to its tagged error. */
export const rpcError = (
  method: string,
  err: ErrorObject,
  r: Redactor
): JsonRpcError | RateLimited | CreditsExhausted => {
  const message = r.redact(err.message)
  return isExhaustedRpc(err)
    ? new CreditsExhausted({ operation: method, detail: `${message} (JSON-RPC ${err.code})` })
    : RATE_LIMIT_CODES.has(err.code)
    ? new RateLimited({ operation: method, detail: `${message} (JSON-RPC ${err.code})` })
    : new JsonRpcError({
      method,
      code: err.code,
      detail: message,
      ...(err.data === undefined || err.data === null ? {} : { data: r.redactValue(err.data) })
    })
}

/** The `result` of a JSON-RPC body, or its error; `id` must echo the request's. A `null` result is one only if `allowNull`. */
export const rpcResult = (
  method: string,
  id: string | number,
  body: unknown,
  r: Redactor,
  allowNull = false
): Effect.Effect<unknown, ApiError> => {
  const envelope = decodeEnvelope(body)
  if (Either.isLeft(envelope) || typeof body !== "object" || body === null || Array.isArray(body)) {
    return Effect.fail(new DecodeError({ operation: method, path: "$", expected: "a JSON-RPC response object" }))
  }
  const { error, result } = envelope.right
  if (error !== undefined && error !== null) {
    const obj = decodeErrorObject(error)
    return Either.isRight(obj)
      ? Effect.fail(rpcError(method, obj.right, r))
      : Effect.fail(
        new DecodeError({ operation: method, path: "$.error", expected: "{ code: number, message: string }" })
      )
  }
  const echoed = envelope.right.id
  if (echoed !== undefined && echoed !== null && echoed !== id) {
    return Effect.fail(
      new DecodeError({ operation: method, path: "$.id", expected: `the request id ${JSON.stringify(id)}` })
    )
  }
  if (result === undefined || (result === null && !allowNull)) {
    return Effect.fail(
      new DecodeError({ operation: method, path: "$.result", expected: `a result, got ${String(result)}` })
    )
  }
  return Effect.succeed(result)
}

/** A 200 REST body that carries `{ error }` instead of data is a failure, as the real SDK treats it. */
export const restBodyError = (
  operation: string,
  body: unknown,
  r: Redactor
): Effect.Effect<never, ApiError> | undefined => {
  if (typeof body !== "object" || body === null || Array.isArray(body) || !("error" in body)) return undefined
  if (Object.keys(body).length > 2) return undefined
  const err = (body as { error: unknown }).error
  if (typeof err === "string") return Effect.fail(new HttpError({ operation, status: 200, body: r.excerpt(err) }))
  const obj = decodeErrorObject(err)
  return Either.isRight(obj) ? Effect.fail(rpcError(operation, obj.right, r)) : undefined
}

const errorDetail = (text: string, r: Redactor): { message: string; rpc?: ErrorObject } => {
  try {
    const body = JSON.parse(text) as { error?: unknown; message?: unknown }
    if (typeof body === "object" && body !== null) {
      const obj = decodeErrorObject(body.error)
      if (Either.isRight(obj)) {
        return { message: `${r.redact(obj.right.message)} (JSON-RPC ${obj.right.code})`, rpc: obj.right }
      }
      if (typeof body.error === "string") return { message: r.excerpt(body.error) }
      if (typeof body.message === "string") return { message: r.excerpt(body.message) }
    }
  } catch {
    // not JSON: an HTML error page or plain text
  }
  return { message: r.excerpt(text) }
}

/** A status that is not 2xx to its tagged error; a 2xx passes. */
export const checkStatus = (
  operation: string,
  raw: RawResponse,
  r: Redactor
): Effect.Effect<RawResponse, ApiError> => {
  if (raw.status >= 200 && raw.status < 300) return Effect.succeed(raw)
  if (raw.status >= 300 && raw.status < 400) {
    return Effect.fail(
      new RedirectRefused({ operation, status: raw.status, location: r.excerpt(raw.headers["location"] ?? "") })
    )
  }
  const detail = errorDetail(raw.text, r)
  // Used-up credits, whatever the status that carries the JSON-RPC error: not a rate limit.
  const exhausted = (raw.status === 429 && MAX_USAGE.test(detail.message)) ||
    (detail.rpc !== undefined && isExhaustedRpc(detail.rpc))
  if (exhausted) return Effect.fail(new CreditsExhausted({ operation, detail: detail.message }))
  if (raw.status === 401 || raw.status === 403) {
    return Effect.fail(new Unauthorized({ operation, status: raw.status, detail: detail.message }))
  }
  if (raw.status === 429) {
    return Effect.fail(
      new RateLimited({
        operation,
        detail: detail.message,
        ...(raw.retryAfterMillis === undefined ? {} : { retryAfterMillis: raw.retryAfterMillis })
      })
    )
  }
  if (raw.status < 500 && detail.rpc) return Effect.fail(rpcError(operation, detail.rpc, r))
  return Effect.fail(new HttpError({ operation, status: raw.status, body: detail.message }))
}
