/**
 * Bundles: `sendBundle` with offline pre-flight checks, `getBundleStatuses` for any
 * number of ids, and `awaitBundle`, which polls until a bundle lands or fails.
 *
 * @example
 * const bundles = yield* Bundles.Bundles
 * const id = yield* bundles.sendBundle([payment, tip], { encoding: "base64" })
 * const outcome = yield* bundles.awaitBundle(id, { commitment: "confirmed", timeout: "30 seconds" })
 * if (outcome._tag === "Landed") console.log(`landed in slot ${outcome.slot}`)
 * @since 0.1.0
 */

import * as Bundle from "@solfx/core/Bundle"
import type { BundleStatus, ConfirmationStatus } from "@solfx/core/Bundle"
import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError } from "@solfx/core/Errors"
import { BundleIdMismatch, InvalidRequest } from "@solfx/core/Errors"
import { BundleId } from "@solfx/core/Primitives"
import type { Encoding } from "@solfx/core/Transaction"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"

/**
 * The block-engine regions of the `relay-region` header.
 *
 * @since 0.1.0
 * @category models
 */
export const Region = Schema.Literal("ams", "dub", "fra", "lon", "nyc", "slc", "sgp", "tyo", "mainnet")
/** A decoded `Region`: the type of the schema of the same name. @since 0.1.0 @category models */
export type Region = typeof Region.Type

/**
 * Options of the service.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Accounts a tip may go to. Default: the 8 Jito tip accounts. */
  readonly tipAccounts?: ReadonlyArray<string> | undefined
  /** Smallest tip in lamports. Default 1000. */
  readonly minTip?: bigint | number | undefined
  /** Verify every Ed25519 signature before sending (default true; about a millisecond per signature). */
  readonly verifySignatures?: boolean | undefined
  /** Concurrent `getBundleStatuses` calls when more than 5 ids are asked (default 2). */
  readonly concurrency?: number | undefined
}

/**
 * Options of `sendBundle`: the encoding of the transactions and the block-engine region.
 *
 * @since 0.1.0
 * @category models
 */
export interface SendOptions {
  /** How `transactions` are written. Default `base64` (the recommended encoding); it is always sent explicitly. */
  readonly encoding?: Encoding | undefined
  /** Route to one block-engine region (the `relay-region` header). Default: the global, geo-routed endpoint. */
  readonly region?: Region | undefined
}

/**
 * Options of `awaitBundle`: how long to wait, how often to poll, and the commitment to reach.
 *
 * @since 0.1.0
 * @category models
 */
export interface AwaitOptions {
  /** Give up after this long (default 60 seconds). */
  readonly timeout?: Duration.DurationInput | undefined
  /** Time between polls (default 1 second). */
  readonly interval?: Duration.DurationInput | undefined
  /** The status that counts as landed: `confirmed` (default) or `finalized`. */
  readonly commitment?: "confirmed" | "finalized" | undefined
}

/**
 * What `awaitBundle` saw: the bundle landed at the asked commitment, it landed
 * with an error, or the time ran out (with the last status seen, if any).
 *
 * @since 0.1.0
 * @category models
 */
export type BundleOutcome = Data.TaggedEnum<{
  Landed: {
    readonly id: BundleId
    readonly status: ConfirmationStatus
    readonly slot: number
    readonly bundle: BundleStatus
  }
  Failed: { readonly id: BundleId; readonly err: unknown; readonly slot: number; readonly bundle: BundleStatus }
  TimedOut: { readonly id: BundleId; readonly after: Duration.Duration; readonly last: Option.Option<BundleStatus> }
}>

/**
 * Constructors and `$match` for `BundleOutcome`.
 *
 * @since 0.1.0
 * @category models
 */
export const BundleOutcome = Data.taggedEnum<BundleOutcome>()

/**
 * The bundle methods: send with pre-flight checks, statuses, and waiting for an outcome.
 *
 * @since 0.1.0
 * @category models
 */
