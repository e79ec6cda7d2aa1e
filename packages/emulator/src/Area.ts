/**
 * The contract between the emulator's server (routing, auth, credits, usage,
 * faults, request log) and its API areas. An area declares JSON-RPC methods and
 * REST routes, each with the endpoint-table entry it is charged by (core's
 * `Endpoints`; an extension area may declare its own cost); the server charges and
 * counts them by core's `Billing` rule, so handlers hold only the area's logic.
 *
 * @example
 * const ping: Area = {
 *   name: "ping",
 *   rpc: { ping: { entry: { cost: { credits: 1, usage: "rpc" } }, handle: (params) => Effect.succeed({ pong: params }) } }
 * }
 * Emulator.layerTest({ extraAreas: [ping] })
 * @since 0.1.0
 */
import type * as Endpoint from "@solfx/core/Endpoint"
import type * as Effect from "effect/Effect"
import type { Accounts } from "./Accounts.js"
import type { Chain } from "./Chain.js"
import type { Dataset } from "./Dataset.js"
import type { ByteCache } from "./Wire.js"

/**
 * What the server charges a method by: its entry of core's `Endpoints` (an alias
 * uses the entry of the method it aliases), or, for an extension area's method
 * the table lacks, a cost of its own in the same shape.
 *
 * @since 0.1.0
 * @category models
 */
export type Charged = Pick<Endpoint.Endpoint, "cost"> & {
  readonly notFound?: Endpoint.Rest["notFound"] | undefined
  /** The rate-limit bucket a plan limits it by (`PlanLimits`); none: not limited. */
  readonly bucket?: Endpoint.Bucket | undefined
}

/**
 * A project: its plan, credits and usage counters (the usage record the service documents).
 *
 * @since 0.1.0
 * @category models
 */
export interface Project {
  readonly id: string
  readonly plan: string
  readonly creditsLimit: number
  /** Regular credits used this cycle. */
  creditsUsed: number
  prepaidCreditsRemaining: number
  prepaidCreditsUsed: number
  readonly usage: Record<Endpoint.UsageCategory, number>
  readonly billingCycle: { readonly start: string; readonly end: string }
}

/**
 * What a handler sees of the emulator: the dataset, the caller and shared state.
 *
 * @since 0.1.0
 * @category models
 */
export interface AreaContext {
  readonly dataset: Dataset
  /** Serialised items by key, bounded (see `Wire`): what a page serves again is neither rebuilt nor re-encoded. */
  readonly cache: ByteCache
  /** The caller's project (already authenticated and charged). */
  readonly project: Project
  /** The caller's API key (webhooks are per key). */
  readonly apiKey: string
  /** The current simulated slot; it advances as time passes. */
  readonly slot: () => number
  /** The world's accounts as the chain holds them (lamports, owner, bytes): what standard RPC and the bank read. */
  readonly accounts: Accounts
  /** The cluster's one clock: slot, block height and time, blockhashes (the bank's once it runs). */
  readonly chain: Chain
  /** State an area keeps across requests (landed bundles, metadata caches), one per emulator instance. */
  readonly state: <S>(key: string, init: () => S) => S
  /** Every project, for the admin area. */
  readonly projectById: (id: string) => Project | undefined
  /** A request header (lower-case name). */
  readonly header: (name: string) => string | undefined
}

/**
 * A JSON-RPC error a handler fails with. `status` is the HTTP status carrying it (default 200).
 *
 * @since 0.1.0
 * @category models
 */
export class RpcFailure {
  readonly _tag = "RpcFailure"
  constructor(
    readonly code: number,
    readonly message: string,
    readonly status: number = 200,
    /** The error's `data` member (a failed preflight's simulation), if any. */
    readonly data?: unknown
  ) {}
}

/**
 * A REST error a handler fails with: body `{ "error": message }`.
 *
 * @since 0.1.0
 * @category models
 */
