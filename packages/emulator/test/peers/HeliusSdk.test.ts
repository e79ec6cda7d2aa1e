/**
 * helius-sdk 3.2.0 against the emulator (`createHelius({ apiKey, baseUrl })`, as its README
 * points it at another endpoint): what the world API made is read back through the SDK's own
 * DAS and ZK Compression methods, and a compressed NFT's proof verifies against its root.
 */
import { describe, expect, it } from "@effect/vitest"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Effect from "effect/Effect"
import { createHelius } from "helius-sdk"
import * as Emulator from "../../src/Emulator.js"

describe("helius-sdk 3.2.0 against the emulator", () => {
  it.scopedLive("a compressed NFT and compressed tokens the world API made, through the SDK's DAS and zk methods", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 5 })
      const helius = createHelius({ apiKey: emu.apiKey, baseUrl: `${emu.url}/` })
      const owner = emu.dataset.address("peers:helius")
      const leaf = yield* emu.world.compress({ owner, name: "Peer leaf" })
      const { mint } = yield* emu.world.mintFungible({ owner, amount: 1_000n })
      const tokens = yield* emu.world.compress({ owner, mint, amount: 400n })

      const read = yield* Effect.promise(async () => ({
        asset: await helius.getAsset({ id: leaf.assetId! }),
        owned: await helius.getAssetsByOwner({ ownerAddress: owner, page: 1 }),
        proof: await helius.getAssetProof({ id: leaf.assetId! }),
        signatures: await helius.getSignaturesForAsset({ id: leaf.assetId!, page: 1 }),
        accounts: await helius.zk.getCompressedTokenAccountsByOwner({ owner }),
        balances: await helius.zk.getCompressedTokenBalancesByOwnerV2({ owner })
      }))
      expect(read.asset.compression).toMatchObject({ compressed: true, tree: leaf.tree, leaf_id: 0, seq: 1 })
      expect(read.asset.ownership.owner).toBe(owner)
      expect(read.owned.items.map((a: any) => a.id)).toEqual([leaf.assetId])
      expect(MerkleProof.verify(read.proof as never)).toEqual({ valid: true })
      expect(read.signatures.items).toEqual([[leaf.signature, "MintV1"]])
      expect(read.accounts.value.items.map((a: any) => [a.account.hash, a.tokenData.mint, Number(a.tokenData.amount)]))
        .toEqual([[tokens.hash, mint, 400]])
      expect(read.balances.value.items.map((b: any) => [b.mint, Number(b.balance)])).toEqual([[mint, 400]])
      expect(emu.requests.map((r) => r.operation)).toEqual([
        "getAsset",
        "getAssetsByOwner",
        "getAssetProof",
        "getSignaturesForAsset",
        "getCompressedTokenAccountsByOwner",
        "getCompressedTokenBalancesByOwnerV2"
      ])
    }))
})
