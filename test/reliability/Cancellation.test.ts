/**
 * Interruption: a batch of 200 requests, 50 at a time, against an emulator that
 * never answers (each answer would take a minute). Interrupting it once 50 have
 * started aborts every in-flight request: when the interrupt returns no fiber of
 * the batch is left running, the emulator sees each of those 50 connections
 * closed by the client (not answered), and no further request starts. The
 * times are printed; `npm run bench` is where speed is measured.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Supervisor from "effect/Supervisor"
import { eventually, overEmulator } from "./support/Sdk.js"

describe("cancellation", () => {
  it.live("interrupting a batch of 200 after 50 have started aborts them all, and no fiber or request outlives it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const authorityAddress = emu.samples.assetAuthority
      // Every answer waits a minute: the requests hang until they are aborted.
      emu.setLatency(60_000)
      const batch = Effect.forEach(
        Array.from({ length: 200 }, (_, i) => i + 1),
        (page) => das.getAssetsByAuthority({ authorityAddress, page, limit: 1 }),
        { concurrency: 50 }
      )
      const supervisor = yield* Supervisor.track
      const fiber = yield* Effect.fork(Effect.supervised(batch, supervisor))
      yield* eventually(() => emu.counters.inFlight === 50, 30_000, "50 requests in flight")
      expect(emu.count()).toBe(0)
      const tracked = (yield* supervisor.value).length
      expect(tracked).toBeGreaterThanOrEqual(50)

      const started = performance.now()
      const exit = yield* Fiber.interrupt(fiber)
      const interruptMs = performance.now() - started
      // The interrupt returns only once every fiber of the batch has ended: none is still running.
      const alive = yield* supervisor.value
      expect(alive.filter((f) => f.unsafePoll() === null)).toEqual([])
      expect(exit._tag).toBe("Failure")
      // Each answer would take a minute: the emulator sees 50 closes long before, so the client aborted them.
      yield* eventually(() => emu.counters.clientClosed === 50, 30_000, "the emulator to see 50 closed connections")
      const closedMs = performance.now() - started

      // Every request that started was abandoned by the client; no new one started.
      expect(emu.counters.inFlight).toBe(0)
      expect(emu.requests).toHaveLength(50)
      expect(emu.requests.every((r) => r.aborted === true && r.status === 0)).toBe(true)
      console.log(
        `[reliability] cancellation: batch=200 started=50 fibersBefore=${tracked} interruptMs=${
          interruptMs.toFixed(1)
        } ` +
          `allClosedSeenByEmulatorMs=${
            closedMs.toFixed(1)
          } clientClosed=${emu.counters.clientClosed} fibersLeft=${alive.length}`
      )
    }).pipe(Effect.provide(overEmulator())))
})
