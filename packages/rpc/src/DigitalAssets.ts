/**
 * The digital-asset (DAS) methods of spec §4.2: token accounts, assets by
 * authority, asset signatures and Merkle proofs. Every paged method also
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
import type * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, InvalidProof, InvalidRequest } from "@solfx/core/Errors"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Pagination from "@solfx/core/Pagination"
import { Address } from "@solfx/core/Primitives"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as Credits from "@solfx/http/Credits"
import * as Derive from "@solfx/http/Derive"
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
 * service's public price list bills for a DAS call).
 *
 * @since 0.1.0
 * @category models
 */
export const defaultCosts: Credits.CostTable<Operation> = {
  getTokenAccounts: Endpoints.getTokenAccounts.cost.credits,
  getAssetsByAuthority: Endpoints.getAssetsByAuthority.cost.credits,
  getSignaturesForAsset: Endpoints.getSignaturesForAsset.cost.credits,
  getAssetProofBatch: Endpoints.getAssetProofBatch.cost.credits
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

type StreamParams<I> = Omit<I, "page" | "cursor" | "before" | "after">

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
    const costs = Credits.withOverrides(defaultCosts, options.costs)
    const derive = <P, A, Item, PI>(entry: Endpoint.Rpc<P, A, Item, PI>) =>
      Derive.fromTransport(transport, entry, { credits: costs[entry.name as Operation] })
    const redact = transport.redactor.redact
    const validateStreamOptions = Decode.validateInput(StreamOptionsSchema, "options", redact)
    const validateBatchOptions = Decode.validateInput(BatchOptionsSchema, "options", redact)
    const validateIds = Decode.validateInput(Ids, "ids", redact)

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
    const proofs = derive(Endpoints.getAssetProofBatch)

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
