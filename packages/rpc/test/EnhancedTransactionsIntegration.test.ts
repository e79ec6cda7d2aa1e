/**
 * The EnhancedTransactions service against the emulator over loopback: what the world lands reads
 * the same in the API as in an enhanced webhook delivery (one builder), parse batches above 100,
 * the address listing walks the history getSignaturesForAddress lists.
 */
import { describe, expect, it } from "@effect/vitest"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Emulator from "@solfx/emulator/Emulator"
import * as EnhancedTransactions from "@solfx/emulator/EnhancedTransactions"
import * as Enhanced from "@solfx/rpc/EnhancedTransactions"
import * as Signatures from "@solfx/rpc/Signatures"
import * as Loopback from "@solfx/testing/Loopback"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

const TestLayer = Loopback.layer(Layer.merge(Enhanced.layer, Signatures.layer), { seed: 13, slotMs: 60_000 })

const all = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

describe("EnhancedTransactions (integration, loopback emulator)", () => {
  it.live("a transfer the world lands parses as its webhook item; unknown signatures are left out", () =>
    Effect.gen(function*() {
      const enhanced = yield* Enhanced.EnhancedTransactions
      const emu = yield* Emulator.EmulatorHandle
      const owner = emu.dataset.address("enhanced:owner")
      const other = emu.dataset.address("enhanced:other")
      yield* emu.world.fund({ address: owner, lamports: 2_000_000_000n })
      const { mint } = yield* emu.world.mintFungible({ owner, amount: 5_000_000n, decimals: 6 })
      const sent = yield* emu.world.transfer({ from: owner, to: other, mint: mint!, amount: 1_500_000n })
      const sol = yield* emu.world.transfer({ from: owner, to: other, lamports: 100_000_000n })
      yield* emu.world.advanceSlots({ slots: 40 })
      const parsed = yield* enhanced.parseTransactions([sent.signature, "1".repeat(64), sol.signature])
      expect(parsed.map((t) => t.signature)).toEqual([sent.signature, sol.signature])
      const token = parsed[0]!
      expect(token.tokenTransfers[0]).toMatchObject({
        fromUserAccount: owner,
        toUserAccount: other,
        mint,
        tokenAmount: 1.5
      })
      const changes = token.accountData.flatMap((a) => a.tokenBalanceChanges)
      expect(changes.map((c) => [c.userAccount, c.rawTokenAmount.tokenAmount])).toEqual(
        expect.arrayContaining([[owner, -1_500_000n], [other, 1_500_000n]])
      )
      expect(token.transactionError).toBeNull()
      expect(parsed[1]!.nativeTransfers).toEqual([{
        fromUserAccount: owner,
        toUserAccount: other,
        amount: 100_000_000n
      }])
      // The one builder: what a webhook would deliver for the transaction, byte for byte after encoding.
      const delivered = WebhookDelivery.decode(
        WebhookDelivery.encode([EnhancedTransactions.enhancedOf(emu.ledger.transaction(sol.signature)!)])
      )
      expect(delivered._tag === "Right" ? delivered.right[0] : undefined).toEqual(parsed[1])
    }).pipe(Effect.provide(TestLayer)))

  it.live("more than 100 signatures go 100 a request, in order", () =>
    Effect.gen(function*() {
      const enhanced = yield* Enhanced.EnhancedTransactions
      const signatures = yield* Signatures.Signatures
      const emu = yield* Emulator.EmulatorHandle
      const listed = yield* signatures.getSignaturesForAddress({ address: emu.samples.wallet, limit: 250 })
      emu.resetLog()
      const parsed = yield* enhanced.parseTransactions(listed.map((s) => s.signature))
      expect(parsed.map((t) => t.signature)).toEqual(listed.map((s) => s.signature))
      expect(emu.count("POST /v0/transactions")).toBe(3)
      expect(parsed.map((t) => [t.slot, t.transactionError === null])).toEqual(
        listed.map((s) => [Number(s.slot), s.err === null])
      )
    }).pipe(Effect.provide(TestLayer)))

  it.live("an address's listing walks its history newest first, by type, and resumes with { start }", () =>
    Effect.gen(function*() {
      const enhanced = yield* Enhanced.EnhancedTransactions
      const signatures = yield* Signatures.Signatures
      const emu = yield* Emulator.EmulatorHandle
      const address = emu.samples.wallet
      const listed = yield* all(signatures.getSignaturesForAddress.stream({ address }))
      const pages = yield* all(enhanced.addressTransactions.pages(address, { limit: 100 }))
      const items = pages.flatMap((p) => p.items)
      expect(items.map((t) => t.signature)).toEqual(listed.map((s) => s.signature))
      const resumed = yield* all(enhanced.addressTransactions.stream(address, { limit: 100, start: pages[0]!.next }))
      expect(resumed).toEqual(items.slice(100))
      const swaps = yield* all(enhanced.addressTransactions.stream(address, { type: "SWAP" }))
      expect(swaps.length).toBeGreaterThan(0)
      expect(swaps).toEqual(items.filter((t) => t.type === "SWAP"))
      const until = yield* enhanced.addressTransactions(address, { until: items[5]!.signature })
      expect(until).toEqual(items.slice(0, 5))
      expect(yield* Effect.flip(enhanced.addressTransactions(address, { limit: 101 }))).toMatchObject({
        _tag: "InvalidRequest",
        field: "limit"
      })
    }).pipe(Effect.provide(TestLayer)))
})
