/**
 * The transport's timer (`internal/timer.ts`) gives what `Effect.timeoutFail` gives:
 * on the live Clock through its own path (one fork and a setTimeout), on the
 * TestClock through `timeoutFail` itself. Behaviour only: who won, what was
 * interrupted, which fiber refs came back.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as FiberRef from "effect/FiberRef"
import * as TestClock from "effect/TestClock"
import { within } from "../src/internal/timer.js"

const late = () => "late" as const
const ref = FiberRef.unsafeMake(0)

/** The same checks on whichever Clock runs them; `advance` lets time pass on it. */
const checks = (advance: Effect.Effect<void>) =>
  Effect.gen(function*() {
    // Ends first: its value, and the fiber refs it set.
    const value = yield* within(Effect.as(FiberRef.set(ref, 7), "value"), 60_000, late)
    expect(value).toBe("value")
    expect(yield* FiberRef.get(ref)).toBe(7)
    // Fails first: its failure, refs not taken.
    yield* FiberRef.set(ref, 0)
    const failed = yield* Effect.exit(within(Effect.zipRight(FiberRef.set(ref, 9), Effect.fail("boom")), 60_000, late))
    expect(failed).toEqual(Exit.fail("boom"))
    expect(yield* FiberRef.get(ref)).toBe(0)
    // Never ends: the timeout's failure, and the effect interrupted.
    const interrupted = yield* Deferred.make<void>()
    const slow = yield* Effect.fork(
      within(Effect.onInterrupt(Effect.never, () => Deferred.succeed(interrupted, undefined)), 20, late)
    )
    yield* advance
    expect(yield* Effect.flip(Fiber.join(slow))).toBe("late")
    expect(yield* Deferred.isDone(interrupted)).toBe(true)
    // The caller interrupts: so is the effect, and no timeout follows.
    const stopped = yield* Deferred.make<void>()
    const started = yield* Deferred.make<void>()
    const waiting = yield* Effect.fork(
      within(
        Effect.zipRight(
          Deferred.succeed(started, undefined),
          Effect.onInterrupt(Effect.never, () => Deferred.succeed(stopped, undefined))
        ),
        60_000,
        late
      )
    )
    yield* Deferred.await(started)
    const exit = yield* Fiber.interrupt(waiting)
    expect(Exit.isInterrupted(exit)).toBe(true)
    expect(yield* Deferred.isDone(stopped)).toBe(true)
  })

describe("within", () => {
  it.live("on the live Clock", () => checks(Effect.sleep("40 millis")))
  it.effect("on the TestClock", () => checks(TestClock.adjust("1 second")))
})
