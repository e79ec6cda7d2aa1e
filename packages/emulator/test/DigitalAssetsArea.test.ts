/**
 * The digital-asset and token-metadata areas, called with plain fetch as a client
 * that knows only the spec would: field names, limits, pagination, proofs, caching.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { post, rpc } from "./support/Http.js"
import { verifies } from "./support/MerkleCheck.js"

const start = (options: Emulator.Options = {}) => Emulator.make({ seed: 3, ...options })

describe("digital-assets area (raw JSON-RPC)", () => {
  it.scopedLive("getAssetsByAuthority answers the spec's list wrapper and asset fields", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const r = yield* rpc(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.assetAuthority,
        page: 1,
        limit: 4
      })
      expect(r.status).toBe(200)
      expect(Object.keys(r.json.result).sort()).toEqual(["items", "last_indexed_slot", "limit", "page", "total"])
      expect(r.json.result).toMatchObject({ total: 10_000, limit: 4, page: 1 })
      const asset = r.json.result.items[1]
      for (
        const key of [
          "interface",
          "id",
          "content",
          "authorities",
          "compression",
          "grouping",
          "royalty",
          "creators",
          "ownership",
          "burnt"
        ]
      ) {
        expect(asset).toHaveProperty(key)
      }
      expect(Object.keys(asset.compression).sort()).toEqual(
        ["asset_hash", "compressed", "creator_hash", "data_hash", "eligible", "leaf_id", "seq", "tree"]
      )
      expect(asset.compression.compressed).toBe(true)
      expect(r.json.result.items[0].compression.compressed).toBe(false)
      expect(emu.usage().usage.das).toBe(1)
    }))

  it.scopedLive("limits and malformed params are HTTP 400 with -32602", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const authorityAddress = emu.samples.assetAuthority
      const ids = Array.from({ length: 1001 }, () => authorityAddress)
      const cases: Array<[string, unknown]> = [
        ["getAssetsByAuthority", { authorityAddress, limit: 1001 }],
        ["getAssetsByAuthority", { authorityAddress, page: 0 }],
        ["getAssetsByAuthority", { authorityAddress, page: 2, cursor: "abc" }],
        ["getAssetsByAuthority", { authorityAddress, sortBy: { sortBy: "price" } }],
        ["getAssetsByAuthority", { authorityAddress, cursor: "not-a-cursor" }],
        ["getAssetsByAuthority", { authorityAddress, unknownKey: 1 }],
        ["getTokenAccounts", { limit: 10 }],
        ["getTokenAccounts", { owner: "0OIl" }],
        ["getSignaturesForAsset", {}],
        ["getAssetProofBatch", { ids }],
        ["getAssetProofBatch", { ids: [] }]
      ]
      for (const [method, params] of cases) {
        const r = yield* rpc(emu, method, params)
        expect([method, r.status, r.json.error?.code]).toEqual([method, 400, -32602])
      }
    }))

  it.scopedLive("cursor pages, numbered pages and before/after select the same order", () =>
    Effect.gen(function*() {
      const emu = yield* start({ sizes: { "das.authorityAssets": 2345 } })
      const authorityAddress = emu.samples.assetAuthority
      const sortBy = { sortBy: "recent_action", sortDirection: "desc" }
      const byPage: Array<string> = []
      for (let page = 1; page <= 3; page++) {
        const r = yield* rpc(emu, "getAssetsByAuthority", { authorityAddress, sortBy, page, limit: 1000 })
        byPage.push(...r.json.result.items.map((a: any) => a.id))
      }
      const byCursor: Array<string> = []
      let cursor: string | undefined = undefined
      let pages = 0
      do {
        const r: any = yield* rpc(emu, "getAssetsByAuthority", {
          authorityAddress,
          sortBy,
          limit: 1000,
          ...(cursor ? { cursor } : {})
        })
        byCursor.push(...r.json.result.items.map((a: any) => a.id))
        cursor = r.json.result.cursor ?? undefined
        pages++
      } while (cursor !== undefined)
      expect(pages).toBe(3)
      expect(byPage.length).toBe(2345)
      expect(byCursor).toEqual(byPage)
      const after = yield* rpc(emu, "getAssetsByAuthority", { authorityAddress, sortBy, after: byPage[99], limit: 3 })
      expect(after.json.result.items.map((a: any) => a.id)).toEqual(byPage.slice(100, 103))
      const between = yield* rpc(emu, "getAssetsByAuthority", {
        authorityAddress,
        sortBy,
        after: byPage[9],
        before: byPage[13]
      })
      expect(between.json.result.items.map((a: any) => a.id)).toEqual(byPage.slice(10, 13))
      const big = yield* rpc(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.bigAssetAuthority,
        page: 1,
        limit: 1
      })
      expect(big.json.result.total).toBe(100_000)
    }))

  it.scopedLive("getAssetProofBatch: real keccak proofs for compressed assets, null for the others", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const list = yield* rpc(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.assetAuthority,
        page: 7,
        limit: 20
      })
      const items: Array<any> = list.json.result.items
      const r = yield* rpc(emu, "getAssetProofBatch", { ids: items.map((a) => a.id) })
      expect(Object.keys(r.json.result).sort()).toEqual(items.map((a) => a.id).sort())
      for (const asset of items) {
        const proof = r.json.result[asset.id]
        if (!asset.compression.compressed) {
          expect(proof).toBeNull()
          continue
        }
        expect(Object.keys(proof).sort()).toEqual([
          "burnt",
          "last_indexed_slot",
          "leaf",
          "node_index",
          "proof",
          "root",
          "tree_id"
        ])
        expect(proof.proof.length).toBe(14)
        expect(proof.leaf).toBe(asset.compression.asset_hash)
        expect(verifies(proof)).toBe(true)
        expect(verifies({ ...proof, proof: [...proof.proof].reverse() })).toBe(false)
      }
    }))

  it.scopedLive("getTokenAccounts writes u64 amounts as bare JSON numbers with every digit", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const r = yield* rpc(emu, "getTokenAccounts", { owner: emu.samples.tokenAccountOwner, page: 1, limit: 50 })
      expect(r.json.result.total).toBe(2250)
      // 2^54 + n, unquoted (beyond 2^53, half of it too, yet a mint's accounts add up within u64: its supply)
      expect(r.text).toMatch(/"amount":1801(?:43|44)\d{11}[,}]/)
      const sigs = yield* rpc(emu, "getSignaturesForAsset", {
        id: emu.samples.compressedNft,
        page: 1,
        limit: 2
      })
      expect(sigs.json.result.items[0]).toEqual([expect.any(String), "MintToCollectionV1"])
      expect(sigs.json.result.total).toBe(2000)
    }))
})

describe("token-metadata area (raw REST)", () => {
  const tm = (emu: Emulator.Emulator, body: unknown) => post(emu, body, { path: "/v0/token-metadata" })

  it.scopedLive("records in input order; errors are strings on the part; offChainMetadata only on request", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const mints = [emu.samples.metadataMint, emu.samples.metadataBrokenMint]
      const plain = yield* tm(emu, { mintAccounts: mints })
      expect(plain.status).toBe(200)
      expect(plain.json.map((r: any) => r.account)).toEqual(mints)
      expect(Object.keys(plain.json[0]).sort()).toEqual([
        "account",
        "legacyMetadata",
        "onChainAccountInfo",
        "onChainMetadata"
      ])
      expect(plain.json[0].onChainMetadata.error).toBe("")
      expect(plain.json[1].onChainMetadata.error).not.toBe("")
      const full = yield* tm(emu, { mintAccounts: mints, includeOffChain: true })
      expect(full.json[0].offChainMetadata).toMatchObject({ error: "", uri: expect.stringMatching(/^https:/) })
      expect(emu.usage().usage.api).toBe(2)
    }))

  it.scopedLive("more than 100 mints, an invalid mint or a missing list is HTTP 400, not charged", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const mint = emu.samples.metadataMint
      for (
        const body of [{ mintAccounts: Array.from({ length: 101 }, () => mint) }, { mintAccounts: [mint, "nope"] }, {}]
      ) {
        const r = yield* tm(emu, body)
        expect(r.status).toBe(400)
        expect(typeof r.json.error).toBe("string")
      }
      expect(emu.usage().usage.api).toBe(0)
    }))

  it.scopedLive("the cache holds a record until disableCache reads the current one", () =>
    Effect.gen(function*() {
      const emu = yield* start({ slotMs: 5 })
      const body = { mintAccounts: [emu.samples.metadataLiveMint] }
      const supply = (r: any) => BigInt(r.json[0].onChainAccountInfo.accountInfo.data.parsed.info.supply)
      const a = supply(yield* tm(emu, body))
      yield* Effect.sleep("40 millis")
      expect(supply(yield* tm(emu, body))).toBe(a)
      const b = supply(yield* tm(emu, { ...body, disableCache: true }))
      expect(b > a).toBe(true)
    }))
})
