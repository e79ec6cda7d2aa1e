/**
 * A credits-used estimate. The spec gives no credit cost for the JSON-RPC data
 * methods or token metadata, so each service takes a configurable cost table and
 * adds the cost of every request it sends to the `solfx.credits` counter, tagged
 * with the API `area` and the `method` (the JSON-RPC method or REST operation).
 *
 * @example
 * const live = Solfx.layer({ apiKey, services: { digitalAssets: { costs: { getAssetsByAuthority: 10 } } } })
 * const used = yield* Metric.value(Credits.credits) // { count } summed over every area and method
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"

/**
 * Credits per request, by operation name.
 *
 * @since 0.1.0
 * @category models
 */
export type CostTable<K extends string = string> = Readonly<Record<K, number>>

/**
 * The counter every service adds its estimate to, one series per `area` and `method`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const credits: Metric.Metric.Counter<number> = Metric.counter("solfx.credits", {
  description: "Estimated credits used (from the configured cost table), by API area and method",
  incremental: true
})

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
 * Adds `amount` credits for one request of `method` in `area`.
 *
 * @since 0.1.0
 * @category metrics
 */
export const charge = (area: string, method: string, amount: number): Effect.Effect<void> =>
  Metric.incrementBy(forMethod(area, method), amount)

/**
 * Merges overrides into a default table, ignoring undefined entries.
 *
 * @since 0.1.0
 * @category models
 */
export const withOverrides = <K extends string>(
  defaults: CostTable<K>,
  overrides: Partial<Record<K, number | undefined>> | undefined
): CostTable<K> => {
  const out: Record<string, number> = { ...defaults }
  for (const [k, v] of Object.entries(overrides ?? {})) if (typeof v === "number") out[k] = v
  return out as CostTable<K>
}