export interface BundlesShape {
  /**
   * Sends 1 to 5 signed transactions as one atomic bundle and returns its id.
   *
   * Pre-flight, before any I/O (a failure is `InvalidRequest` naming the field and
   * the rule, and nothing is sent): 1 to 5 transactions; each decodes with
   * `encoding`; each is fully signed (signatures verified, unless disabled); no
   * signature appears twice; at least one tip of `minTip` lamports or more to a tip
   * account. The tip check sees only top-level System transfers to a static key:
   * a tip paid through CPI by another program, or to a tip account loaded from a
   * lookup table, is invisible offline, and such a bundle is refused here although
   * the block engine might accept it.
   *
   * Retries: a bundle is not idempotent, so it is resent only when it certainly was
   * not processed: the connection was refused (the request never left), or the
   * service answered 429 (rejected unprocessed). After any other response, a reset
   * or a timeout mid-flight, the call fails at once: resending could land twice.
   *
   * The id the service returns is checked against the id computed locally (SHA-256
   * of the first signatures); a difference fails with `BundleIdMismatch`.
   *
   * @example
   * const id = yield* bundles.sendBundle([tx1, tx2, tipTx], { encoding: "base64", region: "fra" })
   */
  readonly sendBundle: (
    transactions: ReadonlyArray<string>,
    options?: SendOptions
  ) => Effect.Effect<BundleId, InvalidRequest | BundleIdMismatch | ApiError>
  /**
   * Statuses of any number of bundles, in the order asked, `Option.none()` for a
   * bundle that is unknown or has not landed. Ids go 5 per call.
   */
  readonly getBundleStatuses: (
    ids: ReadonlyArray<string>
  ) => Effect.Effect<ReadonlyArray<Option.Option<BundleStatus>>, InvalidRequest | ApiError>
  /** Polls `getBundleStatuses` until the bundle reaches `commitment`, fails, or `timeout` passes. */
  readonly awaitBundle: (
    id: string,
    options?: AwaitOptions
  ) => Effect.Effect<BundleOutcome, InvalidRequest | ApiError>
}

/**
 * The bundles service; `layer()` builds it over the `HttpTransport`.
 *
 * @example
 * const bundles = yield* Bundles.Bundles
 * const id = yield* bundles.sendBundle([payment, tip], { encoding: "base64" })
 * const outcome = yield* bundles.awaitBundle(id, { commitment: "confirmed" })
 *
 * @since 0.1.0
 * @category tags
 */
export class Bundles extends Context.Tag("@solfx/rpc/Bundles")<Bundles, BundlesShape>() {}

const SendOptionsSchema = Schema.Struct({
  encoding: Schema.optional(Schema.Literal("base64", "base58")),
  region: Schema.optional(Region)
})

const AwaitOptionsSchema = Schema.Struct({
  timeout: Schema.optional(Schema.Unknown),
  interval: Schema.optional(Schema.Unknown),
  commitment: Schema.optional(Schema.Literal("confirmed", "finalized"))
})

const Transactions = Schema.Array(Schema.String)
const Ids = Schema.Array(BundleId)

const RANK: Record<ConfirmationStatus, number> = { processed: 0, confirmed: 1, finalized: 2 }

const duration = (field: string, input: unknown, fallback: Duration.Duration) =>
  input === undefined
    ? Effect.succeed(fallback)
    : Option.match(Duration.decodeUnknown(input), {
      onNone: () => Effect.fail(new InvalidRequest({ field, rule: "a duration such as \"30 seconds\" or 500 (ms)" })),
      onSome: (d) =>
        Duration.greaterThan(d, Duration.zero)
          ? Effect.succeed(d)
          : Effect.fail(new InvalidRequest({ field, rule: "a positive duration" }))
    })

