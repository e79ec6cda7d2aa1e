/**
 * Operations as values: a service declared from its entries of the endpoint table.
 * Each entry becomes one operation: a call, and for a paged entry also `.pages` and
 * `.stream`, typed by one mapped type (`Operations`). The old `…Stream` / `…Pages`
 * method names are derived by the same mapped type, as deprecated aliases.
 *
 * Every paged operation resumes the same way: `{ start }`, the `next` a page carries.
 *
 * A service whose methods take one field first (the Wallet API's `wallet`) declares it as
 * its key (`{ key: "wallet" }`): its calls are `(wallet, options)`, and a walk's `start`
 * sits in the same options.
 *
 * @example
 * const zk = Operations.make(transport, Endpoints.compression)
 * yield* zk.getCompressedMintTokenHolders({ mint, limit: 1000 })            // one page
 * zk.getCompressedMintTokenHolders.stream({ mint })                         // every item
 * zk.getCompressedMintTokenHolders.pages({ mint }, { start: saved })        // pages, each with `next`
 * const w = Operations.make(transport, Endpoints.wallet, { key: "wallet" })
 * w.history.stream(address, { limit: 100, start: saved })                  // keyed: (wallet, options)
 * @since 0.1.0
 */
import type * as Endpoint from "@solfx/core/Endpoint"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as Pagination from "@solfx/core/Pagination"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Derive from "./Derive.js"
import type { HttpTransportShape } from "./HttpTransport.js"
import { emptyParams, keyedWalk } from "./internal/wire.js"

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
 * The page of an entry's walk. A REST page also carries its answer's own fields (the
 * Wallet API's `pagination`, `nfts`, `totalUsdValue`): a REST answer is one object of
 * named fields a caller reads, while a JSON-RPC answer keeps its own under `result` (a
 * DAS answer's `total` counts one page, not the list).
 *
 * @since 0.1.0
 * @category models
 */
export type EntryPage<E, Position = string | number> = E extends Endpoint.Endpoint<any, infer A, infer Item, any>
  ? E extends Endpoint.Rest ? A extends ReadonlyArray<any> ? Page<Item, A, Position>
    : Omit<A, keyof Page<Item, A, Position>> & Page<Item, A, Position>
  : Page<Item, A, Position>
  : never

/**
 * Options of a walk: `start` resumes from a page's `next`, whatever the paging kind.
 *
 * @since 0.1.0
 * @category models
 */
export type WalkOptions<Position = string | number> = Derive.PagesOptions<Position & (string | number)>

/**
 * Positions by entry name, for a service whose entries page differently (the Wallet API's
 * balances by page number, its history by cursor): `M[name]`, or `Default` for the others.
 *
 * @since 0.1.0
 * @category models
 */
export interface ByName<M, Default = string | number> {
  readonly "~byName": M
  readonly "~default": Default
}

/** The position of entry `K`: `Position`, or its own when given `ByName`. */
type PositionOf<Position, K> = Position extends ByName<infer M, infer D> ? K extends keyof M ? M[K] : D : Position

/** The walk options: `Options`, or by default `WalkOptions` of the entry's position. */
type OptionsOf<Options, Position> = [Options] extends [never] ? WalkOptions<Position> : Options

/**
 * The options of a keyed call: the entry's params without its key.
 *
 * @since 0.1.0
 * @category models
 */
export type KeyedOptions<E, Key extends string> = E extends Endpoint.Endpoint<any, any, any, infer PI> ? Omit<PI, Key>
  : never

/** What a call answers: `Option` where the entry documents a 404 as the answer "none". */
type Answer<E, A> = E extends { readonly notFound: "answer" } ? Option.Option<A> : A

/** A call's arguments: the params, or (keyed) the key's value then the other params. */
type CallArgs<PI, Key extends string> = [Key] extends [never] ? Args<PI>
  : [key: PI[Key & keyof PI], ...Args<Omit<PI, Key>>]

/** A walk's arguments: the call's then the walk options, or (keyed) the key's value then both in one object. */
type WalkArgs<PI, Options, Key extends string> = [Key] extends [never] ? [...Args<PI>, options?: Options]
  : [key: PI[Key & keyof PI], ...Args<Omit<PI, Key> & Options>]

/**
 * One operation: the call, and, for a paged entry, its pages and its items. `Options` is
 * what a walk takes (default `WalkOptions`: `start` and `concurrency`); `Key` is the field
 * a keyed service takes first (see `make`).
 *
 * @since 0.1.0
 * @category models
 */
export type Operation<E, Position = string | number, Options = WalkOptions<Position>, Key extends string = never> =
  E extends Endpoint.Endpoint<any, infer A, infer Item, infer PI> ?
      & ((...args: CallArgs<PI, Key>) => Effect.Effect<Answer<E, A>, ApiError | InvalidRequest>)
      & ([Item] extends [never] ? unknown : {
        /** Pages from the first (or `start`), lazily. */
        readonly pages: (
          ...args: WalkArgs<PI, Options, Key>
        ) => Stream.Stream<EntryPage<E, Position>, ApiError | InvalidRequest>
        /** Every item of every page, lazily: `Stream.take(n)` stops fetching. */
        readonly stream: (
          ...args: WalkArgs<PI, Options, Key>
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
 * of each paged one. `Position` is what `next` and `start` hold (one type, or `ByName`);
 * `Options` what a walk takes (default `WalkOptions` of the position).
 *
 * @since 0.1.0
 * @category models
 */
export type Operations<
  R extends Entries,
  Position = string | number,
  Options = never,
  Key extends string = never
> =
  & { readonly [K in keyof R]: Op<R, K, Position, Options, Key> }
  & {
    readonly [
      /** @deprecated Use `x.stream`. */
      K in PagedKeys<R> as `${K}Stream`
    ]: Op<R, K, Position, Options, Key> extends { readonly stream: infer S } ? S : never
  }
  & {
    readonly [
      /** @deprecated Use `x.pages`. */
      K in PagedKeys<R> as `${K}Pages`
    ]: Op<R, K, Position, Options, Key> extends { readonly pages: infer S } ? S : never
  }

/** The operation of entry `K` of `R`, with its own position and walk options. */
type Op<R extends Entries, K extends keyof R, Position, Options, Key extends string> = Operation<
  R[K],
  PositionOf<Position, K>,
  OptionsOf<Options, PositionOf<Position, K>>,
  Key
>

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
 * Options of `make`: a caller's own credit prices, method by method, and the call shape.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<Key extends string = never> {
  /** Credits per request for the `solfx.credits` estimate, instead of the entry's `cost`. */
  readonly costs?: Readonly<Record<string, number | undefined>> | undefined
  /**
   * The field every method takes first (e.g. `"wallet"`): calls are `(wallet, options)`, and
   * a walk reads its `start` and `concurrency` from the same options (no param may bear those names).
   */
  readonly key?: Key | undefined
  /** A walk's options beyond `start` and `concurrency`, checked with this Schema (see `Derive.InterpretOptions`). */
  readonly walkOptions?: Derive.InterpretOptions["walkOptions"]
  /** Params a walk sets itself, refused in a walk's params (see `Derive.InterpretOptions`). */
  readonly walkSets?: Derive.InterpretOptions["walkSets"]
}

/**
 * The operations of `entries`, each run by `run`: the one place where a call gets its
 * `.pages`, its `.stream` and its deprecated aliases. With `key`, `run`'s functions get a
 * keyed call's arguments as one object (`{ ...options, [key]: value }`).
 *
 * @since 0.1.0
 * @category constructors
 */
export const assemble = <
  R extends Entries,
  Position = string | number,
  O = never,
  Key extends string = never
>(
  entries: R,
  run: (entry: Endpoint.Endpoint, name: string) => Runner,
  { key }: Pick<Options<Key>, "key"> = {}
): Operations<R, Position, O, Key> =>
  fromRunners(entries, (entry, name) => {
    const runner = run(entry, name)
    const empty = emptyParams(entry)
    const walk = runner.pages
    return {
      call: key === undefined
        ? (input?: unknown) => runner.call(input ?? empty)
        : (value: unknown, rest?: unknown) => runner.call({ ...(rest as object), [key]: value }),
      pages: walk === undefined ? undefined : key === undefined
        ? (input?: unknown, o?: unknown) => walk(input ?? empty, o)
        : (value: unknown, o?: unknown) => walk(...keyedWalk(key, value, o))
    }
  }) as Operations<R, Position, O, Key>

/** The operations of `entries` from functions that take the operations' own arguments. */
const fromRunners = (
  entries: Entries,
  run: (entry: Endpoint.Endpoint, name: string) => {
    readonly call: (...args: Array<any>) => unknown
    readonly pages?: ((...args: Array<any>) => Stream.Stream<Pagination.Page<unknown, unknown>, any>) | undefined
  }
): unknown => {
  const out: Record<string, unknown> = {}
  for (const [name, entry] of Object.entries(entries)) {
    const { call, pages } = run(entry, name)
    out[name] = call
    if (entry.paging._tag === "None" || pages === undefined) continue
    const stream = (a?: unknown, b?: unknown) => Pagination.flattenPages(pages(a, b))
    Object.assign(call, { pages, stream })
    out[`${name}Stream`] = stream
    out[`${name}Pages`] = pages
  }
  return out
}

/**
 * The operations of `entries` over the transport `t`: each is its entry's interpreter
 * (`Derive.interpret`), its call and `.pages` handed out as they are.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = <R extends Entries, Position = string | number, Key extends string = never>(
  t: HttpTransportShape,
  entries: R,
  options: Options<Key> = {}
): Operations<R, Position, never, Key> =>
  fromRunners(entries, (entry, name) => {
    const op = Derive.interpret(t, entry, {
      credits: options.costs?.[name],
      name,
      key: options.key,
      walkOptions: options.walkOptions,
      walkSets: options.walkSets
    })
    return { call: entry._tag === "Rest" && entry.notFound === "answer" ? op.callOption : op.call, pages: op.pages }
  }) as Operations<R, Position, never, Key>
