/**
 * Interruption: a batch of 200 requests, 50 at a time, against an emulator that
 * never answers. Interrupting it once 50 have started aborts every in-flight
 * request at once: the emulator sees each of those connections closed by the
 * client, no further request starts,
 * and no fiber of the batch is left running.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Supervisor from "effect/Supervisor"
import { eventually, overEmulator } from "./support/Sdk.js"

describe("cancellation", () => {
  it.live("interrupting a batch of 200 after 50 have started aborts them all", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const authorityAddress = emu.samples["dasAuthority"]!
      // Every answer waits a minute: the requests hang until they are aborted.
      emu.setLatency(60_000)
      const batch = Effect.forEach(
        Array.from({ length: 200 }, (_, i) => i + 1),
        (page) => das.getAssetsByAuthority({ authorityAddress, page, limit: 1 }),
        { concurrency: 50 }
      )
      // A warm-up round, not measured: the first interruption also pays for compiling the code paths.
      const warm = yield* Effect.fork(batch)
      yield* eventually(() => emu.counters.inFlight === 50, 10_000, "the warm-up requests")
      yield* Fiber.interrupt(warm)
      yield* eventually(() => emu.counters.inFlight === 0, 5_000, "the warm-up requests to close")
      emu.resetLog()

      const supervisor = yield* Supervisor.track
      const fiber = yield* Effect.fork(Effect.supervised(batch, supervisor))
      yield* eventually(() => emu.counters.inFlight === 50, 10_000, "50 requests in flight")
      expect(emu.count()).toBe(0)
      const tracked = (yield* supervisor.value).length
      expect(tracked).toBeGreaterThanOrEqual(50)

      // No wall-clock bound here (the standards forbid it): the behaviour is what the emulator saw.
      const exit = yield* Fiber.interrupt(fiber)
      yield* eventually(() => emu.counters.clientClosed === 50, 5_000, "the emulator to see 50 closed connections")

      expect(exit._tag).toBe("Failure")
      // Every request that started was abandoned by the client; no new one started.
      yield* Effect.sleep("50 millis")
      expect(emu.counters.inFlight).toBe(0)
      expect(emu.requests).toHaveLength(50)
      expect(emu.requests.every((r) => r.aborted === true && r.status === 0)).toBe(true)
      // No fiber of the batch is left: the supervisor tracks live fibers only.
      const alive = yield* supervisor.value
      expect(alive.filter((f) => f.unsafePoll() === null)).toEqual([])
      console.log(
        `[reliability] cancellation: batch=200 started=50 fibersBefore=${tracked} ` +
          `clientClosed=${emu.counters.clientClosed} fibersLeft=${alive.length}`
      )
    }).pipe(Effect.provide(overEmulator())))
})
