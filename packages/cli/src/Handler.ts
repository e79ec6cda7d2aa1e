/**
 * What every command handler shares: the services and the output, built from
 * the global options, and the `--all` / `--limit` options of paginated commands.
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import { type Globals, root } from "./Globals.js"
import * as Output from "./Output.js"
import * as Services from "./Services.js"

/** The configured key (flag or SOLFX_API_KEY): data from the service never prints it either. */
const secretsOf = (globals: Globals): ReadonlyArray<string> =>
  Option.toArray(Option.map(globals.apiKey, Redacted.value))

/**
 * Runs a command body with every service (configured from the global options)
 * and the output (JSON lines or human text).
 *
 * @since 0.1.0
 * @category handlers
 */
export const withServices = <A, E>(
  body: Effect.Effect<A, E, Services.Services | Output.Output>
) =>
  Effect.gen(function*() {
    const globals = yield* root
    return yield* body.pipe(
      Effect.provide(Output.layer({ json: globals.json, secrets: secretsOf(globals) })),
      Effect.provide(Services.layer(globals))
    )
  })

/**
 * Runs a command body that needs only the output (offline commands).
 *
 * @since 0.1.0
 * @category handlers
 */
export const withOutput = <A, E, R>(body: Effect.Effect<A, E, R | Output.Output>) =>
  Effect.flatMap(
    root,
    (globals) => Effect.provide(body, Output.layer({ json: globals.json, secrets: secretsOf(globals) }))
  )

/**
 * `--all`: stream every page. Without it a paginated command shows the first page.
 *
 * @since 0.1.0
 * @category options
 */
export const all = Options.boolean("all").pipe(Options.withDescription("Stream every page (default: the first page)"))

/**
 * `--limit N`: the page size.
 *
 * @since 0.1.0
 * @category options
 */
export const limit = Options.integer("limit").pipe(
  Options.withDescription("Page size"),
  Options.optional
)

/**
 * The first page of a paginated command: its items, and whether the service has more.
 *
 * @since 0.1.0
 * @category pagination
 */
export interface FirstPage<A> {
  readonly items: ReadonlyArray<A>
  readonly more: boolean
}

/**
 * What stderr says under a first page that is not the last.
 *
 * @since 0.1.0
 * @category pagination
 */
export const morePagesNote = "more pages exist: add --all to stream every page (--limit N sets the page size)"

/**
 * The first page, or every page with `--all`, as a stream of pages (each with the
 * list's total where the service gives one, for the progress bar). Without `--all`,
 * a first page that is not the last ends with `morePagesNote` on stderr (stdout keeps
 * only the data, `--json` included).
 *
 * @since 0.1.0
 * @category pagination
 */
export const firstOrAllPages = <A, E, R, E2, R2>(
  options: { readonly all: boolean },
  first: Effect.Effect<FirstPage<A>, E, R>,
  every: Stream.Stream<Output.RowsPage<A>, E2, R2>
): Stream.Stream<Output.RowsPage<A>, E | E2, R | R2> =>
  options.all ? every : Stream.unwrap(Effect.map(first, (page) => {
    const head: Stream.Stream<Output.RowsPage<A>> = Stream.make({ items: page.items })
    // Console.warn (stderr too): Console.error inside a command is kept for @effect/cli's usage errors.
    return page.more ? Stream.concat(head, Stream.execute(Console.warn(morePagesNote))) : head
  }))

/**
 * The items of the first page, or of every page with `--all`, as one stream (for
 * lists whose pages give no total; see `firstOrAllPages`).
 *
 * @since 0.1.0
 * @category pagination
 */
export const firstOrAll = <A, E, R, E2, R2>(
  options: { readonly all: boolean },
  first: Effect.Effect<FirstPage<A>, E, R>,
  every: Stream.Stream<A, E2, R2>
): Stream.Stream<A, E | E2, R | R2> =>
  options.all ? every : Stream.mapConcat(firstOrAllPages(options, first, Stream.empty), (page) => page.items)

/**
 * Whether a numbered DAS page may have a next one: it came back full.
 *
 * @since 0.1.0
 * @category pagination
 */
export const fullPage = (page: { readonly limit: number }, items: ReadonlyArray<unknown>): boolean =>
  items.length > 0 && items.length >= page.limit

/**
 * An optional option as `undefined` when absent, for SDK options objects.
 *
 * @since 0.1.0
 * @category options
 */
export const opt = <A>(option: Option.Option<A>): A | undefined => Option.getOrUndefined(option)

/**
 * A variadic argument (`<id...>`) that takes no `--option`-like word: @effect/cli
 * would otherwise read an unknown or misplaced option as one more value, and a
 * typo would reach the service instead of being a usage error.
 *
 * @since 0.1.0
 * @category arguments
 */
export const values = (name: string, description: string, min: number) =>
  Args.text({ name }).pipe(
    Args.withDescription(description),
    min > 0 ? Args.atLeast(min) : Args.repeated,
    Args.mapEffect((items) => {
      const option = items.find((item) => item.startsWith("-"))
      return option === undefined
        ? Effect.succeed(items)
        : Effect.fail(HelpDoc.p(`Received unknown argument: '${option}'`))
    })
  )
