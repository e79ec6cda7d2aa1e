/**
 * Send and confirm a transaction as one Effect: what every app writes by hand.
 *
 * 1. For a transaction message with its signers (kit's), optionally: the priority fee
 *    (`getPriorityFeeEstimate` at a level, or a price given) and the compute-unit limit (the
 *    message simulated with the largest limit, then the units it used plus a margin), then signed.
 *    A signed transaction is sent as it is.
 * 2. `sendTransaction` with `maxRetries: 0` (the RPC node does not rebroadcast: this does), the
 *    first send with preflight unless `skipPreflight`.
 * 3. Rebroadcast on a Schedule until the transaction is confirmed at the requested commitment, or
 *    the block height passes its `lastValidBlockHeight` (`BlockhashExpired`).
 * 4. Confirmation by `signatureSubscribe` when a `Subscriptions` service is in the context, with
 *    `getSignatureStatuses` polled beside it (the fallback when the socket misses it, and the only
 *    way without one).
 *
 * Typed failures: `SimulationFailed` (the estimate's simulation or the first send's preflight
 * failed: the runtime's error and logs), `TransactionFailed` (it landed with an error: the error
 * and the logs of the landed transaction), `BlockhashExpired`, and every `SolanaRpc` failure. The
 * rebroadcasts and the polls are fibers of the call's scope: interrupting the call stops them all.
 *
 * `sendAndConfirmBundle` does the same for a Jito bundle of signed transactions: the offline
 * checks of `Bundle.check` (1 to 5 transactions, signed, a tip), `sendBundle`, the bundle sent
 * again on the Schedule until its first transaction is confirmed (a bundle is atomic: the first
 * landed means all did) or the earliest `lastValidBlockHeight` of its transactions passes;
 * `getBundleStatuses` polled beside it ends it early with `BundleFailed` when the block engine
 * reports the bundle failed.
 *
 * It takes kit's transaction and message types and signs with kit's signers, so it lives beside
 * `SolanaRpc` in the package that has `@solana/kit` as a peer.
 *
 * @example
 * const confirmed = yield* SendAndConfirm.sendAndConfirm(message, { priorityFee: "High", computeUnitLimit: "estimate" })
 * // confirmed.signature, confirmed.slot, confirmed.sends
 * const bundle = yield* SendAndConfirm.sendAndConfirmBundle([payment, tip])
 * // bundle.bundleId, bundle.signatures, bundle.slot
 * @since 0.1.0
 */
import type {
  Signature,
  Transaction,
  TransactionMessage,
  TransactionMessageWithBlockhashLifetime,
  TransactionMessageWithFeePayer,
  TransactionMessageWithSigners,
  TransactionWithBlockhashLifetime
} from "@solana/kit"
import {
  compileTransaction,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  setTransactionMessageComputeUnitLimit,
  setTransactionMessageComputeUnitPrice,
  signTransactionMessageWithSigners
} from "@solana/kit"
import * as Bundle from "@solfx/core/Bundle"
import * as Endpoints from "@solfx/core/Endpoints"
import { BundleIdMismatch, InvalidRequest } from "@solfx/core/Errors"
import type { PriorityLevel } from "@solfx/core/PriorityFeeEstimate"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import { Subscriptions } from "@solfx/subscriptions/Subscriptions"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { SolanaRpc, type SolanaRpcError, type SolanaRpcShape } from "./SolanaRpc.js"

/**
 * The simulation of the compute-unit estimate, or the first send's preflight, failed: nothing landed.
 *
 * @since 0.1.0
 * @category errors
 */
export class SimulationFailed extends Schema.TaggedError<SimulationFailed>("@solfx/SimulationFailed")(
  "SimulationFailed",
  { err: Schema.Unknown, logs: Schema.Array(Schema.String) }
) {
  override get message(): string {
    return `the transaction's simulation failed: ${JSON.stringify(this.err, bigintText)}`
  }
}

/**
 * The transaction landed with an error: the runtime's error and the landed transaction's logs.
 *
 * @since 0.1.0
 * @category errors
 */
export class TransactionFailed extends Schema.TaggedError<TransactionFailed>("@solfx/TransactionFailed")(
  "TransactionFailed",
  {
    signature: Schema.String,
    slot: Schema.BigIntFromSelf,
    err: Schema.Unknown,
    logs: Schema.Array(Schema.String)
  }
) {
  override get message(): string {
    return `transaction ${this.signature} failed in slot ${this.slot}: ${JSON.stringify(this.err, bigintText)}`
  }
}

