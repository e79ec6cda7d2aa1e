/**
 * Operations as values: a service declared from its entries of the endpoint table.
 * Each entry becomes one operation: a call, and for a paged entry also `.pages` and
 * `.stream`, typed by one mapped type (`Operations`). The old `…Stream` / `…Pages`
 * method names are derived by the same mapped type, as deprecated aliases.
 *
 * Every paged operation resumes the same way: `{ start }`, the `next` a page carries.
 *
 * @example
 * const zk = Operations.make(transport, Endpoints.compression)
 * yield* zk.getCompressedMintTokenHolders({ mint, limit: 1000 })            // one page
 * zk.getCompressedMintTokenHolders.stream({ mint })                         // every item
 * zk.getCompressedMintTokenHolders.pages({ mint }, { start: saved })        // pages, each with `next`
 * @since 0.1.0
 */
import type * as Endpoint from "@solfx/core/Endpoint"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as Pagination from "@solfx/core/Pagination"
import type * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Derive from "./Derive.js"
import type { HttpTransportShape } from "./HttpTransport.js"

/**
 * The table entries of one service, by method name.
 *
 * @since 0.1.0
 * @category models
 */
export type Entries = Readonly<Record<string, Endpoint.Endpoint>>

/** Params that may be left out: an empty tuple, or a struct whose every field is optional. */
type Args<PI> = [PI] extends [ReadonlyArray<any>] ? readonly [] extends PI ? [input?: PI] : [input: PI]
  : {} extends PI ? [input?: PI]
  : [input: PI]

/**
 * A page of a walk: its items, `next` (the position that resumes after it; `undefined` on
 * the last page), the whole answer, and the slot it was read at when the answer says so.
 *
 * @since 0.1.0
 * @category models
 */
export type Page<Item, A, Position = string | number> =
  & Pagination.Page<Item, Position>
  & { readonly result: A }
  & (A extends { readonly context: { readonly slot: number } } ? { readonly slot: number } : unknown)

/**
 * Options of a walk: `start` resumes from a page's `next`, whatever the paging kind.
 *
 * @since 0.1.0
 * @category models
 */
export type WalkOptions<Position = string | number> = Derive.PagesOptions<Position & (string | number)>

/**
 * One operation: the call, and, for a paged entry, its pages and its items. `Options` is
 * what a walk takes (default `WalkOptions`: `start` and `concurrency`).
 *
 * @since 0.1.0
 * @category models
 */
export type Operation<E, Position = string | number, Options = WalkOptions<Position>> = E extends
  Endpoint.Endpoint<any, infer A, infer Item, infer PI> ?
    & ((...args: Args<PI>) => Effect.Effect<A, ApiError | InvalidRequest>)
    & ([Item] extends [never] ? unknown : {
      /** Pages from the first (or `start`), lazily. */
      readonly pages: (
        ...args: [...Args<PI>, options?: Options]
      ) => Stream.Stream<Page<Item, A, Position>, ApiError | InvalidRequest>
      /** Every item of every page, lazily: `Stream.take(n)` stops fetching. */
      readonly stream: (
        ...args: [...Args<PI>, options?: Options]
      ) => Stream.Stream<Item, ApiError | InvalidRequest>
    })
  : never

/** The names of the paged entries. */
type PagedKeys<R extends Entries> = {
  [K in keyof R & string]: R[K] extends Endpoint.Endpoint<any, any, infer Item, any> ? [Item] extends [never] ? never
    : K
    : never
}[keyof R & string]

/**
 * The operations of a service's entries, and the deprecated `…Stream` / `…Pages` aliases
 * of each paged one.
 *
 * @since 0.1.0
 * @category models
 */
export type Operations<R extends Entries, Position = string | number, Options = WalkOptions<Position>> =
  & { readonly [K in keyof R]: Operation<R[K], Position, Options> }
  & {
    readonly [
      /** @deprecated Use `x.stream`. */
      K in PagedKeys<R> as `${K}Stream`
    ]: Operation<R[K], Position, Options> extends { readonly stream: infer S } ? S : never
  }
  & {
    readonly [
      /** @deprecated Use `x.pages`. */
      K in PagedKeys<R> as `${K}Pages`
    ]: Operation<R[K], Position, Options> extends { readonly pages: infer S } ? S : never
  }

/**
 * How one entry is run: its call and, for a paged entry, its walk. `make` runs every entry
 * through `Derive`; a service with paging of its own (DAS's two modes) gives its own.
 *
 * @since 0.1.0
 * @category models
 */
export interface Runner {
  readonly call: (input: unknown) => Effect.Effect<unknown, ApiError | InvalidRequest>
  readonly pages?:
    | ((
      input: unknown,
      options: unknown
    ) => Stream.Stream<Pagination.Page<unknown, unknown>, ApiError | InvalidRequest>)
    | undefined
}

/**
 * Options of `make`: a caller's own credit prices, method by method.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Credits per request for the `solfx.credits` estimate, instead of the entry's `cost`. */
  readonly costs?: Readonly<Record<string, number | undefined>> | undefined
}

/** What an operation called without params sends: `[]` for positional params, `{}` otherwise. */
const emptyParams = (entry: Endpoint.Endpoint): unknown => entry.params.ast._tag === "TupleType" ? [] : {}

const slotOf = (result: unknown): number | undefined => {
  const context = (result as { context?: { slot?: unknown } } | null)?.context
  return typeof context?.slot === "number" ? context.slot : undefined
}

/**
 * The operations of `entries`, each run by `run`: the one place where a call gets its
 * `.pages`, its `.stream` and its deprecated aliases.
 *
 * @since 0.1.0
 * @category constructors
 */
export const assemble = <R extends Entries, Position = string | number, O = WalkOptions<Position>>(
  entries: R,
  run: (entry: Endpoint.Endpoint, name: string) => Runner
): Operations<R, Position, O> => {
  const out: Record<string, unknown> = {}
  for (const [name, entry] of Object.entries(entries)) {
    const runner = run(entry, name)
    const empty = emptyParams(entry)
    const call = (input?: unknown) => runner.call(input ?? empty)
    out[name] = call
    const walk = runner.pages
    if (entry.paging._tag === "None" || walk === undefined) continue
    const pages = (input?: unknown, o?: unknown) => walk(input ?? empty, o)
    const stream = (input?: unknown, o?: unknown) => Pagination.flattenPages(pages(input, o))
    Object.assign(call, { pages, stream })
    out[`${name}Stream`] = stream
    out[`${name}Pages`] = pages
  }
  return out as Operations<R, Position, O>
}

/**
 * The operations of `entries` over the transport `t`, each derived from its entry (`Derive`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <R extends Entries, Position = string | number>(
  t: HttpTransportShape,
  entries: R,
  options: Options = {}
): Operations<R, Position> =>
  assemble(entries, (entry, name) => {
    const client = Derive.fromTransport(t, entry, { credits: options.costs?.[name] })
    return {
      call: client.call,
      pages: (input, o) =>
        client.pages(input, o as Derive.PagesOptions<string | number>).pipe(Stream.map((page) => {
          const slot = slotOf(page.result)
          return slot === undefined ? page : { ...page, slot }
        }))
    }
  })
