/**
 * Pagination helpers for areas: an opaque base58 cursor over a position in a
 * lazy list, cursor slicing with limit checks, and page-number slicing. Only
 * the requested page is materialised, so a list of 1,000,000 items costs the
 * same as a list of ten.
 *
 * @example
 * handle: (params) => Paging.slice(Dataset.lazyList(5_000, holderAt), params.cursor, params.limit ?? 1000, 1000, "holders|" + params.mint)
 * // -> Effect<{ items, cursor }>, failing with RpcFailure(-32602) on a bad cursor or limit
 * @since 0.1.0
 */

import { decodeBase58, encodeBase58 } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import * as Crypto from "node:crypto"
import { RestFailure, RpcFailure } from "./Area.js"
import type { LazyList } from "./Dataset.js"

// Layout: version (1 byte) | index (6 bytes, big-endian) | check (4 bytes).
// The check rejects strings that merely happen to be valid base58, and binds the cursor
// to its scope (the method and filters that issued it): another scope fails the check.
const VERSION = 0xc1
const LENGTH = 11

const check = (head: Uint8Array, scope: string): Uint8Array =>
  Crypto.createHash("sha256").update(`solfx-cursor|${scope}|`).update(head).digest().subarray(0, 4)

/**
 * Encodes a list position (0 .. 2^48-1) as an opaque base58 cursor. A `scope` (say, the
 * method and its filters) binds it: `decodeCursor` then accepts it in that scope only.
 *
 * @example
 * const next = encodeCursor(1000, "getCompressedMintTokenHolders|mint") // decodeCursor(next, same scope) -> 1000
 * @since 0.1.0
 * @category cursors
 */
export const encodeCursor = (index: number, scope = ""): string => {
  if (!Number.isSafeInteger(index) || index < 0 || index >= 2 ** 48) {
    throw new RangeError(`cursor index out of range: ${index}`)
  }
  const out = new Uint8Array(LENGTH)
  out[0] = VERSION
  let v = index
  for (let i = 6; i >= 1; i--) {
    out[i] = v % 256
    v = Math.floor(v / 256)
  }
  out.set(check(out.subarray(0, 7), scope), 7)
  return encodeBase58(out)
}

/**
 * Decodes a cursor made by `encodeCursor` in the same `scope`; `undefined` when it is not one.
 *
 * @since 0.1.0
 * @category cursors
 */
export const decodeCursor = (cursor: string, scope = ""): number | undefined => {
  const bytes = decodeBase58(cursor)
  if (bytes === undefined || bytes.length !== LENGTH || bytes[0] !== VERSION) return undefined
  const expected = check(bytes.subarray(0, 7), scope)
  for (let i = 0; i < 4; i++) if (bytes[7 + i] !== expected[i]) return undefined
  let index = 0
  for (let i = 1; i <= 6; i++) index = index * 256 + bytes[i]!
  return index
}

/**
 * A page of a cursor-paginated list; `cursor` is null on the last page.
 *
 * @since 0.1.0
 * @category models
 */
export interface CursorPage<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | null
}

/**
 * Materialises `list[start, start + limit)`. No checks.
 *
 * @since 0.1.0
 * @category slicing
 */
export const range = <A>(list: LazyList<A>, start: number, limit: number): Array<A> => {
  const end = Math.min(list.length, start + limit)
  const out: Array<A> = []
  for (let i = start; i < end; i++) out.push(list.get(i))
  return out
}

/**
 * Why a cursor page request is invalid, or undefined when it is fine.
 * `index` is the decoded start position.
 */
const validate = <A>(
  list: LazyList<A>,
  cursor: string | null | undefined,
  limit: number,
  maxLimit: number,
  scope: string
): { readonly field: "cursor" | "limit"; readonly message: string } | { readonly index: number } => {
  if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) {
    return { field: "limit", message: `limit must be an integer between 1 and ${maxLimit}` }
  }
  if (cursor === null || cursor === undefined || cursor === "") return { index: 0 }
  const index = decodeCursor(cursor, scope)
  if (index === undefined || index > list.length) return { field: "cursor", message: "invalid cursor" }
  return { index }
}

const cursorPage = <A>(list: LazyList<A>, index: number, limit: number, scope: string): CursorPage<A> => {
  const items = range(list, index, limit)
  const end = index + items.length
  return { items, cursor: end < list.length ? encodeCursor(end, scope) : null }
}

/**
 * One page of a cursor-paginated JSON-RPC list. Cursors are bound to `scope` (the method
 * and filters of the query: not the limit). A bad cursor, or one of another scope, fails with
 * `RpcFailure(-32602, "Invalid params: cursor")`, a limit outside 1..maxLimit
 * with `RpcFailure(-32602, "Invalid params: limit …")`.
 *
 * @example
 * Paging.slice(Dataset.lazyList(1_000_000, (i) => ({ i })), params.cursor, params.limit ?? 100, 1000, "myList")
 * @since 0.1.0
 * @category slicing
 */
export const slice = <A>(
  list: LazyList<A>,
  cursor: string | null | undefined,
  limit: number,
  maxLimit: number,
  scope: string
): Effect.Effect<CursorPage<A>, RpcFailure> =>
  Effect.suspend(() => {
    const v = validate(list, cursor, limit, maxLimit, scope)
    if ("field" in v) {
      return Effect.fail(
        new RpcFailure(-32602, v.field === "cursor" ? "Invalid params: cursor" : `Invalid params: ${v.message}`)
      )
    }
    return Effect.succeed(cursorPage(list, v.index, limit, scope))
  })

/**
 * `slice` for REST routes: failures are `RestFailure(400, …)`.
 *
 * @since 0.1.0
 * @category slicing
 */
export const sliceRest = <A>(
  list: LazyList<A>,
  cursor: string | null | undefined,
  limit: number,
  maxLimit: number,
  scope: string
): Effect.Effect<CursorPage<A>, RestFailure> =>
  Effect.suspend(() => {
    const v = validate(list, cursor, limit, maxLimit, scope)
    return "field" in v
      ? Effect.fail(new RestFailure(400, v.message))
      : Effect.succeed(cursorPage(list, v.index, limit, scope))
  })

/**
 * A page of a page-number-paginated list (1-indexed).
 *
 * @since 0.1.0
 * @category models
 */
export interface NumberedPage<A> {
  readonly items: ReadonlyArray<A>
  readonly page: number
  readonly limit: number
  readonly hasMore: boolean
  /** The list's length. */
  readonly total: number
}

/**
 * Page `page` (1-indexed) of `limit` items. Pages past the end are empty. No checks:
 * validate `page` and `limit` with the area's own rule and error first.
 *
 * @since 0.1.0
 * @category slicing
 */
export const pageOf = <A>(list: LazyList<A>, page: number, limit: number): NumberedPage<A> => {
  const start = (page - 1) * limit
  const items = start >= list.length ? [] : range(list, start, limit)
  return { items, page, limit, hasMore: start + items.length < list.length, total: list.length }
}

/**
 * Reads an integer query or params value: `undefined` when absent, `NaN` when not an integer,
 * so a range check rejects it.
 *
 * @since 0.1.0
 * @category parsing
 */
export const intParam = (value: unknown): number | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value === "number") return Number.isInteger(value) ? value : Number.NaN
  if (typeof value === "string" && /^-?\d+$/.test(value)) return Number(value)
  return Number.NaN
}
