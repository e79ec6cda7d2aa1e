/**
 * Integration: the Bundles service against the emulator over loopback, with the
 * real Node HTTP client and transactions built and signed with @solana/kit.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import * as Emulator from "@solfx/emulator/Emulator"
import * as HttpTransport from "@solfx/http/HttpTransport"
import { Bundles } from "@solfx/rpc"
import { build, bundleIdOf, memo, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

const NO_TIP = "Bundles must write lock at least one tip account to be eligible for the auction."

const layerFor = (options: Emulator.Options) => Loopback.layer(Bundles.layer, options)

/** Transactions signed over the emulator's current blockhash (its slots are short: an early one expires). */
const fixtures = async (blockhash: string) => {
  const alice = await signer()
  const bob = await signer()
  const [swap, pay, tip, untipped] = await Promise.all([
    build({ version: 0, payer: alice, instructions: [memo("swap"), transfer(alice, bob.address, 25_000n)], blockhash }),
    build({ version: "legacy", payer: bob, instructions: [transfer(bob, alice.address, 1n)], blockhash }),
    build({
      version: "legacy",
      payer: alice,
      instructions: [memo("tip"), transfer(alice, TIP, 10_000n)],
      blockhash
    }),
    build({ version: 0, payer: bob, instructions: [memo("no tip")], blockhash })
  ])
  return { swap, pay, tip, untipped, payers: [alice.address, bob.address] }
}
/** The fixtures, their payers funded in the emulator's world (unfunded payers cannot pay fees). */
const kit = Effect.gen(function*() {
  const emu = yield* Emulator.EmulatorHandle
  const k = yield* Effect.promise(() => fixtures(emu.ledger.bank.blockhash().blockhash))
  yield* Effect.forEach(k.payers, (address) => Effect.orDie(emu.world.fund({ address, lamports: 1_000_000_000n })))
  return k
})

describe("Bundles against the emulator", () => {
  it.live("a tipped bundle of 3 kit-built transactions lands under its local id and reaches finalized", () =>
    Effect.gen(function*() {
      const bundles = yield* Bundles.Bundles
      const emu = yield* Emulator.EmulatorHandle
      const k = yield* kit
      const txs = [k.swap.base64, k.pay.base64, k.tip.base64]
      const local = bundleIdOf([k.swap.signatures[0]!, k.pay.signatures[0]!, k.tip.signatures[0]!])

      const id = yield* bundles.sendBundle(txs, { encoding: "base64", region: "ams" })
      expect(id).toBe(local)

      const outcome = yield* bundles.awaitBundle(id, {
        commitment: "finalized",
        interval: "50 millis",
        timeout: "20 seconds"
      })
      expect(outcome._tag).toBe("Landed")
      if (outcome._tag === "Landed") {
        expect(outcome.status).toBe("finalized")
        expect(outcome.bundle.transactions).toEqual([k.swap.signatures[0], k.pay.signatures[0], k.tip.signatures[0]])
      }
      const statuses = yield* bundles.getBundleStatuses([id, "f".repeat(64)])
      expect(statuses.map(Option.isSome)).toEqual([true, false])

      // the same bundle again passes pre-flight, and the emulator refuses it
      const again = yield* Effect.flip(bundles.sendBundle(txs))
      expect(again).toMatchObject({
        _tag: "JsonRpcError",
        code: -32602,
        detail: "bundle contains an already processed transaction"
      })
      expect(emu.count("sendBundle")).toBe(2)
      expect(emu.requests.find((r) => r.operation === "sendBundle")).toBeDefined()
      // Slots of 200 ms keep a blockhash valid for 30 s (150 blocks) while signing under load;
      // finalized after 4 of them.
    }).pipe(Effect.provide(layerFor({ slotMs: 200, sizes: { "bundles.finalizeDepth": 4 } }))))

  it.live("an untipped bundle sent raw, past the pre-flight check, gets the block engine's rejection", () =>
    Effect.gen(function*() {
      const bundles = yield* Bundles.Bundles
      const transport = yield* HttpTransport.HttpTransport
      const emu = yield* Emulator.EmulatorHandle
      const k = yield* kit
      const txs = [k.swap.base64, k.untipped.base64]

      const local = yield* Effect.flip(bundles.sendBundle(txs))
      expect(local).toMatchObject({ _tag: "InvalidRequest", field: "transactions" })
      expect(emu.count("sendBundle")).toBe(0)

      const raw = yield* Effect.flip(
        transport.rpc("sendBundle", [txs, { encoding: "base64" }], Schema.String, {
          idempotent: false,
          numericId: true
        })
      )
      expect(raw).toMatchObject({ _tag: "JsonRpcError", code: -32602, detail: NO_TIP })
      expect(emu.count("sendBundle")).toBe(1)
      // nothing landed: the transactions are still unknown
      const statuses = yield* bundles.getBundleStatuses([
        Bundle.bundleId([k.swap.signatures[0]!, k.untipped.signatures[0]!])
      ])
      expect(statuses).toEqual([Option.none()])
    }).pipe(Effect.provide(layerFor({ slotMs: 60_000 }))))
})
