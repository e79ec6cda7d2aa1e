/**
 * Snapshot and restore (Hardhat's evm_snapshot / evm_revert): a test changes the world through kit
 * (a signed bundle) and the world API (fund, mints, compress, transfer, setAccount), restores, and
 * every area answers as before, byte for byte (raw HTTP bodies).
 */
import { describe, expect, it } from "@effect/vitest"
import { address } from "@solana/kit"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { get, post, rpc } from "./support/Http.js"

const control = (emu: Emulator.Emulator, call: string, body: unknown) =>
  Effect.map(post(emu, body, { path: `/emulator/world/${call}` }), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.json
  })

describe("snapshots", () => {
  it.scopedLive(
    "restore puts back every area byte for byte, after kit and world API changes, again and again",
    () =>
      Effect.gen(function*() {
        // An hour a slot: under load the test outlasts a minute, and a slot passing between two views would differ.
        const emu = yield* Emulator.make({ seed: 42, slotMs: 3_600_000 })
        const payer = yield* Effect.promise(() => Kit.signer())
        const recipient = (yield* Effect.promise(() => Kit.signer())).address
        const owner = emu.dataset.address("snapshots:owner")
        const set = emu.dataset.address("snapshots:set")
        const wallet = emu.samples.wallet
        let bundle = ""
        const made: Record<string, string> = {}

        /** Every area's raw answer about what the changes touch. */
        const views = Effect.gen(function*() {
          const bodies: Array<readonly [string, string]> = []
          const add = (name: string, text: string) => bodies.push([name, text])
          for (const a of [payer.address, recipient, owner, wallet, set]) {
            for (const list of ["balances", "history", "transfers", "funded-by"]) {
              add(`${list} ${a}`, (yield* get(emu, `/v1/wallet/${a}/${list}`, { query: { showNfts: "true" } })).text)
            }
            add(`getAssetsByOwner ${a}`, (yield* rpc(emu, "getAssetsByOwner", { ownerAddress: a, page: 1 })).text)
            add(`getTokenAccounts ${a}`, (yield* rpc(emu, "getTokenAccounts", { owner: a, page: 1 })).text)
            add(`getSignaturesForAddress ${a}`, (yield* rpc(emu, "getSignaturesForAddress", [a])).text)
            add(
              `getCompressedTokenAccountsByOwner ${a}`,
              (yield* rpc(emu, "getCompressedTokenAccountsByOwner", { owner: a })).text
            )
            add(`getAccountInfo ${a}`, (yield* rpc(emu, "getAccountInfo", [a, { encoding: "base64" }])).text)
            add(`getBalance ${a}`, (yield* rpc(emu, "getBalance", [a])).text)
          }
          for (const [name, id] of Object.entries(made)) {
            add(`getAsset ${name}`, (yield* rpc(emu, "getAsset", { id })).text)
            add(`getSignaturesForAsset ${name}`, (yield* rpc(emu, "getSignaturesForAsset", { id, page: 1 })).text)
            add(
              `token-metadata ${name}`,
              (yield* post(emu, { mintAccounts: [id] }, { path: "/v0/token-metadata" })).text
            )
          }
          if (bundle !== "") add("getBundleStatuses", (yield* rpc(emu, "getBundleStatuses", [[bundle]])).text)
          add("getIndexerSlot", (yield* rpc(emu, "getIndexerSlot", [])).text)
          add("getSlot", (yield* rpc(emu, "getSlot", [])).text)
          return bodies
        })

        const change = Effect.gen(function*() {
          yield* control(emu, "fund", { address: payer.address, lamports: "2000000000" })
          const tx = yield* Effect.promise(() =>
            Kit.build({
              version: 0,
              payer,
              instructions: [Kit.transfer(payer, recipient, 300_000_000n), Kit.transfer(payer, Kit.TIP, 10_000n)]
            })
          )
          const sent = yield* rpc(emu, "sendBundle", [[tx.base64], { encoding: "base64" }])
          bundle = sent.json.result
          const token = yield* control(emu, "mintFungible", { owner, amount: "5000", decimals: 2 })
          const nft = yield* control(emu, "mintNft", { owner })
          const leaf = yield* control(emu, "compress", { owner })
          yield* control(emu, "fund", { address: owner, lamports: "1000000" })
          yield* control(emu, "transfer", { from: owner, to: address(wallet), mint: token.mint, amount: "1200" })
          yield* control(emu, "compress", { owner, mint: token.mint, amount: "300" })
          yield* control(emu, "setAccount", {
            address: set,
            lamports: "5000000",
            owner: Kit.MEMO,
            data: Buffer.from("snapshot").toString("base64")
          })
          yield* control(emu, "advanceSlots", { slots: 5 })
          Object.assign(made, { token: token.mint, nft: nft.mint, leaf: leaf.assetId })
        })

        const initial = yield* views
        const { id } = yield* control(emu, "snapshot", {})
        expect(id).toBe("0x1")
        yield* change
        const changed = yield* views
        expect(yield* control(emu, "restore", { id })).toMatchObject({ restored: true })
        // The addresses known at the snapshot answer exactly as they did then.
        const learned = { made: { ...made }, bundle }
        for (const k of Object.keys(made)) delete made[k]
        bundle = ""
        expect(yield* views).toEqual(initial)
        Object.assign(made, learned.made)
        bundle = learned.bundle
        // What the changes made (ids learned above) is now unknown again; record it as it is at the snapshot.
        const before = yield* views
        expect(before).not.toEqual(changed)
        // The same changes again give the same world (one counter of signatures and ids, restored).
        yield* change
        expect(yield* views).toEqual(changed)
        expect(yield* control(emu, "restore", { id })).toMatchObject({ restored: true })
        const after = yield* views
        for (const [k, [name, text]] of after.entries()) expect([name, text]).toEqual(before[k])
        // In process too, and an unknown id is refused naming the field.
        expect(emu.restore(emu.snapshot())).toBe(true)
        expect(emu.restore("0x99")).toBe(false)
        const refused = yield* post(emu, { id: "0x99" }, { path: "/emulator/world/restore" })
        expect([refused.status, refused.json.field]).toEqual([400, "id"])
      }),
    120_000
  )
})
