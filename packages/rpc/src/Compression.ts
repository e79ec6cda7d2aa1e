/**
 * The compression (ZK, Photon) methods of spec §4.2 as a service, with the V2 and
 * indexer methods that stateless.js 0.23 calls by default (getCompressedTokenAccountsByOwnerV2,
 * getMultipleCompressedAccountsV2, getValidityProofV2, getTransactionWithCompressionInfoV2,
 * getCompressionSignaturesForOwner, getIndexerSlot, getIndexerHealth).
 *
 * Every method validates its params before any request, calls the JSON-RPC transport
 * and decodes `{ context: { slot }, value }` (the transaction method returns the
 * transaction and its compression info instead). Each cursor-paged method also comes
 * as a Stream of items (`…Stream`) and a Stream of pages (`…Pages`) that report the
 * slot of each page and the cursor to resume from. Streams fetch lazily: `Stream.take`
 * stops fetching.
 *
 * Amounts, balances and lamports are exact `bigint`s (the SDK-wide choice, see `U64`).
 * Holders come in the order the service sends them, descending balance: the SDK does
 * not re-sort.
 *
 * @example
 * const compression = yield* Compression.Compression
 * const top = yield* compression.getCompressedMintTokenHolders({ mint, limit: 10 }) // { context: { slot }, value }
 * const every = yield* compression.getCompressedMintTokenHoldersStream({ mint }).pipe(Stream.runCount)
 * @since 0.1.0
 */
import type { CompressedTokenAccount, TokenBalance, TokenHolder } from "@solfx/core/CompressedAccount"
import type * as V2 from "@solfx/core/CompressedAccountV2"
import * as Request from "@solfx/core/CompressionRequest"
import type { CompressionSignature, NonVotingSignature } from "@solfx/core/CompressionSignature"
import type { TransactionWithCompressionInfo } from "@solfx/core/CompressionTransaction"
import type { TransactionWithCompressionInfoV2 } from "@solfx/core/CompressionTransactionV2"
import type * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as Pagination from "@solfx/core/Pagination"
import type { CursorPage, WithContext } from "@solfx/core/SlotContext"
import type { ValidityProof } from "@solfx/core/ValidityProof"
import type { ValidityProofV2 } from "@solfx/core/ValidityProofV2"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

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
 * resume a job later: pass it as `cursor` to the `…Pages` or `…Stream` method.
 *
 * @since 0.1.0
 * @category models
 */
export interface SlotPage<A> extends Pagination.Page<A, string> {
  readonly slot: number
}

