/**
 * What a failed attempt becomes: `Retry-After` read, and the platform's client errors as a redacted `TransportError`.
 *
 * @since 0.1.0
 */

import type * as HttpClientError from "@effect/platform/HttpClientError"
import { TransportError } from "@solfx/core/Errors"
import type { Redactor } from "../Redactor.js"

/** Retry-After in milliseconds: delta-seconds or an HTTP date, against `now` (read on the Clock). */
export const parseRetryAfter = (value: string | undefined, now: number): number | undefined => {
  if (value === undefined || value.trim() === "") return undefined
  const trimmed = value.trim()
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000)
  const date = Date.parse(trimmed)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH"])

const errorCode = (cause: unknown): string | undefined => {
  let current: unknown = cause
  for (let depth = 0; depth < 5 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code
    if (typeof code === "string") return code
    current = (current as { cause?: unknown }).cause
  }
  return undefined
}

/**
 * Maps a platform client error to `TransportError` without keeping the request
 * (its URL holds the key): only a redacted description survives.
 */
export const transportFailure = (
  operation: string,
  error: HttpClientError.HttpClientError,
  r: Redactor
): TransportError => {
  const code = errorCode(error.cause)
  const sent = code === undefined ? error._tag === "ResponseError" : !NOT_SENT_CODES.has(code)
  const reason = error._tag === "ResponseError" ? "body" : code !== undefined && !sent ? "connect" : "reset"
  const causeMessage = error.cause instanceof Error ? error.cause.message : ""
  const detail = r.excerpt([code, causeMessage || error.reason].filter(Boolean).join(": "))
  return new TransportError({ operation, reason, detail, sent })
}
