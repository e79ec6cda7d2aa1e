/**
 * The DAS read API (getAsset, getAssetBatch, getAssetProof, the owner/group/creator lists and
 * searchAssets) over raw JSON-RPC: one closed dataset seen the same way from every method.
 */
import { describe, expect, it } from "@effect/vitest"
import { decodeBase58 } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { rpc } from "./support/Http.js"
import { verifies } from "./support/MerkleCheck.js"

// A smaller big authority keeps the full-index and id-sorted cases quick; the 100,000 default is
// checked on its own below.
const start = (options: Emulator.Options = {}) =>
  Emulator.make({ seed: 21, sizes: { "das.bigAuthorityAssets": 3_000 }, ...options })

const result = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(rpc(emu, method, params), (r) => {
    expect(r.status, JSON.stringify(r.json)).toBe(200)
    expect(r.json.error, JSON.stringify(r.json.error)).toBeUndefined()
    return r.json.result
  })

/** Every page of a list method, by page number. */
const allPages = (emu: Emulator.Emulator, method: string, params: Record<string, unknown>) =>
  Effect.gen(function*() {
    const items: Array<any> = []
    for (let page = 1; page <= 100; page++) {
      const r = yield* result(emu, method, { ...params, page, limit: 1000 })
      items.push(...r.items)
      if (r.items.length < 1000) return { total: r.total as number, items }
    }
    throw new Error("more than 100 pages")
  })

