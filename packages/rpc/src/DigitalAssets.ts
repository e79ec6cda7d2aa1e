/**
 * The digital-asset (DAS) methods: the token accounts, assets by authority, asset
 * signatures and Merkle proofs the service documents, and the read API real clients call
 * by default (getAsset, getAssetBatch, getAssetProof, assets by owner, group and creator,
 * searchAssets, getNftEditions). The service is declared from `Endpoints.digitalAssets`:
 * every list is a call, `.stream` (every item, lazily) and `.pages` (each page with the
 * `next` position that resumes a job, as `{ start: next }`); batches take any number of
 * ids, and proofs can be verified locally.
 *
 * @example
 * const das = yield* DigitalAssets.DigitalAssets
 * const page = yield* das.getAssetsByAuthority({ authorityAddress, page: 1, limit: 1000 })
 * const all = yield* das.getAssetsByAuthority.stream({ authorityAddress }, { concurrency: 4 }).pipe(Stream.runCollect)
 * const proofs = yield* das.getAssetProofBatchVerified(assetIds)
 * const mine = yield* das.getAssetsByOwner.stream({ ownerAddress }).pipe(Stream.take(10), Stream.runCollect)
 * @since 0.1.0
 */
import * as AssetProof from "@solfx/core/AssetProof"
import type * as AssetQuery from "@solfx/core/AssetQuery"
import * as DasParams from "@solfx/core/DasParams"
import * as Decode from "@solfx/core/Decode"
import type * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, DecodeError, InvalidProof, InvalidRequest } from "@solfx/core/Errors"
import * as MerkleProof from "@solfx/core/MerkleProof"
import { Address } from "@solfx/core/Primitives"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import type * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Request from "effect/Request"
import * as RequestResolver from "effect/RequestResolver"
import * as Schema from "effect/Schema"

/**
 * The JSON-RPC methods of this service: its operations (`Endpoints.digitalAssets`) and its batch methods.
 *
 * @since 0.1.0
 * @category models
 */
export type Operation = Endpoints.DigitalAssetMethod

/**
 * Options of the service: a caller's own credit prices for the `solfx.credits` estimate.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Credits per request (area `das`), method by method, instead of the entry's `cost` in `Endpoints`. */
  readonly costs?: Partial<Record<Operation, number | undefined>> | undefined
}

/**
 * Where a paged job starts or resumes: a page number, or a cursor.
 *
 * @since 0.1.0
 * @category models
 */
export type Position = { readonly page: number } | { readonly cursor: string }

/**
 * Options of the Streams.
 *
 * @since 0.1.0
 * @category models
 */
export interface StreamOptions {
  /** Page-numbered mode: pages in flight at once after the first (default 4). Items stay in order. */
  readonly concurrency?: number | undefined
  /** `page` (default): numbered pages, concurrent; `cursor`: sequential cursor pages. */
  readonly mode?: "page" | "cursor" | undefined
  /** Resume from a page's `next`; a cursor position implies cursor mode. */
  readonly start?: Position | undefined
}

/**
 * Options of a proof batch.
 *
 * @since 0.1.0
 * @category models
 */
export interface BatchOptions {
  /** Ids per request, 1 to 1000 (default 1000). */
  readonly batchSize?: number | undefined
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number | undefined
}

/**
 * Proofs keyed by asset id, in the order the ids were given; `Option.none()` for
 * an id the service returned null for (unknown, or not compressed).
 *
 * @since 0.1.0
 * @category models
 */
export type ProofMap = ReadonlyMap<string, Option.Option<AssetProof.AssetProof>>

/**
 * Assets in the order their ids were given; `Option.none()` for an id the service does not know.
 *
 * @since 0.1.0
 * @category models
 */
export type AssetBatch = ReadonlyArray<Option.Option<DigitalAsset.DigitalAsset>>

/**
 * The DAS methods: one operation per entry of `Endpoints.digitalAssets` (each list a call,
 * `.pages` and `.stream`; the `…Stream` / `…Pages` names are deprecated aliases), and the
 * batch and proof methods of the service's own.
 *
 * @since 0.1.0
 * @category models
 */
