/**
 * The digital-asset (DAS) methods of spec §4.2: token accounts, assets by
 * authority, asset signatures and Merkle proofs. Every paginated method also
 * comes as a lazy Stream of items and a Stream of pages whose `next` position
 * resumes a job; proof batches take any number of ids and can be verified locally.
 *
 * @example
 * const das = yield* DigitalAssets.DigitalAssets
 * const page = yield* das.getAssetsByAuthority({ authorityAddress, page: 1, limit: 1000 })
 * const all = yield* das.getAssetsByAuthorityStream({ authorityAddress }, { concurrency: 4 }).pipe(Stream.runCollect)
 * const proofs = yield* das.getAssetProofBatchVerified(assetIds)
 * @since 0.1.0
 */
import * as AssetProof from "@solfx/core/AssetProof"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as DasParams from "@solfx/core/DasParams"
import * as Decode from "@solfx/core/Decode"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import { type ApiError, InvalidProof, InvalidRequest } from "@solfx/core/Errors"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Pagination from "@solfx/core/Pagination"
import { Address } from "@solfx/core/Primitives"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as Credits from "@solfx/http/Credits"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/**
 * The JSON-RPC methods of this service.
 *
 * @since 0.1.0
 * @category models
 */
export type Operation = "getTokenAccounts" | "getAssetsByAuthority" | "getSignaturesForAsset" | "getAssetProofBatch"

/**
 * The default credits per request (the spec gives none; 10 is what the real
 * service's public price list charges for a DAS call).
 *
 * @since 0.1.0
 * @category models
 */
export const defaultCosts: Credits.CostTable<Operation> = {
  getTokenAccounts: 10,
  getAssetsByAuthority: 10,
  getSignaturesForAsset: 10,
  getAssetProofBatch: 10
}

/**
 * Options of the service: the credit cost table used for the `solfx.credits` estimate.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Credits per request for the `solfx.credits` estimate (area `das`), overriding `defaultCosts`. */
  readonly costs?: Partial<Record<Operation, number | undefined>> | undefined
}

/**
 * Where a paginated job starts or resumes: a page number, or a cursor.
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

type StreamParams<I> = Omit<I, "page" | "cursor" | "before" | "after">

/**
 * The DAS methods, the paginated ones also as Streams of items and of pages.
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

/** What every DAS list has in common, for the page machinery. */
interface Listing<A> {
  readonly items: ReadonlyArray<A>
  readonly total: number
  readonly grand_total?: number | undefined
  readonly cursor?: string | null | undefined
}

interface PagingParams {
  readonly page?: number
  readonly cursor?: string
}

const PAGING_KEYS = ["page", "cursor", "before", "after"] as const

/** The stream controls pagination: a caller's own paging field would fight it. */
const rejectPaging = (params: object): Effect.Effect<void, InvalidRequest> => {
  const key = PAGING_KEYS.find((k) => (params as Record<string, unknown>)[k] !== undefined)
  return key === undefined
    ? Effect.void
    : Effect.fail(new InvalidRequest({ field: key, rule: "is set by the stream: pass options.start to resume" }))
}

/**
 * Pages of a DAS list: numbered (page 1 alone, then `concurrency` at a time, in
 * order) or by cursor (sequential). `next` is the position to resume from.
 */
const pagesOf = <A, E>(
  operation: string,
  limit: number,
  options: typeof StreamOptionsSchema.Type,
  fetch: (paging: PagingParams) => Effect.Effect<Listing<A>, E>
): Stream.Stream<Pagination.Page<A, Position>, E | ApiError> => {
  const start = options.start
  const cursorMode = options.mode === "cursor" || (start !== undefined && "cursor" in start)
  if (cursorMode) {
    const from = start !== undefined && "cursor" in start ? start.cursor : undefined
    return Pagination.cursorPages(
      operation,
      (cursor) =>
        Effect.map(fetch(cursor === undefined ? {} : { cursor }), (r) => ({ items: r.items, cursor: r.cursor })),
      from
    ).pipe(Stream.map((page): Pagination.Page<A, Position> => ({
      items: page.items,
      next: page.next === undefined ? undefined : { cursor: page.next }
    })))
  }
  return Pagination.numberedPages(
    (page) => Effect.map(fetch({ page }), (r) => ({ items: r.items, total: r.grand_total ?? r.total })),
    {
      limit,
      concurrency: options.concurrency,
      startPage: start !== undefined && "page" in start ? start.page : undefined
    }
  ).pipe(Stream.map((page): Pagination.Page<A, Position> => ({
    items: page.items,
    next: page.next === undefined ? undefined : { page: page.next }
  })))
}