/**
 * The compression methods, each as one call, a Stream of items and a Stream of pages.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompressionShape {
  /** Signatures of the transactions that opened or closed the compressed account with this address, newest first. */
  readonly getCompressionSignaturesForAddress: (
    params: Request.SignaturesForAddressParams
  ) => Effect.Effect<WithContext<CursorPage<CompressionSignature>>, CompressionError>
  /** Every signature for the address, following the cursor. */
  readonly getCompressionSignaturesForAddressStream: (
    params: Request.SignaturesForAddressParams
  ) => Stream.Stream<CompressionSignature, CompressionError>
  /** Every page of signatures for the address, with its slot and resume cursor. */
  readonly getCompressionSignaturesForAddressPages: (
    params: Request.SignaturesForAddressParams
  ) => Stream.Stream<SlotPage<CompressionSignature>, CompressionError>

  /** Owners of the mint and their balances, in descending balance order. */
  readonly getCompressedMintTokenHolders: (
    params: Request.MintTokenHoldersParams
  ) => Effect.Effect<WithContext<CursorPage<TokenHolder>>, CompressionError>
  readonly getCompressedMintTokenHoldersStream: (
    params: Request.MintTokenHoldersParams
  ) => Stream.Stream<TokenHolder, CompressionError>
  readonly getCompressedMintTokenHoldersPages: (
    params: Request.MintTokenHoldersParams
  ) => Stream.Stream<SlotPage<TokenHolder>, CompressionError>

  /** The latest non-voting transactions, with their error (null on success). Not paged: the service sends no cursor. */
  readonly getLatestNonVotingSignatures: (
    params?: Request.LatestNonVotingSignaturesParams | undefined
  ) => Effect.Effect<WithContext<{ readonly items: ReadonlyArray<NonVotingSignature> }>, CompressionError>

  /** The compressed token accounts of an owner, optionally of one mint. */
  readonly getCompressedTokenAccountsByOwner: (
    params: Request.TokenAccountsByOwnerParams
  ) => Effect.Effect<WithContext<CursorPage<CompressedTokenAccount>>, CompressionError>
  readonly getCompressedTokenAccountsByOwnerStream: (
    params: Request.TokenAccountsByOwnerParams
  ) => Stream.Stream<CompressedTokenAccount, CompressionError>
  readonly getCompressedTokenAccountsByOwnerPages: (
    params: Request.TokenAccountsByOwnerParams
  ) => Stream.Stream<SlotPage<CompressedTokenAccount>, CompressionError>

  /** A validity proof for account hashes and new addresses. */
  readonly getValidityProof: (
    params: Request.ValidityProofParams
  ) => Effect.Effect<WithContext<ValidityProof>, CompressionError>

  /** The owner's compressed token balance per mint, optionally of one mint. */
  readonly getCompressedTokenBalancesByOwnerV2: (
    params: Request.TokenBalancesByOwnerParams
  ) => Effect.Effect<WithContext<CursorPage<TokenBalance>>, CompressionError>
  readonly getCompressedTokenBalancesByOwnerV2Stream: (
    params: Request.TokenBalancesByOwnerParams
  ) => Stream.Stream<TokenBalance, CompressionError>
  readonly getCompressedTokenBalancesByOwnerV2Pages: (
    params: Request.TokenBalancesByOwnerParams
  ) => Stream.Stream<SlotPage<TokenBalance>, CompressionError>

  /** Signatures of the transactions that touched the owner's compressed token accounts, newest first. */
  readonly getCompressionSignaturesForTokenOwner: (
    params: Request.SignaturesForTokenOwnerParams
  ) => Effect.Effect<WithContext<CursorPage<CompressionSignature>>, CompressionError>
  readonly getCompressionSignaturesForTokenOwnerStream: (
    params: Request.SignaturesForTokenOwnerParams
  ) => Stream.Stream<CompressionSignature, CompressionError>
  readonly getCompressionSignaturesForTokenOwnerPages: (
    params: Request.SignaturesForTokenOwnerParams
  ) => Stream.Stream<SlotPage<CompressionSignature>, CompressionError>

  /** A transaction with the compressed accounts it closed and opened (`compressionInfo`, whichever spelling the wire uses). */
  readonly getTransactionWithCompressionInfo: (
    params: Request.TransactionWithCompressionInfoParams
  ) => Effect.Effect<TransactionWithCompressionInfo, CompressionError>

  /** Signatures of the transactions that touched the owner's compressed accounts, newest first. */
  readonly getCompressionSignaturesForOwner: (
    params: Request.SignaturesForOwnerParams
  ) => Effect.Effect<WithContext<CursorPage<CompressionSignature>>, CompressionError>
  readonly getCompressionSignaturesForOwnerStream: (
    params: Request.SignaturesForOwnerParams
  ) => Stream.Stream<CompressionSignature, CompressionError>
  readonly getCompressionSignaturesForOwnerPages: (
    params: Request.SignaturesForOwnerParams
  ) => Stream.Stream<SlotPage<CompressionSignature>, CompressionError>

  /** V2: the owner's compressed token accounts, each with its `merkleContext` and `proveByIndex`. */
  readonly getCompressedTokenAccountsByOwnerV2: (
    params: Request.TokenAccountsByOwnerParams
  ) => Effect.Effect<WithContext<CursorPage<V2.CompressedTokenAccountV2>>, CompressionError>
  readonly getCompressedTokenAccountsByOwnerV2Stream: (
    params: Request.TokenAccountsByOwnerParams
  ) => Stream.Stream<V2.CompressedTokenAccountV2, CompressionError>
  readonly getCompressedTokenAccountsByOwnerV2Pages: (
    params: Request.TokenAccountsByOwnerParams
  ) => Stream.Stream<SlotPage<V2.CompressedTokenAccountV2>, CompressionError>

  /** V2: accounts by `hashes` or `addresses` (at most 1000), in request order, `null` for an unknown one. */
  readonly getMultipleCompressedAccountsV2: (
    params: V2.MultipleCompressedAccountsParams
  ) => Effect.Effect<typeof V2.MultipleAccountsV2Result.Type, CompressionError>

  /** V2: a validity proof, one entry per account hash and per new address. */
  readonly getValidityProofV2: (
    params: Request.ValidityProofParams
  ) => Effect.Effect<WithContext<ValidityProofV2>, CompressionError>

  /** V2: a transaction with the V2 accounts it closed and opened. */
  readonly getTransactionWithCompressionInfoV2: (
    params: Request.TransactionWithCompressionInfoParams
  ) => Effect.Effect<TransactionWithCompressionInfoV2, CompressionError>

  /** The last slot the indexer has processed. */
  readonly getIndexerSlot: () => Effect.Effect<number, CompressionError>

  /** `"ok"` on a healthy indexer (`IndexerStatus.HEALTHY`); an unhealthy one answers an error. */
  readonly getIndexerHealth: () => Effect.Effect<string, CompressionError>
}