export class RestFailure {
  readonly _tag = "RestFailure"
  constructor(
    readonly status: number,
    readonly message: string,
    /** Extra response headers, e.g. `retry-after` on a 429. */
    readonly headers?: Readonly<Record<string, string>> | undefined
  ) {}
}

/**
 * A JSON-RPC method. `result` values may hold bigints: they are written as bare JSON numbers;
 * `Wire.Raw` values are written as the JSON (text or bytes) they hold.
 *
 * @since 0.1.0
 * @category models
 */
export interface RpcMethod {
  readonly entry: Charged
  readonly handle: (params: unknown, ctx: AreaContext) => Effect.Effect<unknown, RpcFailure>
}

/**
 * A JSON-RPC method's handler alone: the table gives its entry (`rpcOf`).
 *
 * @since 0.1.0
 * @category models
 */
export type Handler = Pick<RpcMethod, "handle">

/**
 * A REST request as a route handler sees it.
 *
 * @since 0.1.0
 * @category models
 */
export interface RestRequest {
  /** Path parameters, by the `:name` segments of the route's path. */
  readonly params: Readonly<Record<string, string>>
  readonly query: URLSearchParams
  /** The JSON body (parsed), undefined for GET. */
  readonly body: unknown
}

/**
 * A REST route, e.g. `{ method: "GET", path: "/v1/wallet/:wallet/balances" }`.
 *
 * @since 0.1.0
 * @category models
 */
export interface RestRoute {
  readonly method: Endpoint.Rest["method"]
  readonly path: string
  readonly entry: Charged
  /** The admin host also accepts `X-Api-Key`. */
  readonly headerAuth?: boolean
  /**
   * Checks run before credits are reserved (the admin rate limit and project check): a failure
   * here is answered without charging or counting usage.
   */
  readonly precheck?: (request: RestRequest, ctx: AreaContext) => Effect.Effect<void, RestFailure>
  readonly handle: (request: RestRequest, ctx: AreaContext) => Effect.Effect<unknown, RestFailure>
  /** Status of a success (default 200). */
  readonly status?: number
}

/**
 * An API area of the emulator.
 *
 * @since 0.1.0
 * @category models
 */
export interface Area {
  readonly name: string
  readonly rpc?: Readonly<Record<string, RpcMethod>>
  readonly routes?: ReadonlyArray<RestRoute>
  /** Addresses with data, merged into the start line's `samples`. */
  readonly samples?: (dataset: Dataset) => Readonly<Record<string, string>>
}

/**
 * The REST route of a table entry: its method, its path pattern (`{wallet}` becomes
 * `:wallet`), its auth and its charge all come from the entry.
 *
 * @since 0.1.0
 * @category constructors
 */
export const restRoute = (
  entry: Endpoint.Rest,
  route: Omit<RestRoute, "method" | "path" | "entry" | "headerAuth">
): RestRoute => ({
  ...route,
  method: entry.method,
  path: entry.path.replace(/\{([^}]+)\}/g, ":$1"),
  entry,
  ...(entry.auth === "header" ? { headerAuth: true } : {})
})

/**
 * The JSON-RPC methods of a record of table entries: each method charged by its entry and
 * answered by the handler of the same name. The handlers are typed by the record, so a method
 * added to the table does not compile here until it has a handler; `aliases` serve a method
 * under another name (a peer client's), with its entry.
 *
 * @example
 * rpc: Area.rpcOf(Endpoints.digitalAssetMethods, handlers, { getAssets: "getAssetBatch" })
 * @since 0.1.0
 * @category constructors
 */
export const rpcOf = <R extends Readonly<Record<string, Charged>>>(
  entries: R,
  handlers: { readonly [K in keyof R]: Handler },
  aliases: Readonly<Record<string, keyof R & string>> = {}
): Readonly<Record<string, RpcMethod>> => {
  const out: Record<string, RpcMethod> = {}
  for (const name of Object.keys(entries) as Array<keyof R & string>) {
    out[name] = { entry: entries[name], handle: handlers[name].handle }
  }
  for (const [alias, name] of Object.entries(aliases)) out[alias] = out[name]!
  return out
}
