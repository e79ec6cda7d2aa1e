/**
 * Webhook management end to end over loopback: the SDK's `Webhooks` creates,
 * edits, pauses and deletes webhooks on the emulator, and the emulator delivers
 * kit-signed bundles that land to `WebhookReceiver`s served in the test. The
 * absence of a delivery is shown by a barrier (a delivery of the same bundle to a
 * second webhook, and the deliverer idle), never by waiting.
 */
import { describe, expect, it } from "@effect/vitest"
import type { Address } from "@solana/kit"
import { Webhooks } from "@solfx/admin"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import { WebhookReceiver } from "@solfx/webhooks"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"

const AUTH_A = "Bearer management-test-a"
const AUTH_B = "Bearer management-test-b"

/** A bundle of one kit-signed transaction paying each of `to` and the tip account. */
const bundleTo = (to: ReadonlyArray<Address>, blockhash: string) =>
  Effect.promise(async () =>
    Kit.buildTransfers(await Kit.signer(), [...to.map((a) => [a, 1_000_000n] as const), [Kit.TIP, 2000n]], {
      version: "legacy",
      blockhash
    })
  )

/** A receiver checking `auth`, served on loopback; the signatures it handled, in order. */
const receiverAt = (auth: string) =>
  Effect.gen(function*() {
    const signatures: Array<string> = []
    const receiver = yield* WebhookReceiver.make({
      authHeader: Redacted.make(auth),
      onEvents: (batch) => Effect.sync(() => void signatures.push(...batch.map(WebhookDelivery.signatureOf)))
    })
    const base = yield* Loopback.serve(WebhookReceiver.router(receiver, "/hook"))
    return { url: `${base}/hook`, signatures, receiver }
  })

describe("webhook management: SDK -> emulator -> receiver", () => {
  it.scopedLive("create, deliver, edit, toggle off (nothing more arrives), delete (get is WebhookNotFound)", () =>
    Effect.gen(function*() {
      const [walletA, walletB] = yield* Effect.promise(() => Promise.all([Kit.signer(), Kit.signer()]))
      const a = yield* receiverAt(AUTH_A)
      const b = yield* receiverAt(AUTH_B)
      // No seeded webhooks: every webhook of this key is created below.
      const emu = yield* Emulator.make({ webhooks: [], webhookDelivery: { retrySpacing: "50 millis" } })
      // Built in the test's scope: the SDK's HTTP client lives as long as the test.
      const sdk = yield* Layer.build(Loopback.layerAt(Webhooks.layer, { apiKey: emu.apiKey, baseUrl: emu.url }))
      const webhooks = Context.get(sdk, Webhooks.Webhooks)
      const landed = (to: ReadonlyArray<Address>) =>
        Effect.gen(function*() {
          const built = yield* bundleTo(to, emu.ledger.bank.blockhash().blockhash)
          expect((yield* Loopback.sendBundle(emu, [built.base64])).error).toBeUndefined()
          yield* emu.webhookDeliveries.idle
          yield* a.receiver.idle
          yield* b.receiver.idle
          return built.signature
        })

      // Create: the service's record, secret kept Redacted.
      const hook = yield* webhooks.create({
        webhookURL: a.url,
        webhookType: "enhanced",
        accountAddresses: [walletA.address],
        transactionTypes: ["TRANSFER"],
        authHeader: Redacted.make(AUTH_A)
      })
      expect(hook.accountAddresses).toEqual([walletA.address])
      expect(hook.active).toBe(true)
      expect(String(hook.authHeader)).toBe("<redacted>")
      expect(Redacted.value(hook.authHeader!)).toBe(AUTH_A)

      // A bundle touching the watched address reaches receiver A.
      const first = yield* landed([walletA.address])
      expect(a.signatures).toEqual([first])

      // Edit: only the addresses change; the rest of the webhook (types, auth header) is kept.
      const before = emu.requests.length
      const edited = yield* webhooks.edit(hook.webhookID, { accountAddresses: [walletB.address] })
      expect(emu.requests.slice(before).map((r) => r.operation)).toEqual([
        "GET /v0/webhooks/:webhookID",
        "PUT /v0/webhooks/:webhookID"
      ])
      expect(edited.accountAddresses).toEqual([walletB.address])
      expect(edited.transactionTypes).toEqual(["TRANSFER"])
      expect(Redacted.value(edited.authHeader!)).toBe(AUTH_A)
      expect(yield* webhooks.get(hook.webhookID)).toEqual(edited)

      // The old address no longer delivers; the new one does.
      yield* landed([walletA.address])
      const second = yield* landed([walletB.address])
      expect(a.signatures).toEqual([first, second])

      // Toggle off, then a second webhook on the same address as the barrier.
      expect((yield* webhooks.toggle(hook.webhookID, false)).active).toBe(false)
      const barrier = yield* webhooks.create({
        webhookURL: b.url,
        webhookType: "raw",
        accountAddresses: [walletB.address],
        authHeader: Redacted.make(AUTH_B)
      })
      const third = yield* landed([walletB.address])
      // The same bundle reached the second webhook, and the deliverer is idle: nothing is pending for A.
      expect(b.signatures).toEqual([third])
      expect(a.signatures).toEqual([first, second])
      expect(emu.webhookDeliveries.attempts().filter((x) => x.signature === third).map((x) => x.webhookID)).toEqual(
        [barrier.webhookID]
      )

      // Delete: get is a typed not-found, and so is a second delete.
      yield* webhooks.delete(hook.webhookID)
      const gone = yield* Effect.flip(webhooks.get(hook.webhookID))
      expect(gone._tag).toBe("WebhookNotFound")
      const again = yield* webhooks.delete(hook.webhookID).pipe(
        Effect.as("deleted"),
        Effect.catchTag("WebhookNotFound", (e) => Effect.succeed(`not found: ${e.webhookID}`))
      )
      expect(again).toBe(`not found: ${hook.webhookID}`)
      expect((yield* webhooks.list()).map((h) => h.webhookID)).toEqual([barrier.webhookID])
    }))
})