export interface DigitalAssetsShape
  extends Operations.Operations<typeof Endpoints.digitalAssets, Position, StreamOptions>
{
  /** Proofs of any number of assets, chunked into requests of `batchSize` ids. */
  readonly getAssetProofBatch: (
    ids: ReadonlyArray<string>,
    options?: BatchOptions
  ) => Effect.Effect<ProofMap, ApiError | InvalidRequest>
  /** `getAssetProofBatch`, then every proof is verified; the first that does not verify fails with `InvalidProof`. */
  readonly getAssetProofBatchVerified: (
    ids: ReadonlyArray<string>,
    options?: BatchOptions
  ) => Effect.Effect<ProofMap, ApiError | InvalidRequest | InvalidProof>
  /** Assets of any number of ids, chunked into requests of `batchSize` ids; in order, `Option.none()` where unknown. */
  readonly getAssetBatch: (
    params: { readonly ids: ReadonlyArray<string>; readonly options?: AssetQuery.GetAssetInput["options"] },
    options?: BatchOptions
  ) => Effect.Effect<AssetBatch, ApiError | InvalidRequest>
  /**
   * The proof of one asset, `Option.none()` if the service has none. Calls run together
   * (`Effect.forEach(ids, f, { batching: true })`) are sent as getAssetProofBatch
   * requests of at most 1000 ids.
   */
  readonly getAssetProof: (
    params: AssetQuery.GetAssetProofInput
  ) => Effect.Effect<Option.Option<AssetProof.AssetProof>, ApiError | InvalidRequest>
}

/**
 * The DAS service.
 *
 * @example
 * const program = Effect.gen(function*() {
 *   const das = yield* DigitalAssets.DigitalAssets
 *   const assets = yield* das.getAssetsByAuthority.stream({ authorityAddress }, { concurrency: 8 }).pipe(
 *     Stream.runCollect
 *   )
 * }).pipe(Effect.provide(DigitalAssets.layer))
 * @since 0.1.0
 * @category tags
 */
export class DigitalAssets extends Context.Tag("@solfx/rpc/DigitalAssets")<DigitalAssets, DigitalAssetsShape>() {}

const Concurrency = Schema.Number.pipe(
  Schema.int({ message: () => "an integer from 1 to 64" }),
  Schema.between(1, 64, { message: () => "an integer from 1 to 64" })
)

const StreamOptionsSchema = Schema.Struct({
  concurrency: Schema.optional(Concurrency),
  mode: Schema.optional(Schema.Literal("page", "cursor")),
  start: Schema.optional(Schema.Union(
    Schema.Struct({ page: DasParams.PageNumber }),
    Schema.Struct({ cursor: DasParams.Cursor })
  ))
}).pipe(Schema.filter((o) =>
  o.mode === "page" && o.start !== undefined && "cursor" in o.start
    ? { path: ["start"], message: "a cursor position needs cursor mode" }
    : o.mode === "cursor" && o.start !== undefined && "page" in o.start
    ? { path: ["start"], message: "a page position needs page mode" }
    : true
))

const BatchOptionsSchema = Schema.Struct({
  batchSize: Schema.optional(Schema.Number.pipe(
    Schema.int({ message: () => `an integer from 1 to ${AssetProof.MAX_BATCH}` }),
    Schema.between(1, AssetProof.MAX_BATCH, { message: () => `an integer from 1 to ${AssetProof.MAX_BATCH}` })
  )),
  concurrency: Schema.optional(Concurrency)
})

const Ids = Schema.Array(Address)

const AssetBatchParams = Schema.Struct({ ids: Ids, options: Schema.optional(DasParams.AssetDisplayOptions) })

/** One asset's proof, a `Request` so that concurrent calls are sent as one getAssetProofBatch. */
class GetAssetProof extends Request.TaggedClass("GetAssetProof")<
  Option.Option<AssetProof.AssetProof>,
  ApiError,
  { readonly id: string }
> {}

/** The stream controls pagination: a caller's own paging field would fight it (`walkSets`). */
const PAGING_KEYS = ["page", "cursor", "before", "after"]

