/**
 * One world, end to end over real HTTP: a bundle signed with @solana/kit (a SOL transfer and a
 * tip) sent and awaited through the SDK changes the recipient everywhere it shows (balance,
 * history, transfers, funded-by) and reaches a webhook at a `WebhookReceiver`; a second bundle
 * that overdraws fails whole, says so, and changes nothing.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import { describe, expect, it } from "@effect/vitest"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Emulator from "@solfx/emulator/Emulator"
import { Bundles, Signatures, Wallet } from "@solfx/sdk"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import { WebhookReceiver } from "@solfx/webhooks"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { emulatorLayer } from "../support/run.js"

const AUTH = "Bearer world-test-secret"
const SOL = 1_000_000_000n

describe("one world", () => {
  it.scopedLive("a kit-signed bundle changes the recipient in every area (signatures too) and reaches a webhook; an overdraw lands nothing", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(() => Kit.signer())
      const recipient = (yield* Effect.promise(() => Kit.signer())).address
      const events: Array<WebhookDelivery.DeliveryItem> = []
      const receiver = yield* WebhookReceiver.make({
        authHeader: Redacted.make(AUTH),
        onEvents: (batch) => Effect.sync(() => void events.push(...batch))
      })
      const base = yield* Loopback.serve(HttpRouter.empty.pipe(HttpRouter.post("/hook", receiver.app)))

      yield* Effect.gen(function*() {
        const emu = yield* Emulator.EmulatorHandle
        const bundles = yield* Bundles.Bundles
        const wallet = yield* Wallet.Wallet
        const signatures = yield* Signatures.Signatures
        yield* emu.world.fund({ address: payer.address, lamports: SOL })

        // A fresh recipient holds nothing anywhere.
        const before = yield* wallet.balances(recipient)
        expect(before.balances.map((b) => b.balance)).toEqual([0])
        expect((yield* wallet.history(recipient)).data).toEqual([])
        expect((yield* wallet.transfers(recipient)).data).toEqual([])
        expect(Option.isNone(yield* wallet.fundedBy(recipient))).toBe(true)
        expect(yield* signatures.getSignaturesForAddress({ address: recipient })).toEqual([])

        const tx = yield* Effect.promise(() =>
          Kit.build({
            version: 0,
            payer,
            instructions: [Kit.transfer(payer, recipient, SOL / 4n), Kit.transfer(payer, Kit.TIP, 10_000n)]
          })
        )
        const id = yield* bundles.sendBundle([tx.base64], { encoding: "base64" })
        const outcome = yield* bundles.awaitBundle(id, {
          commitment: "confirmed",
          interval: "50 millis",
          timeout: "20 seconds"
        })
        expect(outcome._tag).toBe("Landed")

        // Balance, history, transfers, funded-by: the same transaction in every area.
        const after = yield* wallet.balances(recipient)
        expect(after.balances[0]).toMatchObject({ symbol: "SOL", balance: 0.25 })
        const history = (yield* wallet.history(recipient)).data
        expect(history.map((h) => h.signature)).toEqual([tx.signature])
        expect(history[0]!.balanceChanges).toEqual([{ mint: "SOL", amount: 0.25, decimals: 9 }])
        expect(history[0]!.feePayer).toBe(payer.address)
        const transfers = (yield* wallet.transfers(recipient)).data
        expect(transfers).toHaveLength(1)
        expect(transfers[0]).toMatchObject({
          signature: tx.signature,
          direction: "in",
          counterparty: payer.address,
          amountRaw: 250_000_000n
        })
        const funded = yield* wallet.fundedBy(recipient)
        expect(Option.getOrThrow(funded)).toMatchObject({ funder: payer.address, signature: tx.signature })
        // The standard RPC's signatures: the recipient's list is that transaction, its status the bundle's.
        const listed = yield* signatures.getSignaturesForAddress({ address: recipient })
        expect(listed.map((s) => s.signature)).toEqual([tx.signature])
        expect(listed[0]).toMatchObject({ slot: BigInt(history[0]!.slot), err: null, memo: null })
        const status = (yield* signatures.getSignatureStatuses({ signatures: [tx.signature] })).value[0]
        expect(status).toMatchObject({ slot: BigInt(history[0]!.slot), err: null })
        expect(["confirmed", "finalized"]).toContain(status?.confirmationStatus)
        // The payer's side: the transfer, the tip and the fee left it.
        const payerSol = (yield* wallet.balances(payer.address)).balances[0]!.balance
        expect(payerSol).toBe(Number(SOL - SOL / 4n - 10_000n - 5_000n) / 1e9)
        expect((yield* wallet.history(payer.address)).data.map((h) => h.signature)[0]).toBe(tx.signature)

        // The webhook watching the recipient got that transaction.
        yield* emu.webhookDeliveries.idle
        yield* receiver.idle
        expect(events.map(WebhookDelivery.signatureOf)).toEqual([tx.signature])

        // A second bundle overdraws: it fails whole and changes nothing.
        const fees = yield* Effect.promise(() =>
          Kit.build({ version: 0, payer, instructions: [Kit.transfer(payer, recipient, 1_000n), Kit.memo("first")] })
        )
        const overdraw = yield* Effect.promise(() =>
          Kit.build({ version: "legacy", payer, instructions: [Kit.transfer(payer, Kit.TIP, SOL)] })
        )
        const failedId = yield* bundles.sendBundle([fees.base64, overdraw.base64], { encoding: "base64" })
        const failed = yield* bundles.awaitBundle(failedId, {
          commitment: "confirmed",
          interval: "50 millis",
          timeout: "20 seconds"
        })
        expect(failed._tag).toBe("Failed")
        expect((yield* wallet.balances(recipient)).balances[0]!.balance).toBe(0.25)
        expect((yield* wallet.balances(payer.address)).balances[0]!.balance).toBe(payerSol)
        expect((yield* wallet.history(recipient)).data.map((h) => h.signature)).toEqual([tx.signature])
        expect((yield* wallet.transfers(recipient)).data).toHaveLength(1)
        expect((yield* signatures.getSignaturesForAddress({ address: recipient })).map((s) => s.signature)).toEqual([
          tx.signature
        ])
        const unlanded = yield* signatures.getSignatureStatuses({
          signatures: [fees.signature, overdraw.signature],
          searchTransactionHistory: true
        })
        expect(unlanded.value).toEqual([null, null])
        yield* emu.webhookDeliveries.idle
        expect(events).toHaveLength(1)
      }).pipe(
        Effect.provide(emulatorLayer({
          slotMs: 200, // a blockhash lives 150 slots: 30 s, time enough under load to build and send over it
          webhooks: [{
            webhookURL: `${base}/hook`,
            webhookType: "enhanced",
            accountAddresses: [recipient],
            transactionTypes: ["TRANSFER"],
            authHeader: AUTH
          }]
        }))
      )
    }))
})
