/**
 * The digital-asset (DAS) methods: spec §4.2's token accounts, assets by authority,
 * asset signatures and Merkle proofs, and the read API real clients call by default
 * (getAsset, getAssetBatch, getAssetProof, assets by owner, group and creator,
 * searchAssets, getNftEditions). Every paged method also comes as a lazy Stream of
 * items and a Stream of pages whose `next` position resumes a job; batches take any
 * number of ids, and proofs can be verified locally.
 *
 * @example
 * const das = yield* DigitalAssets.DigitalAssets
 * const page = yield* das.getAssetsByAuthority({ authorityAddress, page: 1, limit: 1000 })
 * const all = yield* das.getAssetsByAuthorityStream({ authorityAddress }, { concurrency: 4 }).pipe(Stream.runCollect)
 * const proofs = yield* das.getAssetProofBatchVerified(assetIds)
 * const mine = yield* das.getAssetsByOwnerStream({ ownerAddress }).pipe(Stream.take(10), Stream.runCollect)
 * @since 0.1.0
 */
import * as AssetProof from "@solfx/core/AssetProof"
import type * as AssetQuery from "@solfx/core/AssetQuery"
import type * as AssetSearch from "@solfx/core/AssetSearch"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as DasParams from "@solfx/core/DasParams"
import * as Decode from "@solfx/core/Decode"
import type * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, DecodeError, InvalidProof, InvalidRequest } from "@solfx/core/Errors"
import * as MerkleProof from "@solfx/core/MerkleProof"
import type * as NftEdition from "@solfx/core/NftEdition"
import * as Pagination from "@solfx/core/Pagination"
import { Address } from "@solfx/core/Primitives"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import type * as Arr from "effect/Array"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Request from "effect/Request"
import * as RequestResolver from "effect/RequestResolver"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/**
 * The JSON-RPC methods of this service.
 *
 * @since 0.1.0
 * @category models
 */
export type Operation =
  | "getTokenAccounts"
  | "getAssetsByAuthority"
  | "getSignaturesForAsset"
  | "getAssetProofBatch"
  | "getAsset"
  | "getAssetBatch"
  | "getAssetsByOwner"
  | "getAssetsByGroup"
  | "getAssetsByCreator"
  | "searchAssets"
  | "getNftEditions"

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

type StreamParams<I> = Omit<I, "page" | "cursor" | "before" | "after">

/** A DAS list method: one page, every item lazily, and pages with their resume position. */
type Listing<I, L> = (params: I) => Effect.Effect<L, ApiError | InvalidRequest>
type ListStream<I, Item> = (
  params: StreamParams<I>,
  options?: StreamOptions
) => Stream.Stream<Item, ApiError | InvalidRequest>
type ListPages<I, Item> = (
  params: StreamParams<I>,
  options?: StreamOptions
) => Stream.Stream<Pagination.Page<Item, Position>, ApiError | InvalidRequest>

/**
 * The DAS methods, the paged ones also as Streams of items and of pages.
 *
 * @since 0.1.0
 * @category models
 */
