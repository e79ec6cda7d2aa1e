/**
 * Example 5: test your own app with the emulator Layer in @effect/vitest.
 * `layer` starts one emulator (a real HTTP server on a free port, seeded, with a
 * fresh API key) for the whole block, and every solfx service pointed at it. It is
 * real I/O, so the tests run on the live clock (`excludeTestServices`): a retry's
 * backoff really waits, where a TestClock would wait for `TestClock.adjust`.
 *
 * Run: npx vitest run --project examples app.test.ts
 */
import { expect, layer } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import { Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { whales } from "./app.js"

const TestLayer = Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7 })))

layer(TestLayer, { excludeTestServices: true })("whales", (it) => {
  it.effect("the 25 biggest holders, richest first, from one page and one identity batch", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.EmulatorHandle
      emulator.resetLog()

      const top = yield* whales(emulator.samples.compressedTokenMint, 25)

      expect(top).toHaveLength(25)
      expect(new Set(top.map((w) => w.owner)).size).toBe(25)
      for (let i = 1; i < top.length; i++) expect(top[i - 1]!.balance >= top[i]!.balance).toBe(true)
      // The emulator logs what the app really sent: the stream stopped after one page.
      expect(emulator.count("getCompressedMintTokenHolders")).toBe(1)
      expect(emulator.count("POST /v1/wallet/batch-identity")).toBe(1)
    }))

  it.effect("a bad mint fails with the field and the rule, and nothing is sent", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.EmulatorHandle
      emulator.resetLog()

      const error = yield* Effect.flip(whales("not-a-mint", 5))

      expect(error).toMatchObject({ _tag: "InvalidRequest", field: "mint" })
      expect(emulator.count()).toBe(0)
    }))

  it.effect("a 503 from the service is retried and the app still gets its answer", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.EmulatorHandle
      emulator.resetLog()
      emulator.setFaults({ rate: 1, kinds: ["503"], times: 1 })

      const top = yield* whales(emulator.samples.compressedTokenMint, 3).pipe(Effect.ensuring(
        Effect.sync(() => emulator.setFaults(undefined))
      ))

      expect(top).toHaveLength(3)
      expect(emulator.faultsHit["503"]).toBe(1)
      expect(emulator.count("getCompressedMintTokenHolders")).toBe(2)
    }))
})
