/**
 * Unit tests of the Compression service over a fake HTTP client: what goes on the
 * wire, validation before any I/O, the real-world response variants, exact bigints,
 * lazy cursor streams and the credits estimate.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import { encodeBase58, encodeBase64 } from "@solfx/core/Primitives"
import * as Credits from "@solfx/http/Credits"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as Compression from "@solfx/rpc/Compression"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Stream from "effect/Stream"

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 37 + seed) % 256)
const addr = (seed: number) => encodeBase58(bytes(32, seed))
const sig = (seed: number) => encodeBase58(bytes(64, seed))
const MINT = addr(1)
const OWNER = addr(2)
const TREE = addr(3)
/** A BN254 field element: 32 bytes whose first is below the modulus's 0x30. */
const hashOf = (seed: number) => encodeBase58(bytes(32, seed % 32))
const accountV2 = (seed: number) => ({
  hash: hashOf(seed),
  address: null,
  data: null,
  owner: OWNER,
  lamports: 0,
  leafIndex: 3,
  seq: null,
  slotCreated: 7,
  proveByIndex: true,
  merkleContext: { treeType: 3, tree: TREE, queue: addr(4), cpiContext: null }
})

type Body = { readonly id: string; readonly method: string; readonly params: Record<string, unknown> }
const bodyOf = (req: HttpTesting.RecordedRequest) => req.body as Body

/** A JSON-RPC success written with the lossless printer, so bigints go out as bare numbers. */
const reply = (req: HttpTesting.RecordedRequest, result: unknown) =>
  new Response(Json.stringify({ jsonrpc: "2.0", id: bodyOf(req).id, result }), {
    headers: { "content-type": "application/json" }
  })

const provide = (handler: HttpTesting.Handler, options?: Compression.Options) =>
  Effect.provide(
    Compression.layerWith(options ?? {}).pipe(Layer.provideMerge(HttpTesting.layerTransport(handler)))
  )

/** 250 holders in descending balance order, served 100 a page with cursors "p1", "p2". */
const HOLDERS = Array.from({ length: 250 }, (_, i) => ({ owner: addr(100 + i), balance: BigInt(1000 - i) }))
const holdersHandler: HttpTesting.Handler = (req) => {
  const { params } = bodyOf(req)
  const start = params.cursor === undefined ? 0 : Number(String(params.cursor).slice(1)) * 100
  const limit = Number(params.limit ?? 1000)
  const items = HOLDERS.slice(start, start + limit)
  const end = start + items.length
  return reply(req, {
    context: { slot: 500 + start },
    value: { items, cursor: end < HOLDERS.length ? `p${end / 100}` : null }
  })
}

