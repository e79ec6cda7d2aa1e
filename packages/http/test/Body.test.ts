/**
 * The body read of the transport: bounded whichever way the length is known. A
 * declared length past the bound fails before reading; a body without one (chunked)
 * or one a client inflates (content-encoding) is read as a stream that stops at the bound.
 */
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import { ResponseTooLarge } from "@solfx/core/Errors"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { readBounded } from "../src/internal/body.js"

const request = HttpClientRequest.get("http://127.0.0.1/")

/** A response whose body is `chunks`, with `headers`; counts the chunks the reader pulled. */
const response = (chunks: ReadonlyArray<string>, headers: Record<string, string>) => {
  const pulled = { count: 0 }
  let i = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (i >= chunks.length) return controller.close()
      pulled.count++
      controller.enqueue(new TextEncoder().encode(chunks[i++]!))
    }
  })
  return { res: HttpClientResponse.fromWeb(request, new Response(body, { headers })), pulled }
}

describe("readBounded", () => {
  it.effect("reads a body within the bound, with or without a declared length, compressed or not", () =>
    Effect.gen(function*() {
      for (
        const headers of [
          { "content-length": "11" },
          {},
          { "content-length": "11", "content-encoding": "gzip" }
        ]
      ) {
        const { res } = response(["hello", " world"], headers)
        expect(yield* readBounded("op", res, 11)).toBe("hello world")
      }
    }))

  it.effect("a declared length past the bound fails before reading", () =>
    Effect.gen(function*() {
      const { pulled, res } = response(["x".repeat(20)], { "content-length": "20" })
      const exit = yield* Effect.exit(readBounded("op", res, 10))
      expect(exit).toStrictEqual(Exit.fail(new ResponseTooLarge({ operation: "op", limitBytes: 10 })))
      expect(pulled.count).toBe(0)
    }))

  it.effect("a body read whole that runs past its declared length fails when its UTF-8 form is past the bound", () =>
    Effect.gen(function*() {
      // A client that does not hold the body to its declared length (HTTP framing would), so the text decides.
      const cases = [
        ["x".repeat(20), 10, false],
        ["é".repeat(6), 10, false], // 12 bytes in 6 units
        ["é".repeat(5), 10, true] // 10 bytes: at the bound
      ] as const
      for (const [body, bound, fits] of cases) {
        const { res } = response([body], { "content-length": "4" })
        const exit = yield* Effect.exit(readBounded("op", res, bound))
        expect(exit).toStrictEqual(
          fits ? Exit.succeed(body) : Exit.fail(new ResponseTooLarge({ operation: "op", limitBytes: bound }))
        )
      }
    }))

  it.effect("a body without a declared length, or inflated by the client, stops at the chunk past the bound", () =>
    Effect.gen(function*() {
      for (const headers of [{}, { "content-length": "4", "content-encoding": "gzip" }]) {
        const { pulled, res } = response(["aaaa", "bbbb", "cccc", "dddd", "eeee"], headers)
        const exit = yield* Effect.exit(readBounded("op", res, 10))
        expect(exit).toStrictEqual(Exit.fail(new ResponseTooLarge({ operation: "op", limitBytes: 10 })))
        expect(pulled.count).toBeLessThan(5)
      }
    }))
})
