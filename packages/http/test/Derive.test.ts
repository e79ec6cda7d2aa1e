/**
 * The one derivation: a user declares an entry for a method the SDK lacks (here
 * getCompressionSignaturesForOwner, a cursor-paged Photon method) and gets a typed
 * client: the call validates before any I/O, `stream` stops fetching under `take`,
 * credits are charged once per billed attempt, batches keep input order.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Request from "@solfx/core/CompressionRequest"
import { SignaturesResult } from "@solfx/core/CompressionSignature"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { Address, encodeBase58 } from "@solfx/core/Primitives"
import { Derive, HttpTesting, HttpTransport } from "@solfx/http"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"

// The whole cost of a new cursor-paged JSON-RPC method: one entry over its Schemas.
const getCompressionSignaturesForOwner = Endpoint.rpc({
  area: "photon",
  method: "getCompressionSignaturesForOwner",
  params: Schema.Struct({
    owner: Address,
    cursor: Schema.optional(Request.Cursor),
    limit: Schema.optional(Request.Limit)
  }),
  result: SignaturesResult,
  paging: Endpoint.cursor({ items: (r: typeof SignaturesResult.Type) => r.value.items, next: (r) => r.value.cursor }),
  cost: { credits: 10, usage: "photon" },
  bucket: "photon"
})

const OWNER = encodeBase58(new Uint8Array(32).fill(7))
const sig = (n: number) => ({ signature: encodeBase58(new Uint8Array(64).fill(n + 1)), slot: n, blockTime: n })

/** 5 pages of 2; the cursor is the page number. */
const pagesHandler: HttpTesting.Handler = (req) => {
  const params = (req.body as { params: { cursor?: string } }).params
  const page = Number(params.cursor ?? 0)
  return HttpTesting.rpcResult(req, {
    context: { slot: 1 },
    value: { items: [sig(page * 2), sig(page * 2 + 1)], cursor: page < 4 ? String(page + 1) : null }
  })
}

describe("Derive", () => {
  it.effect("a declared entry: typed call, lazy stream, credits per billed attempt", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(getCompressionSignaturesForOwner)
      const log = yield* HttpTesting.RequestLog
      const t = yield* HttpTransport.HttpTransport
      const first = yield* client.call({ owner: OWNER, limit: 2 })
      expect(first.value.items).toHaveLength(2)
      const three = yield* Stream.runCollect(Stream.take(client.stream({ owner: OWNER }), 3))
      expect(Chunk.size(three)).toBe(3)
      // 1 call + 2 pages for 3 items: nothing fetched past what `take` needed.
      expect(yield* log.count).toBe(3)
      expect(yield* t.credits.used("photon")).toBe(30)
      const all = yield* Stream.runCollect(client.pages({ owner: OWNER }))
      expect(Chunk.toReadonlyArray(all).map((p) => p.next)).toEqual(["1", "2", "3", "4", undefined])
      const bad = yield* Effect.flip(client.call({ owner: "not an address" as never }))
      expect(bad).toMatchObject({ _tag: "InvalidRequest", field: "owner" })
      expect(yield* log.count).toBe(8)
    }).pipe(Effect.provide(HttpTesting.layerTransport(pagesHandler))))

  it.effect("a retried attempt is charged again only when it was billed (429 and 503 are not)", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(getCompressionSignaturesForOwner)
      const t = yield* HttpTransport.HttpTransport
      const fiber = yield* Effect.fork(client.call({ owner: OWNER }))
      yield* TestClock.adjust("1 minute")
      yield* Fiber.join(fiber)
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(3)
      expect(yield* t.credits.used("photon")).toBe(10)
    }).pipe(Effect.provide(HttpTesting.layerTransport((req, i) =>
      i === 0
        ? new Response("{}", { status: 429, headers: { "retry-after": "1" } })
        : i === 1
        ? new Response("{}", { status: 503 })
        : pagesHandler(req, i)
    ))))

  it.effect("a batch entry: chunks of the entry's size, results in input order", () =>
    Effect.gen(function*() {
      const client = yield* Derive.client(Endpoints.getAssetProofBatch)
      const ids = Array.from({ length: 5 }, (_, i) => encodeBase58(new Uint8Array(32).fill(i + 1)))
      const results = yield* client.batch(ids, {}, { size: 2, concurrency: 3 })
      expect(results.map((r) => r.items)).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)])
      expect(results.map((r) => Object.keys(r.result))).toEqual([ids.slice(0, 2), ids.slice(2, 4), ids.slice(4)])
    }).pipe(Effect.provide(HttpTesting.layerTransport((req) => {
      const { ids } = (req.body as { params: { ids: Array<string> } }).params
      return HttpTesting.rpcResult(req, Object.fromEntries(ids.map((id) => [id, null])))
    }))))
})
