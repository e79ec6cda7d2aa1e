/**
 * The tagged errors of the SDK. Every public method fails only with these, so a
 * caller can `catchTag` each failure. None of them carries a URL, a header or a
 * raw cause: the API key can never ride along.
 *
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import type { CreditBudgetExceeded } from "./CreditBudget.js"

/**
 * Bad input, caught before any request is sent. Names the field and the rule it broke.
 *
 * @example
 * new InvalidRequest({ field: "limit", rule: "an integer from 1 to 100" })
 * @since 0.1.0
 * @category errors
 */
export class InvalidRequest extends Schema.TaggedError<InvalidRequest>("@solfx/InvalidRequest")("InvalidRequest", {
  field: Schema.String,
  rule: Schema.String,
  /** The offending value, when it is short and not a secret. */
  value: Schema.optional(Schema.String)
}) {
  override get message(): string {
    return `Invalid ${this.field}: ${this.rule}${this.value === undefined ? "" : ` (got ${this.value})`}`
  }
}

/**
 * HTTP 401 or 403: the key is missing, wrong, or its plan does not include the endpoint.
 *
 * @since 0.1.0
 * @category errors
 */
export class Unauthorized extends Schema.TaggedError<Unauthorized>("@solfx/Unauthorized")("Unauthorized", {
  operation: Schema.String,
  status: Schema.Number,
  detail: Schema.String
}) {
  override get message(): string {
    return `${this.operation}: HTTP ${this.status} ${this.detail}`
  }
}

/**
 * HTTP 429 (or a JSON-RPC rate-limit error): slow down and retry. `retryAfterMillis` is set when the
 * server sent `Retry-After`. Used-up credits are `CreditsExhausted` instead.
 *
 * @since 0.1.0
 * @category errors
 */
export class RateLimited extends Schema.TaggedError<RateLimited>("@solfx/RateLimited")("RateLimited", {
  operation: Schema.String,
  detail: Schema.String,
  retryAfterMillis: Schema.optional(Schema.Number)
}) {
  override get message(): string {
    const after = this.retryAfterMillis === undefined ? "" : ` (retry after ${this.retryAfterMillis} ms)`
    return `${this.operation}: rate limited: ${this.detail}${after}`
  }
}

/**
 * The project's credits are used up: HTTP 429 "max usage reached", or the JSON-RPC
 * error -32429 "max usage reached" whatever the status that carried it. Unlike
 * `RateLimited`, waiting a moment does not help (only more credits or the next
 * billing cycle do), so the transport never retries it.
 *
 * @example
 * program.pipe(Effect.catchTag("CreditsExhausted", (e) => Console.error(`out of credits: ${e.detail}`)))
 * @since 0.1.0
 * @category errors
 */
export class CreditsExhausted extends Schema.TaggedError<CreditsExhausted>("@solfx/CreditsExhausted")(
  "CreditsExhausted",
  {
    operation: Schema.String,
    detail: Schema.String
  }
) {
  override get message(): string {
    return `${this.operation}: credits exhausted: ${this.detail}`
  }
}

/**
 * The admin endpoint's HTTP 400: the API key belongs to another project than `projectId`.
 *
 * @since 0.1.0
 * @category errors
 */
export class ProjectMismatch extends Schema.TaggedError<ProjectMismatch>("@solfx/ProjectMismatch")("ProjectMismatch", {
  projectId: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `The API key does not belong to project ${this.projectId}: ${this.detail}`
  }
}

/**
 * A JSON-RPC `error` object, whatever the HTTP status that carried it.
 *
 * @since 0.1.0
 * @category errors
 */
export class JsonRpcError extends Schema.TaggedError<JsonRpcError>("@solfx/JsonRpcError")("JsonRpcError", {
  method: Schema.String,
  code: Schema.Number,
  detail: Schema.String,
  data: Schema.optional(Schema.Unknown)
}) {
  override get message(): string {
    return `${this.method}: JSON-RPC error ${this.code}: ${this.detail}`
  }
}

/**
 * Any other non-2xx status. `body` is a short excerpt of the response body.
 *
 * @since 0.1.0
 * @category errors
 */
export class HttpError extends Schema.TaggedError<HttpError>("@solfx/HttpError")("HttpError", {
  operation: Schema.String,
  status: Schema.Number,
  body: Schema.String
}) {
  override get message(): string {
    return `${this.operation}: HTTP ${this.status}: ${this.body}`
  }
}

/**
 * A response (or a value) did not match its schema. `path` is a JSON path such as `$.result.items[3].id`.
 *
 * @since 0.1.0
 * @category errors
 */
export class DecodeError extends Schema.TaggedError<DecodeError>("@solfx/DecodeError")("DecodeError", {
  operation: Schema.String,
  path: Schema.String,
  expected: Schema.String
}) {
  override get message(): string {
    return `${this.operation}: unexpected response at ${this.path}: ${this.expected}`
  }
}

/**
 * The request did not complete: connection refused or reset, a timeout, a body cut short.
 * `sent` tells whether the request may have reached the server (it matters for non-idempotent calls).
 *
 * @since 0.1.0
 * @category errors
 */
