/**
 * The enhanced transactions API as a service, declared from its entries
 * (`Endpoints.enhancedTransactions`, 100 credits a request):
 * - `parseTransactions(signatures)`: the enhanced transaction of each signature, in the order
 *   given, 100 signatures a request (longer lists are sent in batches, at most 4 in flight, as
 *   token metadata's mints are); a signature the service does not know is left out, as the
 *   service leaves it out.
 * - `addressTransactions(address, { before, until, type, source, limit })`: an address's enhanced
 *   transactions, newest first, with `.pages` and `.stream` that go on from each page's last
 *   signature and resume with `{ start: next }` like every paged method.
 *
 * Records decode by Schema in the documented shape (`WebhookDelivery.EnhancedTransaction`, the one
 * enhanced webhooks deliver): lamports and raw token amounts are exact `bigint`s, UI token amounts
 * numbers. Bad input (a signature or an address that is not base58 of its size, a limit outside
 * 1..100) is an `InvalidRequest` naming the field and the rule, with nothing sent.
 *
 * @example
 * const enhanced = yield* EnhancedTransactions.EnhancedTransactions
 * const [tx] = yield* enhanced.parseTransactions([signature])
 * const transfers = yield* enhanced.addressTransactions.stream(address, { type: "TRANSFER" })
 *   .pipe(Stream.take(20), Stream.runCollect)
 * @since 0.1.0
 */

import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import type * as EnhancedTransactionParams from "@solfx/core/EnhancedTransactionParams"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"

/**
 * The failures of an enhanced transactions call: bad input (before any request) or an API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type EnhancedTransactionsError = InvalidRequest | ApiError

/**
 * Options of `parseTransactions`.
 *
 * @since 0.1.0
 * @category models
 */
export interface ParseOptions {
  /** `confirmed` or `finalized` (the service's default). */
  readonly commitment?: "confirmed" | "finalized" | undefined
  /** Signatures per request, 1 to 100 (default 100). */
  readonly batchSize?: number | undefined
  /** Requests in flight at once (default 4). */
  readonly concurrency?: number | undefined
}

/**
 * The options of an address's listing (`before` and `until` are sent as `before-signature` and
 * `after-signature`), checked against the params Schema.
 *
 * @since 0.1.0
 * @category models
 */
export interface AddressTransactionsOptions {
  /** Only transactions older than this signature (a page's last one continues a walk). */
  readonly before?: string | undefined
  /** Only transactions newer than this signature: the walk stops there. */
  readonly until?: string | undefined
  /** Only this type (TRANSFER, SWAP, NFT_SALE, …). */
  readonly type?: string | undefined
  /** Only from this source (SYSTEM_PROGRAM, JUPITER, …). */
  readonly source?: string | undefined
  /** The page size, 1 to 100 (default 100). */
  readonly limit?: number | undefined
  /** `confirmed` or `finalized` (the service's default). */
  readonly commitment?: "confirmed" | "finalized" | undefined
}

/**
 * The keyed listing: `addressTransactions(address, options)`, its `.pages` and `.stream`
 * (whose options also take the walk's `start`, a page's `next`).
 *
 * @since 0.1.0
 * @category models
 */
export interface AddressTransactionsOperation {
  (
    address: string,
    options?: AddressTransactionsOptions
  ): Effect.Effect<EnhancedTransactionParams.EnhancedTransactionList, EnhancedTransactionsError>
  /** Pages from the newest (or `start`), lazily; an empty page ends the walk. */
  readonly pages: (
    address: string,
    options?: AddressTransactionsOptions & Operations.WalkOptions<string>
  ) => Stream.Stream<
    Operations.Page<
      EnhancedTransactionParams.EnhancedTransactionList[number],
      EnhancedTransactionParams.EnhancedTransactionList,
      string
    >,
    EnhancedTransactionsError
  >
  /** Every transaction of every page, lazily: `Stream.take(n)` stops fetching. */
  readonly stream: (
    address: string,
    options?: AddressTransactionsOptions & Operations.WalkOptions<string>
  ) => Stream.Stream<EnhancedTransactionParams.EnhancedTransactionList[number], EnhancedTransactionsError>
}

/**
 * The enhanced transactions methods.
 *
 * @since 0.1.0
 * @category models
 */
export interface EnhancedTransactionsShape {
  /** The enhanced transaction of each signature, in order (unknown ones left out), 100 a request. */
  readonly parseTransactions: (
    signatures: ReadonlyArray<string>,
    options?: ParseOptions
  ) => Effect.Effect<EnhancedTransactionParams.EnhancedTransactionList, EnhancedTransactionsError>
  /** An address's enhanced transactions, newest first: one page, `.pages` or `.stream`. */
  readonly addressTransactions: AddressTransactionsOperation
}

/**
 * The enhanced transactions service; `layer` builds it over the `HttpTransport`.
 *
 * @since 0.1.0
 * @category tags
 */
export class EnhancedTransactions
  extends Context.Tag("@solfx/rpc/EnhancedTransactions")<EnhancedTransactions, EnhancedTransactionsShape>()
{}

const batchRule = "an integer from 1 to 100"
const ParseOptionsSchema = Schema.Struct({
  commitment: Schema.optional(Schema.Literal("confirmed", "finalized")),
  batchSize: Schema.optional(Schema.Number.pipe(
    Schema.int({ message: () => batchRule }),
    Schema.between(1, 100, { message: () => batchRule })
  )),
  concurrency: Schema.optional(Schema.Number.pipe(
    Schema.int({ message: () => "an integer from 1 to 64" }),
    Schema.between(1, 64, { message: () => "an integer from 1 to 64" })
  ))
})

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits` counter
 * (`Credits`), tagged `area=enhanced` and the route.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<EnhancedTransactionsShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const redact = transport.redactor.redact
    const parse = Derive.fromTransport(transport, Endpoints.parseTransactions, { name: "parseTransactions" })
    const validateOptions = validateInput(ParseOptionsSchema, "options", redact)
    const entries = { addressTransactions: Endpoints.addressTransactions } as const
    const listing = Operations.make<typeof entries, string, "address">(transport, entries, { key: "address" })
    const parseTransactions = (signatures: ReadonlyArray<string>, options: ParseOptions = {}) =>
      Effect.gen(function*() {
        const opts = yield* validateOptions(options)
        const valid = yield* parse.validate({
          transactions: signatures,
          ...(opts.commitment === undefined ? {} : { commitment: opts.commitment })
        })
        const { transactions, ...rest } = valid
        if (transactions.length === 0) return []
        const chunks = yield* parse.batch(transactions, rest, { size: opts.batchSize, concurrency: opts.concurrency })
        return chunks.flatMap((chunk) => chunk.result)
      }).pipe(Effect.withSpan("solfx.enhanced.parseTransactions", { captureStackTrace: false }))
    // The same operation, typed by its documented options (`AddressTransactionsOptions`).
    const addressTransactions = listing.addressTransactions as unknown as AddressTransactionsOperation
    return EnhancedTransactions.of({ parseTransactions, addressTransactions })
  })

/**
 * The service. Provide `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<EnhancedTransactions, never, HttpTransport> = Layer.effect(
  EnhancedTransactions,
  make()
)
