/**
 * Timeouts end to end: a response that never arrives ends in `TransportError`
 * (reason "timeout"); an idempotent call is then retried (and the abandoned
 * connection is closed), a non-idempotent one is not. The assertions are on what
 * the emulator saw (attempts, closed connections); the times are only printed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Bundles from "@solfx/rpc/Bundles"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import { eventually, overEmulator } from "./support/Sdk.js"

/** Far below the minute a "slow" answer takes, far above what a loaded machine needs for a normal one. */
const TIMEOUT_MS = 1_500
/** A "slow" answer that takes a minute: for the client, one that never arrives. */
const never = (times?: number) => ({
  rate: 1,
  kinds: ["slow" as const],
  slowMs: 60_000,
  ...(times === undefined ? {} : { times })
})

const timed = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const started = performance.now()
    const result = yield* Effect.either(effect)
    return { result, ms: performance.now() - started }
  })

describe("timeouts", () => {
  it.live("an idempotent call times out, is retried, and succeeds when an answer finally comes", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      emu.setFaults(never(2))
      const { ms, result } = yield* timed(
        das.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, page: 1, limit: 5 })
      )
      expect(result._tag).toBe("Right")
      expect(emu.count("getAssetsByAuthority")).toBe(3)
      // The two abandoned attempts were closed by the client, not left hanging.
      expect(emu.requests.filter((r) => r.aborted).length).toBe(2)
      expect(emu.counters.clientClosed).toBe(2)
      console.log(`[reliability] timeout, idempotent: attempts=3 timedOut=2 ms=${ms.toFixed(0)}`)
    }).pipe(Effect.provide(overEmulator({}, { timeout: `${TIMEOUT_MS} millis` }))))

  it.live("when no answer ever comes, the call ends in TransportError after 1 + retries attempts", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      emu.setFaults(never())
      const { ms, result } = yield* timed(
        das.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, page: 1, limit: 5 })
      )
      expect(result._tag === "Left" ? result.left : undefined).toMatchObject({
        _tag: "TransportError",
        reason: "timeout",
        sent: true
      })
      // The emulator logs a request when it ends: the last one ends as the client closes it.
      yield* eventually(() => emu.counters.clientClosed === 3, 30_000, "three closed connections")
      expect(emu.count("getAssetsByAuthority")).toBe(3)
      console.log(`[reliability] timeout, never answered: attempts=3 ms=${ms.toFixed(0)}`)
    }).pipe(Effect.provide(overEmulator({}, { timeout: `${TIMEOUT_MS} millis`, retry: { times: 2 } }))))

  it.live("a non-idempotent call (sendBundle) times out once and is not resent", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const bundles = yield* Bundles.Bundles
      const tx = yield* Effect.promise(() => Kit.signer().then((payer) => Kit.buildMemoTip(payer, "timeout", 5_000n)))
      emu.setFaults(never(1))
      const { ms, result } = yield* timed(bundles.sendBundle([tx.base64]))
      expect(result._tag === "Left" ? result.left : undefined).toMatchObject({
        _tag: "TransportError",
        reason: "timeout",
        sent: true
      })
      yield* eventually(() => emu.counters.clientClosed === 1, 30_000, "the closed connection")
      yield* Effect.sleep("100 millis")
      expect(emu.count("sendBundle")).toBe(1)
      console.log(`[reliability] timeout, sendBundle: attempts=1 ms=${ms.toFixed(0)}`)
    }).pipe(Effect.provide(overEmulator({}, { timeout: `${TIMEOUT_MS} millis` }))))
})
