import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as fc from "fast-check"
import { RestFailure, RpcFailure } from "../src/Area.js"
import * as Dataset from "../src/Dataset.js"
import * as Paging from "../src/Paging.js"

const list = Dataset.lazyList(25, (i) => i)

describe("Paging", () => {
  it("cursors round-trip and reject anything else", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 48 - 1 }), (i) => {
      const c = Paging.encodeCursor(i)
      expect(c).toMatch(/^[1-9A-HJ-NP-Za-km-z]+$/)
      expect(Paging.decodeCursor(c)).toBe(i)
    }))
    fc.assert(fc.property(fc.string(), (s) => {
      const d = Paging.decodeCursor(s)
      return d === undefined || Paging.encodeCursor(d) === s
    }))
    const c = Paging.encodeCursor(10)
    const tampered = c.slice(0, -1) + (c.endsWith("2") ? "3" : "2")
    expect(Paging.decodeCursor(tampered)).toBeUndefined()
    expect(() => Paging.encodeCursor(-1)).toThrow(RangeError)
  })

  it.effect("slice walks a list to a null cursor", () =>
    Effect.gen(function*() {
      const seen: Array<number> = []
      let cursor: string | null = null
      do {
        const page: Paging.CursorPage<number> = yield* Paging.slice(list, cursor, 10, 100, "list")
        seen.push(...page.items)
        cursor = page.cursor
      } while (cursor !== null)
      expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => i))
      const empty = yield* Paging.slice(Dataset.lazyList(0, (i) => i), undefined, 10, 100, "list")
      expect(empty).toEqual({ items: [], cursor: null })
    }))

  it.effect("slice fails with -32602 on a bad cursor or limit; sliceRest with 400", () =>
    Effect.gen(function*() {
      const bad = yield* Effect.exit(Paging.slice(list, "zzz", 10, 100, "list"))
      expect(bad).toEqual(Exit.fail(new RpcFailure(-32602, "Invalid params: cursor")))
      const beyond = yield* Effect.exit(Paging.slice(list, Paging.encodeCursor(26, "list"), 10, 100, "list"))
      expect(Exit.isFailure(beyond)).toBe(true)
      for (const limit of [0, 101, 1.5, Number.NaN]) {
        const e = yield* Effect.flip(Paging.slice(list, null, limit, 100, "list"))
        expect(e.code).toBe(-32602)
        expect(e.message).toContain("limit")
      }
      const rest = yield* Effect.flip(Paging.sliceRest(list, "zzz", 10, 100, "list"))
      expect(rest).toEqual(new RestFailure(400, "invalid cursor"))
      // A cursor is bound to the scope that issued it.
      const other = yield* Effect.exit(Paging.slice(list, Paging.encodeCursor(10, "other list"), 10, 100, "list"))
      expect(other).toEqual(Exit.fail(new RpcFailure(-32602, "Invalid params: cursor")))
      const own = yield* Paging.slice(list, Paging.encodeCursor(10, "list"), 5, 100, "list")
      expect(own.items).toEqual([10, 11, 12, 13, 14])
    }))

  it("pageOf slices by page number", () => {
    expect(Paging.pageOf(list, 1, 10)).toMatchObject({ items: [0, 1, 2, 3, 4, 5, 6, 7, 8, 9], hasMore: true })
    expect(Paging.pageOf(list, 3, 10)).toMatchObject({ items: [20, 21, 22, 23, 24], hasMore: false, total: 25 })
    expect(Paging.pageOf(list, 4, 10)).toMatchObject({ items: [], hasMore: false })
    expect(Paging.intParam("12")).toBe(12)
    expect(Paging.intParam("1.5")).toBeNaN()
    expect(Paging.intParam(undefined)).toBeUndefined()
  })
})
