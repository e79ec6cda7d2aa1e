import { describe, expect, it } from "@effect/vitest"
import * as Endpoint from "@solfx/core/Endpoint"
import { DecodeError } from "@solfx/core/Errors"
import * as Pagination from "@solfx/core/Pagination"

interface Answer {
  readonly items: ReadonlyArray<number>
  readonly cursor?: string | null | undefined
  readonly more?: boolean | undefined
}

const items = (r: Answer) => r.items
const walked = <R, A>(paging: Endpoint.Paging<R, A>) => {
  if (paging._tag === "None") throw new Error("a walked paging")
  return paging
}

describe("Pagination.read: what one answer says about the next page, with no I/O", () => {
  it("a cursor: the answer's cursor, none on null, undefined or an empty string", () => {
    const paging = walked(Endpoint.cursor({ items, next: (r: Answer) => r.cursor }))
    expect(Pagination.read("m", paging, { items: [1, 2], cursor: "c2" }, undefined)).toEqual({
      items: [1, 2],
      next: "c2"
    })
    for (const cursor of [null, undefined, ""]) {
      expect(Pagination.read("m", paging, { items: [3], cursor }, "c2")).toEqual({ items: [3], next: undefined })
    }
  })

  it("hasMore: more claimed without a cursor is a DecodeError at the cursor's path; no more ends", () => {
    const paging = walked(
      Endpoint.hasMore({ items, hasMore: (r: Answer) => r.more === true, next: (r) => r.cursor, nextPath: "$.cursor" })
    )
    const failed = Pagination.read("m", paging, { items: [1], more: true, cursor: "" }, undefined)
    expect(failed).toBeInstanceOf(DecodeError)
    expect(failed).toMatchObject({ operation: "m", path: "$.cursor" })
    expect(Pagination.read("m", paging, { items: [1], more: false, cursor: "c" }, "b")).toEqual({
      items: [1],
      next: undefined
    })
  })

  it("page numbers with hasMore count on from the position asked for (page 1 when none)", () => {
    const paging = walked(Endpoint.pageNumber({ items, hasMore: (r: Answer) => r.more === true }))
    expect(Pagination.read("m", paging, { items: [1], more: true }, undefined)).toEqual({ items: [1], next: 2 })
    expect(Pagination.read("m", paging, { items: [1], more: true }, 7)).toEqual({ items: [1], next: 8 })
    expect(Pagination.read("m", paging, { items: [], more: false }, 8)).toEqual({ items: [], next: undefined })
  })
})
