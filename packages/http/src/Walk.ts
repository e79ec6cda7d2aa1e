/**
 * The page walk of the executor: the pages of a paged entry, fetched lazily (a page is
 * requested only when the consumer pulls past the previous one, so `Stream.take(n)` stops
 * fetching), each with the position that resumes after it. Every walk ends: see `walk`.
 * A numbered list with a known end is read ahead (`numberedPages`); an entry with two modes
 * (numbered pages and a keyset) is walked in the one its `start` or `mode` names.
 *
 * @example
 * // Save `page.next` after each page; pass it back as the start to resume.
 * const pages = Walk.walk("holders", savedCursor, (cursor) =>
 *   compression.getCompressedMintTokenHolders({ mint, cursor, limit: 1000 }).pipe(
 *     Effect.map((r) => ({ items: r.value.items, next: r.value.cursor ?? undefined }))
 *   ))
 * @since 0.1.0
 */
import type * as Endpoint from "@solfx/core/Endpoint"
import { type ApiError, DecodeError, PaginationError } from "@solfx/core/Errors"
import { DEFAULT_CONCURRENCY, flattenPages, MAX_EMPTY_RUN, type Page, read, type Walked } from "@solfx/core/Pagination"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import * as Stream from "effect/Stream"
import { readAhead } from "./internal/readAhead.js"

/**
 * Options of an entry's walk.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<Position = unknown> {
  /** Where to start or resume (a page's `next`); default the params' own position, or the first page. */
  readonly start?: Position | undefined
  /** Page-number entries without `hasMore`: pages in flight at once after the first (default 4). */
  readonly concurrency?: number | undefined
  /**
   * An entry with two modes (a `keyset`): `cursor` walks by cursor, `page` (default) by numbered
   * pages; a `start` of `{ cursor }` walks by cursor. Its positions are `{ page }` or `{ cursor }`.
   */
  readonly mode?: "page" | "cursor" | undefined
}

/**
 * A page of an entry's walk: its items, the position after it, and the answer it was read from.
 *
 * @since 0.1.0
 * @category models
 */
export interface EntryPage<Item, Position, A> extends Page<Item, Position> {
  readonly result: A
}

/**
 * The pages of `entry`. `params` are validated already, with their page size; `send` sends them
 * (one call: permit, credits, send, decode). Each page is `send(withPosition(params, position))`:
 * position after position through `walk` (its guards keep every walk finite), or, for numbered
 * pages whose end a total tells, read ahead (`numberedPages`). A page carries its items, `next`,
 * the whole answer, its `slot` when the answer has one, and a REST answer's own fields.
 *
 * @since 0.1.0
 * @category streams
 */
export const entryPages = <P, A, Item, Position>(
  entry: Endpoint.Endpoint<P, A, Item>,
  params: P,
  send: (params: P) => Effect.Effect<A, ApiError>,
  options: Options<Position> = {}
): Stream.Stream<EntryPage<Item, Position, A>, ApiError> => {
  const paging = entry.paging
  const rest = entry._tag === "Rest"
  // The caller chose `Position`: what a walk hands back is the position it was given, or its like.
  type Out = Stream.Stream<EntryPage<Item, Position, A>, ApiError>
  if (paging._tag === "None") {
    return Stream.fromEffect(Effect.map(send(params), (result) => ({ items: [], next: undefined, result })))
  }
  // An entry with two modes (a DAS list's keyset): its positions name their own, `{ page }` or `{ cursor }`.
  const keyset = paging._tag === "PageNumber" ? paging.keyset : undefined
  const mode = keyset === undefined
    ? undefined
    : options.mode === "cursor" || field(options.start, "cursor") !== undefined
    ? "cursor"
    : "page"
  const walked: Walked<A, Item> = mode !== "cursor" ? paging : {
    _tag: "Cursor",
    param: keyset!.param,
    limitParam: paging.limitParam,
    maxLimit: paging.maxLimit,
    items: paging.items,
    next: keyset!.next
  }
  const start = mode === undefined ? options.start ?? field(params, paging.param) : field(options.start, mode)
  // The one place a position is set in the params: `param` names a field of the entry's params.
  const withPosition = (position: unknown) => ({ ...params, [walked.param]: position }) as P
  const pages: Stream.Stream<Page<Item, unknown> & { readonly result?: unknown }, ApiError> =
    walked._tag === "PageNumber" && walked.hasMore === undefined
      ? numberedPages(
        (page) =>
          Effect.map(
            send(withPosition(page)),
            (result) => ({ items: walked.items(result), total: walked.total?.(result), result })
          ),
        {
          limit: Number(field(params, paging.limitParam)),
          concurrency: options.concurrency,
          startPage: typeof start === "number" ? start : undefined
        }
      )
      : walk(
        entry.name,
        start,
        (position) =>
          Effect.flatMap(send(withPosition(position ?? (walked._tag === "PageNumber" ? 1 : undefined))), (result) => {
            const page = read(entry.name, walked, result, position)
            return page instanceof DecodeError ? Effect.fail(page) : Effect.succeed({ ...page, result })
          })
      )
  return Stream.map(pages, (page) => shape(rest, mode, page)) as Out
}

