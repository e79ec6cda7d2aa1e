/**
 * The DAS data as the real service has it: a closed dataset (an address it does not hold
 * has nothing), and compressed asset ids that are the Bubblegum asset address of their tree
 * and leaf index, derived here with @solana/kit rather than the emulator's own code.
 */
import { describe, expect, it } from "@effect/vitest"
import { address, getAddressEncoder, getProgramDerivedAddress, getU64Encoder } from "@solana/kit"
import * as Json from "@solfx/core/Json"
import * as Effect from "effect/Effect"
import * as Dataset from "../src/Dataset.js"
import * as Emulator from "../src/Emulator.js"
import * as AssetSeed from "../src/seed/DigitalAssets.js"
import { rpc } from "./support/Http.js"

const NOBODY = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
const BUBBLEGUM = address("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY")

const leafAssetId = async (tree: string, leafIndex: number) => {
  const [pda] = await getProgramDerivedAddress({
    programAddress: BUBBLEGUM,
    seeds: ["asset", getAddressEncoder().encode(address(tree)), getU64Encoder().encode(BigInt(leafIndex))]
  })
  return pda as string
}

describe("DAS fidelity", () => {
  it("an asset's text, written directly on the hot path, is its value's JSON, u64s exact", () => {
    const dataset = Dataset.make(5, { "das.authorityAssets": 1200 })
    for (const authority of [AssetSeed.sampleAuthority(dataset), AssetSeed.bigAuthority(dataset)]) {
      // 1,200 assets: every interface, compressed or not, delegated, frozen, with a u64 supply or not.
      for (let i = 0; i < 1200; i++) {
        expect(AssetSeed.assetText(dataset, authority, i)).toBe(
          Json.stringify(AssetSeed.assetJson(dataset, authority, i))
        )
      }
    }
    expect(AssetSeed.assetText(dataset, AssetSeed.sampleAuthority(dataset), 7)).toMatch(
      /"print_max_supply":\d{19},/
    )
  })

  it.scopedLive("an authority, owner, mint or asset the dataset does not hold has nothing (total 0)", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 9 })
      const assets = (yield* rpc(emu, "getAssetsByAuthority", { authorityAddress: NOBODY })).json.result
      expect(assets).toMatchObject({ total: 0, items: [] })
      const paged = (yield* rpc(emu, "getAssetsByAuthority", { authorityAddress: NOBODY, page: 1, limit: 10 })).json
      expect(paged.result).toMatchObject({ total: 0, items: [] })
      const byOwner = (yield* rpc(emu, "getTokenAccounts", { owner: NOBODY })).json.result
      expect(byOwner).toMatchObject({ total: 0, token_accounts: [] })
      const byMint = (yield* rpc(emu, "getTokenAccounts", { mint: NOBODY })).json.result
      expect(byMint).toMatchObject({ total: 0, token_accounts: [] })
      const sigs = (yield* rpc(emu, "getSignaturesForAsset", { id: NOBODY })).json.result
      expect(sigs).toMatchObject({ total: 0, items: [] })
      // The extra authorities the knobs size do have data.
      const extra = AssetSeed.extraAuthority(emu.dataset, 0)
      expect((yield* rpc(emu, "getAssetsByAuthority", { authorityAddress: extra })).json.result.total)
        .toBeGreaterThan(0)
    }))

  it.scopedLive("a compressed asset's id is the Bubblegum PDA of its tree and leaf index", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 9 })
      const page = (yield* rpc(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.assetAuthority,
        page: 1,
        limit: 40
      })).json.result
      const compressed = page.items.filter((a: any) => a.compression.compressed)
      expect(compressed.length).toBe(10)
      for (const asset of compressed) {
        expect(asset.id).toBe(
          yield* Effect.promise(() => leafAssetId(asset.compression.tree, asset.compression.leaf_id))
        )
      }
      // The proof of such an asset names the same tree and leaf.
      const id = compressed[3].id
      const proofs = (yield* rpc(emu, "getAssetProofBatch", { ids: [id] })).json.result
      expect(proofs[id].tree_id).toBe(compressed[3].compression.tree)
      expect(proofs[id].node_index).toBe(2 ** AssetSeed.TREE_DEPTH + compressed[3].compression.leaf_id)
      expect(emu.samples.compressedNft).toBe(compressed[0].id)
    }))

  it.scopedLive("Metaplex's method names getAssetProofs and getAssetSignatures are served", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 9 })
      const id = emu.samples.compressedNft
      const proofs = (yield* rpc(emu, "getAssetProofs", { ids: [id] })).json.result
      const batch = (yield* rpc(emu, "getAssetProofBatch", { ids: [id] })).json.result
      expect(proofs[id]).toEqual({ ...batch[id], last_indexed_slot: proofs[id].last_indexed_slot })
      const sigs = (yield* rpc(emu, "getAssetSignatures", { id, limit: 3 })).json.result
      expect(sigs.items).toHaveLength(3)
      expect(emu.count("getAssetSignatures")).toBe(1)
    }))
})
