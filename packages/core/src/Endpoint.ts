/**
 * A method of the service as data: which host, how it is called, what goes in and
 * comes out, how it pages and batches, whether it may be retried, what it costs and
 * which rate-limit bucket it counts against. The SDK derives its methods from these
 * values (`@solfx/http/Derive`), and the emulator can route and charge from the same
 * values, so each mechanism exists once. `Endpoints` holds the table of the service.
 *
 * A method the SDK lacks takes one entry:
 *
 * @example
 * const getCompressionSignaturesForOwner = Endpoint.rpc({
 *   area: "photon",
 *   method: "getCompressionSignaturesForOwner",
 *   params: Schema.Struct({ owner: Address, cursor: Schema.optional(Cursor), limit: Schema.optional(Limit) }),
 *   result: SignaturesResult,
 *   paging: Endpoint.cursor({ items: (r) => r.value.items, next: (r) => r.value.cursor }),
 *   cost: { credits: 10, usage: "photon" },
 *   bucket: "photon"
 * })
 * const client = yield* Derive.client(getCompressionSignaturesForOwner)
 * const all = yield* client.stream({ owner }).pipe(Stream.take(100), Stream.runCollect)
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import type * as Schema from "effect/Schema"
import type { Host } from "./Config.js"

export type { Host } from "./Config.js"

/**
 * The usage categories of the project usage record (as the service documents).
 *
 * @since 0.1.0
 * @category models
 */
export type UsageCategory =
  | "api"
  | "archival"
  | "das"
  | "grpc"
  | "grpcGeyser"
  | "photon"
  | "rpc"
  | "stream"
  | "webhook"
  | "websocket"

/**
 * What one billed request costs, and the usage category it counts in.
 *
 * @since 0.1.0
 * @category models
 */
export interface Cost {
  readonly credits: number
  readonly usage: UsageCategory
}

/**
 * The rate-limit bucket of a method (the service's documentation: the real service limits
 * requests per second per project, by family of methods).
 *
 * @since 0.1.0
 * @category models
 */
export type Bucket =
  | "rpc"
  | "sendTransaction"
  | "getProgramAccounts"
  | "das"
  | "photon"
  | "validityProof"
  | "sendBundle"
  | "wallet"
  | "enhanced"
  | "admin"
  | "webhooks"

/**
 * How a method pages, and where its items and next position live in its result.
 * - `None`: one answer.
 * - `PageNumber`: a 1-indexed `param`; the last page is short, or `total` says how
 *   many there are, or `hasMore` is false. With a `keyset`, the list can also be walked
 *   by cursor (both of DAS's modes, declared by the one entry).
 * - `Cursor`: the position is a cursor sent as `param`; `next` reads the following
 *   one (null, undefined or "" on the last page).
 * - `HasMore`: a cursor, but the result says whether more follow (`hasMore`), and
 *   `next` must then be present.
 *
 * @since 0.1.0
 * @category paging
 */
export type Paging<R, A> =
  | { readonly _tag: "None" }
  | {
    readonly _tag: "PageNumber"
    readonly param: string
    readonly limitParam: string
    readonly maxLimit: number
    readonly items: (result: R) => ReadonlyArray<A>
    readonly total?: ((result: R) => number | undefined) | undefined
    readonly hasMore?: ((result: R) => boolean) | undefined
    /** The list's second mode, when it has one: the same items walked by a cursor (DAS's keyset paging). */
    readonly keyset?: Keyset<R> | undefined
  }
  | {
    readonly _tag: "Cursor"
    readonly param: string
    readonly limitParam: string
    readonly maxLimit: number
    /** The largest page for these params, where it depends on them (a walk's default `limit`). */
    readonly maxLimitOf?: ((params: unknown) => number) | undefined
    readonly items: (result: R) => ReadonlyArray<A>
    readonly next: (result: R) => string | null | undefined
  }
  | {
    readonly _tag: "HasMore"
    readonly param: string
    readonly limitParam: string
    readonly maxLimit: number
    readonly items: (result: R) => ReadonlyArray<A>
    readonly hasMore: (result: R) => boolean
    readonly next: (result: R) => string | null | undefined
    /** The JSON path of the next cursor, for the error when more is claimed without one. */
    readonly nextPath: string
  }

/**
 * A keyset mode beside numbered pages: the cursor is sent as `param`, `next` reads the
 * following one (null, undefined or "" on the last page).
 *
 * @since 0.1.0
 * @category paging
 */
export interface Keyset<R> {
  readonly param: string
  readonly next: (result: R) => string | null | undefined
}

/**
 * The paging of a method that answers once.
 *
 * @since 0.1.0
 * @category paging
 */
export const none: Paging<never, never> = { _tag: "None" }

