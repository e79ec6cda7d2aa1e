/**
 * The world: the world API in process and over HTTP, its events, and bundles applying their
 * transfers atomically (an overdraw fails the whole bundle, and its status says so).
 */
import { describe, expect, it } from "@effect/vitest"
import * as MerkleProof from "@solfx/core/MerkleProof"
import { build, bundleIdOf, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import * as Events from "../src/Events.js"
import * as World from "../src/World.js"
import { get, rpc } from "./support/Http.js"

const control = (emu: Emulator.Emulator, call: string, body: unknown, key = emu.apiKey) =>
  Effect.promise(() =>
    fetch(new URL(`/emulator/world/${call}?api-key=${key}`, emu.url), {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: typeof body === "string" ? body : JSON.stringify(body)
    }).then(async (res) => ({ status: res.status, json: await res.json() as any }))
  )

describe("world", () => {
  it.scopedLive("fund, mint and transfer land transactions with balances before and after, published as events", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const landed: Array<Events.WorldLanded> = []
      const ticks: Array<Events.SlotTick> = []
      emu.events.worldLanded.subscribe((e) => landed.push(e))
      emu.events.slots.subscribe((t) => ticks.push(t))
      const [alice, bob] = [emu.dataset.address("test:alice"), emu.dataset.address("test:bob")]
      const start = emu.ledger.slot()

      const funded = yield* emu.world.fund({ address: alice, lamports: 2_000_000_000n })
      expect(funded.slot).toBe(start + 1)
      expect(emu.ledger.lamports(alice)).toBe(2_000_000_000n)
      const sent = yield* emu.world.transfer({ from: alice, to: bob, lamports: "500000000" })
      expect(sent.slot).toBe(start + 2)
      expect(emu.ledger.lamports(alice)).toBe(1_500_000_000n - 5_000n)
      expect(emu.ledger.lamports(bob)).toBe(500_000_000n)

      const nft = yield* emu.world.mintNft({ owner: bob, name: "Bob's" })
      expect(emu.ledger.nftOwner(nft.mint!)).toBe(bob)
      const fungible = yield* emu.world.mintFungible({ owner: alice, amount: 1_000n, decimals: 2 })
      yield* emu.world.transfer({ from: alice, to: bob, mint: fungible.mint, amount: 400 })
      expect(emu.ledger.holdersOf(fungible.mint!).map((t) => [t.owner, t.amount])).toEqual([
        [alice, 600n],
        [bob, 400n]
      ])
      expect(emu.ledger.mint(fungible.mint!)!.supply).toBe(1_000n)

      // Every call is one transaction, one event, in slot order, with a tick for each slot reached.
      expect(landed.map((e) => e.transactions.length)).toEqual([1, 1, 1, 1, 1])
      expect(landed.map((e) => e.slot)).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5])
      expect(ticks.map((t) => t.slot)).toEqual([start + 1, start + 2, start + 3, start + 4, start + 5])
      const tx = landed[1]!.transactions[0]!
      expect(tx).toMatchObject({ signature: sent.signature, feePayer: alice, fee: 5_000n, err: null, type: "TRANSFER" })
      expect(tx.accounts.find((a) => a.address === bob)).toMatchObject({
        lamportsBefore: 0n,
        lamportsAfter: 500_000_000n
      })
      expect(tx.nativeTransfers).toEqual([{ from: alice, to: bob, lamports: 500_000_000n }])
      const token = landed[4]!.transactions[0]!
      expect(token.tokenTransfers[0]).toMatchObject({
        from: alice,
        to: bob,
        mint: fungible.mint,
        amount: 400n,
        decimals: 2
      })
      expect(token.accounts.find((a) => a.token?.owner === bob)?.token).toMatchObject({
        amountBefore: 0n,
        amountAfter: 400n
      })
      expect(emu.ledger.transactionsOf(bob).map((t) => t.signature)[0]).toBe(token.signature)
      expect(
        landed.every((e, i) => i === 0 || e.transactions[0]!.blockTime >= landed[i - 1]!.transactions[0]!.blockTime)
      )
        .toBe(true)

      const advanced = yield* emu.world.advanceSlots({ slots: 3 })
      expect(advanced.slot).toBe(start + 8)
      expect(ticks.map((t) => t.slot).slice(-3)).toEqual([start + 6, start + 7, start + 8])
    }))

  it.scopedLive("bad input fails naming the field and changes nothing, in process and over HTTP", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const alice = emu.dataset.address("test:alice")
      const slot = emu.ledger.slot()
      const error = yield* Effect.flip(emu.world.transfer({ from: alice, to: alice, lamports: 1n }))
      expect([error._tag, error.field]).toEqual(["WorldInputError", "lamports"])
      expect((yield* Effect.flip(emu.world.fund({ address: "nope", lamports: 1 }))).field).toBe("address")

      expect(yield* control(emu, "fund", { address: alice, lamports: -1 })).toMatchObject({
        status: 400,
        json: { field: "lamports" }
      })
      expect(yield* control(emu, "mintNft", { owner: alice, programmable: "yes" })).toMatchObject({
        status: 400,
        json: { field: "programmable" }
      })
      expect(yield* control(emu, "fund", "[1]")).toMatchObject({ status: 400, json: { field: "body" } })
      expect(yield* control(emu, "fund", "{")).toMatchObject({ status: 400 })
      expect((yield* control(emu, "melt", {})).status).toBe(404)
      expect((yield* control(emu, "fund", { address: alice, lamports: 1 }, "wrong-key")).status).toBe(401)
      expect(emu.ledger.transactions()).toEqual([])
      expect(emu.ledger.slot()).toBe(slot)

      const ok = yield* control(emu, "fund", { address: alice, lamports: "7" })
      expect(ok.status).toBe(200)
      expect(ok.json.slot).toBe(slot + 1)
      expect(emu.ledger.lamports(alice)).toBe(7n)
      const minted = yield* control(emu, "mintNft", { owner: alice })
      expect(emu.ledger.nftOwner(minted.json.mint)).toBe(alice)
      // The control path is never charged.
      expect(emu.usage().creditsUsed).toBe(0)
    }))

  it.scopedLive("a bundle moves its transfers and fees atomically; an overdrawing one fails whole and says so", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const payer = yield* Effect.promise(() => signer())
      const bob = emu.dataset.address("test:bob")
      yield* emu.world.fund({ address: payer.address, lamports: 10_000_000n })
      // Bob's new account gets at least the rent-exempt minimum (890,880 lamports), as the runtime requires.
      const good = yield* Effect.promise(() =>
        build({
          version: 0,
          payer,
          instructions: [transfer(payer, bob as never, 3_000_000n), transfer(payer, TIP, 10_000n)]
        })
      )
      const sent = yield* rpc(emu, "sendBundle", [[good.base64], { encoding: "base64" }])
      expect(sent.json.result).toBe(bundleIdOf([good.signature]))
      expect(emu.ledger.lamports(payer.address)).toBe(10_000_000n - 3_000_000n - 10_000n - 5_000n)
      expect(emu.ledger.lamports(bob)).toBe(3_000_000n)
      expect(emu.ledger.transaction(good.signature)).toMatchObject({
        source: "bundle",
        err: null,
        slot: emu.ledger.slot()
      })

      // Two transactions: the first one could land alone, the second overdraws. Neither lands.
      const first = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(payer, bob as never, 100_000n)] })
      )
      const second = yield* Effect.promise(() =>
        build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 100_000_000n)] })
      )
      const before = [emu.ledger.lamports(payer.address), emu.ledger.lamports(bob), emu.ledger.transactions().length]
      const failed = yield* rpc(emu, "sendBundle", [[first.base64, second.base64], { encoding: "base64" }])
      const id = failed.json.result as string
      expect(id).toBe(bundleIdOf([first.signature, second.signature]))
      expect([emu.ledger.lamports(payer.address), emu.ledger.lamports(bob), emu.ledger.transactions().length])
        .toEqual(before)
      const status = yield* rpc(emu, "getBundleStatuses", [[id]])
      expect(status.json.result.value[0].err).toEqual({ Err: { InstructionError: [0, { Custom: 1 }] } })
      const ok = yield* rpc(emu, "getBundleStatuses", [[sent.json.result]])
      expect(ok.json.result.value[0].err).toEqual({ Ok: null })
    }))

  it.scopedLive("compress mints a compressed NFT: DAS serves it with a proof of its tree's root, and the wallet sees it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const landed: Array<Events.WorldLanded> = []
      emu.events.worldLanded.subscribe((e) => landed.push(e))
      const [alice, bob] = [emu.dataset.address("test:alice"), emu.dataset.address("test:bob")]
      const call = (method: string, params: unknown) => Effect.map(rpc(emu, method, params), (r) => r.json.result)

      const first = yield* emu.world.compress({ owner: alice, name: "Leaf zero" })
      // Over HTTP too, into the same tree: the next leaf.
      const collection = emu.dataset.address("test:collection")
      const second = (yield* control(emu, "compress", { owner: bob, collection })).json
      expect([first.leafIndex, second.leafIndex]).toEqual([0, 1])
      expect(second.tree).toBe(first.tree)
      expect(landed.map((e) => e.transactions[0]!.type)).toEqual(["COMPRESSED_NFT_MINT", "COMPRESSED_NFT_MINT"])
      expect(landed[0]!.transactions[0]!.accounts.map((a) => a.address)).toContain(alice)

      const asset = yield* call("getAsset", { id: first.assetId })
      expect(asset).toMatchObject({
        id: first.assetId,
        interface: "V1_NFT",
        content: { metadata: { name: "Leaf zero" } },
        compression: { compressed: true, tree: first.tree, leaf_id: 0, seq: 1 },
        ownership: { owner: alice, ownership_model: "single" }
      })
      const owned = yield* call("getAssetsByOwner", { ownerAddress: bob, page: 1 })
      expect((owned.items as Array<any>).map((a) => [a.id, a.compression.leaf_id])).toEqual([[second.assetId, 1]])
      expect(owned.items[0].grouping).toEqual([{ group_key: "collection", group_value: collection }])

      // Both proofs verify against the root of the tree as it is now (two leaves).
      for (
        const [receipt, hash] of [[first, asset.compression.asset_hash], [
          second,
          owned.items[0].compression.asset_hash
        ]]
      ) {
        const proof = yield* call("getAssetProof", { id: receipt.assetId })
        expect(proof).toMatchObject({ tree_id: first.tree, leaf: hash, node_index: 2 ** 14 + receipt.leafIndex })
        expect(MerkleProof.verify(proof)).toEqual({ valid: true })
      }
      const batch = yield* call("getAssetProofBatch", { ids: [first.assetId] })
      expect(batch[first.assetId!].root).toBe((yield* call("getAssetProof", { id: second.assetId })).root)

      const signatures = yield* call("getSignaturesForAsset", { id: second.assetId, page: 1 })
      expect(signatures.total).toBe(1)
      expect(signatures.items).toEqual([[second.signature, "MintToCollectionV1"]])

      const nfts = (yield* get(emu, `/v1/wallet/${alice}/balances`, { query: { showNfts: "true" } })).json.nfts
      expect(nfts).toMatchObject([{ mint: first.assetId, compressed: true, name: "Leaf zero" }])
      const history = (yield* get(emu, `/v1/wallet/${alice}/history`)).json.data as Array<any>
      expect(history.map((h) => [h.signature, h.slot])).toEqual([[first.signature, first.slot]])

      // The collection's list holds what the world minted into it: NFTs, then compressed NFTs.
      const nft = yield* emu.world.mintNft({ owner: alice, collection })
      const group = yield* call("getAssetsByGroup", { groupKey: "collection", groupValue: collection, page: 1 })
      expect((group.items as Array<any>).map((a) => a.id)).toEqual([nft.mint, second.assetId])
      expect(group.total).toBe(2)
    }))

  it.scopedLive("compress of tokens moves them to the pool and opens a compressed token account Photon lists", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const alice = emu.dataset.address("test:alice")
      const call = (method: string, params: unknown) => Effect.map(rpc(emu, method, params), (r) => r.json.result)
      const minted = yield* emu.world.mintFungible({ owner: alice, amount: 1_000n, decimals: 2 })
      const mint = minted.mint!
      const first = yield* emu.world.compress({ owner: alice, mint, amount: 300n })
      const second = (yield* control(emu, "compress", { owner: alice, mint, amount: "200" })).json

      const accounts = (yield* call("getCompressedTokenAccountsByOwner", { owner: alice })).value.items as Array<any>
      expect(accounts.map((a) => [a.account.hash, a.tokenData.mint, a.tokenData.owner, a.tokenData.amount])).toEqual([
        [first.hash, mint, alice, 300],
        [second.hash, mint, alice, 200]
      ])
      expect(accounts[0].account.owner).toBe(World.COMPRESSED_TOKEN_PROGRAM)
      expect(accounts[1].account.slotCreated).toBe(second.slot)
      const v2 = (yield* call("getCompressedTokenAccountsByOwnerV2", { owner: alice, mint })).value.items as Array<any>
      expect(v2.map((a) => a.account.hash)).toEqual([first.hash, second.hash])
      const balances = (yield* call("getCompressedTokenBalancesByOwnerV2", { owner: alice })).value.items
      expect(balances).toEqual([{ mint, balance: 500 }])
      const top = (yield* call("getCompressedMintTokenHolders", { mint })).value.items
      expect(top).toEqual([{ owner: alice, balance: 500 }])
      const mine = (yield* call("getCompressionSignaturesForTokenOwner", { owner: alice })).value.items as Array<any>
      expect(mine.map((s) => [s.signature, s.slot])).toEqual([[second.signature, second.slot], [
        first.signature,
        first.slot
      ]])
      const program = (yield* call("getCompressionSignaturesForOwner", {
        owner: World.COMPRESSED_TOKEN_PROGRAM,
        limit: 3
      })).value.items as Array<any>
      expect(program.slice(0, 2).map((s) => s.signature)).toEqual([second.signature, first.signature])

      // The SPL side: the owner holds what is left, the pool what is compressed; the supply is unchanged.
      const holders = (yield* call("getTokenAccounts", { mint, page: 1 })).token_accounts as Array<any>
      expect(holders.map((t) => t.amount).sort()).toEqual([500, 500])
      expect(emu.ledger.mint(mint)!.supply).toBe(1_000n)
      const wallet = (yield* get(emu, `/v1/wallet/${alice}/balances`, { query: { showNative: "false" } })).json
      expect(wallet.balances).toMatchObject([{ mint, balance: 5 }])
      const history = (yield* get(emu, `/v1/wallet/${alice}/history`)).json.data as Array<any>
      expect(history.map((h) => h.signature)).toEqual([second.signature, first.signature, minted.signature])
      expect(history[0].balanceChanges).toEqual([{ mint, amount: -2, decimals: 2 }])
    }))

  it.scopedLive("compress refuses bad input naming the field, in process and over HTTP, and changes nothing", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const alice = emu.dataset.address("test:alice")
      const { mint } = yield* emu.world.mintFungible({ owner: alice, amount: 10n })
      const nft = yield* emu.world.mintNft({ owner: alice })
      const before = [emu.ledger.transactions().length, emu.ledger.slot()]
      const field = (input: unknown) => Effect.map(Effect.flip(emu.world.compress(input as never)), (e) => e.field)
      expect(yield* field({ owner: "nope" })).toBe("owner")
      expect(yield* field({ owner: alice, amount: 5 })).toBe("mint")
      expect(yield* field({ owner: alice, mint })).toBe("amount")
      expect(yield* field({ owner: alice, mint, amount: 11 })).toBe("amount")
      expect(yield* field({ owner: alice, mint: nft.mint, amount: 1 })).toBe("mint")
      expect(yield* field({ owner: alice, mint, amount: 1, name: "x" })).toBe("name")
      expect(yield* field({ owner: alice, name: "x".repeat(33) })).toBe("name")
      expect(yield* field({ owner: alice, collection: 7 })).toBe("collection")
      expect(yield* control(emu, "compress", { owner: alice, mint, amount: "0" })).toMatchObject({
        status: 400,
        json: { field: "amount" }
      })
      expect(yield* control(emu, "compress", { owner: alice, uri: 1 })).toMatchObject({
        status: 400,
        json: { field: "uri" }
      })
      expect([emu.ledger.transactions().length, emu.ledger.slot()]).toEqual(before)
      expect(emu.ledger.compressedNftsOf(alice)).toEqual([])
      expect(emu.ledger.compressedTokenAccounts()).toEqual([])
      expect(emu.ledger.tokenAccountsOf(alice).map((t) => t.amount)).toEqual([10n, 1n])
    }))

  it.scopedLive("transfer of a compressed NFT rewrites its leaf: new owner, seq 2, a proof of the new root", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const [alice, bob] = [emu.dataset.address("test:alice"), emu.dataset.address("test:bob")]
      const call = (method: string, params: unknown) => Effect.map(rpc(emu, method, params), (r) => r.json.result)
      const minted = yield* emu.world.compress({ owner: alice })
      const id = minted.assetId!
      const before = yield* call("getAssetProof", { id })
      // Alice pays the fee: without lamports she cannot.
      expect((yield* Effect.flip(emu.world.transfer({ from: alice, to: bob, mint: id }))).field).toBe("from")
      expect((yield* Effect.flip(emu.world.transfer({ from: bob, to: alice, mint: id }))).field).toBe("from")
      expect((yield* Effect.flip(emu.world.transfer({ from: alice, to: bob, mint: id, amount: 2 }))).field).toBe(
        "amount"
      )
      yield* emu.world.fund({ address: alice, lamports: 1_000_000n })
      const sent = yield* emu.world.transfer({ from: alice, to: bob, mint: id })

      const asset = yield* call("getAsset", { id })
      expect(asset.ownership.owner).toBe(bob)
      expect(asset.compression).toMatchObject({ seq: 2, leaf_id: 0, tree: minted.tree })
      const signatures = yield* call("getSignaturesForAsset", { id, page: 1 })
      expect(signatures.items).toEqual([[minted.signature, "MintV1"], [sent.signature, "Transfer"]])
      const proof = yield* call("getAssetProof", { id })
      expect(proof.leaf).toBe(asset.compression.asset_hash)
      expect(proof.root).not.toBe(before.root)
      expect(MerkleProof.verify(proof)).toEqual({ valid: true })
      const owned = (owner: string) =>
        Effect.map(call("getAssetsByOwner", { ownerAddress: owner, page: 1 }), (r) => r.items.map((a: any) => a.id))
      expect([yield* owned(alice), yield* owned(bob)]).toEqual([[], [id]])
      const history = (yield* get(emu, `/v1/wallet/${bob}/history`)).json.data as Array<any>
      expect(history.map((h) => h.signature)).toEqual([sent.signature])
      expect(emu.ledger.lamports(alice)).toBe(1_000_000n - World.FEE_PER_SIGNATURE)
    }))
})
