/**
 * The plans' rate limits, enforced per project (by its plan) and bucket when the
 * emulator is started with a plan (`--plan`, `Emulator.make({ plan })`); without
 * one nothing here runs, so tests and benchmarks stay unthrottled.
 *
 * The rule is the one the real service applies: a sliding 1 s window per
 * project and bucket, the limits of core's `Plans` and each method's bucket from
 * core's endpoint table (webhooks count as enhanced; `getValidityProof` counts
 * against its own bucket and Photon). A request that would put more than the limit
 * into the window closing now (`[now - 1 s, now]`, the requests let through) gets
 * the real 429 "rate limited" with `Retry-After`. Admin keeps its own limiter (the
 * admin area's). For tests, per bucket: the 429s sent and the most requests that
 * ARRIVED (let through or not) within any such window.
 *
 * @example
 * const emu = yield* Emulator.make({ plan: "developer" })
 * // ... run a client ...
 * expect(emu.planLimits.rejected.das ?? 0).toBe(0)
 * expect(emu.planLimits.maxInWindow.das).toBeLessThanOrEqual(10)
 * @since 0.1.0
 */
import type { Bucket } from "@solfx/core/Endpoint"
import { type Plan, plans } from "@solfx/core/Plans"

/** The window of the rule, in milliseconds. */
const WINDOW_MS = 1000

/**
 * What the plan limits saw, per bucket (webhooks under enhanced).
 *
 * @since 0.1.0
 * @category models
 */
export interface Stats {
  /** 429s sent, by the bucket of the refused request. */
  readonly rejected: Readonly<Partial<Record<Bucket, number>>>
  /** The most requests of one project that arrived within any closed 1 s window. */
  readonly maxInWindow: Readonly<Partial<Record<Bucket, number>>>
}

/**
 * The enforcer of one emulator.
 *
 * @since 0.1.0
 * @category models
 */
export interface PlanLimits {
  /**
   * Counts the request of a project (its id and plan) in `bucket` at `now`:
   * `undefined` when it is let through, else the `Retry-After` seconds of its 429.
   * A plan that is not one of core's is not limited.
   */
  readonly admit: (
    project: { readonly id: string; readonly plan: string },
    bucket: Bucket | undefined,
    now: number
  ) => number | undefined
  readonly stats: () => Stats
  /** Clears the counters (not the windows in progress). */
  readonly resetStats: () => void
}

/**
 * Whether `name` is one of core's plans.
 *
 * @since 0.1.0
 * @category plans
 */
export const isPlan = (name: string | undefined): name is Plan => name !== undefined && Object.hasOwn(plans, name)

/** The windows a request of `bucket` counts in: its own, and photon too for a validity proof. */
const keysOf = (bucket: Bucket): ReadonlyArray<Bucket> =>
  bucket === "webhooks" ? ["enhanced"] : bucket === "validityProof" ? ["validityProof", "photon"] : [bucket]

/** Times within the window closing at `now`; the array is pruned in place (they arrive in order). */
const within = (times: Array<number>, now: number): Array<number> => {
  let drop = 0
  while (drop < times.length && times[drop]! < now - WINDOW_MS) drop++
  if (drop > 0) times.splice(0, drop)
  return times
}

/**
 * An enforcer, with no request seen yet.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): PlanLimits => {
  // Per `project:bucket`: start times let through, and arrivals (for the stats), both within the last window.
  const admitted = new Map<string, Array<number>>()
  const arrived = new Map<string, Array<number>>()
  let rejected: Partial<Record<Bucket, number>> = {}
  let maxInWindow: Partial<Record<Bucket, number>> = {}
  const times = (map: Map<string, Array<number>>, key: string, now: number) => {
    let list = map.get(key)
    if (list === undefined) map.set(key, list = [])
    return within(list, now)
  }

  const admit: PlanLimits["admit"] = (project, bucket, now) => {
    if (bucket === undefined || bucket === "admin" || !isPlan(project.plan)) return undefined
    const limits = plans[project.plan]
    const projectId = project.id
    const keys = keysOf(bucket)
    for (const b of keys) {
      const seen = times(arrived, `${projectId}:${b}`, now)
      seen.push(now)
      maxInWindow[b] = Math.max(maxInWindow[b] ?? 0, seen.length)
    }
    let full = false
    let waitMs = 0
    for (const b of keys) {
      const limit = limits[b]
      const recent = times(admitted, `${projectId}:${b}`, now)
      if (limit !== undefined && recent.length >= limit) {
        full = true
        waitMs = Math.max(waitMs, recent[0]! + WINDOW_MS - now)
      }
    }
    if (full) {
      rejected[keys[0]!] = (rejected[keys[0]!] ?? 0) + 1
      return Math.max(1, Math.ceil(waitMs / 1000))
    }
    for (const b of keys) times(admitted, `${projectId}:${b}`, now).push(now)
    return undefined
  }

  return {
    admit,
    stats: () => ({ rejected: { ...rejected }, maxInWindow: { ...maxInWindow } }),
    resetStats: () => {
      rejected = {}
      maxInWindow = {}
    }
  }
}