interface PagingOptions<R, A> {
  readonly items: (result: R) => ReadonlyArray<A>
  readonly param?: string | undefined
  readonly limitParam?: string | undefined
  readonly maxLimit?: number | undefined
}

/** What every paging kind shares: the position's param, the page size's param and bound, the items. */
const positioned = <R, A>(options: PagingOptions<R, A>, param: string) => ({
  param: options.param ?? param,
  limitParam: options.limitParam ?? "limit",
  maxLimit: options.maxLimit ?? 1000,
  items: options.items
})

/**
 * Page-number paging (`page`, `limit`, at most 1000 a page by default).
 *
 * @since 0.1.0
 * @category paging
 */
export const pageNumber = <R, A>(
  options: PagingOptions<R, A> & {
    readonly total?: ((result: R) => number | undefined) | undefined
    readonly hasMore?: ((result: R) => boolean) | undefined
    /** A second mode by cursor (`param` default `cursor`): a walk started in it, or at a cursor, uses it. */
    readonly keyset?: { readonly param?: string | undefined; readonly next: Keyset<R>["next"] } | undefined
  }
): Paging<R, A> => ({
  _tag: "PageNumber",
  ...positioned(options, "page"),
  total: options.total,
  hasMore: options.hasMore,
  keyset: options.keyset === undefined
    ? undefined
    : { param: options.keyset.param ?? "cursor", next: options.keyset.next }
})

/**
 * Cursor paging (`cursor`, `limit`).
 *
 * @since 0.1.0
 * @category paging
 */
export const cursor = <R, A>(
  options: PagingOptions<R, A> & {
    readonly next: (result: R) => string | null | undefined
    /** The largest page for given params, where it depends on them (at most `maxLimit`). */
    readonly maxLimitOf?: ((params: unknown) => number) | undefined
  }
): Paging<R, A> => ({
  _tag: "Cursor",
  ...positioned(options, "cursor"),
  next: options.next,
  maxLimitOf: options.maxLimitOf
})

/**
 * Cursor paging where the result says whether more follow.
 *
 * @since 0.1.0
 * @category paging
 */
export const hasMore = <R, A>(
  options: PagingOptions<R, A> & {
    readonly hasMore: (result: R) => boolean
    readonly next: (result: R) => string | null | undefined
    readonly nextPath?: string | undefined
  }
): Paging<R, A> => ({
  _tag: "HasMore",
  ...positioned(options, "cursor"),
  hasMore: options.hasMore,
  next: options.next,
  nextPath: options.nextPath ?? "$"
})

/**
 * How a method takes many inputs: the params `field` (a key, or a position of
 * positional params) holds a list the service accepts at most `size` of per request.
 * The SDK splits longer lists into chunks, at most `concurrency` in flight, results
 * in input order.
 *
 * @since 0.1.0
 * @category batching
 */
export interface Batch {
  readonly field: string | number
  readonly size: number
  readonly concurrency: number
}

/**
 * What every entry has.
 *
 * @since 0.1.0
 * @category models
 */
export interface Common<P, A, Item, PI = P> {
  /** The name in errors, spans and credit series: the JSON-RPC method, or `GET /v1/...`. */
  readonly name: string
  /** The SDK area the method belongs to (the `area` tag of the credits series). */
  readonly area: string
  readonly host: Host
  /** Validates the caller's params before any I/O; its decoded value is what is sent. */
  readonly params: Schema.Schema<P, PI>
  readonly result: Schema.Schema<A, any>
  readonly paging: Paging<A, Item>
  readonly batch: Batch | undefined
  /** Safe to send twice: retried on transient failures. Otherwise retried only when certainly unprocessed. */
  readonly idempotent: boolean
  readonly cost: Cost
  readonly bucket: Bucket
}

/**
 * A JSON-RPC method, POSTed to the `rpc` host.
 *
 * @since 0.1.0
 * @category models
 */
export interface Rpc<P = any, A = any, Item = any, PI = any> extends Common<P, A, Item, PI> {
  readonly _tag: "Rpc"
  readonly method: string
  /** The type of the envelope's `id` (the service documents a number for sendBundle). */
  readonly id: "string" | "number"
  /**
   * The standard Solana RPC's positional form: this field of the params is sent first (or these
   * fields, in order: `["owner", "filter"]`; none, `[]`, for a method of one config object), the
   * others after them as one config object (`[address, { limit, before }]`). Undefined: the
   * params are sent as they are.
   */
  readonly positional?: string | ReadonlyArray<string> | undefined
}

/**
 * A REST route. `{name}` segments of `path` are taken from the params' fields of
 * that name; the other fields go to the query (GET, DELETE) or the JSON body (POST, PUT, PATCH).
 *
 * @since 0.1.0
 * @category models
 */