describe("DAS read API (raw JSON-RPC)", () => {
  it.scopedLive("an asset is the same from getAsset, getAssetBatch, its authority, owner, group and creator lists", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const authority = emu.samples.assetAuthority
      const page = yield* result(emu, "getAssetsByAuthority", { authorityAddress: authority, page: 3, limit: 40 })
      expect(page.items).toHaveLength(40)
      for (const asset of page.items.slice(0, 6)) {
        expect(yield* result(emu, "getAsset", { id: asset.id })).toEqual(asset)
        const owner = asset.ownership.owner
        const collection = asset.grouping[0].group_value
        const creator = asset.creators[0].address
        const lists = [
          yield* allPages(emu, "getAssetsByOwner", { ownerAddress: owner }),
          yield* allPages(emu, "getAssetsByGroup", { groupKey: "collection", groupValue: collection }),
          yield* allPages(emu, "getAssetsByCreator", { creatorAddress: creator, onlyVerified: true }),
          yield* allPages(emu, "searchAssets", { ownerAddress: owner, grouping: ["collection", collection] })
        ]
        for (const list of lists) {
          expect(list.items).toHaveLength(list.total)
          expect(list.items.filter((a: any) => a.id === asset.id)).toEqual([asset])
        }
        expect(lists[0]!.items.every((a: any) => a.ownership.owner === owner)).toBe(true)
        expect(lists[1]!.items.every((a: any) => a.grouping[0].group_value === collection)).toBe(true)
        expect(lists[2]!.items.every((a: any) => a.creators[0].address === creator)).toBe(true)
      }
      const ids = page.items.slice(0, 5).map((a: any) => a.id)
      const unknown = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
      const batch = yield* result(emu, "getAssetBatch", { ids: [ids[0], unknown, ...ids.slice(1)] })
      expect(batch).toEqual([page.items[0], null, ...page.items.slice(1, 5)])
      // Metaplex's name, with its `options: {}`.
      expect(yield* result(emu, "getAssets", { ids, options: {} })).toEqual(page.items.slice(0, 5))
    }))

  it.scopedLive("an unknown id: getAsset and getAssetProof fail as the reference implementation does", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const unknown = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
      const asset = yield* rpc(emu, "getAsset", { id: unknown })
      expect(asset.status).toBe(200)
      expect(asset.json.error).toEqual({
        code: -32000,
        message: "Database Error: RecordNotFound Error: Asset Not Found"
      })
      const proof = yield* rpc(emu, "getAssetProof", { id: unknown })
      expect(proof.json.error.message).toBe("Database Error: RecordNotFound Error: Asset Proof Not Found")
      // An uncompressed asset has no proof either.
      const plain = yield* rpc(emu, "getAssetProof", { id: emu.samples.uncompressedNft })
      expect(plain.json.error.code).toBe(-32000)
      const bad = yield* rpc(emu, "getAsset", { id: "not-base58!" })
      expect(bad.status).toBe(400)
      expect(bad.json.error.code).toBe(-32602)
      expect(bad.json.error.message).toContain("id")
      expect(emu.count("getAsset")).toBe(2)
    }))

  it.scopedLive("an id of the big authority never served before is found (the dataset is closed)", () =>
    Effect.gen(function*() {
      // Two emulators of one seed: the second has served nothing when asked for the first's id.
      const first = yield* start()
      const owner = first.samples.nftOwner
      const page = yield* result(first, "getAssetsByOwner", { ownerAddress: owner, page: 3, limit: 2 })
      const second = yield* start()
      for (const asset of page.items) expect(yield* result(second, "getAsset", { id: asset.id })).toEqual(asset)
    }))

  it.scopedLive("getAssetProof equals the getAssetProofBatch entry, and every proof verifies with keccak", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const list = yield* result(emu, "searchAssets", {
        ownerAddress: emu.samples.nftOwner,
        compressed: true,
        limit: 30
      })
      expect(list.items.length).toBe(30)
      const ids = list.items.map((a: any) => a.id)
      const batch = yield* result(emu, "getAssetProofBatch", { ids })
      for (const asset of list.items) {
        const proof = yield* result(emu, "getAssetProof", { id: asset.id })
        // The same record; only the slot it was read at moves on.
        expect({ ...proof, last_indexed_slot: 0 }).toEqual({ ...batch[asset.id], last_indexed_slot: 0 })
        expect(verifies(proof)).toBe(true)
        expect(proof.leaf).toBe(asset.compression.asset_hash)
        expect(proof.tree_id).toBe(asset.compression.tree)
        expect(proof.node_index).toBe(2 ** proof.proof.length + asset.compression.leaf_id)
      }
      // Metaplex's getAssetProofs, too.
      const proofs = yield* result(emu, "getAssetProofs", { ids })
      for (const id of ids) {
        expect({ ...proofs[id], last_indexed_slot: 0 }).toEqual({ ...batch[id], last_indexed_slot: 0 })
      }
    }))

  it.scopedLive("searchAssets filters agree with the list methods and the assets' own fields", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const authority = emu.samples.assetAuthority
      const first = (yield* result(emu, "getAssetsByAuthority", { authorityAddress: authority, page: 2, limit: 10 }))
        .items[3]
      const owner = first.ownership.owner
      const byOwner = yield* allPages(emu, "getAssetsByOwner", { ownerAddress: owner })
      expect(byOwner.total).toBeGreaterThan(5)
      const cases: Array<[Record<string, unknown>, (a: any) => boolean]> = [
        [{ compressed: true }, (a) => a.compression.compressed],
        [{ compressed: false }, (a) => !a.compression.compressed],
        [{ interface: "MplCoreAsset" }, (a) => a.interface === "MplCoreAsset"],
        [{ frozen: true }, (a) => a.ownership.frozen],
        [{ burnt: false }, (a) => !a.burnt],
        [{ burnt: true }, (a) => a.burnt],
        [{ authorityAddress: authority }, (a) => a.authorities[0].address === authority],
        [{ creatorAddress: first.creators[0].address }, (a) => a.creators[0].address === first.creators[0].address],
        [{ tokenType: "compressedNft" }, (a) => a.compression.compressed],
        [{ royaltyAmount: first.royalty.basis_points }, (a) => a.royalty.basis_points === first.royalty.basis_points]
      ]
      for (const [filter, holds] of cases) {
        const search = yield* allPages(emu, "searchAssets", { ownerAddress: owner, ...filter })
        expect(search.items, JSON.stringify(filter)).toEqual(byOwner.items.filter(holds))
        expect(search.total).toBe(search.items.length)
      }
      // `any`: owner OR compressed; `negate`: neither.
      const any = yield* result(emu, "searchAssets", {
        conditionType: "any",
        ownerAddress: owner,
        jsonUri: first.content.json_uri,
        limit: 1000
      })
      expect(any.total).toBe(byOwner.total)
      const one = yield* result(emu, "searchAssets", {
        jsonUri: first.content.json_uri,
        name: first.content.metadata.name
      })
      expect(one.items).toEqual([first])
      const notOwner = yield* result(emu, "searchAssets", {
        negate: true,
        ownerAddress: owner,
        authorityAddress: authority,
        limit: 1
      })
      const everything = yield* result(emu, "searchAssets", { limit: 1 })
      expect(notOwner.total).toBe(everything.total - byOwner.total)
      // A key the dataset does not group by, an owner it does not hold: empty, not an error.
      expect((yield* result(emu, "searchAssets", { grouping: ["edition", owner] })).total).toBe(0)
      expect(yield* result(emu, "getAssetsByOwner", { ownerAddress: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU" }))
        .toMatchObject({ total: 0, items: [] })
      const badFilter = yield* rpc(emu, "searchAssets", { compressed: "yes" })
      expect(badFilter.status).toBe(400)
      expect(badFilter.json.error.message).toContain("compressed")
    }))

  it.scopedLive("sort orders and cursors: each asset once, in order", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const creator = emu.samples.nftCreator
      for (const sortBy of ["id", "updated", "created", "none"] as const) {
        const seen: Array<any> = []
        let cursor: string | undefined
        for (let n = 0; n < 10; n++) {
          const r = yield* result(emu, "getAssetsByCreator", {
            creatorAddress: creator,
            sortBy: { sortBy, sortDirection: "desc" },
            limit: 1000,
            ...(cursor === undefined ? {} : { cursor })
          })
          seen.push(...r.items)
          if (r.cursor === null) break
          cursor = r.cursor
        }
        expect(seen).toHaveLength(3_000)
        expect(new Set(seen.map((a) => a.id)).size).toBe(3_000)
        if (sortBy === "id") {
          const ids = seen.map((a) => decodeBase58(a.id)!)
          for (let k = 1; k < ids.length; k++) expect(Buffer.compare(ids[k - 1]!, ids[k]!)).toBe(1)
        }
        if (sortBy === "created") expect(seen[0].content.metadata.name).toBe("Asset #2999")
      }
    }))

  it.scopedLive("getNftEditions: a master edition's prints are assets of the dataset, as many as its supply says", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const mint = emu.samples.masterEdition
      const master = yield* result(emu, "getAsset", { id: mint })
      const editions = yield* result(emu, "getNftEditions", { mint, page: 1, limit: 100 })
      expect(editions.editions.length).toBeGreaterThan(0)
      expect(editions.total).toBe(editions.editions.length)
      expect(editions.supply).toBe(master.supply.print_current_supply)
      expect(editions.editions.map((e: any) => e.edition)).toEqual(editions.editions.map((_: any, k: number) => k + 1))
      for (const e of editions.editions) {
        const print = yield* result(emu, "getAsset", { id: e.mint })
        expect(print.authorities).toEqual(master.authorities)
      }
      // Metaplex's spelling of the param.
      expect((yield* result(emu, "getNftEditions", { mintAddress: mint })).editions).toEqual(editions.editions)
      const plain = yield* rpc(emu, "getNftEditions", { mint: emu.samples.uncompressedNft })
      expect(plain.json.error.code).toBe(-32000)
    }))

  it.scopedLive("the samples: an owner, a creator and a collection with 100,000 assets each (the default)", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 21 })
      const params = [
        ["getAssetsByOwner", { ownerAddress: emu.samples.nftOwner }],
        ["getAssetsByCreator", { creatorAddress: emu.samples.nftCreator }],
        ["getAssetsByGroup", { groupKey: "collection", groupValue: emu.samples.nftCollection }],
        ["searchAssets", { ownerAddress: emu.samples.nftOwner }]
      ] as const
      const lasts: Array<unknown> = []
      for (const [method, p] of params) {
        const r = yield* result(emu, method, { ...p, page: 100, limit: 1000 })
        expect(r.total).toBe(100_000)
        expect(r.items).toHaveLength(1000)
        lasts.push(r.items[999])
      }
      expect(new Set(lasts.map((a) => JSON.stringify(a))).size).toBe(1)
    }))
})