/**
 * The block height passed the transaction's `lastValidBlockHeight` and it had not landed: it never will.
 *
 * @since 0.1.0
 * @category errors
 */
export class BlockhashExpired extends Schema.TaggedError<BlockhashExpired>("@solfx/BlockhashExpired")(
  "BlockhashExpired",
  {
    signature: Schema.String,
    lastValidBlockHeight: Schema.BigIntFromSelf,
    blockHeight: Schema.BigIntFromSelf,
    /** How many times it was sent. */
    sends: Schema.Number
  }
) {
  override get message(): string {
    return `transaction ${this.signature} expired: block height ${this.blockHeight} passed ${this.lastValidBlockHeight} after ${this.sends} sends`
  }
}

/**
 * The block engine ran the bundle and it failed whole (bundles are atomic: nothing of it landed);
 * its status's error.
 *
 * @since 0.1.0
 * @category errors
 */
export class BundleFailed extends Schema.TaggedError<BundleFailed>("@solfx/BundleFailed")(
  "BundleFailed",
  { bundleId: Schema.String, slot: Schema.Number, err: Schema.Unknown }
) {
  override get message(): string {
    return `bundle ${this.bundleId} failed in slot ${this.slot}: ${JSON.stringify(this.err, bigintText)}`
  }
}

const bigintText = (_: string, v: unknown) => typeof v === "bigint" ? v.toString() : v

/**
 * Every failure of `sendAndConfirm`.
 *
 * @since 0.1.0
 * @category errors
 */
export type SendAndConfirmError = SimulationFailed | TransactionFailed | BlockhashExpired | SolanaRpcError

/**
 * Every failure of `sendAndConfirmBundle`: bad input (the offline checks), the id the service
 * returned not the bundle's, the bundle failed, it expired, or an RPC failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type SendAndConfirmBundleError =
  | InvalidRequest
  | BundleIdMismatch
  | BundleFailed
  | TransactionFailed
  | BlockhashExpired
  | SolanaRpcError

/**
 * A commitment a transaction is confirmed at.
 *
 * @since 0.1.0
 * @category models
 */
export type Commitment = "processed" | "confirmed" | "finalized"

/**
 * A signed transaction whose lifetime is a blockhash (kit's `signTransactionMessageWithSigners` gives one).
 *
 * @since 0.1.0
 * @category models
 */
export type SignedTransaction = Transaction & TransactionWithBlockhashLifetime

/**
 * A transaction message with its fee payer, blockhash lifetime and signers: what the priority fee
 * and compute-unit limit can still be set on before it is signed.
 *
 * @since 0.1.0
 * @category models
 */
export type SignableMessage =
  & TransactionMessage
  & { readonly version: "legacy" | 0 }
  & TransactionMessageWithFeePayer
  & TransactionMessageWithBlockhashLifetime
  & TransactionMessageWithSigners

/**
 * Options of `sendAndConfirm`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** The commitment it must reach (default `confirmed`). */
  readonly commitment?: Commitment | undefined
  /** A message only: `"estimate"` simulates it and sets the units used plus `computeUnitMargin`; a number sets it. */
  readonly computeUnitLimit?: "estimate" | number | undefined
  /** The margin over the simulated units (default 0.1: 10 % more). */
  readonly computeUnitMargin?: number | undefined
  /** A message only: the price per compute unit, the estimate at a level, or micro-lamports. */
  readonly priorityFee?: PriorityLevel | { readonly microLamports: bigint } | undefined
  /** Skip the first send's preflight simulation (rebroadcasts always skip it). Default false. */
  readonly skipPreflight?: boolean | undefined
  /** How often it is sent again until confirmed or expired (default 2 s). */
  readonly rebroadcastEvery?: Duration.DurationInput | undefined
  /** How often its status and the block height are read (default 1 s). */
  readonly pollEvery?: Duration.DurationInput | undefined
}

/**
 * A confirmed transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface Confirmed {
  readonly signature: Signature
  /** The slot it landed in. */
  readonly slot: bigint
  /** How many times it was sent (the first send and the rebroadcasts). */
  readonly sends: number
  /** The compute-unit limit set, when this call set one. */
  readonly computeUnitLimit?: number | undefined
  /** The priority fee set (micro-lamports per compute unit), when this call set one. */
  readonly priorityFee?: bigint | undefined
}

/** The largest compute-unit limit of a transaction: what the estimate simulates with. */
const MAX_COMPUTE_UNITS = 1_400_000

