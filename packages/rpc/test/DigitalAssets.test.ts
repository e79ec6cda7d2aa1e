/**
 * DigitalAssets over a fake HTTP client: the params it sends, validation before
 * any I/O, page streaming and resumption, proof chunking and verification, credits.
 */
import { describe, expect, it } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as MerkleProof from "@solfx/core/MerkleProof"
import { encodeBase58 } from "@solfx/core/Primitives"
import { HttpTesting } from "@solfx/http"
import * as Credits from "@solfx/http/Credits"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

const addr = (n: number) => encodeBase58(keccak_256(new Uint8Array([n, n >> 8, 7])))
const OWNER = addr(1)
const AUTHORITY = addr(2)

const layerFor = (handler: HttpTesting.Handler, options?: DigitalAssets.Options) =>
  DigitalAssets.layerWith(options ?? {}).pipe(Layer.provideMerge(HttpTesting.layerTransport(handler)))

const run = <A, E>(
  handler: HttpTesting.Handler,
  f: (das: DigitalAssets.DigitalAssetsShape) => Effect.Effect<A, E>,
  options?: DigitalAssets.Options
) =>
  Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const log = yield* HttpTesting.RequestLog
    const exit = yield* Effect.exit(f(das))
    return { exit, count: yield* log.count, requests: yield* log.requests }
  }).pipe(Effect.provide(layerFor(handler, options)))

const params = (r: HttpTesting.RecordedRequest) => (r.body as { params: Record<string, unknown> }).params
const methodOf = (r: HttpTesting.RecordedRequest) => (r.body as { method: string }).method
const failure = (exit: any) => (exit._tag === "Failure" ? exit.cause.error : undefined)

const tokenAccount = (i: number) => ({
  address: addr(1000 + i),
  mint: addr(3),
  owner: OWNER,
  amount: i,
  delegated_amount: 0,
  frozen: false
})

const asset = (i: number) => ({
  interface: "V1_NFT",
  id: addr(5000 + i),
  authorities: [{ address: AUTHORITY, scopes: ["full"] }],
  compression: {
    eligible: false,
    compressed: false,
    data_hash: "",
    creator_hash: "",
    asset_hash: "",
    tree: "",
    seq: 0,
    leaf_id: 0
  },
  grouping: [],
  royalty: {
    royalty_model: "creators",
    target: null,
    percent: 0,
    basis_points: 0,
    primary_sale_happened: false,
    locked: false
  },
  creators: [],
  ownership: { frozen: false, delegated: false, delegate: null, ownership_model: "single", owner: OWNER },
  burnt: false
})

/** A fake numbered-page server over `total` assets. */
const assetPages = (total: number): HttpTesting.Handler => (req) => {
  const p = params(req) as { page?: number; limit?: number }
  const limit = p.limit ?? 1000
  const start = ((p.page ?? 1) - 1) * limit
  const items = Array.from({ length: Math.max(0, Math.min(limit, total - start)) }, (_, k) => asset(start + k))
  return HttpTesting.rpcResult(req, { total, limit, page: p.page, items })
}