export class TransportError extends Schema.TaggedError<TransportError>("@solfx/TransportError")("TransportError", {
  operation: Schema.String,
  reason: Schema.Literal("connect", "timeout", "reset", "body"),
  detail: Schema.String,
  sent: Schema.Boolean
}) {
  override get message(): string {
    return `${this.operation}: ${this.reason}: ${this.detail}`
  }
}

/**
 * The SDK refuses to send the API key in clear text to a host that is not loopback.
 *
 * @since 0.1.0
 * @category errors
 */
export class InsecureTransport extends Schema.TaggedError<InsecureTransport>("@solfx/InsecureTransport")(
  "InsecureTransport",
  { host: Schema.String }
) {
  override get message(): string {
    return `Refusing to send the API key over plain http:// to ${this.host}; use https or set allowInsecureHttp`
  }
}

/**
 * A Merkle proof that does not hash to its root.
 *
 * @since 0.1.0
 * @category errors
 */
export class InvalidProof extends Schema.TaggedError<InvalidProof>("@solfx/InvalidProof")("InvalidProof", {
  id: Schema.String,
  detail: Schema.String
}) {
  override get message(): string {
    return `Proof of ${this.id} does not verify: ${this.detail}`
  }
}

/**
 * A wire transaction that cannot be read: bad base58/base64, truncated, oversized
 * (over 1232 bytes), trailing bytes, a non-minimal compact-u16, an unsupported
 * version prefix (0x81 is v1)... `offset` is where reading failed: a byte of the
 * decoded transaction, or a character of the text when `unit` is "character".
 *
 * @example
 * new MalformedTransaction({ offset: 0, unit: "byte", reason: "non-minimal compact-u16" })
 * @since 0.1.0
 * @category errors
 */
export class MalformedTransaction extends Schema.TaggedError<MalformedTransaction>("@solfx/MalformedTransaction")(
  "MalformedTransaction",
  {
    offset: Schema.Number,
    unit: Schema.Literal("byte", "character"),
    reason: Schema.String
  }
) {
  override get message(): string {
    return `Malformed transaction at ${this.unit} ${this.offset}: ${this.reason}`
  }
}

/**
 * The service answered `sendBundle` with another id than the one computed locally
 * from the transactions' signatures (SHA-256 of the first signatures joined with ",").
 *
 * @since 0.1.0
 * @category errors
 */
export class BundleIdMismatch extends Schema.TaggedError<BundleIdMismatch>("@solfx/BundleIdMismatch")(
  "BundleIdMismatch",
  { expected: Schema.String, received: Schema.String }
) {
  override get message(): string {
    return `sendBundle returned bundle id ${this.received}, but the transactions hash to ${this.expected}`
  }
}

/**
 * The server answered with a redirect. The SDK never follows one with the key:
 * the credentials would go to wherever `Location` points, maybe over plain http.
 *
 * @since 0.1.0
 * @category errors
 */
export class RedirectRefused extends Schema.TaggedError<RedirectRefused>("@solfx/RedirectRefused")(
  "RedirectRefused",
  { operation: Schema.String, status: Schema.Number, location: Schema.String }
) {
  override get message(): string {
    return `${this.operation}: the server redirected (${this.status}) to ${this.location}; not followed with the key`
  }
}

/**
 * A response body larger than the configured bound. It is read no further, and
 * not requested again.
 *
 * @since 0.1.0
 * @category errors
 */
export class ResponseTooLarge extends Schema.TaggedError<ResponseTooLarge>("@solfx/ResponseTooLarge")(
  "ResponseTooLarge",
  { operation: Schema.String, limitBytes: Schema.Number }
) {
  override get message(): string {
    return `${this.operation}: the response body is larger than ${this.limitBytes} bytes`
  }
}

/**
 * A page walk that would not end: the server handed back a position already seen
 * in this walk (`repeated`), or kept sending empty pages that claim more (`empty`,
 * after `Pagination.MAX_EMPTY_RUN` of them).
 *
 * @since 0.1.0
 * @category errors
 */
export class PaginationError extends Schema.TaggedError<PaginationError>("@solfx/PaginationError")(
  "PaginationError",
  {
    operation: Schema.String,
    reason: Schema.Literal("repeated", "empty"),
    /** The position repeated (a cursor or a page number), or the length of the empty run. */
    detail: Schema.String,
    /** Pages requested in the walk when it was stopped. */
    requests: Schema.Number
  }
) {
  override get message(): string {
    return this.reason === "repeated"
      ? `${this.operation}: the server sent position ${this.detail} a second time in one walk (after ${this.requests} requests)`
      : `${this.operation}: ${this.detail} empty pages in a row still claimed more (after ${this.requests} requests)`
  }
}

/**
 * The failures of any call that goes over the network.
 *
 * @since 0.1.0
 * @category errors
 */
export type ApiError =
  | Unauthorized
  /** The layer's credit budget would be crossed: nothing was sent (`RateLimits`). */
  | CreditBudgetExceeded
  | RateLimited
  | CreditsExhausted
  | JsonRpcError
  | HttpError
  | DecodeError
  | TransportError
  | InsecureTransport
  | RedirectRefused
  | ResponseTooLarge
  | PaginationError