export interface Rest<P = any, A = any, Item = any, PI = any> extends Common<P, A, Item, PI> {
  readonly _tag: "Rest"
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE"
  readonly path: string
  /** `header` sends `X-Api-Key` (the admin host's form); `query` sends `api-key`. */
  readonly auth: "query" | "header"
  /** `answer`: a 404 is the documented "not found" answer (billed), read as `Option.none()`. */
  readonly notFound: "error" | "answer"
  /** `body`: a POST sends this field's value as the whole body (e.g. an array). */
  readonly bodyField?: string | undefined
}

/**
 * Any entry of the table.
 *
 * @since 0.1.0
 * @category models
 */
export type Endpoint<P = any, A = any, Item = any, PI = any> = Rpc<P, A, Item, PI> | Rest<P, A, Item, PI>

/** An optional field of a Struct: its encoded side may be left out. */
type OptionalField = { readonly _EncodedToken: "?:" }

/**
 * The params a caller writes for the params Schema `S` (its encoded side `PI`), with each field's
 * doc comment. A Struct's own `Encoded` remaps its keys, which drops the comments written on its
 * fields, so a Struct's params (filtered, transformed, extended or not) are rebuilt here by mapped
 * types that only filter keys, which TypeScript links to the fields' declarations: an editor shows a
 * field's doc on hover, and the generated docs list it. Any other Schema's input is `PI` as it is.
 *
 * @since 0.1.0
 * @category models
 */
export type Input<S, PI> = S extends { readonly fields: infer F; readonly records: any } ? StructInput<F>
  : S extends { readonly from: infer From; readonly filter: any } ? Input<From, PI>
  : S extends { readonly from: infer From; readonly to: any } ? Input<From, PI>
  : S extends Schema.Array$<infer Value> ? ReadonlyArray<InputOf<Value>>
  : PI

/**
 * The input of a Schema as a caller writes it, field docs kept (`Input`).
 *
 * @since 0.1.0
 * @category models
 */
export type InputOf<S> = S extends Schema.Schema.Any ? Input<S, Schema.Schema.Encoded<S>> : never

/** A field's input: a Struct nested in params (`options`, `sortBy`) keeps its fields' docs too. */
type FieldInput<Field> = Field extends Schema.optional<infer S> ? InputOf<S> | undefined
  : Field extends Schema.Schema.Any ? InputOf<Field>
  : Schema.Schema.Encoded<Field>

/**
 * The encoded side of a Struct's fields, key by key, keeping each field's doc comment.
 *
 * @since 0.1.0
 * @category models
 */
export type StructInput<F> = Simplify<
  & { readonly [K in keyof F as F[K] extends OptionalField ? never : K]: FieldInput<F[K]> }
  & { readonly [K in keyof F as F[K] extends OptionalField ? K : never]?: FieldInput<F[K]> }
>

type Simplify<A> = { [K in keyof A]: A[K] } & {}

/** `Documented` where it is the same type as `PI` (each assignable to the other), else `never`: a drift fails to compile. */
type Checked<Documented, PI> = [Documented] extends [PI] ? [PI] extends [Documented] ? Documented : never : never

interface Declared<P, PI, A, Item> {
  readonly area: string
  readonly params: Schema.Schema<P, PI>
  readonly result: Schema.Schema<A, any>
  readonly paging?: Paging<A, Item> | undefined
  readonly batch?: Batch | undefined
  readonly idempotent?: boolean | undefined
  readonly cost: Cost
  readonly bucket: Bucket
}

/**
 * Declares a JSON-RPC method. Defaults: no paging, no batch, idempotent, string ids.
 *
 * @since 0.1.0
 * @category constructors
 */
export const rpc = <P, PI, A, Item = never, S extends Schema.Schema<P, PI> = Schema.Schema<P, PI>>(
  declared: Declared<P, PI, A, Item> & {
    readonly params: S
    readonly method: string
    readonly id?: "string" | "number" | undefined
    readonly positional?: string | ReadonlyArray<string> | undefined
  }
): Rpc<P, A, Item, Checked<Input<S, PI>, PI>> => ({
  _tag: "Rpc",
  name: declared.method,
  method: declared.method,
  id: declared.id ?? "string",
  positional: declared.positional,
  area: declared.area,
  host: "rpc",
  // The same encoded side, field by field with its docs (`Input`).
  params: declared.params as unknown as Schema.Schema<P, Checked<Input<S, PI>, PI>>,
  result: declared.result,
  paging: declared.paging ?? (none as Paging<A, Item>),
  batch: declared.batch,
  idempotent: declared.idempotent ?? true,
  cost: declared.cost,
  bucket: declared.bucket
})