const field = (value: unknown, key: string): unknown => Predicate.isRecord(value) ? value[key] : undefined

const slotOf = (result: unknown): number | undefined => {
  const context = (result as { context?: { slot?: unknown } } | null)?.context
  return typeof context?.slot === "number" ? context.slot : undefined
}

/**
 * A page as a caller reads it: a two-mode position named (`{ page }` / `{ cursor }`), the slot of an
 * answer that says it, and a REST answer's own fields (the Wallet API's `pagination`, `nfts`): a REST
 * answer is one object of named fields, while a JSON-RPC answer keeps its own under `result`.
 */
const shape = <Pg extends Page<unknown, unknown> & { readonly result?: unknown }>(
  rest: boolean,
  mode: "page" | "cursor" | undefined,
  page: Pg
): Pg => {
  const out = mode === undefined || page.next === undefined ? page : { ...page, next: { [mode]: page.next } }
  // (A bare array answer has no fields of its own.)
  if (rest && Predicate.isRecord(page.result) && !Array.isArray(page.result)) return { ...page.result, ...out }
  const slot = slotOf(page.result)
  return slot === undefined ? out : { ...out, slot }
}

/**
 * The one page walk every paged method uses: from `start`, fetch a page, emit it,
 * go on to its `next` while there is one. Lazy: a page is requested only when the
 * consumer pulls past the previous one, so `Stream.take(n)` stops fetching.
 *
 * It always ends: a position seen before in the same walk (a cursor cycle A→B→A, or
 * the cursor just sent) fails with `PaginationError` reason `repeated`, and
 * `MAX_EMPTY_RUN` empty pages in a row that still claim more fail with reason `empty`.
 *
 * @example
 * walk("getCompressedMintTokenHolders", undefined, (cursor) => fetchPage(cursor))
 * @since 0.1.0
 * @category streams
 */
export const walk = <A, P, E, R, Pg extends Page<A, P> = Page<A, P>>(
  operation: string,
  start: P | undefined,
  fetch: (position: P | undefined) => Effect.Effect<Pg, E, R>
): Stream.Stream<Pg, E | PaginationError, R> =>
  Stream.suspend(() => {
    // Per run of the stream: running it twice walks twice.
    const seen = new Set<string>(start === undefined ? [] : [JSON.stringify(start)])
    let requests = 0
    let empty = 0
    return Stream.paginateEffect(start, (position: P | undefined) =>
      Effect.flatMap(fetch(position), (page) => {
        requests++
        if (page.next === undefined) return Effect.succeed([page, Option.none()] as const)
        const key = JSON.stringify(page.next)
        if (seen.has(key)) {
          return Effect.fail(new PaginationError({ operation, reason: "repeated", detail: key, requests }))
        }
        seen.add(key)
        empty = page.items.length === 0 ? empty + 1 : 0
        if (empty >= MAX_EMPTY_RUN) {
          return Effect.fail(new PaginationError({ operation, reason: "empty", detail: String(empty), requests }))
        }
        return Effect.succeed([page, Option.some<P | undefined>(page.next)] as const)
      }))
  })