describe("DigitalAssets (unit)", () => {
  it.effect("getTokenAccounts sends the named params and decodes u64 amounts as bigint", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) =>
          HttpTesting.rpcResult(req, {
            last_indexed_slot: 5,
            total: 1,
            limit: 10,
            cursor: null,
            token_accounts: [{ ...tokenAccount(0), amount: "18446744073709551615" }]
          }),
        (das) => das.getTokenAccounts({ owner: OWNER, limit: 10, page: 2, options: { showZeroBalance: true } })
      )
      expect(r.exit._tag).toBe("Success")
      if (r.exit._tag === "Success") expect(r.exit.value.token_accounts[0]!.amount).toBe(18446744073709551615n)
      expect(methodOf(r.requests[0]!)).toBe("getTokenAccounts")
      expect(params(r.requests[0]!)).toEqual({ owner: OWNER, limit: 10, page: 2, options: { showZeroBalance: true } })
    }))

  it.effect("invalid input fails with InvalidRequest naming the field, and sends nothing", () =>
    Effect.gen(function*() {
      const never: HttpTesting.Handler = (req) => HttpTesting.rpcResult(req, {})
      const cases: Array<[(das: DigitalAssets.DigitalAssetsShape) => Effect.Effect<unknown, any>, string]> = [
        [(das) => das.getTokenAccounts({ owner: OWNER, limit: 1001 }), "limit"],
        [(das) => das.getTokenAccounts({ owner: OWNER, page: 0 }), "page"],
        [(das) => das.getTokenAccounts({ owner: "nope" }), "owner"],
        [
          (das) => das.getAssetsByAuthority({ authorityAddress: AUTHORITY, sortBy: { sortBy: "id" as any } }),
          "sortBy.sortBy"
        ],
        [(das) => das.getSignaturesForAsset({ id: AUTHORITY, page: 1, cursor: "x" }), "cursor"],
        [
          (das) => Stream.runDrain(das.getAssetsByAuthorityStream({ authorityAddress: AUTHORITY }, { concurrency: 0 })),
          "options.concurrency"
        ],
        [
          (das) => Stream.runDrain(das.getAssetsByAuthorityStream({ authorityAddress: AUTHORITY, page: 2 } as any)),
          "page"
        ],
        [
          (das) =>
            Stream.runDrain(das.getTokenAccountsStream({ owner: OWNER }, { mode: "page", start: { cursor: "c" } })),
          "options.start"
        ],
        [(das) => das.getAssetProofBatch([OWNER, "bad"]), "ids[1]"],
        [(das) => das.getAssetProofBatch([OWNER], { batchSize: 1001 }), "options.batchSize"]
      ]
      for (const [call, field] of cases) {
        const r = yield* run(never, call)
        expect([field, failure(r.exit)?._tag, failure(r.exit)?.field]).toEqual([field, "InvalidRequest", field])
        expect(r.count).toBe(0)
      }
    }))

  it.effect("a numbered stream fetches page 1, then the rest concurrently, in order, each item once", () =>
    Effect.gen(function*() {
      const r = yield* run(assetPages(2345), (das) =>
        Stream.runCollect(das.getAssetsByAuthorityStream(
          { authorityAddress: AUTHORITY, limit: 100, sortBy: { sortBy: "created", sortDirection: "asc" } },
          { concurrency: 8 }
        )))
      expect(r.exit._tag).toBe("Success")
      const ids = r.exit._tag === "Success" ? Chunk.toReadonlyArray(r.exit.value).map((a) => a.id) : []
      expect(ids).toEqual(Array.from({ length: 2345 }, (_, i) => addr(5000 + i)))
      expect(r.count).toBe(24)
      expect(r.requests.map((q) => params(q).page).sort((a: any, b: any) => a - b)).toEqual(
        Array.from({ length: 24 }, (_, i) => i + 1)
      )
      expect(params(r.requests[0]!)).toMatchObject({ sortBy: { sortBy: "created", sortDirection: "asc" }, limit: 100 })
    }))

  it.effect("Stream.take(5) sends exactly one request", () =>
    Effect.gen(function*() {
      const r = yield* run(assetPages(10_000), (das) =>
        Stream.runCollect(
          das.getAssetsByAuthorityStream({ authorityAddress: AUTHORITY }, { concurrency: 8 }).pipe(
            Stream.take(5)
          )
        ))
      expect(r.exit._tag === "Success" && r.exit.value.length).toBe(5)
      expect(r.count).toBe(1)
    }))

  it.effect("pages report where to resume, and a start page resumes there", () =>
    Effect.gen(function*() {
      const first = yield* run(assetPages(450), (das) =>
        Stream.runCollect(
          das.getAssetsByAuthorityPages({ authorityAddress: AUTHORITY, limit: 100 }).pipe(Stream.take(2))
        ))
      const pages = first.exit._tag === "Success" ? Chunk.toReadonlyArray(first.exit.value) : []
      expect(pages.map((p) => p.next)).toEqual([{ page: 2 }, { page: 3 }])
      const resumed = yield* run(assetPages(450), (das) =>
        Stream.runCollect(das.getAssetsByAuthorityStream({ authorityAddress: AUTHORITY, limit: 100 }, {
          start: pages[1]!.next!
        })))
      const ids = resumed.exit._tag === "Success"
        ? Chunk.toReadonlyArray(resumed.exit.value).map((a) =>
          a.id
        )
        : []
      expect(ids).toEqual(Array.from({ length: 250 }, (_, i) => addr(5000 + 200 + i)))
      expect(params(resumed.requests[0]!).page).toBe(3)
    }))

  it.effect("cursor mode is sequential, sends the cursor back and stops at a null cursor", () =>
    Effect.gen(function*() {
      const handler: HttpTesting.Handler = (req) => {
        const p = params(req) as { cursor?: string; limit: number }
        const start = p.cursor === undefined ? 0 : Number(p.cursor.slice(1))
        const end = Math.min(25, start + p.limit)
        const token_accounts = Array.from({ length: end - start }, (_, k) => tokenAccount(start + k))
        return HttpTesting.rpcResult(req, {
          total: end - start,
          limit: p.limit,
          cursor: end < 25 ? `c${end}` : null,
          token_accounts
        })
      }
      const r = yield* run(
        handler,
        (das) => Stream.runCollect(das.getTokenAccountsStream({ owner: OWNER, limit: 10 }, { mode: "cursor" }))
      )
      const amounts = r.exit._tag === "Success" ? Chunk.toReadonlyArray(r.exit.value).map((t) => t.amount) : []
      expect(amounts).toEqual(Array.from({ length: 25 }, (_, i) => BigInt(i)))
      expect(r.requests.map((q) => params(q).cursor)).toEqual([undefined, "c10", "c20"])
      const resumed = yield* run(
        handler,
        (das) => Stream.runCollect(das.getTokenAccountsPages({ owner: OWNER, limit: 10 }, { start: { cursor: "c20" } }))
      )
      const pages = resumed.exit._tag === "Success" ? Chunk.toReadonlyArray(resumed.exit.value) : []
      expect(pages.map((p) => [p.items.length, p.next])).toEqual([[5, undefined]])
    }))

  it.effect("getAssetProofBatch chunks any number of ids, merges by id, and maps null to none", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 2500 }, (_, i) => addr(9000 + i))
      const proof = MerkleProof.proofRecord(MerkleProof.buildTree([keccak_256(new Uint8Array([1]))], 3), 0)
      const handler: HttpTesting.Handler = (req) => {
        const chunk = params(req).ids as Array<string>
        const result: Record<string, unknown> = {}
        chunk.forEach((id, i) => {
          // every third id unknown (null); every fifth left out entirely
          if (i % 5 === 4) return
          result[id] = i % 3 === 2 ? null : { ...proof, tree_id: OWNER, last_indexed_slot: 1 }
        })
        return HttpTesting.rpcResult(req, result)
      }
      const r = yield* run(
        handler,
        (das) => das.getAssetProofBatch([...ids, ids[0]!], { batchSize: 1000, concurrency: 2 })
      )
      expect(r.requests.map((q) => (params(q).ids as Array<string>).length)).toEqual([1000, 1000, 500])
      expect(r.exit._tag).toBe("Success")
      if (r.exit._tag !== "Success") return
      const map = r.exit.value
      expect([...map.keys()]).toEqual(ids)
      expect(Option.isSome(map.get(ids[0]!)!)).toBe(true)
      expect(Option.isNone(map.get(ids[2]!)!)).toBe(true)
      expect(Option.isNone(map.get(ids[4]!)!)).toBe(true)
      const none = yield* run(handler, (das) => das.getAssetProofBatch([]))
      expect([none.exit._tag, none.count]).toEqual(["Success", 0])
    }))

  it.effect("the verified batch fails with InvalidProof naming the id whose proof does not hash to its root", () =>
    Effect.gen(function*() {
      const leaves = [1, 2, 3].map((n) => keccak_256(new Uint8Array([n])))
      const tree = MerkleProof.buildTree(leaves, 4)
      const good = addr(1)
      const bad = addr(2)
      const handler: HttpTesting.Handler = (req) => {
        const tampered = MerkleProof.proofRecord(tree, 2)
        return HttpTesting.rpcResult(req, {
          [good]: { ...MerkleProof.proofRecord(tree, 1), tree_id: OWNER },
          [bad]: {
            ...tampered,
            tree_id: OWNER,
            proof: [tampered.proof[1], tampered.proof[0], ...tampered.proof.slice(2)]
          }
        })
      }
      const ok = yield* run(handler, (das) => das.getAssetProofBatchVerified([good]))
      expect(ok.exit._tag).toBe("Success")
      const ko = yield* run(handler, (das) => das.getAssetProofBatchVerified([good, bad]))
      expect(failure(ko.exit)).toMatchObject({ _tag: "InvalidProof", id: bad })
    }))

  it.effect("adds the configured cost of every request to solfx.credits{area=das}", () =>
    Effect.gen(function*() {
      const counter = Credits.forMethod("das", "getAssetsByAuthority")
      const before = (yield* Metric.value(counter)).count
      const r = yield* run(
        assetPages(250),
        (das) => Stream.runDrain(das.getAssetsByAuthorityStream({ authorityAddress: AUTHORITY, limit: 100 })),
        { costs: { getAssetsByAuthority: 7 } }
      )
      expect(r.count).toBe(3)
      expect((yield* Metric.value(counter)).count - before).toBe(21)
    }))
})