/**
 * Declares a REST route. Defaults: `query` auth, 404 an error, no paging, no batch;
 * idempotent unless declared otherwise.
 *
 * @since 0.1.0
 * @category constructors
 */
export const rest = <
  P,
  PI,
  A,
  Item = never,
  NotFound extends Rest["notFound"] = "error",
  S extends Schema.Schema<P, PI> = Schema.Schema<P, PI>
>(
  declared: Declared<P, PI, A, Item> & {
    readonly params: S
    readonly host: Exclude<Host, "rpc">
    readonly method: Rest["method"]
    readonly path: string
    readonly auth?: Rest["auth"] | undefined
    readonly notFound?: NotFound | undefined
    readonly bodyField?: string | undefined
  }
): Rest<P, A, Item, Checked<Input<S, PI>, PI>> & { readonly notFound: NotFound } => ({
  _tag: "Rest",
  name: `${declared.method} ${declared.path}`,
  method: declared.method,
  path: declared.path,
  auth: declared.auth ?? "query",
  // The declared literal stays in the type, so a service can answer `Option` where it is "answer".
  notFound: declared.notFound ?? ("error" as NotFound),
  bodyField: declared.bodyField,
  area: declared.area,
  host: declared.host,
  // The same encoded side, field by field with its docs (`Input`).
  params: declared.params as unknown as Schema.Schema<P, Checked<Input<S, PI>, PI>>,
  result: declared.result,
  paging: declared.paging ?? (none as Paging<A, Item>),
  batch: declared.batch,
  idempotent: declared.idempotent ?? true,
  cost: declared.cost,
  bucket: declared.bucket
})

/**
 * The JSON-RPC params of `entry` as sent: the params themselves, or, for a `positional` entry,
 * its first field then the others as a config object (left out when it holds nothing).
 *
 * @example
 * Endpoint.wireParams(Endpoints.getSignaturesForAddress, { address, limit: 10 }) // [address, { limit: 10 }]
 * @since 0.1.0
 * @category routing
 */
export const wireParams = (entry: Rpc, params: unknown): unknown => {
  if (entry.positional === undefined) return params
  const names = positionalNames(entry.positional)
  const record = params as Record<string, unknown>
  const config = Object.fromEntries(Object.entries(record).filter(([k, v]) => !names.includes(k) && v !== undefined))
  const firsts = names.map((name) => record[name])
  if (Object.keys(config).length > 0) return [...firsts, config]
  // Optional positionals left out at the end are not sent (`getRecentPrioritizationFees` without addresses).
  let n = firsts.length
  while (n > 0 && firsts[n - 1] === undefined) n--
  return firsts.slice(0, n)
}

const positionalNames = (positional: string | ReadonlyArray<string>): ReadonlyArray<string> =>
  typeof positional === "string" ? [positional] : positional

/**
 * The named params of a positional entry's wire params, as a server reads them: each positional
 * field from its place, then the config object's fields (an absent or null config is none). The
 * inverse of `wireParams`; a left value names what is not so (`params must be an array`,
 * `params[1] must be a config object`), for the RPC's -32602.
 *
 * @example
 * Endpoint.namedParams(Endpoints.getSignaturesForAddress, [address, { limit: 10 }]) // Either.right({ address, limit: 10 })
 * @since 0.1.0
 * @category routing
 */
export const namedParams = (entry: Rpc, wire: unknown): Either.Either<Record<string, unknown>, string> => {
  if (entry.positional === undefined) {
    return typeof wire === "object" && wire !== null && !Array.isArray(wire)
      ? Either.right(wire as Record<string, unknown>)
      : Either.left("params must be an object")
  }
  const names = positionalNames(entry.positional)
  if (wire === undefined || wire === null) wire = []
  if (!Array.isArray(wire)) return Either.left("params must be an array")
  if (wire.length > names.length + 1) {
    return Either.left(`params takes at most ${names.length + 1} values, got ${wire.length}`)
  }
  const config = wire[names.length]
  if (config !== undefined && config !== null && (typeof config !== "object" || Array.isArray(config))) {
    return Either.left(`params[${names.length}] must be a config object`)
  }
  const out: Record<string, unknown> = { ...(config as Record<string, unknown> | null | undefined) }
  names.forEach((name, i) => {
    if (wire[i] !== undefined) out[name] = wire[i]
  })
  return Either.right(out)
}
/**
 * The path parameters of a REST path, in order: `/v1/wallet/{wallet}/balances` → `["wallet"]`.
 *
 * @since 0.1.0
 * @category routing
 */
export const pathParams = (path: string): ReadonlyArray<string> =>
  Array.from(path.matchAll(/\{([^}]+)\}/g), (m) => m[1]!)
