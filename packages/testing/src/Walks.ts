/**
 * The resume check every paged method passes, whatever its paging kind: one walk from
 * the start; a second one stopped after two pages; a third started with `{ start }` from
 * the `next` of page 2's predecessor. The stopped walk's first page and the resumed walk
 * together must be the whole walk, and the resumed walk must begin with page 2.
 *
 * @example
 * const r = yield* Walks.resume((start?: string) => wallet.history.pages(address, { limit: 100, start }))
 * expect(r.joined).toEqual(r.whole)
 * @since 0.1.0
 */
import type * as Pagination from "@solfx/core/Pagination"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

/**
 * What the three walks gave: the whole walk's items and page count, page 1's items
 * followed by the resumed walk's (`joined`), page 2 as the stopped walk read it, and
 * the resumed walk's first page.
 *
 * @since 0.1.0
 */
export interface Resumed<Item, P> {
  readonly pages: number
  readonly start: P | undefined
  readonly whole: ReadonlyArray<Item>
  readonly joined: ReadonlyArray<Item>
  readonly second: ReadonlyArray<Item>
  readonly resumedFirst: ReadonlyArray<Item>
}

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toArray)

/**
 * Runs the three walks of `walk` (called with `undefined`, then with page 1's `next`).
 *
 * @since 0.1.0
 */
export const resume = <Item, P, E, R>(
  walk: (start: P | undefined) => Stream.Stream<Pagination.Page<Item, P>, E, R>
): Effect.Effect<Resumed<Item, P>, E, R> =>
  Effect.gen(function*() {
    const whole = yield* collect(walk(undefined))
    const stopped = yield* collect(Stream.take(walk(undefined), 2))
    const start = stopped[0]?.next
    const resumed = yield* collect(walk(start))
    return {
      pages: whole.length,
      start,
      whole: whole.flatMap((p) => p.items),
      joined: [...(stopped[0]?.items ?? []), ...resumed.flatMap((p) => p.items)],
      second: stopped[1]?.items ?? [],
      resumedFirst: resumed[0]?.items ?? []
    }
  })
