/**
 * The compression area's params, checked the way Photon's serde structs check them, and its paging.
 *
 * @since 0.1.0
 */

import * as Request from "@solfx/core/CompressionRequest"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import type { AreaContext, Handler } from "../../Area.js"
import { RpcFailure } from "../../Area.js"
import * as Dataset from "../../Dataset.js"
import * as Paging from "../../Paging.js"

// ---------------------------------------------------------------------------
// Params, checked the way Photon's serde structs check them.

export type Params = Record<string, unknown>

export const invalid = (message: string) => new RpcFailure(-32602, `Invalid params: ${message}`)

export const shown = (v: unknown): string =>
  typeof v === "string" ? `string ${JSON.stringify(v)}` : v === null ? "null" : `${typeof v} \`${String(v)}\``

export const paramsOf = (
  raw: unknown,
  fields: { readonly required: ReadonlyArray<string>; readonly optional: ReadonlyArray<string> }
): Effect.Effect<Params, RpcFailure> =>
  Effect.suspend(() => {
    const all = [...fields.required, ...fields.optional]
    if (raw === undefined || raw === null) {
      return fields.required.length === 0
        ? Effect.succeed({})
        : Effect.fail(invalid(`missing field \`${fields.required[0]}\``))
    }
    if (typeof raw !== "object" || Array.isArray(raw)) {
      return Effect.fail(invalid(`invalid type: ${Array.isArray(raw) ? "sequence" : shown(raw)}, expected a map`))
    }
    const params = raw as Params
    for (const key of Object.keys(params)) {
      if (!all.includes(key)) {
        return Effect.fail(
          invalid(`unknown field \`${key}\`, expected one of ${all.map((f) => `\`${f}\``).join(", ")}`)
        )
      }
    }
    for (const key of fields.required) {
      if (params[key] === undefined || params[key] === null) return Effect.fail(invalid(`missing field \`${key}\``))
    }
    return Effect.succeed(params)
  })

export const pubkey = (params: Params, key: string): Effect.Effect<string | undefined, RpcFailure> => {
  const v = params[key]
  if (v === undefined || v === null) return Effect.succeed(undefined)
  return typeof v === "string" && base58ByteLength(v) === 32
    ? Effect.succeed(v)
    : Effect.fail(
      invalid(`invalid value: ${shown(v)}, expected a base58-encoded 32-byte public key (field \`${key}\`)`)
    )
}

export const requiredPubkey = (params: Params, key: string): Effect.Effect<string, RpcFailure> =>
  Effect.flatMap(
    pubkey(params, key),
    (v) => v === undefined ? Effect.fail(invalid(`missing field \`${key}\``)) : Effect.succeed(v)
  )

export const limitOf = (params: Params): Effect.Effect<number, RpcFailure> => {
  const v = params["limit"]
  if (v === undefined || v === null) return Effect.succeed(Request.MAX_LIMIT)
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    return Effect.fail(invalid(`invalid type: ${shown(v)}, expected u64`))
  }
  if (v > Request.MAX_LIMIT) {
    return Effect.fail(
      invalid(`invalid value: integer \`${v}\`, expected a value less than or equal to ${Request.MAX_LIMIT}`)
    )
  }
  if (v === 0) {
    return Effect.fail(invalid(`invalid value: integer \`0\`, expected a value from 1 to ${Request.MAX_LIMIT}`))
  }
  return Effect.succeed(v)
}

export const cursorOf = (params: Params): Effect.Effect<string | undefined, RpcFailure> => {
  const v = params["cursor"]
  if (v === undefined || v === null) return Effect.succeed(undefined)
  return typeof v === "string"
    ? Effect.succeed(v)
    : Effect.fail(invalid(`invalid type: ${shown(v)}, expected a string`))
}

export const paging = { optional: ["cursor", "limit"] } as const

/**
 * One page of `list` in the `{ context, value: { items, cursor } }` wrapper. Its cursors are
 * bound to `scope`: the method and the filters of the query, so another query's cursor is refused.
 */
export const page = <A>(ctx: AreaContext, params: Params, list: Dataset.LazyList<A>, scope: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const limit = yield* limitOf(params)
    const cursor = yield* cursorOf(params)
    const value = yield* Paging.slice(list, cursor, limit, Request.MAX_LIMIT, scope.join("|"))
    return { context: { slot: ctx.slot() }, value }
  })

/** A method's handler: `area.rpc` below pairs each with its entry of `Endpoints.compression`. */
export type Handle = Handler["handle"]

export const notFound = (what: string) => new RpcFailure(-32000, `Record Not Found: ${what}`)
