/**
 * The ledger feeds the process-wide `solfx.credits` counter: each charge lands in
 * the series `forMethod` (or, for flat areas, `forArea`) reads, and under a
 * caller's own metric labels (`Effect.tagMetrics`) in the labelled series, as
 * `Metric.incrementBy` would put it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Credits from "@solfx/http/Credits"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

const count = (metric: Metric.Metric.Counter<number>) => Effect.map(Metric.value(metric), (s) => s.count)

describe("Credits ledger", () => {
  it.effect("charges land in the series forMethod and forArea read, and in the ledger's areas", () =>
    Effect.gen(function*() {
      const ledger = Credits.makeLedger()
      const method = `ledgerTest-${Math.random()}`
      const before = yield* count(Credits.forArea("wallet"))
      yield* ledger.add("das", method, 10)
      yield* ledger.add("das", method, 5)
      yield* ledger.add("wallet", "GET /v1/wallet/{wallet}/balances", 100)
      yield* ledger.add("das", method, 0)
      expect(yield* count(Credits.forMethod("das", method))).toBe(15)
      expect((yield* count(Credits.forArea("wallet"))) - before).toBe(100)
      expect(yield* ledger.used("das")).toBe(15)
      expect(yield* ledger.used()).toBe(115)
    }))

  it.effect("under a caller's metric labels, charges go to the labelled series, as Metric.incrementBy puts them", () =>
    Effect.gen(function*() {
      const ledger = Credits.makeLedger()
      const method = `ledgerTest-${Math.random()}`
      yield* ledger.add("das", method, 7).pipe(Effect.tagMetrics("job", "nightly"))
      yield* ledger.add("das", method, 3)
      expect(yield* count(Credits.forMethod("das", method)).pipe(Effect.tagMetrics("job", "nightly"))).toBe(7)
      expect(yield* count(Credits.forMethod("das", method))).toBe(3)
      // The same series Metric.incrementBy feeds.
      yield* Metric.incrementBy(Credits.forMethod("das", method), 1).pipe(Effect.tagMetrics("job", "nightly"))
      expect(yield* count(Credits.forMethod("das", method)).pipe(Effect.tagMetrics("job", "nightly"))).toBe(8)
      yield* Metric.incrementBy(Credits.forMethod("das", method), 1)
      expect(yield* count(Credits.forMethod("das", method))).toBe(4)
    }))
})