const RANK: Readonly<Record<string, number>> = { processed: 0, confirmed: 1, finalized: 2 }

const isMessage = (input: SignedTransaction | SignableMessage): input is SignableMessage => "instructions" in input

/** What a status lookup found: landed at the commitment (with its error, if any), or not yet. */
type Landed = { readonly slot: bigint; readonly err: unknown }

/**
 * Sends a signed transaction, or prices, signs and sends a message, and waits for it to be
 * confirmed (see the module). Needs `SolanaRpc` and the `HttpTransport` under it; a `Subscriptions`
 * service in the context adds the signature subscription.
 *
 * @since 0.1.0
 * @category sending
 */
export const sendAndConfirm = (
  input: SignedTransaction | SignableMessage,
  options: Options = {}
): Effect.Effect<Confirmed, SendAndConfirmError, SolanaRpc | HttpTransport> =>
  Effect.gen(function*() {
    const solana = yield* SolanaRpc
    const commitment = options.commitment ?? "confirmed"
    const prepared = isMessage(input) ? yield* prepare(input, options) : yield* signedAsIs(input, options)
    const tx = prepared.tx
    const signature = getSignatureFromTransaction(tx)
    const wire = getBase64EncodedWireTransaction(tx)
    const lastValidBlockHeight = tx.lifetimeConstraint.lastValidBlockHeight
    let sends = 0
    const sendOnce = (skipPreflight: boolean) =>
      Effect.suspend(() => {
        sends++
        return solana.call(
          // The preflight at kit's default commitment (confirmed): a blockhash that fresh may not be finalized yet.
          solana.rpc.sendTransaction(wire, { encoding: "base64", maxRetries: 0n, skipPreflight })
        )
      })

    // The first send: a preflight failure is the simulation's; a refusal no resend changes is final;
    // a send that may not have arrived (reset, 5xx, rate limited past the retries) is left to the rebroadcasts.
    const first = yield* Effect.either(sendOnce(options.skipPreflight ?? false))
    if (first._tag === "Left") {
      const e = first.left
      if (e._tag === "JsonRpcError" && e.code === -32002) return yield* Effect.fail(preflightFailure(e.data))
      if (e._tag === "JsonRpcError" || e._tag === "InvalidRequest") return yield* Effect.fail(e)
      yield* Effect.annotateCurrentSpan("solfx.send.firstFailed", e._tag)
    }

    const landed = yield* awaitLanded(solana, signature, commitment, lastValidBlockHeight, options, {
      sendOnce: sendOnce(true),
      sends: () => sends
    })

    if (landed.err !== null && landed.err !== undefined) {
      const logs = yield* logsOf(solana, signature, commitment)
      return yield* Effect.fail(new TransactionFailed({ signature, slot: landed.slot, err: landed.err, logs }))
    }
    return {
      signature,
      slot: landed.slot,
      sends,
      computeUnitLimit: prepared.computeUnitLimit,
      priorityFee: prepared.priorityFee
    } satisfies Confirmed
  }).pipe(Effect.withSpan("solfx.kit.sendAndConfirm", { captureStackTrace: false }))

/**
 * Options of `sendAndConfirmBundle`: the commitment and the Schedule's periods of `Options`, and
 * the offline checks' tip rule.
 *
 * @since 0.1.0
 * @category models
 */
export interface BundleOptions {
  /** The commitment it must reach (default `confirmed`). */
  readonly commitment?: Commitment | undefined
  /** How often the bundle is sent again until confirmed or expired (default 2 s). */
  readonly rebroadcastEvery?: Duration.DurationInput | undefined
  /** How often its statuses and the block height are read (default 1 s). */
  readonly pollEvery?: Duration.DurationInput | undefined
  /** Accounts a tip may go to. Default: the 8 Jito tip accounts. */
  readonly tipAccounts?: ReadonlyArray<string> | undefined
  /** Smallest tip in lamports. Default 1000. */
  readonly minTip?: bigint | undefined
}

/**
 * A confirmed bundle.
 *
 * @since 0.1.0
 * @category models
 */
export interface ConfirmedBundle {
  /** Its id: the SHA-256 of its transactions' first signatures, as the block engine answers it. */
  readonly bundleId: string
  /** Its transactions' first signatures, in order. */
  readonly signatures: ReadonlyArray<Signature>
  /** The slot it landed in. */
  readonly slot: bigint
  /** How many times it was sent (the first send and the rebroadcasts). */
  readonly sends: number
}

