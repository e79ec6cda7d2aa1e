/**
 * The transport reads bodies with plain JSON.parse and lets the decode make the
 * integers beyond 2^53 exact (Decode.decodeWith's `source`). Through the whole
 * transport, every such integer comes out exact wherever the schema keeps it,
 * and every failure is the one the lossless parse gives.
 */
import { describe, expect, it } from "@effect/vitest"
import { DecodeError } from "@solfx/core/Errors"
import { U64 } from "@solfx/core/Primitives"
import { HttpTesting, HttpTransport } from "@solfx/http"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"

const text = (body: string, status = 200) => () =>
  new Response(body, { status, headers: { "content-type": "application/json" } })

const rpc = <A, I>(body: (id: string) => string, schema: Schema.Schema<A, I>) =>
  Effect.gen(function*() {
    const t = yield* HttpTransport.HttpTransport
    return yield* Effect.exit(t.rpc("getX", {}, schema))
  }).pipe(
    Effect.provide(HttpTesting.layerTransport((req) => text(body(String((req.body as { id: unknown }).id)))()))
  )

const rest = <A, I>(body: string, schema: Schema.Schema<A, I>, status = 200) =>
  Effect.gen(function*() {
    const t = yield* HttpTransport.HttpTransport
    return yield* Effect.exit(
      t.rest({ operation: "GET /x", host: "rest", method: "GET", path: "/x", idempotent: true }, schema)
    )
  }).pipe(Effect.provide(HttpTesting.layerTransport(text(body, status))))

const Holder = Schema.Struct({
  balance: U64,
  maybe: Schema.NullOr(U64),
  extra: Schema.optional(Schema.Unknown),
  list: Schema.Array(Schema.Union(U64, Schema.Null))
})

describe("integers beyond 2^53 through the transport", () => {
  it.effect("JSON-RPC: u64 fields, nullable ones, arrays and Unknown members come out exact", () =>
    Effect.gen(function*() {
      const exit = yield* rpc(
        (id) =>
          `{"jsonrpc":"2.0","id":"${id}","result":{"balance":18446744073709551615,"maybe":9007199254740993,` +
          `"extra":{"deep":[12345678901234567890,1.5e300]},"list":[18446744073709551614,null,7],"junk":99999999999999999999}}`,
        Holder
      )
      expect(exit).toStrictEqual(Exit.succeed({
        balance: 18446744073709551615n,
        maybe: 9007199254740993n,
        extra: { deep: ["12345678901234567890", 1.5e300] },
        list: [18446744073709551614n, null, 7n]
      }))
    }))

  it.effect("REST: the same, and a bare number body", () =>
    Effect.gen(function*() {
      expect(yield* rest(`{"balance":18446744073709551615,"maybe":null,"list":[]}`, Holder)).toStrictEqual(
        Exit.succeed({ balance: 18446744073709551615n, maybe: null, list: [] })
      )
      expect(yield* rest("18446744073709551615", U64)).toStrictEqual(Exit.succeed(18446744073709551615n))
    }))

  it.effect("a number field given one fails at its path, as with the lossless parse", () =>
    Effect.gen(function*() {
      const exit = yield* rest(`{"n":[1,18446744073709551615]}`, Schema.Struct({ n: Schema.Array(Schema.Number) }))
      expect(exit).toMatchObject({ _tag: "Failure", cause: { error: { _tag: "DecodeError", path: "$.n[1]" } } })
      const error = Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error).toBeInstanceOf(DecodeError)
    }))

  it.effect("one value written two ways is still exact (the text is read again losslessly)", () =>
    Effect.gen(function*() {
      const exit = yield* rest(
        `{"a":18446744073709551615,"b":18446744073709551616}`,
        Schema.Struct({ a: U64, b: Schema.Unknown })
      )
      expect(exit).toStrictEqual(Exit.succeed({ a: 18446744073709551615n, b: "18446744073709551616" }))
    }))

  it.effect("an error's data keeps its digits", () =>
    Effect.gen(function*() {
      const exit = yield* rpc(
        (id) =>
          `{"jsonrpc":"2.0","id":"${id}","error":{"code":-32000,"message":"boom","data":{"slot":18446744073709551615}}}`,
        Schema.Number
      )
      expect(exit).toMatchObject({
        _tag: "Failure",
        cause: { error: { _tag: "JsonRpcError", data: { slot: "18446744073709551615" } } }
      })
    }))
})