describe("Compression (unit)", () => {
  it.effect("sends the method and its params as given, and returns context and value", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const result = yield* compression.getCompressedTokenAccountsByOwner({
        owner: OWNER,
        mint: MINT,
        cursor: "3J98t1WpEZ73CNm",
        limit: 10
      })
      expect(result.context.slot).toBe(77)
      expect(result.value).toEqual({ items: [], cursor: null })
      const [req] = yield* (yield* HttpTesting.RequestLog).requests
      expect(req!.method).toBe("POST")
      expect(req!.url.searchParams.get("api-key")).toBe("test-key")
      const body = bodyOf(req!)
      expect(body.method).toBe("getCompressedTokenAccountsByOwner")
      expect(body.params).toEqual({ owner: OWNER, mint: MINT, cursor: "3J98t1WpEZ73CNm", limit: 10 })
      expect((req!.body as { jsonrpc: string }).jsonrpc).toBe("2.0")
    }).pipe(provide((req) => reply(req, { context: { slot: 77 }, value: { items: [], cursor: null } }))))

  it.effect("omits absent optional params", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      yield* compression.getCompressedTokenBalancesByOwnerV2({ owner: OWNER })
      yield* compression.getLatestNonVotingSignatures()
      const requests = yield* (yield* HttpTesting.RequestLog).requests
      expect(bodyOf(requests[0]!).params).toEqual({ owner: OWNER })
      expect(bodyOf(requests[1]!).params).toEqual({})
    }).pipe(provide((req) =>
      reply(req, {
        context: { slot: 1 },
        value: { items: [], ...(bodyOf(req).method.startsWith("getLatest") ? {} : { cursor: null }) }
      })
    )))

  it.effect("invalid input fails with InvalidRequest and sends nothing", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const cases = [
        [compression.getCompressedMintTokenHolders({ mint: MINT, limit: 1001 }), "limit"],
        [compression.getCompressedMintTokenHolders({ mint: "not-an-address" }), "mint"],
        [compression.getCompressionSignaturesForAddress({ address: MINT, cursor: "0OIl" }), "cursor"],
        [compression.getCompressedTokenAccountsByOwner({ owner: OWNER, mint: addr(9).slice(0, 20) }), "mint"],
        [compression.getLatestNonVotingSignatures({ limit: 0 }), "limit"],
        [compression.getValidityProof({ hashes: [] }), "hashes"],
        [compression.getValidityProof({ hashes: ["x"] }), "hashes[0]"],
        [compression.getTransactionWithCompressionInfo({ signature: addr(4) }), "signature"],
        [compression.getCompressionSignaturesForTokenOwner({ owner: OWNER, limit: 2.5 }), "limit"]
      ] as const
      for (const [effect, field] of cases) {
        const error = yield* Effect.flip(effect as Effect.Effect<unknown, Compression.CompressionError>)
        expect(error._tag).toBe("InvalidRequest")
        expect(error._tag === "InvalidRequest" && error.field).toBe(field)
      }
      const streamed = yield* Stream.runDrain(compression.getCompressedMintTokenHoldersStream({ mint: MINT, limit: 0 }))
        .pipe(Effect.flip)
      expect(streamed._tag).toBe("InvalidRequest")
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(0)
    }).pipe(provide(() => new Response("unexpected", { status: 500 }))))

  it.effect("validity proof parts decode from byte arrays and from strings to the same Uint8Array", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const asArrays = yield* compression.getValidityProof({ hashes: [TREE] })
      const asStrings = yield* compression.getValidityProof({ hashes: [TREE] })
      for (const result of [asArrays, asStrings]) {
        expect(result.value.compressedProof.a).toEqual(bytes(32, 5))
        expect(result.value.compressedProof.b).toEqual(bytes(64, 6))
        expect(result.value.compressedProof.c).toEqual(bytes(32, 7))
        expect(result.value.leafIndices).toEqual([9])
      }
      const requests = yield* (yield* HttpTesting.RequestLog).requests
      expect(bodyOf(requests[0]!).params).toEqual({ hashes: [TREE] })
    }).pipe(provide((req, index) => {
      const part = (n: number, seed: number) => index === 0 ? Array.from(bytes(n, seed)) : encodeBase64(bytes(n, seed))
      return reply(req, {
        context: { slot: 3 },
        value: {
          compressedProof: { a: part(32, 5), b: part(64, 6), c: part(32, 7) },
          roots: [TREE],
          rootIndices: [1],
          leafIndices: [9],
          leaves: [TREE],
          merkleTrees: [TREE]
        }
      })
    })))

  it.effect("a proof part of the wrong length is a DecodeError naming its path", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const error = yield* Effect.flip(compression.getValidityProof({ hashes: [TREE] }))
      expect(error._tag).toBe("DecodeError")
      expect(error._tag === "DecodeError" && error.path).toBe("$.result.value.compressedProof.b")
    }).pipe(provide((req) =>
      reply(req, {
        context: { slot: 3 },
        value: {
          compressedProof: { a: [], b: Array.from(bytes(32, 1)), c: [] },
          roots: [],
          rootIndices: [],
          leafIndices: [],
          leaves: [],
          merkleTrees: []
        }
      })
    )))

  it.effect("transaction compression info arrives from compressionInfo and from compression_info", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const first = yield* compression.getTransactionWithCompressionInfo({ signature: sig(1) })
      const second = yield* compression.getTransactionWithCompressionInfo({ signature: sig(1) })
      expect(first).toEqual(second)
      expect(first.compressionInfo.openedAccounts[0]!.optionalTokenData).toBeNull()
      expect(first.compressionInfo.closedAccounts[0]!.optionalTokenData!.amount).toBe(18446744073709551615n)
      expect(first.transaction.slot).toBe(41)
    }).pipe(provide((req, index) => {
      const account = (seed: number) => ({
        hash: addr(seed),
        address: null,
        data: null,
        owner: TREE,
        lamports: 0,
        tree: TREE,
        leafIndex: seed,
        seq: null,
        slotCreated: 40
      })
      const info = {
        closedAccounts: [{
          account: account(10),
          optionalTokenData: {
            mint: MINT,
            owner: OWNER,
            amount: 18446744073709551615n,
            delegate: null,
            state: "initialized",
            tlv: null
          }
        }],
        openedAccounts: [{ account: account(11), optionalTokenData: null }]
      }
      const key = index === 0 ? "compressionInfo" : "compression_info"
      return reply(req, { [key]: info, transaction: { slot: 41, blockTime: 1, transaction: ["", "base64"] } })
    })))

  it.effect("balances above 2^53 arrive exact", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const holders = yield* compression.getCompressedMintTokenHolders({ mint: MINT })
      expect(holders.value.items.map((h) => h.balance)).toEqual([18446744073709551615n, 9007199254740993n, 1n])
      const balances = yield* compression.getCompressedTokenBalancesByOwnerV2({ owner: OWNER })
      expect(balances.value.items[0]!.balance).toBe(9007199254740993n)
    }).pipe(provide((req) =>
      bodyOf(req).method === "getCompressedMintTokenHolders"
        ? reply(req, {
          context: { slot: 1 },
          value: {
            items: [
              { owner: addr(20), balance: 18446744073709551615n },
              { owner: addr(21), balance: 9007199254740993n },
              { owner: addr(22), balance: 1 }
            ],
            cursor: null
          }
        })
        : reply(req, {
          context: { slot: 1 },
          value: { items: [{ mint: MINT, balance: 9007199254740993n }], cursor: null }
        })
    )))

  it.effect("the stream follows the cursor, in order, without loss or repetition", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const all = yield* Stream.runCollect(compression.getCompressedMintTokenHoldersStream({ mint: MINT, limit: 100 }))
      expect(Chunk.toReadonlyArray(all)).toEqual(HOLDERS)
      const requests = yield* (yield* HttpTesting.RequestLog).requests
      expect(requests.map((r) => bodyOf(r).params)).toEqual([
        { mint: MINT, limit: 100 },
        { mint: MINT, limit: 100, cursor: "p1" },
        { mint: MINT, limit: 100, cursor: "p2" }
      ])
    }).pipe(provide(holdersHandler)))

  it.effect("Stream.take stops fetching", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const log = yield* HttpTesting.RequestLog
      const five = yield* Stream.runCollect(
        compression.getCompressedMintTokenHoldersStream({ mint: MINT, limit: 100 }).pipe(Stream.take(5))
      )
      expect(Chunk.size(five)).toBe(5)
      expect(yield* log.count).toBe(1)
      yield* Stream.runDrain(
        compression.getCompressedMintTokenHoldersStream({ mint: MINT, limit: 100 }).pipe(Stream.take(101))
      )
      expect(yield* log.count).toBe(3)
    }).pipe(provide(holdersHandler)))

  it.effect("pages report their slot and the cursor to resume from; a start cursor resumes", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const pages = Chunk.toReadonlyArray(
        yield* Stream.runCollect(compression.getCompressedMintTokenHoldersPages({ mint: MINT, limit: 100 }))
      )
      expect(pages.map((p) => [p.slot, p.items.length, p.next])).toEqual([[500, 100, "p1"], [600, 100, "p2"], [
        700,
        50,
        undefined
      ]])
      const resumed = yield* Stream.runCollect(
        compression.getCompressedMintTokenHoldersStream({ mint: MINT, limit: 100, cursor: pages[0]!.next! })
      )
      expect(Chunk.toReadonlyArray(resumed)).toEqual(HOLDERS.slice(100))
    }).pipe(provide(holdersHandler)))

  it.effect("a server that repeats a cursor fails the stream instead of looping", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const error = yield* Stream.runDrain(compression.getCompressionSignaturesForTokenOwnerStream({ owner: OWNER }))
        .pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "repeated" })
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(2)
    }).pipe(provide((req) =>
      reply(req, {
        context: { slot: 1 },
        value: { items: [{ signature: sig(1), slot: 1, blockTime: 1 }], cursor: "abc" }
      })
    )))

  it.effect("non-voting signatures carry their error", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const result = yield* compression.getLatestNonVotingSignatures({ limit: 2 })
      expect(result.value.items.map((i) => i.error)).toEqual([null, "InstructionError"])
      const [req] = yield* (yield* HttpTesting.RequestLog).requests
      expect(bodyOf(req!).params).toEqual({ limit: 2 })
    }).pipe(provide((req) =>
      reply(req, {
        context: { slot: 2 },
        value: {
          items: [
            { signature: sig(1), slot: 2, blockTime: 3, error: null },
            { signature: sig(2), slot: 2, blockTime: 3, error: "InstructionError" }
          ]
        }
      })
    )))

  it.effect("counts the credits estimate per request, from a configurable table", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const counter = Credits.forMethod("photon", "getCompressionSignaturesForAddress")
      const before = (yield* Metric.value(counter)).count
      yield* compression.getCompressionSignaturesForAddress({ address: MINT })
      yield* compression.getCompressionSignaturesForAddress({ address: MINT })
      expect((yield* Metric.value(counter)).count - before).toBe(14)
    }).pipe(provide(
      (req) => reply(req, { context: { slot: 1 }, value: { items: [], cursor: null } }),
      { costs: { getCompressionSignaturesForAddress: 7 } }
    )))
  it.effect("V2 and indexer methods: their names on the wire, V2 shapes decoded, `[]` for the indexer", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const page = yield* compression.getCompressedTokenAccountsByOwnerV2({ owner: OWNER, limit: 5 })
      expect(page.value.items[0]!.account.merkleContext.tree).toBe(TREE)
      expect(page.value.items[0]!.tokenData.amount).toBe(2n ** 60n)
      const many = yield* compression.getMultipleCompressedAccountsV2({ hashes: [hashOf(9), hashOf(10)] })
      expect(many.value.items.map((a) => a?.proveByIndex ?? null)).toEqual([true, null])
      const proof = yield* compression.getValidityProofV2({ hashes: [hashOf(9)] })
      expect(proof.value.compressedProof).toBeNull()
      expect(yield* compression.getIndexerSlot()).toBe(4242)
      expect(yield* compression.getIndexerHealth()).toBe("ok")
      const sigs = yield* Stream.runCollect(compression.getCompressionSignaturesForOwnerStream({ owner: OWNER }))
      expect(Chunk.size(sigs)).toBe(0)
      const sent = (yield* (yield* HttpTesting.RequestLog).requests).map((r) => [bodyOf(r).method, bodyOf(r).params])
      expect(sent).toEqual([
        ["getCompressedTokenAccountsByOwnerV2", { owner: OWNER, limit: 5 }],
        ["getMultipleCompressedAccountsV2", { hashes: [hashOf(9), hashOf(10)] }],
        ["getValidityProofV2", { hashes: [hashOf(9)] }],
        ["getIndexerSlot", []],
        ["getIndexerHealth", []],
        ["getCompressionSignaturesForOwner", { owner: OWNER, limit: 1000 }]
      ])
    }).pipe(provide((req) => {
      const { method } = bodyOf(req)
      const ctx = (value: unknown) => reply(req, { context: { slot: 9 }, value })
      switch (method) {
        case "getCompressedTokenAccountsByOwnerV2":
          return ctx({
            items: [{
              account: accountV2(9),
              tokenData: {
                mint: MINT,
                owner: OWNER,
                amount: 2n ** 60n,
                delegate: null,
                state: "initialized",
                tlv: null
              }
            }],
            cursor: null
          })
        case "getMultipleCompressedAccountsV2":
          return ctx({ items: [accountV2(9), null] })
        case "getValidityProofV2":
          return ctx({
            compressedProof: null,
            accounts: [{
              hash: hashOf(9),
              root: hashOf(11),
              rootIndex: { rootIndex: 0, proveByIndex: true },
              leafIndex: 3,
              merkleContext: accountV2(9).merkleContext
            }],
            addresses: []
          })
        case "getIndexerSlot":
          return reply(req, 4242)
        case "getIndexerHealth":
          return reply(req, "ok")
        default:
          return ctx({ items: [], cursor: null })
      }
    })))

  it.effect("V2 bad input sends nothing; a V2 proof costs the table's 100 credits", () =>
    Effect.gen(function*() {
      const compression = yield* Compression.Compression
      const both = yield* Effect.flip(
        compression.getMultipleCompressedAccountsV2({ hashes: [hashOf(9)], addresses: [OWNER] })
      )
      expect(both).toMatchObject({ _tag: "InvalidRequest", field: "addresses" })
      const none = yield* Effect.flip(compression.getValidityProofV2({}))
      expect(none).toMatchObject({ _tag: "InvalidRequest", field: "hashes" })
      expect(yield* (yield* HttpTesting.RequestLog).count).toBe(0)
      const counter = Credits.forMethod("photon", "getValidityProofV2")
      const before = (yield* Metric.value(counter)).count
      yield* compression.getValidityProofV2({ hashes: [hashOf(9)] })
      expect((yield* Metric.value(counter)).count - before).toBe(100)
    }).pipe(provide((req) =>
      reply(req, { context: { slot: 1 }, value: { compressedProof: null, accounts: [], addresses: [] } })
    )))
})