describe("DigitalAssets read API (unit)", () => {
  const ownerPages = (total: number): HttpTesting.Handler => (req, index) =>
    methodOf(req) === "getAssetsByOwner"
      ? assetPages(total)(req, index)
      : HttpTesting.rpcError(req, -32601, "Method not found")

  it.effect("each method sends its own name and the params as given", () =>
    Effect.gen(function*() {
      const list = (req: HttpTesting.RecordedRequest) =>
        methodOf(req) === "getAsset"
          ? HttpTesting.rpcResult(req, asset(0))
          : HttpTesting.rpcResult(req, { total: 1, limit: 10, page: 1, items: [asset(0)] })
      const calls: Array<[string, (das: DigitalAssets.DigitalAssetsShape) => Effect.Effect<unknown, any>, unknown]> = [
        ["getAsset", (das) => das.getAsset({ id: OWNER, options: { showFungible: true } }), {
          id: OWNER,
          options: { showFungible: true }
        }],
        ["getAssetsByOwner", (das) => das.getAssetsByOwner({ ownerAddress: OWNER, page: 2, limit: 10 }), {
          ownerAddress: OWNER,
          page: 2,
          limit: 10
        }],
        [
          "getAssetsByGroup",
          (das) => das.getAssetsByGroup({ groupKey: "collection", groupValue: AUTHORITY, limit: 10 }),
          { groupKey: "collection", groupValue: AUTHORITY, limit: 10 }
        ],
        [
          "getAssetsByCreator",
          (das) => das.getAssetsByCreator({ creatorAddress: AUTHORITY, onlyVerified: true }),
          { creatorAddress: AUTHORITY, onlyVerified: true }
        ],
        [
          "searchAssets",
          (das) =>
            das.searchAssets({ ownerAddress: OWNER, compressed: true, grouping: ["collection", AUTHORITY], limit: 10 }),
          { ownerAddress: OWNER, compressed: true, grouping: ["collection", AUTHORITY], limit: 10 }
        ]
      ]
      for (const [method, call, sent] of calls) {
        const r = yield* run(list, call)
        expect([method, r.exit._tag]).toEqual([method, "Success"])
        expect(methodOf(r.requests[0]!)).toBe(method)
        expect(params(r.requests[0]!)).toEqual(sent)
      }
    }))

  it.effect("bad input fails with InvalidRequest naming the field, and sends nothing", () =>
    Effect.gen(function*() {
      const never: HttpTesting.Handler = (req) => HttpTesting.rpcResult(req, {})
      const cases: Array<[(das: DigitalAssets.DigitalAssetsShape) => Effect.Effect<unknown, any>, string]> = [
        [(das) => das.getAsset({ id: "nope" }), "id"],
        [(das) => das.getAssetBatch({ ids: [OWNER, "bad"] }), "ids[1]"],
        [(das) => das.getAssetBatch({ ids: [OWNER] }, { batchSize: 0 }), "options.batchSize"],
        [(das) => das.getAssetProof({ id: "0" }), "id"],
        [(das) => das.getAssetsByOwner({ ownerAddress: OWNER, limit: 1001 }), "limit"],
        [(das) => das.searchAssets({ ownerAddress: OWNER, interface: "Nope" as any }), "interface"],
        [(das) => Stream.runDrain(das.getAssetsByOwnerStream({ ownerAddress: OWNER, page: 3 } as any)), "page"],
        [(das) => Stream.runDrain(das.searchAssetsStream({ ownerAddress: "x" })), "ownerAddress"]
      ]
      for (const [call, field] of cases) {
        const r = yield* run(never, call)
        expect([field, failure(r.exit)?._tag, failure(r.exit)?.field]).toEqual([field, "InvalidRequest", field])
        expect(r.count).toBe(0)
      }
    }))

  it.effect("getAssetsByOwnerStream: page 1, then the rest in parallel, in order, each asset once", () =>
    Effect.gen(function*() {
      const r = yield* run(
        ownerPages(2345),
        (das) => Stream.runCollect(das.getAssetsByOwnerStream({ ownerAddress: OWNER, limit: 100 }, { concurrency: 8 }))
      )
      const ids = r.exit._tag === "Success" ? Chunk.toReadonlyArray(r.exit.value).map((a) => a.id) : []
      expect(ids).toEqual(Array.from({ length: 2345 }, (_, i) => addr(5000 + i)))
      expect(r.count).toBe(24)
      expect(r.requests.every((q) => methodOf(q) === "getAssetsByOwner")).toBe(true)
    }))

  it.effect("getAssetBatch chunks by the table's rule, keeps order, and an unknown id is none in its place", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 2500 }, (_, i) => addr(5000 + i))
      const handler: HttpTesting.Handler = (req) =>
        HttpTesting.rpcResult(
          req,
          (params(req).ids as Array<string>).map((id) => {
            const i = ids.indexOf(id)
            return i % 7 === 3 ? null : asset(i)
          })
        )
      const r = yield* run(handler, (das) => das.getAssetBatch({ ids, options: { showFungible: true } }))
      expect(r.requests.map((q) => (params(q).ids as Array<string>).length)).toEqual([1000, 1000, 500])
      expect(params(r.requests[0]!).options).toEqual({ showFungible: true })
      const got = r.exit._tag === "Success" ? r.exit.value : []
      expect(got.length).toBe(2500)
      got.forEach((a, i) =>
        expect(Option.map(a, (x) => x.id)).toEqual(i % 7 === 3 ? Option.none() : Option.some(ids[i]))
      )
    }))

  it.effect("getAssetBatch: an answer of the wrong length is a DecodeError", () =>
    Effect.gen(function*() {
      const r = yield* run((req) => HttpTesting.rpcResult(req, [asset(0)]), (das) =>
        das.getAssetBatch({ ids: [addr(5000), addr(5001)] }))
      expect(failure(r.exit)).toMatchObject({ _tag: "DecodeError", operation: "getAssetBatch", path: "$" })
    }))

  it.effect("concurrent getAssetProof calls go out as getAssetProofBatch requests of at most 1000 ids", () =>
    Effect.gen(function*() {
      const ids = Array.from({ length: 2500 }, (_, i) => addr(9000 + i))
      const proof = MerkleProof.proofRecord(MerkleProof.buildTree([keccak_256(new Uint8Array([1]))], 3), 0)
      const handler: HttpTesting.Handler = (req) =>
        HttpTesting.rpcResult(
          req,
          Object.fromEntries(
            (params(req).ids as Array<string>).map((
              id
            ) => [id, ids.indexOf(id) % 4 === 1 ? null : { ...proof, tree_id: id }])
          )
        )
      const counter = Credits.forMethod("das", "getAssetProofBatch")
      const before = (yield* Metric.value(counter)).count
      const r = yield* run(
        handler,
        (das) => Effect.forEach([...ids, ids[0]!], (id) => das.getAssetProof({ id }), { batching: true })
      )
      expect(r.requests.map(methodOf)).toEqual(["getAssetProofBatch", "getAssetProofBatch", "getAssetProofBatch"])
      expect(r.requests.map((q) => (params(q).ids as Array<string>).length)).toEqual([1000, 1000, 500])
      expect((yield* Metric.value(counter)).count - before).toBe(30)
      const got = r.exit._tag === "Success" ? r.exit.value : []
      expect(got.length).toBe(2501)
      got.forEach((p, i) =>
        expect(Option.map(p, (x) => x.tree_id)).toEqual(
          i % 4 === 1 && i < 2500 ? Option.none() : Option.some(ids[i % 2500])
        )
      )
      const one = yield* run(handler, (das) => das.getAssetProof({ id: ids[0]! }))
      expect([one.count, params(one.requests[0]!).ids]).toEqual([1, [ids[0]]])
    }))
})
