/**
 * Metaplex's DAS client (`@metaplex-foundation/digital-asset-standard-api` 2.1.1 over
 * umi-bundle-defaults' `createUmi`) pointed at the emulator over loopback, on the spec's
 * DAS methods it covers: getAssetsByAuthority, getAssetProofs (the spec's
 * getAssetProofBatch) and getAssetSignatures (the spec's getSignaturesForAsset), and the read API
 * it calls by default: getAsset, getAssets (Helius: getAssetBatch), getAssetProof, getAssetsByOwner,
 * getAssetsByGroup, getAssetsByCreator and searchAssets. getTokenAccounts has no method in this client.
 */
import { describe, expect, it } from "@effect/vitest"
import { dasApi, type DasApiInterface } from "@metaplex-foundation/digital-asset-standard-api"
import { publicKey } from "@metaplex-foundation/umi"
import { createUmi } from "@metaplex-foundation/umi-bundle-defaults"
import * as Effect from "effect/Effect"
import * as Emulator from "../../src/Emulator.js"

// The plugin decorates `umi.rpc` at run time; its type stays umi's RpcInterface.
const dasFor = (emu: Emulator.Emulator) =>
  createUmi(`${emu.url}/?api-key=${emu.apiKey}`).use(dasApi()).rpc as unknown as DasApiInterface

const withUmi = <A>(f: (umi: { readonly rpc: DasApiInterface }, emu: Emulator.Emulator) => Promise<A>) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.make({ seed: 13 })
    return yield* Effect.promise(() => f({ rpc: dasFor(emu) }, emu))
  })

describe("Metaplex DAS API 2.1.1 against the emulator", () => {
  it.scopedLive("getAssetsByAuthority: pages, display options and the empty case", () =>
    withUmi(async (umi, emu) => {
      const authority = publicKey(emu.samples.assetAuthority)
      const page = await umi.rpc.getAssetsByAuthority({ authority, page: 2, limit: 50 })
      expect(page.total).toBe(10_000)
      expect(page.items).toHaveLength(50)
      expect(page.items[0]!.authorities[0]!.address).toBe(authority)
      const compressed = page.items.filter((a) => a.compression.compressed)
      expect(compressed.length).toBeGreaterThan(0)
      const shown = await umi.rpc.getAssetsByAuthority({
        authority,
        limit: 3,
        // showGrandTotal is the spec's (Helius's) option, outside Metaplex's DisplayOptions type.
        displayOptions: { showCollectionMetadata: true, showGrandTotal: true } as never
      })
      expect(shown.items).toHaveLength(3)
      expect((shown as unknown as { grand_total: number }).grand_total).toBe(10_000)
      const empty = await umi.rpc.getAssetsByAuthority({
        authority: publicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"),
        page: 1
      })
      expect(empty.total).toBe(0)
      expect(empty.items).toEqual([])
      expect(emu.count("getAssetsByAuthority")).toBe(3)
    }))

  it.scopedLive("getAssetProofs and getAssetSignatures of a compressed asset", () =>
    withUmi(async (umi, emu) => {
      const id = publicKey(emu.samples.compressedNft)
      const proofs = await umi.rpc.getAssetProofs([id])
      expect(proofs[id]!.proof).toHaveLength(14)
      expect(proofs[id]!.node_index).toBeGreaterThanOrEqual(2 ** 14)
      const sigs = await umi.rpc.getAssetSignatures({ assetId: id, limit: 10, page: 1 })
      expect(sigs.total).toBe(2_000)
      expect(sigs.items).toHaveLength(10)
      // The spec's items are [signature, kind] pairs (as Helius sends them); Metaplex's type says
      // objects but the client passes the items through untouched.
      expect((sigs.items[0] as unknown as [string, string])[1]).toBe("MintToCollectionV1")
      expect(emu.count("getAssetProofs")).toBe(1)
      expect(emu.count("getAssetSignatures")).toBe(1)
    }))

  it.scopedLive("the read API: getAsset, getAssets, getAssetProof, the owner, group and creator lists, searchAssets", () =>
    withUmi(async (umi, emu) => {
      const owner = publicKey(emu.samples.nftOwner)
      const byOwner = await umi.rpc.getAssetsByOwner({ owner, page: 2, limit: 20 })
      expect(byOwner.total).toBe(100_000)
      expect(byOwner.items).toHaveLength(20)
      const compressed = byOwner.items.find((a) => a.compression.compressed)!
      const plain = byOwner.items.find((a) => !a.compression.compressed)!
      for (const item of [compressed, plain]) {
        const asset = await umi.rpc.getAsset(item.id)
        expect(asset).toEqual(item)
        expect(asset.ownership.owner).toBe(owner)
      }
      expect(await umi.rpc.getAssets([plain.id, compressed.id])).toEqual([plain, compressed])

      const proof = await umi.rpc.getAssetProof(compressed.id)
      expect(proof.leaf).toBe(compressed.compression.asset_hash)
      expect(proof.tree_id).toBe(compressed.compression.tree)
      expect(proof.proof).toHaveLength(14)

      const group = compressed.grouping[0]!
      const byGroup = await umi.rpc.getAssetsByGroup({
        groupKey: group.group_key,
        groupValue: group.group_value!,
        page: 2,
        limit: 20
      })
      expect(byGroup.items).toEqual(byOwner.items)
      const byCreator = await umi.rpc.getAssetsByCreator({
        creator: compressed.creators[0]!.address,
        onlyVerified: true,
        page: 2,
        limit: 20
      })
      expect(byCreator.items).toEqual(byOwner.items)

      const search = await umi.rpc.searchAssets({ owner, compressed: true, interface: "V1_NFT", limit: 1000, page: 1 })
      expect(search.total).toBe(25_000)
      expect(search.items.every((a) => a.compression.compressed && a.ownership.owner === owner)).toBe(true)
      expect(search.items).toContainEqual(compressed)
      for (const method of ["getAssetsByOwner", "getAsset", "getAssets", "getAssetProof", "searchAssets"]) {
        expect(emu.count(method), method).toBeGreaterThan(0)
      }
    }))

  it.scopedLive("an unknown id: getAsset and getAssetProof throw the client's not-found errors", () =>
    Effect.gen(function*() {
      // A small big authority: an unknown id makes the emulator index every asset id first.
      const emu = yield* Emulator.make({ seed: 13, sizes: { "das.bigAuthorityAssets": 500 } })
      const rpc = dasFor(emu)
      const unknown = publicKey("7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU")
      yield* Effect.promise(() => expect(rpc.getAsset(unknown)).rejects.toThrow(/Asset not found/))
      yield* Effect.promise(() => expect(rpc.getAssetProof(unknown)).rejects.toThrow(/No proof found/))
      expect(emu.count("getAsset")).toBe(1)
      expect(emu.count("getAssetProof")).toBe(1)
    }))
})
