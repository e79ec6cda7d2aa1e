/**
 * The one place a request is built, in both wire formats: a table entry and its params
 * become a REST request (path parameters, then the query or the body) or a JSON-RPC
 * envelope POSTed to the `rpc` host. And the span every derived method runs in.
 */
import * as Endpoint from "@solfx/core/Endpoint"
import * as Effect from "effect/Effect"
import type { AttemptHooks, WireRequest } from "../HttpTransport.js"
import { aside } from "./aside.js"

/** What a request carries beside its entry and params: the caller's headers and the attempt's hooks. */
export interface WireOptions extends AttemptHooks {
  readonly headers?: Readonly<Record<string, string>> | undefined
}

/**
 * `f` in a span, run lazily; its value is kept aside (see `aside`). (Not `Effect.fn`, and no stack
 * trace: its generator and the stack captures cost more than the rest of a small call's wrapping.)
 */
export const traced = <Args extends Array<any>, X, E>(name: string, f: (...args: Args) => Effect.Effect<X, E>) =>
(
  ...args: Args
): Effect.Effect<X, E> =>
  aside((keep) =>
    Effect.withSpan(Effect.map(Effect.suspend(() => f(...args)), keep), name, { captureStackTrace: false })
  )

// One counter for every transport of the process: an id only has to tell a call's answer from another's.
let rpcIds = 0

/**
 * A JSON-RPC call: the envelope, with an id taken now (so build it when the call runs: running one
 * Effect twice sends two ids), a string unless `numericId` (the service documents a number for sendBundle).
 */
export const rpcRequest = (
  method: string,
  params: unknown,
  options: WireOptions & { readonly idempotent?: boolean | undefined; readonly numericId?: boolean | undefined }
): WireRequest => {
  const n = ++rpcIds
  const id: string | number = options.numericId ? n : `solfx-${n}`
  return {
    operation: method,
    host: "rpc",
    method: "POST",
    path: "/",
    body: { jsonrpc: "2.0", id, method, params },
    headers: options.headers,
    idempotent: options.idempotent ?? true,
    aroundAttempt: options.aroundAttempt,
    onAttempt: options.onAttempt,
    rpcId: id
  }
}

/** A REST route: `{name}` segments from the params of that name, the others in the query (GET, DELETE) or the body. */
const restRequest = (entry: Endpoint.Rest, params: Record<string, unknown>, options: WireOptions): WireRequest => {
  const inPath = new Set(Endpoint.pathParams(entry.path))
  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])))
  const others = Object.fromEntries(Object.entries(params).filter(([k, v]) => !inPath.has(k) && v !== undefined))
  const read = entry.method === "GET" || entry.method === "DELETE"
  return {
    operation: entry.name,
    host: entry.host,
    method: entry.method,
    path,
    query: read ? others as Record<string, string | number | boolean> : undefined,
    body: read ? undefined : entry.bodyField === undefined ? others : params[entry.bodyField],
    headers: options.headers,
    idempotent: entry.idempotent,
    auth: entry.auth,
    aroundAttempt: options.aroundAttempt,
    onAttempt: options.onAttempt
  }
}

/** What an operation called without params sends: `[]` for positional params, `{}` otherwise. */
export const emptyParams = (entry: Endpoint.Endpoint): unknown => entry.params.ast._tag === "TupleType" ? [] : {}

/**
 * A keyed walk's arguments (`(wallet, options)`) as params and walk options: the one options object
 * holds the walk's own `start` and `concurrency` beside the params.
 */
export const keyedWalk = (
  key: string,
  value: unknown,
  options: unknown
): [params: unknown, walk: { readonly start?: unknown; readonly concurrency?: number | undefined }] => {
  const { concurrency, start, ...params } = (options ?? {}) as Record<string, unknown>
  return [{ ...params, [key]: value }, { start, concurrency: concurrency as number | undefined }]
}

/** The request of `entry` with `params` (already validated), in the entry's wire format. */
export const requestOf = (entry: Endpoint.Endpoint, params: unknown, options: WireOptions): WireRequest =>
  entry._tag === "Rpc"
    ? rpcRequest(entry.method, Endpoint.wireParams(entry, params), {
      ...options,
      idempotent: entry.idempotent,
      numericId: entry.id === "number"
    })
    : restRequest(entry, params as Record<string, unknown>, options)