/**
 * The compression service; `layer` builds it over the `HttpTransport`.
 *
 * @example
 * const compression = yield* Compression.Compression
 * const holders = yield* compression.getCompressedMintTokenHoldersStream({ mint }).pipe(
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
  readonly costs?: Partial<Record<Request.CompressionMethod, number | undefined>> | undefined
}

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits`
 * counter (`Credits`), tagged `area=photon` and the method.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<CompressionShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const derive = <P, A, Item, PI>(entry: Endpoint.Rpc<P, A, Item, PI>) =>
      Derive.fromTransport(transport, entry, { credits: options.costs?.[entry.name as Request.CompressionMethod] })

    /** A cursor-paged method: the call, and its pages with the slot each was read at. */
    const paged = <P, Item, PI>(entry: Endpoint.Rpc<P, WithContext<CursorPage<Item>>, Item, PI>) => {
      const client = derive(entry)
      const pages = (input: PI): Stream.Stream<SlotPage<Item>, CompressionError> =>
        client.pages<string>(input).pipe(
          Stream.map((page): SlotPage<Item> => ({ slot: page.result.context.slot, items: page.items, next: page.next }))
        )
      return { run: client.call, pages, items: (input: PI) => Pagination.flattenPages(pages(input)) }
    }

    const forAddress = paged(Endpoints.getCompressionSignaturesForAddress)
    const holders = paged(Endpoints.getCompressedMintTokenHolders)
    const accounts = paged(Endpoints.getCompressedTokenAccountsByOwner)
    const balances = paged(Endpoints.getCompressedTokenBalancesByOwnerV2)
    const forTokenOwner = paged(Endpoints.getCompressionSignaturesForTokenOwner)
    const nonVoting = derive(Endpoints.getLatestNonVotingSignatures)
    const proof = derive(Endpoints.getValidityProof)
    const transaction = derive(Endpoints.getTransactionWithCompressionInfo)
    const forOwner = paged(Endpoints.getCompressionSignaturesForOwner)
    const accountsV2 = paged(Endpoints.getCompressedTokenAccountsByOwnerV2)
    const multipleV2 = derive(Endpoints.getMultipleCompressedAccountsV2)
    const proofV2 = derive(Endpoints.getValidityProofV2)
    const transactionV2 = derive(Endpoints.getTransactionWithCompressionInfoV2)
    const indexerSlot = derive(Endpoints.getIndexerSlot)
    const indexerHealth = derive(Endpoints.getIndexerHealth)

    return Compression.of({
      getCompressionSignaturesForAddress: forAddress.run,
      getCompressionSignaturesForAddressStream: forAddress.items,
      getCompressionSignaturesForAddressPages: forAddress.pages,
      getCompressedMintTokenHolders: holders.run,
      getCompressedMintTokenHoldersStream: holders.items,
      getCompressedMintTokenHoldersPages: holders.pages,
      getLatestNonVotingSignatures: (params) => nonVoting.call(params ?? {}),
      getCompressedTokenAccountsByOwner: accounts.run,
      getCompressedTokenAccountsByOwnerStream: accounts.items,
      getCompressedTokenAccountsByOwnerPages: accounts.pages,
      getValidityProof: proof.call,
      getCompressedTokenBalancesByOwnerV2: balances.run,
      getCompressedTokenBalancesByOwnerV2Stream: balances.items,
      getCompressedTokenBalancesByOwnerV2Pages: balances.pages,
      getCompressionSignaturesForTokenOwner: forTokenOwner.run,
      getCompressionSignaturesForTokenOwnerStream: forTokenOwner.items,
      getCompressionSignaturesForTokenOwnerPages: forTokenOwner.pages,
      getTransactionWithCompressionInfo: transaction.call,
      getCompressionSignaturesForOwner: forOwner.run,
      getCompressionSignaturesForOwnerStream: forOwner.items,
      getCompressionSignaturesForOwnerPages: forOwner.pages,
      getCompressedTokenAccountsByOwnerV2: accountsV2.run,
      getCompressedTokenAccountsByOwnerV2Stream: accountsV2.items,
      getCompressedTokenAccountsByOwnerV2Pages: accountsV2.pages,
      getMultipleCompressedAccountsV2: multipleV2.call,
      getValidityProofV2: proofV2.call,
      getTransactionWithCompressionInfoV2: transactionV2.call,
      getIndexerSlot: () => indexerSlot.call([]),
      getIndexerHealth: () => indexerHealth.call([])
    })
  })

/**
 * The service. Provide `HttpTransport`.
 *
 * @example
 * Effect.gen(function*() {
 *   const compression = yield* Compression
 *   const top = yield* compression.getCompressedMintTokenHoldersStream({ mint, limit: 100 }).pipe(
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