/**
 * Sends signed transactions as one Jito bundle and waits for it to be confirmed (see the module).
 * Bad input (no transaction or more than 5, one not fully signed, no tip of `minTip` to a tip
 * account) is an `InvalidRequest` naming the field and the rule, with nothing sent. Needs
 * `SolanaRpc` and the `HttpTransport` under it; a `Subscriptions` service in the context adds the
 * signature subscription.
 *
 * @example
 * const confirmed = yield* SendAndConfirm.sendAndConfirmBundle([payment, tip], { commitment: "finalized" })
 * @since 0.1.0
 * @category sending
 */
export const sendAndConfirmBundle = (
  transactions: ReadonlyArray<SignedTransaction>,
  options: BundleOptions = {}
): Effect.Effect<ConfirmedBundle, SendAndConfirmBundleError, SolanaRpc | HttpTransport> =>
  Effect.gen(function*() {
    const solana = yield* SolanaRpc
    const transport = yield* HttpTransport
    const commitment = options.commitment ?? "confirmed"
    const wires = transactions.map((tx) => getBase64EncodedWireTransaction(tx))
    // The offline checks of every bundle sent by solfx (`Bundle.check`, as `Bundles.sendBundle`).
    const checked = Bundle.check(wires, "base64", {
      tipAccounts: options.tipAccounts ?? Bundle.JITO_TIP_ACCOUNTS,
      minTip: options.minTip ?? Bundle.MIN_TIP_LAMPORTS
    })
    if (Either.isLeft(checked)) return yield* Effect.fail(new InvalidRequest(Bundle.describe(checked.left)))
    const bundleId = checked.right.id
    const signatures = transactions.map((tx) => getSignatureFromTransaction(tx))
    // The bundle lands whole or not at all: the first transaction's status is the bundle's.
    const signature = signatures[0]!
    // It can land only while every transaction's blockhash is valid.
    const lastValidBlockHeight = transactions.map((tx) => tx.lifetimeConstraint.lastValidBlockHeight).reduce((
      a,
      b
    ) => a < b ? a : b)
    const send = Derive.fromTransport(transport, Endpoints.sendBundle)
    const statuses = Derive.fromTransport(transport, Endpoints.getBundleStatuses)
    let sends = 0
    const sendOnce = Effect.suspend(() => {
      sends++
      return send.send([wires, { encoding: "base64" }])
    })

    // The first send: a refusal (JSON-RPC error) is final; a send that may not have arrived is left
    // to the rebroadcasts. An answer must be the bundle's id.
    const first = yield* Effect.either(sendOnce)
    if (first._tag === "Left") {
      const e = first.left
      if (e._tag === "JsonRpcError") return yield* Effect.fail(e)
      yield* Effect.annotateCurrentSpan("solfx.send.firstFailed", e._tag)
    } else if (first.right.toLowerCase() !== bundleId) {
      // What the service answered goes into the error redacted and short (a proxy may echo the URL).
      const received = transport.redactor.excerpt(first.right)
      return yield* Effect.fail(new BundleIdMismatch({ expected: bundleId, received }))
    }

    // The block engine's word that it failed (nothing landed, so no signature status will say so).
    const every = Duration.decode(options.pollEvery ?? "1 second")
    const read = statuses.send([[bundleId]]).pipe(
      Effect.map(({ value }) => value.find((s) => s !== null && s.bundle_id === bundleId) ?? null),
      // A failing read is the polls' to judge: this one only ever reports a failed bundle.
      Effect.orElseSucceed(() => null)
    )
    const failed = Effect.iterate(null as Bundle.BundleStatus | null, {
      while: (s) => s === null || Bundle.succeeded(s),
      body: () => Effect.zipRight(Effect.sleep(every), read)
    }).pipe(Effect.flatMap((s) => Effect.fail(new BundleFailed({ bundleId, slot: s!.slot, err: s!.err }))))
    const landed = yield* awaitLanded(solana, signature, commitment, lastValidBlockHeight, options, {
      sendOnce,
      sends: () => sends,
      failFast: failed
    })
    if (landed.err !== null && landed.err !== undefined) {
      const logs = yield* logsOf(solana, signature, commitment)
      return yield* Effect.fail(new TransactionFailed({ signature, slot: landed.slot, err: landed.err, logs }))
    }
    return { bundleId, signatures, slot: landed.slot, sends } satisfies ConfirmedBundle
  }).pipe(Effect.withSpan("solfx.kit.sendAndConfirmBundle", { captureStackTrace: false }))

