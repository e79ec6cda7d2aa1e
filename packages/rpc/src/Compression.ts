/**
 * The compression (ZK, Photon) methods as a service, with the V2 and indexer methods
 * that stateless.js 0.23 calls by default. The service is declared from its entries,
 * `Endpoints.compression`: each method is a call, and each cursor-paged one also has
 * `.pages` (each page with its items, its slot and `next`, the cursor to resume from)
 * and `.stream` (every item). Every paged method resumes the same way: `{ start: next }` (a
 * `cursor` in the params of `.pages` or `.stream` still starts the walk there, but is deprecated).
 * Streams fetch lazily: `Stream.take` stops fetching.
 *
 * Amounts, balances and lamports are exact `bigint`s (the SDK-wide choice, see `U64`).
 * Holders come in the order the service sends them, descending balance: the SDK does
 * not re-sort.
 *
 * @example
 * const compression = yield* Compression.Compression
 * const top = yield* compression.getCompressedMintTokenHolders({ mint, limit: 10 }) // { context: { slot }, value }
 * const every = yield* compression.getCompressedMintTokenHolders.stream({ mint }).pipe(Stream.runCount)
 * @since 0.1.0
 */
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import type * as Pagination from "@solfx/core/Pagination"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The failures of a compression call: bad input (before any request) or an API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type CompressionError = InvalidRequest | ApiError

/**
 * One page of a cursor-paged method: its items, the slot it was read at, and `next`,
 * the cursor of the following page (`undefined` on the last page). Save `next` to
 * resume a job later: pass it as `{ start: next }` to the method's `.pages` or `.stream`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SlotPage<A> extends Pagination.Page<A, string> {
  readonly slot: number
}

/**
 * The compression methods, one operation per entry of `Endpoints.compression` (the
 * `…Stream` / `…Pages` names are deprecated aliases of `.stream` / `.pages`).
 *
 * @since 0.1.0
 * @category models
 */
export interface CompressionShape extends Operations.Operations<typeof Endpoints.compression, string> {}

/**
 * The compression service; `layer` builds it over the `HttpTransport`.
 *
 * @example
 * const compression = yield* Compression.Compression
 * const holders = yield* compression.getCompressedMintTokenHolders.stream({ mint }).pipe(
 *   Stream.take(100),
 *   Stream.runCollect
 * )
 *
 * @since 0.1.0
 * @category tags
 */
export class Compression extends Context.Tag("@solfx/rpc/Compression")<Compression, CompressionShape>() {}

/**
 * Options of the service: a caller's own credit prices for the `solfx.credits` estimate.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Credits per request, method by method, instead of the entry's `cost` in `Endpoints`. */
  readonly costs?: Partial<Record<Endpoints.CompressionMethod, number | undefined>> | undefined
}

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits`
 * counter (`Credits`), tagged `area=photon` and the method.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<CompressionShape, never, HttpTransport> =>
  Effect.map(
    HttpTransport,
    (transport) => Operations.make<typeof Endpoints.compression, string>(transport, Endpoints.compression, options)
  )

/**
 * The service. Provide `HttpTransport`.
 *
 * @example
 * Effect.gen(function*() {
 *   const compression = yield* Compression.Compression
 *   const top = yield* compression.getCompressedMintTokenHolders.stream({ mint, limit: 100 }).pipe(
 *     Stream.take(10),
 *     Stream.runCollect
 *   )
 * }).pipe(Effect.provide(Compression.layer), Effect.provide(transportLayer))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Compression, never, HttpTransport> = Layer.effect(Compression, make())

/**
 * The service with options (a cost table of the caller's own).
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<Compression, never, HttpTransport> =>
  Layer.effect(Compression, make(options))
