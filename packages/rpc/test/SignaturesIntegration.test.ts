/**
 * The Signatures service against the emulator over loopback: real HTTP, the real Node client,
 * transactions the world API lands.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Signatures from "@solfx/rpc/Signatures"
import * as Loopback from "@solfx/testing/Loopback"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const TestLayer = Loopback.layer(Signatures.layer, { seed: 11, slotMs: 60_000 })

const setup = Effect.gen(function*() {
  const signatures = yield* Signatures.Signatures
  const emu = yield* Emulator.EmulatorHandle
  return { signatures, emu }
})

const all = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

describe("Signatures (integration, loopback emulator)", () => {
  it.live("a transfer the world lands is the recipient's newest signature; its status goes from processed to finalized", () =>
    Effect.gen(function*() {
      const { emu, signatures } = yield* setup
      const to = emu.dataset.address("signatures:recipient")
      const funded = yield* emu.world.fund({ address: to, lamports: 1_000_000n })
      const sent = yield* emu.world.transfer({ from: emu.samples.wallet, to, lamports: 5_000n })
      const listed = yield* signatures.getSignaturesForAddress({ address: to })
      expect(listed.map((s) => s.signature)).toEqual([sent.signature, funded.signature])
      expect(listed[0]).toMatchObject({ slot: BigInt(sent.slot), err: null, memo: null })
      const fresh = yield* signatures.getSignatureStatuses({ signatures: [sent.signature] })
      expect(fresh.value[0]).toMatchObject({ slot: BigInt(sent.slot), err: null, confirmationStatus: "processed" })
      yield* emu.world.advanceSlots({ slots: 40 })
      const later = yield* signatures.getSignatureStatuses({ signatures: [sent.signature, funded.signature] })
      expect(later.value.map((s) => s?.confirmationStatus)).toEqual(["finalized", "finalized"])
      expect(later.value[0]).toMatchObject({ confirmations: null, status: { Ok: null } })
      expect(later.context.slot).toBeGreaterThanOrEqual(BigInt(sent.slot) + 40n)
      const after = yield* signatures.getSignaturesForAddress({ address: to })
      expect(after.map((s) => s.confirmationStatus)).toEqual(["finalized", "finalized"])
    }).pipe(Effect.provide(TestLayer)))

  it.live("paging by before walks a seeded wallet's whole list and ends; { start } resumes where a page ended", () =>
    Effect.gen(function*() {
      const { emu, signatures } = yield* setup
      const address = emu.samples.wallet
      const first = yield* signatures.getSignaturesForAddress({ address })
      emu.resetLog()
      const pages = yield* all(signatures.getSignaturesForAddress.pages({ address, limit: 100 }))
      const whole = pages.flatMap((p) => p.items)
      expect(whole.slice(0, 1000)).toEqual(first)
      expect(whole.length).toBeGreaterThan(250)
      expect(new Set(whole.map((s) => s.signature)).size).toBe(whole.length)
      // Full pages, the short last one if any, and the empty page that ends the walk.
      const expected = Math.floor(whole.length / 100) + (whole.length % 100 === 0 ? 1 : 2)
      expect(pages.length).toBe(expected)
      expect(emu.count("getSignaturesForAddress")).toBe(expected)
      expect(pages.at(-1)!.items).toEqual([])
      const resumed = yield* all(
        signatures.getSignaturesForAddress.stream({ address, limit: 100 }, { start: pages[1]!.next })
      )
      expect(resumed).toEqual(whole.slice(200))
      // `until` stops short of a signature, excluded.
      const until = yield* signatures.getSignaturesForAddress({ address, until: whole[5]!.signature })
      expect(until).toEqual(whole.slice(0, 5))
    }).pipe(Effect.provide(TestLayer)))

  it.live("an unknown address has no signatures; an unknown signature has no status", () =>
    Effect.gen(function*() {
      const { emu, signatures } = yield* setup
      expect(yield* signatures.getSignaturesForAddress({ address: emu.dataset.address("signatures:nobody") })).toEqual(
        []
      )
      const statuses = yield* signatures.getSignatureStatuses({
        signatures: ["1".repeat(64)],
        searchTransactionHistory: true
      })
      expect(statuses.value).toEqual([null])
    }).pipe(Effect.provide(TestLayer)))

  it.live("invalid params are an InvalidRequest naming the field, and nothing is sent", () =>
    Effect.gen(function*() {
      const { emu, signatures } = yield* setup
      emu.resetLog()
      const address = emu.samples.wallet
      const cases: ReadonlyArray<readonly [Effect.Effect<unknown, Signatures.SignaturesError>, string]> = [
        [signatures.getSignaturesForAddress({ address: "not-an-address" }), "address"],
        [signatures.getSignaturesForAddress({ address, limit: 1001 }), "limit"],
        [signatures.getSignaturesForAddress({ address, before: "abc" }), "before"],
        [signatures.getSignatureStatuses({ signatures: [] }), "signatures"],
        [signatures.getSignatureStatuses({ signatures: Array(257).fill("1".repeat(64)) }), "signatures"]
      ]
      for (const [call, field] of cases) {
        const error = yield* Effect.flip(call)
        expect(error._tag).toBe("InvalidRequest")
        expect(error.message).toContain(field)
      }
      expect(emu.count()).toBe(0)
    }).pipe(Effect.provide(TestLayer)))
})
