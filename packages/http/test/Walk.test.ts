import { describe, expect, it } from "@effect/vitest"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Pagination from "@solfx/core/Pagination"
import * as Walk from "@solfx/http/Walk"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"

const items = Array.from({ length: 1050 }, (_, i) => i)

/** A cursor-paged call walked by `walk`: its pages, and its items (the cursor is null or "" on the last page). */
const cursorPages = <A, E>(
  operation: string,
  fetch: (
    cursor: string | undefined
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly cursor: string | null | undefined }, E>,
  start?: string
) =>
  Walk.walk(
    operation,
    start,
    (cursor: string | undefined) =>
      Effect.map(
        fetch(cursor),
        (r) => ({
          items: r.items,
          next: r.cursor === null || r.cursor === undefined || r.cursor === "" ? undefined : r.cursor
        })
      )
  )
const cursorItems = <A, E>(
  operation: string,
  fetch: (
    cursor: string | undefined
  ) => Effect.Effect<{ readonly items: ReadonlyArray<A>; readonly cursor: string | null | undefined }, E>,
  start?: string
) => Pagination.flattenPages(cursorPages(operation, fetch, start))

describe("Walk", () => {
  it.effect("cursor streams are lazy: take stops fetching", () =>
    Effect.gen(function*() {
      let calls = 0
      const fetch = (cursor: string | undefined) =>
        Effect.sync(() => {
          calls++
          const start = cursor === undefined ? 0 : Number(cursor)
          const page = items.slice(start, start + 100)
          return { items: page, cursor: start + 100 < items.length ? String(start + 100) : null }
        })
      const five = yield* Stream.runCollect(Stream.take(cursorItems("t", fetch), 5))
      expect(Chunk.toReadonlyArray(five)).toEqual([0, 1, 2, 3, 4])
      expect(calls).toBe(1)
      calls = 0
      const all = yield* Stream.runCollect(cursorItems("t", fetch))
      expect(Chunk.toReadonlyArray(all)).toEqual(items)
      expect(calls).toBe(11)
    }))

  it.effect("a repeated cursor fails instead of looping", () =>
    Effect.gen(function*() {
      const error = yield* Stream.runDrain(
        cursorItems("loop", () => Effect.succeed({ items: [1], cursor: "same" }))
      ).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "repeated", requests: 2 })
    }))

  it.effect("a cursor cycle A→B→A ends after 3 requests", () =>
    Effect.gen(function*() {
      let calls = 0
      const next: Record<string, string> = { start: "A", A: "B", B: "A" }
      const error = yield* Stream.runDrain(
        cursorItems("cycle", (cursor) =>
          Effect.sync(() => {
            calls++
            return { items: [1], cursor: next[cursor ?? "start"]! }
          }))
      ).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "repeated", detail: "\"A\"" })
      expect(calls).toBe(3)
    }))

  it.effect("endless empty pages with fresh cursors end after MAX_EMPTY_RUN requests, even under take", () =>
    Effect.gen(function*() {
      let calls = 0
      const fetch = () => Effect.sync(() => ({ items: [] as Array<number>, cursor: `c${++calls}` }))
      const error = yield* Stream.runDrain(Stream.take(cursorItems("empty", fetch), 5)).pipe(Effect.flip)
      expect(error).toMatchObject({ _tag: "PaginationError", reason: "empty" })
      expect(calls).toBe(Pagination.MAX_EMPTY_RUN)
    }))

  it.effect("a short run of empty pages followed by items is walked through", () =>
    Effect.gen(function*() {
      const pages = [[], [], [1], [], [2]]
      const fetch = (cursor: string | undefined) =>
        Effect.sync(() => {
          const i = cursor === undefined ? 0 : Number(cursor)
          return { items: pages[i]!, cursor: i + 1 < pages.length ? String(i + 1) : null }
        })
      expect(Chunk.toReadonlyArray(yield* Stream.runCollect(cursorItems("t", fetch)))).toEqual([1, 2])
    }))

  it.effect("cursor pages report the resume position", () =>
    Effect.gen(function*() {
      const fetch = (cursor: string | undefined) =>
        Effect.succeed(
          cursor === undefined ? { items: [1, 2], cursor: "c2" } : { items: [3], cursor: undefined }
        )
      const pages = yield* Stream.runCollect(cursorPages("t", fetch))
      expect(Chunk.toReadonlyArray(pages).map((p) => p.next)).toEqual(["c2", undefined])
      const resumed = yield* Stream.runCollect(cursorItems("t", fetch, "c2"))
      expect(Chunk.toReadonlyArray(resumed)).toEqual([3])
    }))

  for (const withTotal of [true, false]) {
    it.effect(`numbered pages come out in order, exactly once (grand total ${withTotal ? "known" : "unknown"})`, () =>
      Effect.gen(function*() {
        const requested: Array<number> = []
        let inFlight = 0
        let maxInFlight = 0
        const fetch = (page: number) =>
          Effect.gen(function*() {
            requested.push(page)
            inFlight++
            maxInFlight = Math.max(maxInFlight, inFlight)
            // later pages answer sooner, so ordering must not depend on completion order
            yield* Effect.sleep(`${(20 - page) * 10} millis`)
            inFlight--
            const slice = items.slice((page - 1) * 100, page * 100)
            return withTotal ? { items: slice, total: items.length } : { items: slice }
          })
        const fiber = yield* Effect.fork(
          Stream.runCollect(Walk.numberedItems(fetch, { limit: 100, concurrency: 4 }))
        )
        for (let i = 0; i < 200; i++) yield* TestClock.adjust("10 millis")
        const all = yield* fiber.await
        expect(all._tag).toBe("Success")
        if (all._tag === "Success") expect(Chunk.toReadonlyArray(all.value)).toEqual(items)
        expect(maxInFlight).toBeLessThanOrEqual(4)
        expect(new Set(requested).size).toBe(requested.length)
        if (withTotal) expect(requested.length).toBe(11)
        else expect(requested.length).toBeLessThanOrEqual(11 + 2 * 4 - 1) // read-ahead past the short page is bounded
      }))
  }

  it.effect("numbered pages carry the grand total page 1 gave; a total no larger than page 1 is not taken for it", () =>
    Effect.gen(function*() {
      const pagesOf = (total: (page: ReadonlyArray<number>) => number) =>
        Stream.runCollect(Walk.numberedPages(
          (page) =>
            Effect.sync(() => {
              const slice = items.slice((page - 1) * 500, page * 500)
              return { items: slice, total: total(slice) }
            }),
          { limit: 500, concurrency: 1 }
        )).pipe(Effect.map((pages) => Chunk.toReadonlyArray(pages).map((p) => p.total)))
      expect(yield* pagesOf(() => items.length)).toEqual([1050, 1050, 1050])
      // The service counting each page's own items: no grand total, every page walked all the same.
      expect(yield* pagesOf((slice) => slice.length)).toEqual([undefined, undefined, undefined])
    }))

  it.effect("a failing numbered page fails the stream at once; pages it overtook are interrupted, none start after", () =>
    Effect.gen(function*() {
      const requested: Array<number> = []
      const interrupted: Array<number> = []
      const fetch = (page: number) =>
        Effect.gen(function*() {
          requested.push(page)
          if (page === 1) return { items: items.slice(0, 100), total: 1000 }
          // page 3 fails while page 2, the next to emit, is still in flight
          yield* Effect.sleep(page === 3 ? "10 millis" : "100 millis")
          if (page === 3) return yield* Effect.fail("page 3 failed")
          return { items: items.slice((page - 1) * 100, page * 100), total: 1000 }
        }).pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted.push(page))))
      const seen: Array<number> = []
      const fiber = yield* Effect.fork(
        Effect.either(
          Stream.runForEach(
            Walk.numberedItems(fetch, { limit: 100, concurrency: 4 }),
            (i) => Effect.sync(() => seen.push(i))
          )
        )
      )
      yield* TestClock.adjust("10 millis")
      const result = yield* fiber.await
      expect(result._tag).toBe("Success")
      if (result._tag === "Success") expect(result.value).toEqual(Either.left("page 3 failed"))
      expect(seen).toEqual(items.slice(0, 100))
      expect(requested).toEqual([1, 2, 3, 4, 5])
      expect(interrupted.sort()).toEqual([2, 4, 5])
    }))

  it.effect("take ends a numbered walk: fetches still running are interrupted", () =>
    Effect.gen(function*() {
      let running = 0
      const requested: Array<number> = []
      const fetch = (page: number) =>
        Effect.gen(function*() {
          requested.push(page)
          running++
          yield* Effect.sleep(`${page * 10} millis`)
          return { items: items.slice((page - 1) * 100, page * 100), total: 1000 }
        }).pipe(Effect.ensuring(Effect.sync(() => running--)))
      const fiber = yield* Effect.fork(
        Stream.runCollect(Stream.take(Walk.numberedItems(fetch, { limit: 100, concurrency: 4 }), 150))
      )
      for (let i = 0; i < 10; i++) yield* TestClock.adjust("10 millis")
      const taken = yield* fiber.await
      expect(taken._tag).toBe("Success")
      if (taken._tag === "Success") expect(Chunk.toReadonlyArray(taken.value)).toEqual(items.slice(0, 150))
      expect(running).toBe(0)
      // page 1 alone, then at most the window past page 2 (and one refill)
      expect(requested.length).toBeLessThanOrEqual(1 + 4 + 1)
    }))

  for (const concurrency of [Number.NaN, Infinity, 2.5]) {
    it.effect(`numbered pages with concurrency ${concurrency} still walk every page (grand total unknown)`, () =>
      Effect.gen(function*() {
        const requested: Array<number> = []
        const fetch = (page: number) =>
          Effect.sync(() => {
            requested.push(page)
            return { items: items.slice((page - 1) * 100, page * 100) }
          })
        const all = yield* Stream.runCollect(Walk.numberedItems(fetch, { limit: 100, concurrency }))
        expect(Chunk.toReadonlyArray(all)).toEqual(items)
        expect(requested.length).toBeLessThanOrEqual(11 + 2 * Pagination.DEFAULT_CONCURRENCY - 1)
      }))
  }

  describe("entryPages: an entry that declares both modes is walked in the one its start or mode names", () => {
    // A list of 25 items, 10 a page, by page number (with a grand total) or by keyset cursor `c<offset>`.
    const entry = Endpoint.rpc({
      area: "test",
      method: "listThings",
      params: Schema.Struct({
        page: Schema.optional(Schema.Number),
        cursor: Schema.optional(Schema.String),
        limit: Schema.Number
      }),
      result: Schema.Unknown as Schema.Schema<{
        readonly items: ReadonlyArray<number>
        readonly total: number
        readonly cursor: string | null
      }>,
      paging: Endpoint.pageNumber({
        items: (r: { readonly items: ReadonlyArray<number>; readonly total: number; readonly cursor: string | null }) =>
          r.items,
        total: (r) => r.total,
        keyset: { next: (r) => r.cursor }
      }),
      cost: { credits: 1, usage: "das" },
      bucket: "das"
    })
    const list = Array.from({ length: 25 }, (_, i) => i)
    const walkWith = (options: Walk.Options<unknown>) => {
      const sent: Array<{ readonly page?: number | undefined; readonly cursor?: string | undefined }> = []
      const send = (p: typeof entry.params.Type) =>
        Effect.sync(() => {
          sent.push({ page: p.page, cursor: p.cursor })
          const from = p.cursor !== undefined ? Number(p.cursor.slice(1)) : p.page !== undefined ? (p.page - 1) * 10 : 0
          const end = Math.min(from + p.limit, list.length)
          return { items: list.slice(from, end), total: list.length, cursor: end < list.length ? `c${end}` : null }
        })
      return Effect.map(
        Stream.runCollect(Walk.entryPages(entry, { limit: 10 }, send, { ...options, concurrency: 1 })),
        (pages) => ({ pages: Chunk.toReadonlyArray(pages), sent })
      )
    }

    it.effect("default: numbered pages, positions { page }", () =>
      Effect.gen(function*() {
        const { pages, sent } = yield* walkWith({})
        expect(pages.map((p) => p.next)).toEqual([{ page: 2 }, { page: 3 }, undefined])
        expect(pages.flatMap((p) => p.items)).toEqual(list)
        expect(sent.map((s) => s.page)).toEqual([1, 2, 3])
      }))

    it.effect("mode cursor: the keyset from the start, positions { cursor }", () =>
      Effect.gen(function*() {
        const { pages, sent } = yield* walkWith({ mode: "cursor" })
        expect(pages.map((p) => p.next)).toEqual([{ cursor: "c10" }, { cursor: "c20" }, undefined])
        expect(sent).toEqual([
          { page: undefined, cursor: undefined },
          { page: undefined, cursor: "c10" },
          { page: undefined, cursor: "c20" }
        ])
      }))

    it.effect("a start of { cursor } resumes by keyset, of { page } by page number", () =>
      Effect.gen(function*() {
        const byCursor = yield* walkWith({ start: { cursor: "c20" } })
        expect(byCursor.pages.flatMap((p) => p.items)).toEqual(list.slice(20))
        expect(byCursor.sent).toEqual([{ page: undefined, cursor: "c20" }])
        const byPage = yield* walkWith({ start: { page: 2 } })
        expect(byPage.pages.flatMap((p) => p.items)).toEqual(list.slice(10))
        expect(byPage.sent.map((s) => s.page)).toEqual([2, 3])
      }))
  })
})
