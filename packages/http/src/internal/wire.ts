/**
 * The REST half of building a request from a table entry (path parameters, then the
 * query or the body), and the span every derived method runs in.
 */
import * as Endpoint from "@solfx/core/Endpoint"
import * as Effect from "effect/Effect"
import { aside } from "./aside.js"

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

export const restWire = (entry: Endpoint.Rest, params: Record<string, unknown>) => {
  const inPath = new Set(Endpoint.pathParams(entry.path))
  const path = entry.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])))
  const others = Object.fromEntries(Object.entries(params).filter(([k, v]) => !inPath.has(k) && v !== undefined))
  return entry.method === "GET" || entry.method === "DELETE"
    ? { path, query: others as Record<string, string | number | boolean> }
    : { path, body: entry.bodyField === undefined ? others : params[entry.bodyField] }
}
