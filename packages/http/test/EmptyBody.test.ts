/**
 * A response with no body: the answer of a schema that takes no value (a delete's),
 * a DecodeError saying so for any other, and a redirect without a body still the
 * typed `RedirectRefused` (not a transport failure).
 */
import { describe, expect, it } from "@effect/vitest"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

const call = <A, I>(answer: () => Response, schema: Schema.Schema<A, I>) =>
  Effect.flatMap(HttpTransport.HttpTransport, (t) =>
    Effect.either(
      t.rest({ operation: "DELETE /v0/x", host: "v0", method: "DELETE", path: "/v0/x", idempotent: false }, schema)
    )).pipe(Effect.provide(HttpTesting.layerTransport(answer)))

describe("a response with no body", () => {
  it.effect("is the answer of a schema that takes no value, whatever the 2xx", () =>
    Effect.gen(function*() {
      for (const status of [200, 204]) {
        const result = yield* call(() => new Response(null, { status }), Schema.Unknown)
        expect(result).toMatchObject({ _tag: "Right", right: undefined })
      }
    }))

  it.effect("is a DecodeError for a schema that needs a value", () =>
    Effect.gen(function*() {
      const result = yield* call(() => new Response(null, { status: 200 }), Schema.Array(Schema.Number))
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "DecodeError", path: "$" } })
      if (result._tag === "Left" && result.left._tag === "DecodeError") {
        expect(result.left.expected).toContain("an empty body")
      }
    }))

  it.effect("a redirect without a body is RedirectRefused", () =>
    Effect.gen(function*() {
      const result = yield* call(
        () => new Response(null, { status: 302, headers: { location: "http://elsewhere.test/" } }),
        Schema.Unknown
      )
      expect(result).toMatchObject({ _tag: "Left", left: { _tag: "RedirectRefused", status: 302 } })
    }))
})