/**
 * Builds the service from the transport.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<DigitalAssetsShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const costs = Credits.withOverrides(defaultCosts, options.costs)

    const call = <A, I>(method: Operation, params: unknown, schema: Schema.Schema<A, I>) =>
      Credits.charge("das", method, costs[method]).pipe(Effect.zipRight(transport.rpc(method, params, schema)))

    const redact = transport.redactor.redact
    const validateStreamOptions = Decode.validateInput(StreamOptionsSchema, "options", redact)
    const validateBatchOptions = Decode.validateInput(BatchOptionsSchema, "options", redact)
    const validateIds = Decode.validateInput(Ids, "ids", redact)
    const validateTokenAccounts = Decode.validateInput(TokenAccount.GetTokenAccountsParams, "", redact)
    const validateAssets = Decode.validateInput(DigitalAsset.GetAssetsByAuthorityParams, "", redact)
    const validateSignatures = Decode.validateInput(AssetSignature.GetSignaturesForAssetParams, "", redact)

    /** A paged method: validates params and options first, then streams pages. */
    const paged = <P extends { readonly limit?: number | undefined }, A, L extends Omit<Listing<A>, "items">>(
      method: Operation,
      validate: (input: unknown) => Effect.Effect<P, InvalidRequest>,
      schema: Schema.Schema<L, any>,
      items: (list: L) => ReadonlyArray<A>
    ) =>
    (params: object, streamOptions: StreamOptions | undefined) =>
      Stream.unwrap(Effect.gen(function*() {
        yield* rejectPaging(params)
        const opts = yield* validateStreamOptions(streamOptions ?? {})
        const valid = yield* validate({ ...params, limit: (params as P).limit ?? DasParams.MAX_LIMIT })
        const limit = valid.limit ?? DasParams.MAX_LIMIT
        return pagesOf<A, ApiError>(method, limit, opts, (paging) =>
          Effect.map(call(method, { ...valid, ...paging }, schema), (list) => ({
            items: items(list),
            total: list.total,
            grand_total: list.grand_total,
            cursor: list.cursor
          })))
      }))

    const tokenAccountPages = paged<
      TokenAccount.GetTokenAccountsParams,
      TokenAccount.TokenAccount,
      TokenAccount.TokenAccountList
    >(
      "getTokenAccounts",
      validateTokenAccounts,
      TokenAccount.TokenAccountList,
      (l) => l.token_accounts
    )
    const assetPages = paged<
      DigitalAsset.GetAssetsByAuthorityParams,
      DigitalAsset.DigitalAsset,
      DigitalAsset.DigitalAssetList
    >(
      "getAssetsByAuthority",
      validateAssets,
      DigitalAsset.DigitalAssetList,
      (l) => l.items
    )
    const signaturePages = paged<
      AssetSignature.GetSignaturesForAssetParams,
      AssetSignature.AssetSignature,
      AssetSignature.AssetSignatureList
    >(
      "getSignaturesForAsset",
      validateSignatures,
      AssetSignature.AssetSignatureList,
      (l) => l.items
    )

    const getAssetProofBatch = (ids: ReadonlyArray<string>, batch?: BatchOptions) =>
      Effect.gen(function*() {
        const valid = yield* validateIds(ids)
        const opts = yield* validateBatchOptions(batch ?? {})
        const unique = [...new Set(valid)]
        const size = opts.batchSize ?? AssetProof.MAX_BATCH
        const chunks: Array<ReadonlyArray<string>> = []
        for (let i = 0; i < unique.length; i += size) chunks.push(unique.slice(i, i + size))
        const results = yield* Effect.forEach(
          chunks,
          (chunk) => call("getAssetProofBatch", { ids: chunk }, AssetProof.AssetProofBatch),
          { concurrency: opts.concurrency ?? 4 }
        )
        const merged = new Map<string, Option.Option<AssetProof.AssetProof>>()
        results.forEach((result, c) => {
          for (const id of chunks[c]!) merged.set(id, Option.fromNullable(result[id]))
        })
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
      getTokenAccounts: (params) =>
        validateTokenAccounts(params).pipe(
          Effect.flatMap((p) => call("getTokenAccounts", p, TokenAccount.TokenAccountList))
        ),
      getTokenAccountsPages: (params, o) => tokenAccountPages(params, o),
      getTokenAccountsStream: (params, o) => Pagination.flattenPages(tokenAccountPages(params, o)),
      getAssetsByAuthority: (params) =>
        validateAssets(params).pipe(
          Effect.flatMap((p) => call("getAssetsByAuthority", p, DigitalAsset.DigitalAssetList))
        ),
      getAssetsByAuthorityPages: (params, o) => assetPages(params, o),
      getAssetsByAuthorityStream: (params, o) => Pagination.flattenPages(assetPages(params, o)),
      getSignaturesForAsset: (params) =>
        validateSignatures(params).pipe(
          Effect.flatMap((p) => call("getSignaturesForAsset", p, AssetSignature.AssetSignatureList))
        ),
      getSignaturesForAssetPages: (params, o) => signaturePages(params, o),
      getSignaturesForAssetStream: (params, o) => Pagination.flattenPages(signaturePages(params, o)),
      getAssetProofBatch,
      getAssetProofBatchVerified: (ids, batch) => Effect.flatMap(getAssetProofBatch(ids, batch), verifyAll)
    })
  })

/**
 * The service with the default cost table. Requires `HttpTransport`.
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