/**
 * Rebroadcasts on a Schedule while it waits for `signature` to land at `commitment`: by
 * `signatureSubscribe` when a `Subscriptions` service is in the context, raced with the polls; a
 * `failFast` effect (a bundle's status) may end it first with a failure. Every fiber is of this
 * scope: the result, a failure or an interruption stops them all.
 */
const awaitLanded = <E = never>(
  solana: SolanaRpcShape,
  signature: Signature,
  commitment: Commitment,
  lastValidBlockHeight: bigint,
  options: Options,
  sending: {
    readonly sendOnce: Effect.Effect<unknown, unknown>
    readonly sends: () => number
    readonly failFast?: Effect.Effect<never, E> | undefined
  }
): Effect.Effect<Landed, BlockhashExpired | SolanaRpcError | E> =>
  Effect.scoped(Effect.gen(function*() {
    const every = Duration.decode(options.rebroadcastEvery ?? "2 seconds")
    yield* Effect.forkScoped(Effect.forever(Effect.zipRight(Effect.sleep(every), Effect.ignore(sending.sendOnce))))
    const polled: Effect.Effect<Landed, BlockhashExpired | SolanaRpcError | E> = sending.failFast === undefined
      ? poll(solana, signature, commitment, lastValidBlockHeight, options, sending.sends)
      : Effect.raceFirst(
        poll(solana, signature, commitment, lastValidBlockHeight, options, sending.sends),
        sending.failFast
      )
    const subscriptions = yield* Effect.serviceOption(Subscriptions)
    if (Option.isNone(subscriptions)) return yield* polled
    const notified = subscriptions.value.signature(signature, { commitment }).pipe(
      Stream.filterMap((event) =>
        event._tag === "Notification" && typeof event.value.value === "object"
          ? Option.some<Landed>({ slot: event.slot, err: event.value.value.err })
          : Option.none()
      ),
      Stream.runHead,
      // The socket failed or the stream ended without it: the polls go on alone.
      Effect.flatMap(Option.match({ onNone: () => Effect.never, onSome: Effect.succeed })),
      Effect.catchAll(() => Effect.never)
    )
    return yield* Effect.raceFirst(notified, polled)
  }))

/** The failure a preflight's data describes (`{ err, logs }`, as the RPC sends a simulation's). */
const preflightFailure = (data: unknown): SimulationFailed => {
  const d = (typeof data === "object" && data !== null ? data : {}) as { err?: unknown; logs?: unknown }
  return new SimulationFailed({ err: d.err ?? null, logs: Array.isArray(d.logs) ? d.logs.map(String) : [] })
}

/** A signed transaction cannot take a fee or a limit any more: asking for one is bad input. */
const signedAsIs = (tx: SignedTransaction, options: Options) => {
  const field = options.priorityFee !== undefined
    ? "priorityFee"
    : options.computeUnitLimit !== undefined
    ? "computeUnitLimit"
    : undefined
  return field === undefined
    ? Effect.succeed({ tx, computeUnitLimit: undefined, priorityFee: undefined })
    : Effect.fail(
      new InvalidRequest({ field, rule: "a transaction message with its signers (a signed transaction cannot change)" })
    )
}

/** The message priced, limited and signed. */
const prepare = (input: SignableMessage, options: Options) =>
  Effect.gen(function*() {
    const solana = yield* SolanaRpc
    let message = input
    let priorityFee: bigint | undefined
    if (options.priorityFee !== undefined) {
      if (typeof options.priorityFee === "object") {
        priorityFee = options.priorityFee.microLamports
      } else {
        const estimate = Derive.fromTransport(yield* HttpTransport, Endpoints.getPriorityFeeEstimate)
        const answer = yield* estimate.call({
          transaction: getBase64EncodedWireTransaction(compileTransaction(message)),
          options: { priorityLevel: options.priorityFee, transactionEncoding: "Base64" }
        })
        priorityFee = BigInt(Math.ceil(answer.priorityFeeEstimate ?? 0))
      }
      message = setTransactionMessageComputeUnitPrice(priorityFee, message)
    }
    let computeUnitLimit: number | undefined
    if (options.computeUnitLimit === "estimate") {
      const margin = options.computeUnitMargin ?? 0.1
      if (!(margin >= 0)) {
        return yield* Effect.fail(
          new InvalidRequest({ field: "computeUnitMargin", rule: "a number of 0 or more", value: String(margin) })
        )
      }
      const simulated = getBase64EncodedWireTransaction(
        compileTransaction(setTransactionMessageComputeUnitLimit(MAX_COMPUTE_UNITS, message))
      )
      const { value } = yield* solana.call(solana.rpc.simulateTransaction(simulated, {
        encoding: "base64",
        sigVerify: false,
        replaceRecentBlockhash: true
      }))
      if (value.err !== null) {
        return yield* Effect.fail(new SimulationFailed({ err: value.err, logs: value.logs ?? [] }))
      }
      const used = Number(value.unitsConsumed ?? 0n)
      computeUnitLimit = Math.min(MAX_COMPUTE_UNITS, Math.max(1, Math.ceil(used * (1 + margin))))
    } else if (options.computeUnitLimit !== undefined) {
      computeUnitLimit = options.computeUnitLimit
    }
    if (computeUnitLimit !== undefined) message = setTransactionMessageComputeUnitLimit(computeUnitLimit, message)
    const tx = yield* Effect.tryPromise({
      try: () => signTransactionMessageWithSigners(message),
      catch: (e) => new InvalidRequest({ field: "signers", rule: `signers that sign the message: ${String(e)}` })
    })
    return { tx: tx as SignedTransaction, computeUnitLimit, priorityFee }
  })