export interface DigitalAssetsShape {
  /** One page of token accounts of an owner and/or a mint. */
  readonly getTokenAccounts: (
    params: TokenAccount.GetTokenAccountsInput
  ) => Effect.Effect<TokenAccount.TokenAccountList, ApiError | InvalidRequest>
  /** Every token account, lazily (`limit` is the page size, default 1000). */
  readonly getTokenAccountsStream: (
    params: StreamParams<TokenAccount.GetTokenAccountsInput>,
    options?: StreamOptions
  ) => Stream.Stream<TokenAccount.TokenAccount, ApiError | InvalidRequest>
  /** Pages of token accounts, each with the position that resumes after it. */
  readonly getTokenAccountsPages: (
    params: StreamParams<TokenAccount.GetTokenAccountsInput>,
    options?: StreamOptions
  ) => Stream.Stream<Pagination.Page<TokenAccount.TokenAccount, Position>, ApiError | InvalidRequest>
  /** One page of the assets an authority controls. */
  readonly getAssetsByAuthority: (
    params: DigitalAsset.GetAssetsByAuthorityInput
  ) => Effect.Effect<DigitalAsset.DigitalAssetList, ApiError | InvalidRequest>
  /** Every asset of an authority, lazily, in the requested sort order. */
  readonly getAssetsByAuthorityStream: (
    params: StreamParams<DigitalAsset.GetAssetsByAuthorityInput>,
    options?: StreamOptions
  ) => Stream.Stream<DigitalAsset.DigitalAsset, ApiError | InvalidRequest>
  /** Pages of an authority's assets, each with the position that resumes after it. */
  readonly getAssetsByAuthorityPages: (
    params: StreamParams<DigitalAsset.GetAssetsByAuthorityInput>,
    options?: StreamOptions
  ) => Stream.Stream<Pagination.Page<DigitalAsset.DigitalAsset, Position>, ApiError | InvalidRequest>
  /** One page of an asset's transaction signatures. */
  readonly getSignaturesForAsset: (
    params: AssetSignature.GetSignaturesForAssetInput
  ) => Effect.Effect<AssetSignature.AssetSignatureList, ApiError | InvalidRequest>
  /** Every signature of an asset, lazily. */
  readonly getSignaturesForAssetStream: (
    params: StreamParams<AssetSignature.GetSignaturesForAssetInput>,
    options?: StreamOptions
  ) => Stream.Stream<AssetSignature.AssetSignature, ApiError | InvalidRequest>
  /** Pages of an asset's signatures, each with the position that resumes after it. */
  readonly getSignaturesForAssetPages: (
    params: StreamParams<AssetSignature.GetSignaturesForAssetInput>,
    options?: StreamOptions
  ) => Stream.Stream<Pagination.Page<AssetSignature.AssetSignature, Position>, ApiError | InvalidRequest>
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
  /** One asset by id; an unknown id fails with the service's error. */
  readonly getAsset: (
    params: AssetQuery.GetAssetInput
  ) => Effect.Effect<DigitalAsset.DigitalAsset, ApiError | InvalidRequest>
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
  /** One page of the assets an owner holds. */
  readonly getAssetsByOwner: Listing<AssetQuery.GetAssetsByOwnerInput, DigitalAsset.DigitalAssetList>
  /** Every asset of an owner, lazily, in the requested sort order. */
  readonly getAssetsByOwnerStream: ListStream<AssetQuery.GetAssetsByOwnerInput, DigitalAsset.DigitalAsset>
  /** Pages of an owner's assets, each with the position that resumes after it. */
  readonly getAssetsByOwnerPages: ListPages<AssetQuery.GetAssetsByOwnerInput, DigitalAsset.DigitalAsset>
  /** One page of the assets of a group (`groupKey: "collection"`, `groupValue`). */
  readonly getAssetsByGroup: Listing<AssetQuery.GetAssetsByGroupInput, DigitalAsset.DigitalAssetList>
  readonly getAssetsByGroupStream: ListStream<AssetQuery.GetAssetsByGroupInput, DigitalAsset.DigitalAsset>
  readonly getAssetsByGroupPages: ListPages<AssetQuery.GetAssetsByGroupInput, DigitalAsset.DigitalAsset>
  /** One page of the assets a creator is listed on. */
  readonly getAssetsByCreator: Listing<AssetQuery.GetAssetsByCreatorInput, DigitalAsset.DigitalAssetList>
  readonly getAssetsByCreatorStream: ListStream<AssetQuery.GetAssetsByCreatorInput, DigitalAsset.DigitalAsset>
  readonly getAssetsByCreatorPages: ListPages<AssetQuery.GetAssetsByCreatorInput, DigitalAsset.DigitalAsset>
  /** One page of the assets matching every filter given. */
  readonly searchAssets: Listing<AssetSearch.SearchAssetsInput, DigitalAsset.DigitalAssetList>
  readonly searchAssetsStream: ListStream<AssetSearch.SearchAssetsInput, DigitalAsset.DigitalAsset>
  readonly searchAssetsPages: ListPages<AssetSearch.SearchAssetsInput, DigitalAsset.DigitalAsset>
  /** One page of the print editions of a master edition. */
  readonly getNftEditions: Listing<NftEdition.GetNftEditionsInput, NftEdition.NftEditionList>
  readonly getNftEditionsStream: ListStream<NftEdition.GetNftEditionsInput, NftEdition.NftEdition>
  readonly getNftEditionsPages: ListPages<NftEdition.GetNftEditionsInput, NftEdition.NftEdition>
}

/**
 * The DAS service.
 *
 * @example
 * const program = Effect.gen(function*() {
 *   const das = yield* DigitalAssets
 *   const assets = yield* das.getAssetsByAuthorityStream({ authorityAddress }, { concurrency: 8 }).pipe(
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

const PAGING_KEYS = ["page", "cursor", "before", "after"] as const

/** The stream controls pagination: a caller's own paging field would fight it. */
const rejectPaging = (params: object): Effect.Effect<void, InvalidRequest> => {
  const key = PAGING_KEYS.find((k) => (params as Record<string, unknown>)[k] !== undefined)
  return key === undefined
    ? Effect.void
    : Effect.fail(new InvalidRequest({ field: key, rule: "is set by the stream: pass options.start to resume" }))
}