/**
 * Builds the service from the transport: every method is derived from its entry
 * of the endpoint table; this module adds the two paging modes and proof checks.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<DigitalAssetsShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const derive = <P, A, Item, PI>(entry: Endpoint.Rpc<P, A, Item, PI>) =>
      Derive.fromTransport(transport, entry, { credits: options.costs?.[entry.name as Operation] })
    const redact = transport.redactor.redact
    const validateBatchOptions = Decode.validateInput(BatchOptionsSchema, "options", redact)
    const validateIds = Decode.validateInput(Ids, "ids", redact)
    const validateAssetBatch = Decode.validateInput(AssetBatchParams, "", redact)

    const proofs = derive(Endpoints.getAssetProofBatch)
    const assetBatch = derive(Endpoints.getAssetBatch)

    const getAssetBatch: DigitalAssetsShape["getAssetBatch"] = (params, batch) =>
      Effect.gen(function*() {
        const { ids, options: display } = yield* validateAssetBatch(params)
        const opts = yield* validateBatchOptions(batch ?? {})
        const results = yield* assetBatch.batch(ids, display === undefined ? {} : { options: display }, {
          size: opts.batchSize,
          concurrency: opts.concurrency
        })
        const out: Array<Option.Option<DigitalAsset.DigitalAsset>> = []
        for (const { items, result } of results) {
          if (result.length !== items.length) {
            return yield* new DecodeError({
              operation: Endpoints.getAssetBatch.name,
              path: "$",
              expected: `one entry per requested id (${items.length}), got ${result.length}`
            })
          }
          for (const a of result) out.push(Option.fromNullable(a))
        }
        return out
      })

    // Effect's request batching: the calls of one batched step arrive here together.
    const proofResolver = RequestResolver.makeBatched((requests: Arr.NonEmptyArray<GetAssetProof>) =>
      proofs.batch([...new Set(requests.map((r) => r.id))]).pipe(
        Effect.flatMap((results) => {
          const found = new Map<string, AssetProof.AssetProof | null>()
          for (const { items, result } of results) for (const id of items) found.set(id, result[id] ?? null)
          return Effect.forEach(requests, (r) => Request.succeed(r, Option.fromNullable(found.get(r.id))), {
            discard: true
          })
        }),
        Effect.catchAll((error) => Effect.forEach(requests, (r) => Request.fail(r, error), { discard: true }))
      )
    )
    const validateProof = Decode.validateInput(Endpoints.getAssetProof.params, "", redact)

    const getAssetProofBatch = (ids: ReadonlyArray<string>, batch?: BatchOptions) =>
      Effect.gen(function*() {
        const valid = yield* validateIds(ids)
        const opts = yield* validateBatchOptions(batch ?? {})
        const results = yield* proofs.batch([...new Set(valid)], {}, {
          size: opts.batchSize,
          concurrency: opts.concurrency
        })
        const merged = new Map<string, Option.Option<AssetProof.AssetProof>>()
        for (const { items, result } of results) for (const id of items) merged.set(id, Option.fromNullable(result[id]))
        return merged as ProofMap
      })

    const verifyAll = (proofs: ProofMap): Effect.Effect<ProofMap, InvalidProof> => {
      for (const [id, proof] of proofs) {
        if (Option.isNone(proof)) continue
        const result = MerkleProof.verify(proof.value)
        if (!result.valid) return Effect.fail(new InvalidProof({ id, detail: result.reason }))
      }
      return Effect.succeed(proofs)
    }

    return {
      // A DAS list: numbered pages (page 1 alone, then `concurrency` at a time, in order) or by cursor (the
      // entry's keyset), its walk options checked and its paging fields left to the walk.
      ...(Operations.make(transport, Endpoints.digitalAssets, {
        costs: options.costs,
        walkOptions: StreamOptionsSchema,
        walkSets: PAGING_KEYS
      }) as Operations.Operations<typeof Endpoints.digitalAssets, Position, StreamOptions>),
      getAssetProofBatch,
      getAssetProofBatchVerified: (ids, batch) => Effect.flatMap(getAssetProofBatch(ids, batch), verifyAll),
      getAssetBatch,
      getAssetProof: (params) =>
        Effect.flatMap(validateProof(params), ({ id }) => Effect.request(new GetAssetProof({ id }), proofResolver))
    } satisfies DigitalAssetsShape
  })

/**
 * The service, with the costs of the endpoint table. Requires `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<DigitalAssets, never, HttpTransport> = Layer.effect(DigitalAssets, make())

/**
 * The service with options (e.g. a cost table). Requires `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<DigitalAssets, never, HttpTransport> =>
  Layer.effect(DigitalAssets, make(options))