/**
 * The polls: the status every `pollEvery` until it reaches the commitment; once the block height
 * has passed the last valid one, a last look (the whole history) decides between landed and expired.
 */
const poll = (
  solana: SolanaRpcShape,
  signature: Signature,
  commitment: Commitment,
  lastValidBlockHeight: bigint,
  options: Options,
  sends: () => number
): Effect.Effect<Landed, BlockhashExpired | SolanaRpcError> => {
  const every = Duration.decode(options.pollEvery ?? "1 second")
  const status = (searchTransactionHistory: boolean) =>
    Effect.map(
      solana.call(solana.rpc.getSignatureStatuses([signature], { searchTransactionHistory })),
      ({ value }): Option.Option<Landed> => {
        const s = value[0]
        return s != null && s.confirmationStatus !== null && RANK[s.confirmationStatus]! >= RANK[commitment]!
          ? Option.some({ slot: s.slot, err: s.err })
          : Option.none()
      }
    )
  const tick: Effect.Effect<Option.Option<Landed>, BlockhashExpired | SolanaRpcError> = Effect.gen(function*() {
    const found = yield* status(false)
    if (Option.isSome(found)) return found
    const blockHeight = yield* solana.call(solana.rpc.getBlockHeight({ commitment: "confirmed" }))
    if (blockHeight <= lastValidBlockHeight) return Option.none()
    const last = yield* status(true)
    if (Option.isSome(last)) return last
    return yield* Effect.fail(
      new BlockhashExpired({ signature, lastValidBlockHeight, blockHeight, sends: sends() })
    )
  })
  // Bounded by the chain itself: the block height passes the last valid one, and the tick then ends it.
  // A tick that fails (the node busy, a timeout) is tried again at the next; `MAX_FAILED_POLLS` in a row end it.
  const loop = (failed: number): Effect.Effect<Landed, BlockhashExpired | SolanaRpcError> =>
    Effect.flatMap(Effect.either(tick), (result) => {
      if (result._tag === "Right") {
        return Option.isSome(result.right)
          ? Effect.succeed(result.right.value)
          : Effect.zipRight(Effect.sleep(every), loop(0))
      }
      const e = result.left
      if (e._tag === "BlockhashExpired" || failed + 1 >= MAX_FAILED_POLLS) return Effect.fail(e)
      return Effect.zipRight(Effect.sleep(every), loop(failed + 1))
    })
  return loop(0)
}

/** Polls that fail in a row before the confirmation gives up with the last failure. */
const MAX_FAILED_POLLS = 5

/** The logs of a landed transaction (its meta's `logMessages`), read a few times while it becomes visible. */
const logsOf = (solana: SolanaRpcShape, signature: Signature, commitment: Commitment) =>
  solana.call(
    solana.rpc.getTransaction(signature, {
      commitment: commitment === "processed" ? "confirmed" : commitment,
      encoding: "json",
      maxSupportedTransactionVersion: 0
    })
  ).pipe(
    Effect.flatMap((tx) => tx === null ? Effect.fail("not yet" as const) : Effect.succeed(tx.meta?.logMessages ?? [])),
    Effect.retry({ times: 5, schedule: Schedule.spaced("200 millis") }),
    Effect.catchAll(() => Effect.succeed([] as ReadonlyArray<string>)),
    Effect.map((logs) => [...logs])
  )
