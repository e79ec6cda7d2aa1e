// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// examples/test/readme-world.test.ts runs it.
// #region readme
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { expect, layer } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Wallet from "@solfx/wallet/Wallet"
import { Effect, Layer, Option } from "effect"

const TestLayer = Layer.mergeAll(DigitalAssets.layer, Wallet.layer).pipe(
  Layer.provideMerge(HttpTransport.layer),
  Layer.provideMerge(Emulator.layerTest({ seed: 7 })),
  Layer.provide(NodeHttpClient.layerUndici)
)

layer(TestLayer, { excludeTestServices: true })("the emulator's world", (it) => {
  it.effect("an NFT minted to a fresh owner shows in DAS, token accounts and the Wallet API", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.EmulatorHandle
      const owner = emulator.dataset.address("readme:fresh-owner") // a fresh address holds nothing
      // One transaction of the world (over HTTP: POST /emulator/world/mintNft?api-key=…)
      const { mint } = yield* emulator.world.mintNft({ owner, name: "Readme NFT" })
      const das = yield* DigitalAssets.DigitalAssets
      expect((yield* das.getAsset({ id: mint! })).ownership.owner).toBe(owner)
      expect((yield* das.getAssetsByOwner({ ownerAddress: owner })).items.map((a) => a.id)).toEqual([mint])
      const accounts = yield* das.getTokenAccounts({ owner })
      expect(accounts.token_accounts.map((t) => [t.mint, t.amount])).toEqual([[mint, 1n]])
      const balances = yield* (yield* Wallet.Wallet).balances(owner, { showNfts: true })
      expect(balances.nfts.map((n) => n.mint)).toEqual([mint])
      // A compressed NFT: a leaf of the world's Merkle tree, whose proof the SDK verifies against the root.
      const leaf = yield* emulator.world.compress({ owner, name: "Readme cNFT" })
      const proofs = yield* das.getAssetProofBatchVerified([leaf.assetId!])
      expect(proofs.get(leaf.assetId!)?.pipe(Option.map((p) => p.tree_id))).toEqual(Option.some(leaf.tree))
    }))
})
// #endregion readme
