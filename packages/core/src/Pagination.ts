/**
 * Turns paged calls into Streams that fetch lazily: a page is requested only when
 * the consumer pulls past the previous one, so `Stream.take(n)` stops fetching.
 * Every page also reports the position to resume from, for checkpointed jobs.
 * Every walk ends: see `walk` for the guarantees.
 *
 * @example
 * // Save `page.next` after each page; pass it back as the start to resume.
 * const pages = Pagination.walk("holders", savedCursor, (cursor) =>
 *   compression.getCompressedMintTokenHolders({ mint, cursor, limit: 1000 }).pipe(
 *     Effect.map((r) => ({ items: r.value.items, next: r.value.cursor ?? undefined }))
 *   ))
 * @since 0.1.0
 */
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { PaginationError } from "./Errors.js"

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
  /** The whole answer the page was read from, when the walk keeps it (e.g. for its slot). */
  readonly result?: unknown
  /** The number of items of the whole list, when the first page said so (a DAS list's grand total). */
  readonly total?: number | undefined
}

/**
 * The bound on a run of empty pages that still claim more: the walk fails with
 * `PaginationError` (reason `empty`) on the third such page in a row, so an endless
 * run of them costs at most 3 requests. One or two empty pages followed by items
 * are tolerated (an indexer catching up may send those).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_EMPTY_RUN = 3

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
 * Pages in flight at once after the first, by default, when a page-numbered walk reads ahead.
 * Four, not more: the service allows 2, 10, 50 or 100 DAS requests a second by plan (free,
 * developer, business, professional), so 4 in flight reach a developer plan's 10 a second as
 * soon as a page answers within 400 ms; more would mostly buy 429s and retries when no
 * `RateLimits` plan paces the calls (with one, the plan caps the rate whatever the concurrency).
 *
 * @since 0.1.0
 * @category constants
 */
export const DEFAULT_CONCURRENCY = 4

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
 * Pages `from` to `to` (or until one comes back as the last), fetched at most `concurrency`
 * at a time and emitted in page order; the stream ends after the last page. As with
 * `Stream.mapEffect` and `concurrency`: the first failure fails every page not yet fetched,
 * so the stream fails at the first page in order that had not arrived, and fetches still
 * running when the stream ends are interrupted.
 *
 * Hand-written rather than `Stream.mapEffect(fetch, { concurrency })`: that forks a fiber per
 * page racing an error signal, over twice the CPU a page of this window of one fiber and one
 * Deferred a page (bench §2, "the paging machinery alone"), and it went on starting pages
 * after a failure.
 */
const readAhead = <P extends Page<unknown, number>, E, R>(
  from: number,
  to: number,
  concurrency: number,
  fetch: (page: number) => Effect.Effect<P, E, R>
): Stream.Stream<P, E, R> =>
  Stream.unwrapScoped(Effect.map(Effect.scope, (scope) => {
    // Fetched or in flight, not yet emitted, in page order: at most `concurrency`.
    const window: Array<Deferred.Deferred<P, E>> = []
    let next = from
    let last = to
    let failed = false
    const start = (n: number): Effect.Effect<void, never, R> =>
      Effect.flatMap(Deferred.make<P, E>(), (slot) => {
        window.push(slot)
        return Effect.asVoid(Effect.forkIn(
          Effect.flatMap(Effect.exit(fetch(n)), (exit) => {
            if (Exit.isSuccess(exit)) {
              if (exit.value.next === undefined) last = Math.min(last, n)
              return Deferred.succeed(slot, exit.value)
            }
            failed = true
            return Effect.forEach([...window], (pending) => Deferred.failCause(pending, exit.cause), { discard: true })
          }),
          scope
        ))
      })
    const fill = Effect.suspend(() => {
      const starts: Array<Effect.Effect<void, never, R>> = []
      while (!failed && window.length + starts.length < concurrency && next <= last) starts.push(start(next++))
      return starts.length === 0 ? Effect.void : Effect.all(starts, { discard: true })
    })
    let done = false
    const pull: Effect.Effect<P, Option.Option<E>, R> = Effect.suspend(() => {
      if (done) return Effect.fail(Option.none())
      return Effect.flatMap(fill, () => {
        // The slot stays in the window until it is emitted, so a failure elsewhere fails it too.
        const slot = window[0]
        if (slot === undefined) return Effect.fail(Option.none())
        return Effect.mapBoth(Deferred.await(slot), {
          onFailure: Option.some,
          onSuccess: (page) => {
            window.shift()
            if (page.next === undefined) done = true
            return page
          }
        })
      })
    })
    return Stream.repeatEffectOption(pull)
  }))

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
