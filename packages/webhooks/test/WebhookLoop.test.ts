/**
 * The events loop end to end over loopback: a WebhookReceiver served by
 * NodeHttpServer, an emulator whose webhook watches one wallet, and a tipped
 * bundle of kit-signed transactions sent to the emulator. The handler gets the
 * wallet's transaction exactly once even when the receiver's first answer is a
 * forced 500; every attempt counts in `usage.webhook`; a webhook that always
 * fails ends `active: false` in the list the SDK reads.
 */
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Webhooks } from "@solfx/admin"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import { WebhookReceiver } from "@solfx/webhooks"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

const AUTH = "Bearer loop-test-secret"

/** A tipped bundle of two transactions: the first pays `wallet`, the second does not touch it. */
const bundleFor = (wallet: Address, emu: Emulator.Emulator) =>
  Effect.promise(async () => {
    const payer = await Kit.signer()
    const other = await Kit.signer()
    const blockhash = emu.ledger.bank.blockhash().blockhash
    const toWallet = await Kit.buildTransfers(payer, [[wallet, 1_500_000n]], { version: "legacy", blockhash })
    // A new account gets at least its rent-exempt minimum (890,880 lamports), or the runtime refuses it.
    const elsewhere = await Kit.buildTransfers(payer, [[other.address, 1_000_000n], [Kit.TIP, 2000n]], {
      version: "legacy",
      blockhash
    })
    return {
      transactions: [toWallet.base64, elsewhere.base64],
      walletSignature: toWallet.signature,
      otherSignature: elsewhere.signature
    }
  })

/** The SDK's Webhooks service pointed at a running emulator. */
const listWebhooks = (emu: Emulator.Emulator) =>
  Effect.flatMap(Webhooks.Webhooks, (w) => w.list()).pipe(
    Effect.provide(Loopback.layerAt(Webhooks.layer, { apiKey: emu.apiKey, baseUrl: emu.url }))
  )

describe("webhook loop: emulator -> receiver", () => {
  it.scopedLive("a landed bundle reaches the handler exactly once, though the first answer is a forced 500", () =>
    Effect.gen(function*() {
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const events: Array<WebhookDelivery.DeliveryItem> = []
      const receiver = yield* WebhookReceiver.make({
        authHeader: Redacted.make(AUTH),
        onEvents: (batch) => Effect.sync(() => void events.push(...batch))
      })
      // The receiver takes the first delivery, then a proxy in front answers 500 anyway:
      // the emulator retries with the same signature, and dedupe must hold.
      let answers = 0
      const forced500 = Effect.map(
        receiver.app,
        (res) => (++answers === 1 ? HttpServerResponse.empty({ status: 500 }) : res)
      )
      const base = yield* Loopback.serve(HttpRouter.empty.pipe(HttpRouter.post("/hook", forced500)))

      const emu = yield* Emulator.make({
        webhooks: [{
          webhookURL: `${base}/hook`,
          webhookType: "enhanced",
          accountAddresses: [wallet],
          transactionTypes: ["TRANSFER"],
          authHeader: AUTH
        }],
        webhookDelivery: { retrySpacing: "100 millis" }
      })
      const usageBefore = emu.usage().usage.webhook

      const bundle = yield* bundleFor(wallet, emu)
      const sent = yield* Loopback.sendBundle(emu, bundle.transactions)
      expect(sent.error).toBeUndefined()
      yield* emu.webhookDeliveries.idle
      yield* receiver.idle

      expect(events.length).toBe(1)
      const [event] = events
      expect(WebhookDelivery.signatureOf(event!)).toBe(bundle.walletSignature)
      if (event?.kind !== "enhanced") return expect.fail("expected an enhanced transaction")
      expect(event.type).toBe("TRANSFER")
      expect(event.nativeTransfers).toContainEqual({
        fromUserAccount: event.feePayer,
        toUserAccount: wallet,
        amount: 1_500_000n
      })

      const attempts = emu.webhookDeliveries.attempts()
      expect(attempts.map((a) => a.status)).toEqual([500, 200])
      expect(yield* receiver.counters).toMatchObject({
        deliveries: 2,
        duplicatesDropped: 1,
        handled: 1,
        unauthorized: 0
      })
      expect(emu.usage().usage.webhook - usageBefore).toBe(attempts.length)
    }))

  it.scopedLive("a wrong authHeader gets 401 on every attempt; the handler never runs", () =>
    Effect.gen(function*() {
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const receiver = yield* WebhookReceiver.make({
        authHeader: Redacted.make(AUTH),
        onEvents: () => Effect.die("must not run")
      })
      const base = yield* Loopback.serve(WebhookReceiver.router(receiver, "/hook"))
      const emu = yield* Emulator.make({
        webhooks: [{
          webhookURL: `${base}/hook`,
          webhookType: "raw",
          accountAddresses: [wallet],
          authHeader: "Bearer wrong"
        }],
        webhookDelivery: { retrySpacing: "20 millis" }
      })
      const bundle = yield* bundleFor(wallet, emu)
      expect((yield* Loopback.sendBundle(emu, bundle.transactions)).error).toBeUndefined()
      yield* emu.webhookDeliveries.idle
      expect(emu.webhookDeliveries.attempts().map((a) => a.status)).toEqual([401, 401, 401, 401])
      expect((yield* receiver.counters).unauthorized).toBe(4)
      expect(emu.usage().usage.webhook).toBe(4)
    }))

  it.scopedLive("a webhook that always fails ends active: false in the webhooks list", () =>
    Effect.gen(function*() {
      const wallet = (yield* Effect.promise(() => Kit.signer())).address
      const base = yield* Loopback.serve(
        HttpRouter.empty.pipe(HttpRouter.post("/broken", HttpServerResponse.empty({ status: 503 })))
      )
      const emu = yield* Emulator.make({
        webhooks: [{
          webhookURL: `${base}/broken`,
          webhookType: "enhanced",
          accountAddresses: [wallet],
          transactionTypes: ["ANY"],
          authHeader: AUTH
        }],
        webhookDelivery: { retrySpacing: "20 millis", failureThreshold: 6 }
      })
      const before = yield* listWebhooks(emu)
      expect(before.map((h) => h.active)).toEqual([true])
      for (let i = 0; i < 2; i++) {
        const bundle = yield* bundleFor(wallet, emu)
        expect((yield* Loopback.sendBundle(emu, bundle.transactions)).error).toBeUndefined()
        yield* emu.webhookDeliveries.idle
      }
      // 4 attempts for the first transaction, 2 more for the second: then it is disabled.
      expect(emu.webhookDeliveries.attempts().length).toBe(6)
      const after = yield* listWebhooks(emu)
      expect(after.map((h) => h.active)).toEqual([false])
      expect(emu.usage().usage.webhook).toBe(6)
    }))
})
