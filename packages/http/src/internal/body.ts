import type * as Headers from "@effect/platform/Headers"
import type * as HttpClientError from "@effect/platform/HttpClientError"
import type * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { ResponseTooLarge } from "@solfx/core/Errors"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const utf8 = new TextDecoder()

interface Acc {
  readonly parts: Array<Uint8Array>
  readonly size: number
}

/**
 * The body as text, read no further than `max` bytes: a declared length past it
 * fails before reading, and a stream that grows past it (a lying length, chunked,
 * or a compression bomb a client inflates) stops at the bound.
 */
export const readBounded = (
  operation: string,
  res: HttpClientResponse.HttpClientResponse,
  max: number,
  /** `res.headers`, when the caller has read it already (the platform builds it anew on each read). */
  headers: Headers.Headers = res.headers
): Effect.Effect<string, ResponseTooLarge | HttpClientError.ResponseError> => {
  const length = headers["content-length"]
  const declared = Number(length)
  if (Number.isFinite(declared) && declared > max) {
    return Effect.fail(new ResponseTooLarge({ operation, limitBytes: max }))
  }
  const encoding = headers["content-encoding"]
  if (length !== undefined && (encoding === undefined || encoding === "identity")) {
    // A declared length within the bound and a body nobody inflates: HTTP framing ends the body at
    // that length, so it is read whole, without the Stream machinery (most of a small call's cost).
    return Effect.flatMap(res.arrayBuffer, (buffer) =>
      buffer.byteLength > max
        ? Effect.fail(new ResponseTooLarge({ operation, limitBytes: max }))
        : Effect.succeed(utf8.decode(buffer)))
  }
  return res.stream.pipe(
    Stream.runFoldEffect(
      { parts: [], size: 0 } as Acc,
      (acc: Acc, chunk: Uint8Array): Effect.Effect<Acc, ResponseTooLarge> => {
        const size = acc.size + chunk.length
        if (size > max) return Effect.fail(new ResponseTooLarge({ operation, limitBytes: max }))
        acc.parts.push(chunk)
        return Effect.succeed({ parts: acc.parts, size })
      }
    ),
    Effect.map(({ parts, size }) => {
      const all = new Uint8Array(size)
      let at = 0
      for (const part of parts) {
        all.set(part, at)
        at += part.length
      }
      return utf8.decode(all)
    })
  )
}
