/**
 * Alternating repetitions and their statistics. Every repetition runs each
 * contender once, in a rotated order (so no contender always runs first, on a
 * cold JIT or right after a GC-heavy neighbour); a comparison reports medians.
 */

export interface Contender<R = unknown> {
  readonly name: string
  /** One run: returns a check value (e.g. the item count) that must be the same on every run. */
  readonly run: () => Promise<R>
}

export interface Samples {
  readonly name: string
  /** Wall time of each repetition, in milliseconds. */
  readonly ms: ReadonlyArray<number>
  readonly median: number
}

export const median = (xs: ReadonlyArray<number>): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

/**
 * Runs `warmup` untimed rounds, then `reps` timed rounds of every contender,
 * rotating the order each round. `check` sees each run's result (e.g. asserts
 * the item count), so a fast wrong answer cannot win.
 */
export const alternate = async <R>(
  contenders: ReadonlyArray<Contender<R>>,
  options: {
    readonly reps: number
    readonly warmup?: number | undefined
    readonly check?: ((name: string, result: R) => void) | undefined
    readonly log?: ((line: string) => void) | undefined
    /** Run outside the timed region, around each timed run (e.g. to read CPU counters). */
    readonly before?: ((name: string) => Promise<void>) | undefined
    readonly after?: ((name: string) => Promise<void>) | undefined
  }
): Promise<Array<Samples>> => {
  const times = new Map<string, Array<number>>(contenders.map((c) => [c.name, []]))
  const n = contenders.length
  for (let w = 0; w < (options.warmup ?? 0); w++) {
    for (const c of contenders) options.check?.(c.name, await c.run())
  }
  for (let rep = 0; rep < options.reps; rep++) {
    for (let k = 0; k < n; k++) {
      const c = contenders[(k + rep) % n]!
      await options.before?.(c.name)
      const t0 = performance.now()
      const result = await c.run()
      const ms = performance.now() - t0
      await options.after?.(c.name)
      options.check?.(c.name, result)
      times.get(c.name)!.push(ms)
      options.log?.(`  rep ${rep + 1}/${options.reps} ${c.name}: ${ms.toFixed(1)} ms`)
    }
  }
  return contenders.map((c) => {
    const ms = times.get(c.name)!
    return { name: c.name, ms, median: median(ms) }
  })
}

/** Milliseconds, readable. */
export const fmtMs = (ms: number): string =>
  ms >= 10_000
    ? `${(ms / 1000).toFixed(1)} s`
    : ms >= 1000
    ? `${(ms / 1000).toFixed(2)} s`
    : ms >= 10
    ? `${ms.toFixed(0)} ms`
    : `${ms.toFixed(2)} ms`

export const fmtRatio = (r: number): string => `${r.toFixed(2)}×`

/** Logs to stderr, so stdout carries only the child's JSON result. */
export const log = (line: string): void => {
  process.stderr.write(line + "\n")
}

/** A byte count, readable. */
export const fmtBytes = (b: number): string => (b >= 1e6 ? `${(b / 1e6).toFixed(2)} MB` : `${(b / 1e3).toFixed(1)} KB`)

/** A short duration: µs below a millisecond. */
export const fmtShort = (
  ms: number
): string => (ms < 1 ? `${(ms * 1000).toFixed(ms < 0.01 ? 2 : 1)} µs` : `${ms.toFixed(2)} ms`)

/** The element with the highest `ratio`, if any. */
export const worstBy = <T>(xs: ReadonlyArray<T>, ratio: (x: T) => number): T | undefined =>
  xs.reduce<T | undefined>((w, x) => (w === undefined || ratio(x) > ratio(w) ? x : w), undefined)