/**
 * Builds the service over the shared transport.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options = {}): Effect.Effect<BundlesShape, never, HttpTransport> =>
  Effect.gen(function*() {
    const transport = yield* HttpTransport
    const checkOptions: Bundle.CheckOptions = {
      tipAccounts: options.tipAccounts ?? Bundle.JITO_TIP_ACCOUNTS,
      minTip: options.minTip === undefined ? Bundle.MIN_TIP_LAMPORTS : BigInt(options.minTip),
      verifySignatures: options.verifySignatures ?? true
    }
    const concurrency = Math.max(1, options.concurrency ?? 2)
    const send = Derive.fromTransport(transport, Endpoints.sendBundle)
    const statuses = Derive.fromTransport(transport, Endpoints.getBundleStatuses)
    // What the service answered goes into an error: never with the key in it (a proxy may echo
    // the URL), and never at any length.
    const shown = (received: string) => {
      return transport.redactor.excerpt(received)
    }

    const sendBundle = (transactions: ReadonlyArray<string>, sendOptions?: SendOptions) =>
      Effect.gen(function*() {
        const opts = yield* validateInput(SendOptionsSchema, "", transport.redactor.redact)(sendOptions ?? {})
        const txs = yield* validateInput(Transactions, "transactions", transport.redactor.redact)(transactions)
        const encoding = opts.encoding ?? "base64"
        const checked = Bundle.check(txs, encoding, checkOptions)
        if (Either.isLeft(checked)) return yield* Effect.fail(new InvalidRequest(Bundle.describe(checked.left)))
        const expected = checked.right.id
        const received = yield* send.send(
          [txs, { encoding }],
          opts.region === undefined ? undefined : { headers: { "relay-region": opts.region } }
        )
        if (received.toLowerCase() !== expected) {
          return yield* Effect.fail(new BundleIdMismatch({ expected, received: shown(received) }))
        }
        return expected
      }).pipe(Effect.withSpan("solfx.bundles.sendBundle"))

    // Matched by id, not position: unknown bundles come back as `null` or are left out.
    const match = (chunk: ReadonlyArray<BundleId>, result: Bundle.BundleStatuses) =>
      chunk.map((id) =>
        Option.fromNullable(result.value.find((s): s is BundleStatus => s !== null && s.bundle_id === id))
      )
    const statusesOf = (chunk: ReadonlyArray<BundleId>) =>
      Effect.map(statuses.send([chunk]), (result) => match(chunk, result))

    const getBundleStatuses = (ids: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        const valid = yield* validateInput(Ids, "ids", transport.redactor.redact)(ids)
        const results = yield* statuses.batch(valid, [], { concurrency })
        return results.flatMap(({ items, result }) => match(items, result))
      }).pipe(Effect.withSpan("solfx.bundles.getBundleStatuses"))

    const awaitBundle = (id: string, awaitOptions?: AwaitOptions) =>
      Effect.gen(function*() {
        const valid = yield* validateInput(BundleId, "id", transport.redactor.redact)(id)
        const opts = yield* validateInput(AwaitOptionsSchema, "", transport.redactor.redact)(awaitOptions ?? {})
        const timeout = yield* duration("timeout", opts.timeout, Duration.seconds(60))
        const interval = yield* duration("interval", opts.interval, Duration.seconds(1))
        const wanted = RANK[opts.commitment ?? "confirmed"]
        const last = yield* Ref.make(Option.none<BundleStatus>())
        const done = (seen: Option.Option<BundleStatus>) =>
          Option.exists(seen, (s) => !Bundle.succeeded(s) || RANK[s.confirmation_status] >= wanted)
        yield* statusesOf([valid]).pipe(
          Effect.map((r) => r[0] ?? Option.none<BundleStatus>()),
          Effect.tap((seen) => Ref.set(last, seen)),
          Effect.repeat({ schedule: Schedule.spaced(interval), until: done }),
          Effect.timeoutOption(timeout)
        )
        const seen = yield* Ref.get(last)
        // Judged on what was seen, so a poll that finished as the timer fired still counts.
        if (Option.isNone(seen) || !done(seen)) {
          return BundleOutcome.TimedOut({ id: valid, after: timeout, last: seen })
        }
        const bundle = seen.value
        return Bundle.succeeded(bundle)
          ? BundleOutcome.Landed({ id: valid, status: bundle.confirmation_status, slot: bundle.slot, bundle })
          : BundleOutcome.Failed({ id: valid, err: bundle.err, slot: bundle.slot, bundle })
      }).pipe(Effect.withSpan("solfx.bundles.awaitBundle"))

    return { sendBundle, getBundleStatuses, awaitBundle }
  })

/**
 * The service with its default options, over `HttpTransport`.
 *
 * @example
 * const BundlesLive = Bundles.layer.pipe(Layer.provide(HttpTransport.layer))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Bundles, never, HttpTransport> = Layer.effect(Bundles, make())

/**
 * The service with the given options, over `HttpTransport`.
 *
 * @example
 * const BundlesLive = Bundles.layerWith({ minTip: 10_000n }).pipe(Layer.provide(HttpTransport.layer))
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (options: Options): Layer.Layer<Bundles, never, HttpTransport> =>
  Layer.effect(Bundles, make(options))
