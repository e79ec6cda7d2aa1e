/**
 * Turns paged calls into Streams that fetch lazily: a page is requested only when
 * the consumer pulls past the previous one, so `Stream.take(n)` stops fetching.
 * Every page also reports the position to resume from, for checkpointed jobs.
 *
 * @example
 * // Save `page.next` after each page; pass it back as the start to resume.
 * const pages = Pagination.cursorPages("holders", (cursor) =>
 *   compression.getCompressedMintTokenHolders({ mint, cursor, limit: 1000 }).pipe(
 *     Effect.map((r) => ({ items: r.value.items, cursor: r.value.cursor }))
 *   ), savedCursor)
 * @since 0.1.0
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { DecodeError } from "./Errors.js"

/**
 * One fetched page. `next` is where the following page starts (a cursor or a page
 * number), or `undefined` on the last page: save it to resume a job later.
 *
 * @since 0.1.0
 * @category models
 */
export interface Page<A, P> {
  readonly items: ReadonlyArray<A>
  readonly next: P | undefined
}

/**
 * What a cursor-paged call returns: the items and the cursor of the next page
 * (null, undefined or "" on the last page).
 *
 * @since 0.1.0
 * @category models
 */
export interface CursorResult<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | null | undefined
}

/**
 * Pages of a cursor-paged call, fetched sequentially from `start`.
 * A server that hands back the cursor it was given fails with `DecodeError` instead of looping forever.
 *
 * @example
 * cursorPages((cursor) => compression.getCompressedMintTokenHolders({ mint, cursor, limit: 100 })
 *   .pipe(Effect.map((r) => ({ items: r.value.items, cursor: r.value.cursor }))))
 * @since 0.1.0
 * @category streams
 */
export const cursorPages = <A, E, R>(
  operation: string,
  fetch: (cursor: string | undefined) => Effect.Effect<CursorResult<A>, E, R>,
  start?: string | undefined
): Stream.Stream<Page<A, string>, E | DecodeError, R> =>
  Stream.paginateEffect(start, (cursor) =>
    Effect.flatMap(fetch(cursor), (result) => {
      const next = result.cursor === null || result.cursor === undefined || result.cursor === ""
        ? undefined
        : result.cursor
      if (next !== undefined && next === cursor) {
        return Effect.fail(
          new DecodeError({ operation, path: "$.cursor", expected: "a cursor different from the one just sent" })
        )
      }
      const page: Page<A, string> = { items: result.items, next }
      return Effect.succeed([page, next === undefined ? Option.none() : Option.some(next)] as const)
    }))

/**
 * Items of a cursor-paged call (see `cursorPages`).
 *
 * @since 0.1.0
 * @category streams
 */
export const cursorItems = <A, E, R>(
  operation: string,
  fetch: (cursor: string | undefined) => Effect.Effect<CursorResult<A>, E, R>,
  start?: string | undefined
): Stream.Stream<A, E | DecodeError, R> => flattenPages(cursorPages(operation, fetch, start))

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
  /** Pages in flight at once after the first (default 4). Items still come out in order. */
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
  const concurrency = Math.max(1, options.concurrency ?? 4)
  const first = options.startPage ?? 1
  const pageOf = (n: number, result: NumberedResult<A>, isLast: boolean): Page<A, number> => ({
    items: result.items,
    next: isLast ? undefined : n + 1
  })
  return Stream.unwrap(Effect.map(fetch(first), (head) => {
    if (head.items.length < limit) return Stream.make(pageOf(first, head, true))
    const headStream = (isLast: boolean) => Stream.make(pageOf(first, head, isLast))
    if (head.total !== undefined && head.total > head.items.length) {
      const lastPage = Math.ceil(head.total / limit)
      if (lastPage <= first) return headStream(true)
      const rest = Stream.range(first + 1, lastPage).pipe(
        Stream.mapEffect((n) => Effect.map(fetch(n), (r) => pageOf(n, r, n === lastPage || r.items.length < limit)), {
          concurrency
        }),
        Stream.takeUntil((p) => p.next === undefined)
      )
      return Stream.concat(headStream(false), rest)
    }
    const rest = Stream.iterate(first + 1, (n) => n + 1).pipe(
      Stream.mapEffect((n) => Effect.map(fetch(n), (r) => pageOf(n, r, r.items.length < limit)), { concurrency }),
      Stream.takeUntil((p) => p.next === undefined),
      Stream.filter((p) => p.items.length > 0 || p.next !== undefined)
    )
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

/**
 * The items of a stream of pages, in order.
 *
 * @since 0.1.0
 * @category streams
 */
export const flattenPages = <A, P, E, R>(pages: Stream.Stream<Page<A, P>, E, R>): Stream.Stream<A, E, R> =>
  Stream.mapChunks(pages, Chunk.flatMap((page) => Chunk.unsafeFromArray(page.items as Array<A>)))
