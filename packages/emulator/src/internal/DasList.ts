/**
 * The list machinery the DAS areas share: a list in its sort order (`View`), the window a
 * query's paging selects (page, cursor, or before/after with a cursor or an item id), and
 * params decoding with the reference implementation's -32602 answers.
 *
 * @internal
 */
import type * as DasParams from "@solfx/core/DasParams"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { AreaContext } from "../Area.js"
import { RpcFailure } from "../Area.js"
import * as Paging from "../Paging.js"

/** The most items one DAS page holds. */
export const MAX_LIMIT = 1000

/** A list in its sort order: `indexAt(position)` is the item's natural index. */
export interface View {
  readonly length: number
  readonly indexAt: (position: number) => number
  /** The id a client may pass as `before`/`after`. */
  readonly idAt: (position: number) => string
}

export const naturalView = (length: number, idOf: (i: number) => string, descending: boolean): View => ({
  length,
  indexAt: (p) => (descending ? length - 1 - p : p),
  idAt: (p) => idOf(descending ? length - 1 - p : p)
})

export const permutedView = (order: Int32Array, idOf: (i: number) => string, descending: boolean): View => ({
  length: order.length,
  indexAt: (p) => order[descending ? order.length - 1 - p : p]!,
  idAt: (p) => idOf(order[descending ? order.length - 1 - p : p]!)
})

/** Positions of ids in a view, built on first use (only when a client passes an id as a cursor). */
export const positionOf = (ctx: AreaContext, key: string, view: View, id: string): number | undefined => {
  const maps = ctx.state("das:positions", () => new Map<string, Map<string, number>>())
  let map = maps.get(key)
  if (map === undefined) {
    map = new Map()
    for (let p = 0; p < view.length; p++) map.set(view.idAt(p), p)
    maps.set(key, map)
  }
  return map.get(id)
}

export const invalid = (message: string) => new RpcFailure(-32602, `Invalid request parameters: ${message}`, 400)

export interface Window {
  readonly start: number
  readonly end: number
  /** Fields of the list wrapper that describe the window. */
  readonly fields: {
    readonly page?: number
    readonly cursor?: string | null
    readonly before?: string | null
    readonly after?: string | null
  }
}

/**
 * The window a query selects. A cursor is a gap between items (`Paging.encodeCursor(g)`
 * is the gap before position g); an id as `after` is the gap after it, as `before` the gap before it.
 */
export const windowOf = (
  ctx: AreaContext,
  key: string,
  view: View,
  p: DasParams.Paging
): Effect.Effect<Window, RpcFailure> =>
  Effect.suspend((): Effect.Effect<Window, RpcFailure> => {
    const limit = p.limit ?? MAX_LIMIT
    const gap = (token: string, side: "before" | "after"): number | undefined => {
      const decoded = Paging.decodeCursor(token)
      if (decoded !== undefined) return decoded <= view.length ? decoded : undefined
      const position = positionOf(ctx, key, view, token)
      return position === undefined ? undefined : side === "after" ? position + 1 : position
    }
    const bad = (field: string, token: string) =>
      Effect.fail(invalid(`${field}: Cursor Validation Err: ${token} is invalid`))
    if (p.page !== undefined) {
      const start = Math.min(view.length, (p.page - 1) * limit)
      return Effect.succeed({ start, end: Math.min(view.length, start + limit), fields: { page: p.page } })
    }
    if (p.before === undefined && p.after === undefined) {
      const start = p.cursor === undefined ? 0 : gap(p.cursor, "after")
      if (start === undefined) return bad("cursor", p.cursor!)
      const end = Math.min(view.length, start + limit)
      return Effect.succeed({ start, end, fields: { cursor: end < view.length ? Paging.encodeCursor(end) : null } })
    }
    const lo = p.after === undefined ? 0 : gap(p.after, "after")
    if (lo === undefined) return bad("after", p.after!)
    const hi = p.before === undefined ? view.length : gap(p.before, "before")
    if (hi === undefined) return bad("before", p.before!)
    // `before` alone reads backwards: the page just before the gap.
    const start = p.after === undefined ? Math.max(0, hi - limit) : Math.min(lo, hi)
    const end = p.after === undefined ? hi : Math.max(start, Math.min(hi, lo + limit))
    return Effect.succeed({
      start,
      end,
      fields: start < end
        ? { before: Paging.encodeCursor(start), after: Paging.encodeCursor(end) }
        : { before: null, after: null }
    })
  })

export const positions = (w: Window): Array<number> => Array.from({ length: w.end - w.start }, (_, k) => w.start + k)

/** Decodes params with the shared request schema; failures are -32602 naming the field. */
export const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown): Effect.Effect<A, RpcFailure> => {
  const result = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })(params ?? {})
  if (Either.isRight(result)) return Effect.succeed(result.right)
  const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
  const path = issue === undefined || issue.path.length === 0 ? "params" : issue.path.join(".")
  return Effect.fail(invalid(`${path}: ${issue?.message ?? "invalid"}`))
}

/** The reference implementation's alias `displayOptions` for `options`. */
export const withOptionsAlias = (params: unknown): unknown => {
  if (typeof params !== "object" || params === null || !("displayOptions" in params)) return params
  const { displayOptions, ...rest } = params as Record<string, unknown>
  return "options" in rest ? params : { ...rest, options: displayOptions }
}
