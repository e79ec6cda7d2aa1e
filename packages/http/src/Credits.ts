/**
 * The credits-used estimate of the whole SDK: one `solfx.credits` counter, defined
 * here only. Each billed attempt adds its entry's cost (`Endpoints`, or a caller's own
 * price through a service's `costs` option) to one transport's `Ledger`, which feeds this
 * counter tagged with the API `area` (`das`, `photon`, `api`, `wallet`) and the `method`
 * (the JSON-RPC method or REST operation); the wallet's flat cost is tagged `area=wallet`
 * alone (`Wallet.creditsMetric`). The credit budget (`RateLimits`) reads the same costs.
 *
 * Each tag set is its own series: read one with `forMethod` (or `forArea`), or
 * export the counter to a metrics backend, which sums the series.
 *
 * @example
 * const live = Solfx.layer({ apiKey, services: { digitalAssets: { costs: { getAssetsByAuthority: 10 } } } })
 * const { count } = yield* Metric.value(Credits.forMethod("das", "getAssetsByAuthority"))
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Metric from "effect/Metric"
import * as MetricKey from "effect/MetricKey"
import * as MetricLabel from "effect/MetricLabel"

const COUNTER = { description: "Estimated credits used, by API area and method", incremental: true } as const

/**
 * The counter every service adds its estimate to, one series per tag set (`area`, `method`).
 *
 * @since 0.1.0
 * @category metrics
 */
export const credits: Metric.Metric.Counter<number> = Metric.counter("solfx.credits", COUNTER)

/**
 * The series of one method of an area (e.g. `"das"`, `"getAssetsByAuthority"`).
 *
 * @example
 * const { count } = yield* Metric.value(Credits.forMethod("das", "getAssetsByAuthority"))
 * @since 0.1.0
 * @category metrics
 */
export const forMethod = (area: string, method: string): Metric.Metric.Counter<number> =>
  credits.pipe(Metric.tagged("area", area), Metric.tagged("method", method))

/**
 * The series of a whole area, for services whose every request costs the same
 * (the wallet's `area=wallet`).
 *
 * @since 0.1.0
 * @category metrics
 */
export const forArea = (area: string): Metric.Metric.Counter<number> => credits.pipe(Metric.tagged("area", area))

/**
 * Credits charged through one transport, by area: the estimate of one layer (one
 * key), beside the process-wide `credits` counter.
 *
 * @since 0.1.0
 * @category models
 */
export interface Ledger {
  /** Adds `amount` credits for one billed attempt of `method` in `area`. */
  readonly add: (area: string, method: string, amount: number) => Effect.Effect<void>
  /** Credits charged so far in `area`, or in every area. */
  readonly used: (area?: string | undefined) => Effect.Effect<number>
}

/**
 * Areas whose every request costs the same (the wallet's flat 100, as the service documents): one
 * series per area, without the method.
 *
 * @since 0.1.0
 * @category metrics
 */
export const FLAT_AREAS: ReadonlySet<string> = new Set(["wallet"])

/**
 * A fresh ledger that also feeds the `credits` counter.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeLedger = (): Ledger => {
  // A plain map: the ledger only ever grows, and reads need no consistency across areas.
  const byArea = new Map<string, number>()
  // Each series as a counter of its own key, built once: `Metric.tagged` looks the series up in the
  // registry again on every update, hashing its key (most of a small call's bookkeeping). The key is
  // the one `forMethod` (`forArea`) reaches, so both feed and read the same series.
  const series = new Map<string, Metric.Metric.Counter<number>>()
  const seriesOf = (area: string, method: string) => {
    const flat = FLAT_AREAS.has(area)
    const name = flat ? area : `${area}\u0000${method}`
    let counter = series.get(name)
    if (counter === undefined) {
      const labels = [MetricLabel.make("area", area), ...(flat ? [] : [MetricLabel.make("method", method)])]
      counter = Metric.fromMetricKey(MetricKey.taggedWithLabels(MetricKey.counter("solfx.credits", COUNTER), labels))
      series.set(name, counter)
    }
    return counter
  }
  return {
    add: (area, method, amount) =>
      amount <= 0 ? Effect.void : Effect.withFiberRuntime((fiber) => {
        byArea.set(area, (byArea.get(area) ?? 0) + amount)
        // What `Metric.incrementBy` does; with labels of the caller's (`Effect.tagMetrics`) the series is
        // theirs then ours, in that order, so it goes the usual way.
        const tags = fiber.getFiberRef(FiberRef.currentMetricLabels)
        if (tags.length === 0) seriesOf(area, method).unsafeUpdate(amount, tags)
        else (FLAT_AREAS.has(area) ? forArea(area) : forMethod(area, method)).unsafeUpdate(amount, tags)
        return Effect.void
      }),
    used: (area) =>
      Effect.sync(() => area === undefined ? [...byArea.values()].reduce((a, b) => a + b, 0) : byArea.get(area) ?? 0)
  }
}