/**
 * What a page-numbered call returns. `total`, when larger than the page, is taken
 * as the grand total, so the remaining pages are known up front.
 *
 * @since 0.1.0
 * @category models
 */
export interface NumberedResult<A> {
  readonly items: ReadonlyArray<A>
  readonly total?: number | undefined
  /** The whole answer, carried onto the page. */
  readonly result?: unknown
}

/**
 * Options of `numberedPages`: page size, read-ahead and the page to start from.
 *
 * @since 0.1.0
 * @category models
 */
export interface NumberedOptions {
  /** The page size sent with every request. A shorter page is the last one. */
  readonly limit: number
  /** Pages in flight at once after the first (default `DEFAULT_CONCURRENCY`, 4). Items still come out in order. */
  readonly concurrency?: number | undefined
  /** The 1-indexed page to start from (default 1). */
  readonly startPage?: number | undefined
}

/**
 * Pages of a page-numbered call. The first page is fetched alone; the rest are
 * fetched concurrently, at most `concurrency` at a time, and emitted in page order.
 * When the grand total is known the page count is exact; otherwise pages are read
 * ahead until one comes back short (fewer than `2 × concurrency` requests too many).
 *
 * @since 0.1.0
 * @category streams
 */
export const numberedPages = <A, E, R>(
  fetch: (page: number) => Effect.Effect<NumberedResult<A>, E, R>,
  options: NumberedOptions
): Stream.Stream<Page<A, number>, E, R> => {
  const limit = options.limit
  const asked = options.concurrency ?? DEFAULT_CONCURRENCY
  const concurrency = Number.isNaN(asked) ? DEFAULT_CONCURRENCY : Math.max(1, Math.floor(asked))
  const first = options.startPage ?? 1
  return Stream.unwrap(Effect.map(fetch(first), (head) => {
    // A total no larger than the first page may count that page only: not known to be the list's.
    const total = head.total !== undefined && head.total > head.items.length ? head.total : undefined
    const pageOf = (n: number, result: NumberedResult<A>, isLast: boolean): Page<A, number> => ({
      items: result.items,
      next: isLast ? undefined : n + 1,
      ...(result.result === undefined ? {} : { result: result.result }),
      ...(total === undefined ? {} : { total })
    })
    if (head.items.length < limit) return Stream.make(pageOf(first, head, true))
    const headStream = (isLast: boolean) => Stream.make(pageOf(first, head, isLast))
    if (total !== undefined) {
      const lastPage = Math.ceil(total / limit)
      if (lastPage <= first) return headStream(true)
      const rest = readAhead(
        first + 1,
        lastPage,
        concurrency,
        (n) => Effect.map(fetch(n), (r) => pageOf(n, r, n === lastPage || r.items.length < limit))
      )
      return Stream.concat(headStream(false), rest)
    }
    const rest = readAhead(
      first + 1,
      Infinity,
      // With no known end, an unbounded window would start pages without end.
      Number.isFinite(concurrency) ? concurrency : DEFAULT_CONCURRENCY,
      (n) => Effect.map(fetch(n), (r) => pageOf(n, r, r.items.length < limit))
    ).pipe(Stream.filter((p) => p.items.length > 0 || p.next !== undefined))
    return Stream.concat(headStream(false), rest)
  }))
}

/**
 * Items of a page-numbered call (see `numberedPages`).
 *
 * @since 0.1.0
 * @category streams
 */
export const numberedItems = <A, E, R>(
  fetch: (page: number) => Effect.Effect<NumberedResult<A>, E, R>,
  options: NumberedOptions
): Stream.Stream<A, E, R> => flattenPages(numberedPages(fetch, options))
