/**
 * Conformance of the bundle area with plain fetch, checked against values computed
 * independently of the SDK (kit-built transactions, their ids hashed by @solfx/testing/Kit).
 */
import { describe, expect, it } from "@effect/vitest"
import { build, bundleIdOf as idOf, memo, signer, TIP, TIP2, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { post, rpc } from "./support/Http.js"

const NO_TIP = "Bundles must write lock at least one tip account to be eligible for the auction."

const fixtures = (async () => {
  const payer = await signer()
  const other = await signer()
  const [a, b, tip, tip2, plain, lone] = await Promise.all([
    build({ version: 0, payer, instructions: [memo("a"), transfer(payer, other.address, 1n)] }),
    build({ version: "legacy", payer: other, instructions: [memo("b")] }),
    build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 5000n)] }),
    build({ version: 0, payer: other, instructions: [transfer(other, TIP2, 1000n)] }),
    build({ version: "legacy", payer, instructions: [memo("plain")] }),
    build({ version: 0, payer, instructions: [memo("lone")] })
  ])
  const forged = tip.bytes.slice()
  forged[forged.length - 1] ^= 1
  return {
    a,
    b,
    tip,
    tip2,
    plain,
    lone,
    forged: Buffer.from(forged).toString("base64"),
    payers: [payer.address, other.address]
  }
})()
const fixtureKit = Effect.promise(() => fixtures)

/** The fixtures, their payers funded in the emulator's world (unfunded payers cannot pay fees). */
const kitFor = (emu: Emulator.Emulator) =>
  Effect.tap(
    fixtureKit,
    (k) => Effect.forEach(k.payers, (address) => emu.world.fund({ address, lamports: 1_000_000_000n }))
  )

const send = (emu: Emulator.Emulator, txs: ReadonlyArray<string>, config?: unknown, headers?: Record<string, string>) =>
  Effect.promise(() =>
    fetch(new URL(`/?api-key=${emu.apiKey}`, emu.url), {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "sendBundle",
        params: config === undefined ? [txs] : [txs, config]
      })
    }).then(async (res) => ({ status: res.status, json: await res.json() as any }))
  )

const rejected = (message: string) => ({
  status: 400,
  json: { jsonrpc: "2.0", id: 1, error: { code: -32602, message } }
})

describe("bundles area", () => {
  it.scopedLive("lands a tipped bundle under the SHA-256 id; rejects with the block engine's errors", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const k = yield* kitFor(emu)
      const txs = [k.a.base64, k.b.base64, k.tip.base64]
      const id = idOf([k.a.signatures[0]!, k.b.signatures[0]!, k.tip.signatures[0]!])
      expect(yield* send(emu, txs, { encoding: "base64" }, { "relay-region": "fra" })).toEqual({
        status: 200,
        json: { jsonrpc: "2.0", id: 1, result: id }
      })
      // the same bundle again, and a bundle reusing one landed transaction
      expect(yield* send(emu, txs, { encoding: "base64" })).toEqual(
        rejected("bundle contains an already processed transaction")
      )
      expect(yield* send(emu, [k.b.base64, k.tip2.base64], { encoding: "base64" })).toEqual(
        rejected("bundle contains an already processed transaction")
      )
      expect(yield* send(emu, [k.plain.base64], { encoding: "base64" })).toEqual(rejected(NO_TIP))
      expect(yield* send(emu, Array(6).fill(k.tip2.base64), { encoding: "base64" })).toMatchObject(
        rejected("bundle contains too many transactions: 6 (max 5)")
      )
      expect(yield* send(emu, ["not a transaction", k.tip2.base64], { encoding: "base64" })).toEqual(
        rejected("transaction #0 could not be decoded")
      )
      // the default encoding is base58: base64 text is not decodable under it
      expect(yield* send(emu, [k.tip2.base64])).toEqual(rejected("transaction #0 could not be decoded"))
      expect(yield* send(emu, [k.plain.base64, k.forged], { encoding: "base64" })).toEqual(
        rejected("transaction #1 failed signature verification")
      )
      expect((yield* send(emu, [k.tip2.base64], { encoding: "base64" }, { "relay-region": "mars" })).status).toBe(400)
      expect(emu.count("sendBundle")).toBe(9)
    }))

  it.scopedLive("landing is atomic: a rejected bundle lands none of its transactions", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const k = yield* kitFor(emu)
      expect((yield* send(emu, [k.tip.base58])).status).toBe(200) // base58, the default
      // `lone` is fresh but travels with a processed one: the bundle is refused whole
      expect(yield* send(emu, [k.lone.base64, k.tip.base64], { encoding: "base64" })).toEqual(
        rejected("bundle contains an already processed transaction")
      )
      const again = yield* send(emu, [k.lone.base64, k.tip2.base64], { encoding: "base64" })
      expect(again).toEqual({
        status: 200,
        json: { jsonrpc: "2.0", id: 1, result: idOf([k.lone.signatures[0]!, k.tip2.signatures[0]!]) }
      })
    }))

  it.scopedLive("statuses: null for unknown ids, then processed -> confirmed -> finalized over slots", () =>
    Effect.gen(function*() {
      // Slots long enough that the first status, read right after the SVM ran the bundle, comes
      // before the bundle is 2 slots deep, even on a loaded machine.
      const emu = yield* Emulator.make({
        slotMs: 1_000,
        sizes: { "bundles.confirmDepth": 2, "bundles.finalizeDepth": 4 }
      })
      const k = yield* kitFor(emu)
      const unknown = "0".repeat(64)
      const sent = yield* send(emu, [k.a.base64, k.tip.base64], { encoding: "base64" })
      const id = sent.json.result as string
      const seen: Array<string> = []
      let last: any
      for (let i = 0; i < 500 && seen.at(-1) !== "finalized"; i++) {
        const reply = yield* rpc(emu, "getBundleStatuses", [[id, unknown]])
        expect(reply.status).toBe(200)
        last = reply.json.result
        const status = last.value[0].confirmation_status as string
        if (seen.at(-1) !== status) seen.push(status)
        yield* Effect.sleep("20 millis")
      }
      expect(seen).toEqual(["processed", "confirmed", "finalized"])
      expect(last.value[1]).toBeNull()
      expect(last.value[0]).toMatchObject({
        bundle_id: id,
        transactions: [k.a.signatures[0], k.tip.signatures[0]],
        err: { Ok: null }
      })
      expect(last.context.slot - last.value[0].slot).toBeGreaterThanOrEqual(4)

      const many = yield* rpc(emu, "getBundleStatuses", [Array(6).fill(unknown)])
      expect([many.status, many.json.error.code]).toEqual([400, -32602])
      const none = yield* post(emu, { jsonrpc: "2.0", id: 3, method: "getBundleStatuses", params: [[]] })
      expect(none.json.result.value).toEqual([])
    }))

  it.scopedLive("each call is one rpc credit", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const k = yield* kitFor(emu)
      const before = emu.usage()
      yield* send(emu, [k.tip.base64], { encoding: "base64" })
      yield* rpc(emu, "getBundleStatuses", [["0".repeat(64)]])
      const after = emu.usage()
      expect(after.usage.rpc - before.usage.rpc).toBe(2)
      expect(after.creditsUsed - before.creditsUsed).toBe(2)
    }))
})
