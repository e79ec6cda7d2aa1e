/**
 * Where a command's results go. With `--json`: one JSON value per line on stdout
 * (a stream prints one line per item; bigints keep every digit). Otherwise: human
 * text, aligned tables, and a progress bar on stderr when it is a terminal.
 *
 * @example
 * const out = yield* Output.Output
 * yield* out.rows(assets, { columns: assetColumns, progress: "assets" }) // a table, or one JSON line per asset
 * @since 0.1.0
 */

import * as Json from "@solfx/core/Json"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import * as Format from "./Format.js"
import * as Progress from "./Progress.js"
import * as Terminal from "./Terminal.js"

/**
 * How a stream of rows is shown.
 *
 * @since 0.1.0
 * @category models
 */
export interface RowsOptions<A> {
  readonly columns: ReadonlyArray<Format.Column<A>>
  /** The progress bar's label; no bar without it. */
  readonly progress?: string | undefined
  /** The expected number of rows, when known. */
  readonly total?: number | undefined
  /** What the JSON line of a row is (default: the row itself). */
  readonly json?: ((row: A) => unknown) | undefined
  /** A line printed under the table (human mode), e.g. a total. */
  readonly footer?: ((count: number) => string) | undefined
}

/**
 * A page of rows: its items and, when the service said so, how many the whole list has.
 *
 * @since 0.1.0
 * @category models
 */
export interface RowsPage<A> {
  readonly items: ReadonlyArray<A>
  readonly total?: number | undefined
}

/**
 * What commands write through, so the `--json` choice is made once, not in every command.
 *
 * @since 0.1.0
 * @category models
 */
export interface OutputShape {
  readonly json: boolean
  /** Whether a progress bar may be drawn: stderr is a terminal and not `--json`. */
  readonly interactive: boolean
  /** Writes lines of text to stdout (human mode only; ignored with `--json`). */
  readonly text: (...lines: ReadonlyArray<string>) => Effect.Effect<void>
  /** One value: a JSON line, or its human form. */
  readonly value: <A>(value: A, human: (value: A) => ReadonlyArray<string> | string) => Effect.Effect<void>
  /** Rows from a stream: one JSON line per row, or an aligned table printed in blocks. */
  readonly rows: <A, E, R>(rows: Stream.Stream<A, E, R>, options: RowsOptions<A>) => Effect.Effect<number, E, R>
  /**
   * Rows from a stream of pages, as `rows`; the bar takes its total from the first page
   * that gives one (page 1 of a DAS list), and stays a bare counter where none does.
   */
  readonly pages: <A, E, R>(
    pages: Stream.Stream<RowsPage<A>, E, R>,
    options: RowsOptions<A>
  ) => Effect.Effect<number, E, R>
  /** A bar for a long job (a no-op unless interactive). */
  readonly progress: (
    label: string,
    total?: number
  ) => Effect.Effect<Progress.Progress, never, import("effect/Scope").Scope>
}

/**
 * The output of the current run (see `layer`).
 *
 * @since 0.1.0
 * @category tags
 */
export class Output extends Context.Tag("@solfx/cli/Output")<Output, OutputShape>() {}

/** Rows per printed block of a human table: widths are fixed by the first block. */
const BLOCK = 500

/** Human lines, each made inert (tables and fields already are; this covers free text built from data). */
const humanLines = (lines: ReadonlyArray<string>): string =>
  lines.flatMap((l) => l.split("\n")).map((l) => Terminal.escapeControl(l) + "\n").join("")

/**
 * The JSON line of a value (no trailing newline).
 *
 * @example
 * jsonLine({ amount: 18446744073709551615n }) // '{"amount":18446744073709551615}'
 * @since 0.1.0
 * @category json
 */
export const jsonLine = (value: unknown): string => Json.stringify(Format.toJson(value))

/**
 * An output for one mode; `interactive` defaults to whether stderr is a terminal (tests set it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly json: boolean
  readonly interactive?: boolean | undefined
  /** Never printed, whatever the service sends back: the configured API key. */
  readonly secrets?: ReadonlyArray<string> | undefined
}): OutputShape => {
  const json = options.json
  const secrets = options.secrets ?? []
  const write = (text: string) => Effect.sync(() => void process.stdout.write(Terminal.redact(text, secrets)))
  const interactive = !json && (options.interactive ?? process.stderr.isTTY === true)
  const progress = (label: string, total?: number) =>
    interactive ? Progress.make(label, { total }) : Effect.succeed(Progress.none)
  const show = <A, E, R>(o: RowsOptions<A>, rowsOf: (bar: Progress.Progress) => Stream.Stream<A, E, R>) =>
    Effect.scoped(Effect.gen(function*() {
      const bar = o.progress === undefined ? Progress.none : yield* progress(o.progress, o.total)
      const rows = rowsOf(bar)
      let count = 0
      let widths: ReadonlyArray<number> | undefined
      yield* rows.pipe(
        // JSON: each page as it comes; human: blocks, so the first one fixes sensible widths.
        json ? Stream.chunks : Stream.groupedWithin(BLOCK, "250 millis"),
        Stream.runForEach((chunk) => {
          const items = Chunk.toReadonlyArray(chunk)
          count += items.length
          if (json) {
            const toJson = o.json ?? ((a: A) => a)
            return Effect.zipRight(
              write(items.map((a) => jsonLine(toJson(a)) + "\n").join("")),
              bar.advance(items.length)
            )
          }
          const first = widths === undefined
          widths ??= Format.widths(o.columns, items)
          const lines = Format.table(o.columns, items, widths)
          return bar.clear.pipe(
            Effect.zipRight(write((first ? lines : lines.slice(1)).join("\n") + "\n")),
            Effect.zipRight(bar.advance(items.length))
          )
        })
      )
      if (!json) {
        if (count === 0) yield* write("(none)\n")
        if (o.footer !== undefined) yield* write(o.footer(count) + "\n")
      }
      return count
    }))
  return {
    json,
    interactive,
    text: (...lines) => json ? Effect.void : write(humanLines(lines)),
    value: (value, human) => {
      if (json) return write(jsonLine(value) + "\n")
      const lines = human(value)
      return write(humanLines(typeof lines === "string" ? [lines] : lines))
    },
    rows: (rows, o) => show(o, () => rows),
    pages: (pages, o) =>
      show(o, (bar) => {
        let known = false
        return pages.pipe(
          Stream.tap((page) => {
            if (known || page.total === undefined) return Effect.void
            known = true
            return bar.setTotal(page.total)
          }),
          Stream.mapConcat((page) => page.items)
        )
      }),
    progress
  }
}

/**
 * The output as a layer, human or `--json`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (
  options: { readonly json: boolean; readonly secrets?: ReadonlyArray<string> | undefined }
): Layer.Layer<Output> => Layer.succeed(Output, make(options))
