/**
 * Pages of a paged method, as data: a page's items and the position that resumes after
 * it, the bounds every walk keeps, and `read`, what one answer says about the next page.
 * The walk that fetches them (lazily, always ending) is the executor's, in
 * `@solfx/http/Walk`; this module calls nothing.
 *
 * @example
 * // Save `page.next` after each page; pass it back as `{ start: next }` to resume.
 * Pagination.read("getCompressedMintTokenHolders", entry.paging, answer, cursor) // { items, next }
 * @since 0.1.0
 */

import * as Chunk from "effect/Chunk"
import * as Stream from "effect/Stream"
import type * as Endpoint from "./Endpoint.js"
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
 * A paging that walks one position after another (not `None`).
 *
 * @since 0.1.0
 * @category models
 */
export type Walked<R, A> = Exclude<Endpoint.Paging<R, A>, { readonly _tag: "None" }>

/**
 * What one answer of a paged method says, with no I/O: its items and the position after it
 * (`undefined` on the last page), or a `DecodeError` when it claims more pages without saying
 * where they start. `position` is where the answer was asked for (a page number counts on from it;
 * a numbered list without `hasMore` is read ahead by its total and its short page instead).
 *
 * @since 0.1.0
 * @category paging
 */
export const read = <R, A>(
  operation: string,
  paging: Walked<R, A>,
  result: R,
  position: unknown
): Page<A, string | number> | DecodeError => {
  const items = paging.items(result)
  if (paging._tag === "PageNumber") {
    return { items, next: paging.hasMore?.(result) ? Number(position ?? 1) + 1 : undefined }
  }
  const next = paging.next(result) ?? undefined
  const more = paging._tag === "HasMore" ? paging.hasMore(result) : next !== undefined && next !== ""
  if (more && (next === undefined || next === "")) {
    return new DecodeError({
      operation,
      path: paging._tag === "HasMore" ? paging.nextPath : "$",
      expected: "a next cursor when more pages are claimed"
    })
  }
  return { items, next: more ? next : undefined }
}

/**
 * The items of a stream of pages, in order.
 *
 * @since 0.1.0
 * @category streams
 */
export const flattenPages = <A, P, E, R>(pages: Stream.Stream<Page<A, P>, E, R>): Stream.Stream<A, E, R> =>
  Stream.mapChunks(pages, Chunk.flatMap((page) => Chunk.unsafeFromArray(page.items as Array<A>)))
