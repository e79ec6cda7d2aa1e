/**
 * A progress bar on stderr for long jobs (`--all` over many pages, metadata for
 * thousands of mints). It draws only when stderr is a terminal and the output is
 * not `--json`; otherwise every call is a no-op, so piped output stays clean.
 *
 * @example
 * const bar = yield* Progress.make("assets", { total: 10_000 })
 * yield* bar.advance(1_000) // redrawn at most every 80 ms, erased when the scope closes
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"

/**
 * A bar in use: commands count items into it and clear it before printing other output.
 *
 * @since 0.1.0
 * @category models
 */
export interface Progress {
  /** Counts `n` more items done. */
  readonly advance: (n: number) => Effect.Effect<void>
  /** Sets or updates the expected total, when it becomes known (page 1 of a numbered list). */
  readonly setTotal: (total: number) => Effect.Effect<void>
  /** Erases the bar before other output goes to the terminal; the next `advance` redraws it. */
  readonly clear: Effect.Effect<void>
}

/**
 * A progress bar that does nothing.
 *
 * @since 0.1.0
 * @category constructors
 */
export const none: Progress = { advance: () => Effect.void, setTotal: () => Effect.void, clear: Effect.void }

const WIDTH = 28
const EVERY_MS = 80

const duration = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds))
  return s >= 3600
    ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m`
    : s >= 60
    ? `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`
    : `${s}s`
}

/**
 * The bar's text: the count, and with a known total the bar, the rate and the time left (ETA).
 *
 * @example
 * render("mints", 2_500, 10_000, 5_000) // "mints [#######.....................] 2500/10000 500/s ETA 15s"
 * @since 0.1.0
 * @category rendering
 */
export const render = (label: string, done: number, total: number | undefined, elapsedMs: number): string => {
  if (total === undefined || total === 0) return `${label} ${done}`
  const bar = "[" + "#".repeat(Math.round(Math.min(1, done / total) * WIDTH)).padEnd(WIDTH, ".") + "]"
  const rate = elapsedMs > 0 ? done / (elapsedMs / 1000) : 0
  const speed = rate >= 10 ? `${Math.round(rate)}/s` : `${rate.toFixed(1)}/s`
  const eta = rate > 0 && done < total ? ` ETA ${duration((total - done) / rate)}` : ""
  return `${label} ${bar} ${done}/${total} ${speed}${eta}`
}

/**
 * A bar labelled `label` on `stream`, erased when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  label: string,
  options: { readonly total?: number | undefined; readonly stream?: NodeJS.WriteStream | undefined } = {}
): Effect.Effect<Progress, never, Scope.Scope> =>
  Effect.gen(function*() {
    const out = options.stream ?? process.stderr
    let done = 0
    let total = options.total
    let drawnAt = 0
    let drawn = false
    const startedAt = Date.now()
    const draw = (force: boolean) => {
      const now = Date.now()
      if (!force && now - drawnAt < EVERY_MS) return
      drawnAt = now
      drawn = true
      out.write(`\r\x1b[2K${render(label, done, total, now - startedAt)}`)
    }
    const clear = Effect.sync(() => {
      if (drawn) out.write("\r\x1b[2K")
      drawn = false
      drawnAt = 0
    })
    yield* Effect.addFinalizer(() => clear)
    return {
      advance: (n) =>
        Effect.sync(() => {
          done += n
          draw(false)
        }),
      setTotal: (t) =>
        Effect.sync(() => {
          total = t
          draw(true)
        }),
      clear
    }
  })