/** The keyset (cursor) reading of a DAS list entry: the same method, walked by `cursor`. */
const byCursor = <P, A extends { readonly cursor?: string | null | undefined }, Item, PI>(
  entry: Endpoint.Rpc<P, A, Item, PI>,
  items: (result: A) => ReadonlyArray<Item>
): Endpoint.Rpc<P, A, Item, PI> => ({ ...entry, paging: Endpoint.cursor({ items, next: (r: A) => r.cursor }) })

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
    const validateStreamOptions = Decode.validateInput(StreamOptionsSchema, "options", redact)
    const validateBatchOptions = Decode.validateInput(BatchOptionsSchema, "options", redact)
    const validateIds = Decode.validateInput(Ids, "ids", redact)
    const validateAssetBatch = Decode.validateInput(AssetBatchParams, "", redact)

    /** A DAS list: numbered pages (page 1 alone, then `concurrency` at a time, in order) or by cursor. */
    const listing = <P, A extends { readonly cursor?: string | null | undefined }, Item, PI>(
      entry: Endpoint.Rpc<P, A, Item, PI>,
      items: (result: A) => ReadonlyArray<Item>
    ) => {
      const numbered = derive(entry)
      const keyset = derive(byCursor(entry, items))
      const pages = (params: object, streamOptions: StreamOptions | undefined) =>
        Stream.unwrap(Effect.gen(function*() {
          yield* rejectPaging(params)
          const o = yield* validateStreamOptions(streamOptions ?? {})
          const start = o.start
          if (o.mode === "cursor" || (start !== undefined && "cursor" in start)) {
            return keyset.pages<string>(params as PI, {
              start: start !== undefined && "cursor" in start ? start.cursor : undefined
            }).pipe(Stream.map((page): Pagination.Page<Item, Position> => ({
              items: page.items,
              next: page.next === undefined ? undefined : { cursor: page.next }
            })))
          }
          return numbered.pages<number>(params as PI, {
            concurrency: o.concurrency,
            start: start !== undefined && "page" in start ? start.page : undefined
          }).pipe(Stream.map((page): Pagination.Page<Item, Position> => ({
            items: page.items,
            next: page.next === undefined ? undefined : { page: page.next }
          })))
        }))
      return {
        call: numbered.call,
        pages,
        stream: (p: object, o?: StreamOptions) => Pagination.flattenPages(pages(p, o))
      }
    }

    const tokenAccounts = listing(Endpoints.getTokenAccounts, (l) => l.token_accounts)
    const assets = listing(Endpoints.getAssetsByAuthority, (l) => l.items)
    const signatures = listing(Endpoints.getSignaturesForAsset, (l) => l.items)
    const owned = listing(Endpoints.getAssetsByOwner, (l) => l.items)
    const grouped = listing(Endpoints.getAssetsByGroup, (l) => l.items)
    const created = listing(Endpoints.getAssetsByCreator, (l) => l.items)
    const search = listing(Endpoints.searchAssets, (l) => l.items)
    const editions = listing(Endpoints.getNftEditions, (l) => l.editions)
    const proofs = derive(Endpoints.getAssetProofBatch)
    const asset = derive(Endpoints.getAsset)
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

    return DigitalAssets.of({
      getTokenAccounts: tokenAccounts.call,
      getTokenAccountsPages: tokenAccounts.pages,
      getTokenAccountsStream: tokenAccounts.stream,
      getAssetsByAuthority: assets.call,
      getAssetsByAuthorityPages: assets.pages,
      getAssetsByAuthorityStream: assets.stream,
      getSignaturesForAsset: signatures.call,
      getSignaturesForAssetPages: signatures.pages,
      getSignaturesForAssetStream: signatures.stream,
      getAssetProofBatch,
      getAssetProofBatchVerified: (ids, batch) => Effect.flatMap(getAssetProofBatch(ids, batch), verifyAll),
      getAsset: asset.call,
      getAssetBatch,
      getAssetProof: (params) =>
        Effect.flatMap(validateProof(params), ({ id }) => Effect.request(new GetAssetProof({ id }), proofResolver)),
      getAssetsByOwner: owned.call,
      getAssetsByOwnerStream: owned.stream,
      getAssetsByOwnerPages: owned.pages,
      getAssetsByGroup: grouped.call,
      getAssetsByGroupStream: grouped.stream,
      getAssetsByGroupPages: grouped.pages,
      getAssetsByCreator: created.call,
      getAssetsByCreatorStream: created.stream,
      getAssetsByCreatorPages: created.pages,
      searchAssets: search.call,
      searchAssetsStream: search.stream,
      searchAssetsPages: search.pages,
      getNftEditions: editions.call,
      getNftEditionsStream: editions.stream,
      getNftEditionsPages: editions.pages
    })
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
