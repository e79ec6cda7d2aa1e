/**
 * The in-memory de-duplication store: a signature is claimed once per window, a release gives it
 * back, the window ends on the Clock, and the oldest are forgotten past the capacity.
 */
import { describe, expect, it } from "@effect/vitest"
import { DedupeStore } from "@solfx/webhooks"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"

describe("DedupeStore.memory", () => {
  it.effect("claims once per window; release and the window's end give a signature back", () =>
    Effect.gen(function*() {
      const store = DedupeStore.memory({ capacity: 10 })
      expect(yield* store.claim(["a", "b", "a"], 1_000)).toEqual([true, true, false])
      expect(yield* store.claim(["a", "c"], 1_000)).toEqual([false, true])
      yield* store.release(["a"])
      expect(yield* store.claim(["a"], 1_000)).toEqual([true])
      yield* TestClock.adjust("1001 millis")
      expect(yield* store.claim(["b", "c"], 1_000)).toEqual([true, true])
    }))

  it.effect("forgets the oldest past its capacity", () =>
    Effect.gen(function*() {
      const store = DedupeStore.memory({ capacity: 2 })
      expect(yield* store.claim(["a", "b", "c"], 60_000)).toEqual([true, true, true])
      // The next claim prunes to the capacity first: "a", the oldest, is forgotten.
      expect(yield* store.claim(["a"], 60_000)).toEqual([true])
      expect(yield* store.claim(["c"], 60_000)).toEqual([false])
    }))
})
