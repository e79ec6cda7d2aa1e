/**
 * Webhook delivery, as the service documents it: when transactions land (the
 * `Events.transactionsLanded` channel), each one that touches a monitored
 * account (a static key of the message) is POSTed to every active webhook that
 * watches it, as a JSON array of one enhanced or raw transaction, with the
 * webhook's `authHeader` as the `Authorization` header.
 *
 * - Enhanced kinds deliver only the types in `transactionTypes` (`ANY` or the
 *   type: `TRANSFER` when the transaction makes System transfers, else `UNKNOWN`).
 *   Raw kinds deliver every matching transaction. Discord kinds are not emulated.
 *   Every landed transaction succeeded, so `txnStatus: "failed"` matches none.
 * - A non-2xx answer, a connection error or a timeout is retried up to
 *   `maxRetries` times (default 3), `retrySpacing` apart (default 60 s, as the
 *   real service; tests use milliseconds).
 * - Every attempt counts one in `usage.webhook` of the project owning the webhook.
 * - After `failureThreshold` consecutive failed attempts the webhook is set
 *   `active: false` (the list shows it) and nothing more is sent to it.
 *
 * The payloads are built from the parsed wire transaction and encoded with
 * core's `WebhookDelivery` schema, so what is sent is what the SDK decodes.
 *
 * @example
 * // tests: retry in milliseconds, not the service's minute
 * Emulator.layerTest({ webhookDelivery: { retrySpacing: "20 millis", failureThreshold: 6 } })
 * @since 0.1.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Json from "@solfx/core/Json"
import { encodeBase58 } from "@solfx/core/Primitives"
import type * as Transaction from "@solfx/core/Transaction"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { AreaContext, Project } from "./Area.js"
import type { Dataset } from "./Dataset.js"
import * as Events from "./Events.js"

/**
 * Delivery knobs.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** Wait between attempts of one delivery (default 60 seconds, as the real service). */
  readonly retrySpacing?: Duration.DurationInput | undefined
  /** Retries after the first attempt (default 3). */
  readonly maxRetries?: number | undefined
  /** Consecutive failed attempts after which a webhook is set inactive (default 20). */
  readonly failureThreshold?: number | undefined
  /** Time allowed to one attempt (default 10 seconds). */
  readonly attemptTimeout?: Duration.DurationInput | undefined
}

/**
 * The values of the unset `Options`: the real service's behaviour.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  retrySpacing: Duration.seconds(60),
  maxRetries: 3,
  failureThreshold: 20,
  attemptTimeout: Duration.seconds(10)
} as const

/**
 * The live fields of a webhook the deliverer reads, and `active`, which it writes.
 *
 * @since 0.1.0
 * @category models
 */
export interface Target {
  readonly webhookID: string
  readonly webhookURL: string
  readonly webhookType: string
  readonly accountAddresses: ReadonlyArray<string>
  readonly transactionTypes: ReadonlyArray<string>
  readonly authHeader?: string | null | undefined
  /** `failed` asks for failed transactions only: none land here, so nothing is sent. */
  readonly txnStatus?: string | undefined
  active: boolean
}

/**
 * A webhook and the project it belongs to (its attempts count there).
 *
 * @since 0.1.0
 * @category models
 */
export interface Owned {
  readonly webhook: Target
  readonly project: Project
}

/**
 * One delivery attempt, as the log keeps it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Attempt {
  readonly webhookID: string
  readonly signature: string
  /** 1 for the first attempt. */
  readonly attempt: number
  /** The HTTP status, or 0 when no answer came (refused, reset, timeout). */
  readonly status: number
  readonly ok: boolean
  /** Epoch milliseconds. */
  readonly at: number
}

/**
 * The running deliverer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Deliverer {
  /** Every attempt so far, oldest first (a copy). */
  readonly attempts: () => ReadonlyArray<Attempt>
  /** Completes when no delivery is queued, running or waiting to retry. */
  readonly idle: Effect.Effect<void>
}

// -- payloads ----------------------------------------------------------------------

/** Lamports per signature, the base fee. */
const LAMPORTS_PER_SIGNATURE = 5000n

const kindOf = (webhookType: string): "enhanced" | "raw" | undefined =>
  webhookType === "enhanced" || webhookType === "enhancedDevnet"
    ? "enhanced"
    : webhookType === "raw" || webhookType === "rawDevnet"
    ? "raw"
    : undefined

/**
 * The enhanced type the emulator gives a transaction.
 *
 * @since 0.1.0
 * @category payloads
 */
export const typeOf = (tx: Transaction.ParsedTransaction): "TRANSFER" | "UNKNOWN" =>
  tx.transfers.length > 0 ? "TRANSFER" : "UNKNOWN"

const feeOf = (tx: Transaction.ParsedTransaction): bigint =>
  LAMPORTS_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures)

const staticTransfers = (tx: Transaction.ParsedTransaction) =>
  tx.transfers.flatMap((t) =>
    t.from._tag === "Static" && t.to._tag === "Static"
      ? [{ from: t.from.address, to: t.to.address, lamports: t.lamports }]
      : []
  )

/** Net lamport change of each static key: transfers, and the fee for the payer. */
const balanceChanges = (tx: Transaction.ParsedTransaction): Array<bigint> => {
  const changes = tx.staticKeys.map(() => 0n)
  for (const t of tx.transfers) {
    if (t.from._tag === "Static") changes[t.from.index] = changes[t.from.index]! - t.lamports
    if (t.to._tag === "Static") changes[t.to.index] = changes[t.to.index]! + t.lamports
  }
  changes[0] = changes[0]! - feeOf(tx)
  return changes
}

const sol = (lamports: bigint): string => {
  const whole = lamports / 1_000_000_000n
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "")
  return frac === "" ? whole.toString() : `${whole}.${frac}`
}

/**
 * An enhanced item for a landed transaction.
 *
 * @since 0.1.0
 * @category payloads
 */
export const enhancedOf = (
  tx: Transaction.ParsedTransaction,
  slot: number,
  blockTime: number
): WebhookDelivery.EnhancedTransaction => {
  const transfers = staticTransfers(tx)
  const changes = balanceChanges(tx)
  const first = transfers[0]
  return {
    kind: "enhanced",
    signature: tx.signatures[0]!,
    slot,
    timestamp: blockTime,
    type: typeOf(tx),
    source: "SYSTEM_PROGRAM",
    description: first === undefined ? "" : `${first.from} transferred ${sol(first.lamports)} SOL to ${first.to}.`,
    fee: feeOf(tx),
    feePayer: tx.staticKeys[0]!,
    nativeTransfers: transfers.map((t) => ({ fromUserAccount: t.from, toUserAccount: t.to, amount: t.lamports })),
    tokenTransfers: [],
    accountData: tx.staticKeys.map((account, i) => ({
      account,
      nativeBalanceChange: changes[i]!,
      tokenBalanceChanges: []
    })),
    events: {},
    transactionError: null,
    instructions: tx.instructions.map((ix) => ({
      programId: ix.programId,
      accounts: ix.accounts.flatMap((a) => (a._tag === "Static" ? [a.address] : [])),
      data: encodeBase58(ix.data),
      innerInstructions: []
    }))
  }
}

/**
 * A raw item for a landed transaction. Pre-balances are derived from the dataset
 * (large enough for the transaction to succeed); post = pre + change.
 *
 * @since 0.1.0
 * @category payloads
 */
export const rawOf = (
  tx: Transaction.ParsedTransaction,
  slot: number,
  blockTime: number,
  indexWithinBlock: number,
  dataset: Dataset
): WebhookDelivery.RawTransaction => {
  const changes = balanceChanges(tx)
  const programs = new Set(tx.instructions.map((ix) => ix.programIdIndex))
  const pre = tx.staticKeys.map((key, i) =>
    programs.has(i) ? 1n : 10_000_000_000n + BigInt(dataset.int(`webhook:balance:${key}`, 1_000_000_000_000))
  )
  const lookups = tx.lookups.map((l) => ({
    accountKey: l.table,
    writableIndexes: l.writableIndexes,
    readonlyIndexes: l.readonlyIndexes
  }))
  return {
    kind: "raw",
    slot,
    blockTime: Option.some(blockTime),
    indexWithinBlock,
    version: tx.version,
    meta: {
      err: null,
      fee: feeOf(tx),
      preBalances: pre,
      postBalances: pre.map((b, i) => b + changes[i]!),
      innerInstructions: [],
      loadedAddresses: { writable: [], readonly: [] },
      logMessages: tx.instructions.flatMap((
        ix
      ) => [`Program ${ix.programId} invoke [1]`, `Program ${ix.programId} success`]),
      preTokenBalances: [],
      postTokenBalances: [],
      rewards: [],
      computeUnitsConsumed: 150 * tx.instructions.length
    },
    transaction: {
      message: {
        accountKeys: tx.staticKeys,
        header: {
          numRequiredSignatures: tx.header.numRequiredSignatures,
          numReadonlySignedAccounts: tx.header.numReadonlySigned,
          numReadonlyUnsignedAccounts: tx.header.numReadonlyUnsigned
        },
        instructions: tx.instructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: ix.accounts.map((a) => a.index),
          data: encodeBase58(ix.data),
          stackHeight: null
        })),
        recentBlockhash: tx.recentBlockhash,
        ...(tx.version === "legacy" ? {} : { addressTableLookups: lookups })
      },
      signatures: tx.signatures as unknown as WebhookDelivery.RawTransaction["transaction"]["signatures"]
    }
  }
}

/**
 * Whether a webhook wants a transaction: a monitored static key, and for the
 * enhanced kinds a listed type (or `ANY`); not when it asks for failed ones only.
 *
 * @since 0.1.0
 * @category payloads
 */
export const matches = (webhook: Target, tx: Transaction.ParsedTransaction): boolean => {
  const kind = kindOf(webhook.webhookType)
  // Every transaction that lands here succeeded: a webhook of failed ones only never matches.
  if (kind === undefined || webhook.txnStatus === "failed") return false
  const watched = new Set(webhook.accountAddresses)
  if (!tx.staticKeys.some((k) => watched.has(k))) return false
  return kind === "raw" || webhook.transactionTypes.includes("ANY") || webhook.transactionTypes.includes(typeOf(tx))
}

// -- delivery --------------------------------------------------------------------

interface Job {
  readonly owned: Owned
  readonly signature: string
  readonly body: string
}

/**
 * Starts delivering in the current scope: it subscribes to the landing events
 * and stops (interrupting pending retries) when the scope closes.
 *
 * @since 0.1.0
 * @category constructors
 */
export const start = (params: {
  readonly state: AreaContext["state"]
  readonly dataset: Dataset
  /** The webhooks now, with their owners (read at each landing, so changes apply). */
  readonly webhooks: () => ReadonlyArray<Owned>
  readonly now: () => number
  readonly options?: Options | undefined
}): Effect.Effect<Deliverer, never, Scope.Scope> =>
  Effect.gen(function*() {
    const options = params.options ?? {}
    const spacing = Duration.decode(options.retrySpacing ?? defaults.retrySpacing)
    const maxRetries = Math.max(0, options.maxRetries ?? defaults.maxRetries)
    const threshold = Math.max(1, options.failureThreshold ?? defaults.failureThreshold)
    const timeout = Duration.decode(options.attemptTimeout ?? defaults.attemptTimeout)

    // A dispatcher of our own: closing the scope closes its keep-alive sockets,
    // so a receiver's server is not held open by the emulator.
    const client = NodeHttpClient.makeUndici(yield* NodeHttpClient.makeDispatcher)
    const attempts: Array<Attempt> = []
    const failures = new Map<string, number>()
    const running = yield* FiberSet.make()
    let pending = 0
    const idleLatch = yield* Effect.makeLatch(true)

    const post = (job: Job) =>
      HttpClientRequest.post(job.owned.webhook.webhookURL).pipe(
        HttpClientRequest.bodyText(job.body, "application/json"),
        (req) => {
          const auth = job.owned.webhook.authHeader
          return auth === undefined || auth === null || auth === ""
            ? req
            : HttpClientRequest.setHeader(req, "authorization", auth)
        },
        client.execute,
        Effect.map((res) => res.status),
        Effect.scoped,
        Effect.timeout(timeout),
        Effect.orElseSucceed(() => 0)
      )

    const deliver = (job: Job) =>
      Effect.gen(function*() {
        const { project, webhook } = job.owned
        for (let attempt = 1; attempt <= maxRetries + 1; attempt++) {
          if (!webhook.active) return
          if (attempt > 1) yield* Effect.sleep(spacing)
          if (!webhook.active) return
          project.usage.webhook = (project.usage.webhook ?? 0) + 1
          const status = yield* post(job)
          const ok = status >= 200 && status < 300
          attempts.push({
            webhookID: webhook.webhookID,
            signature: job.signature,
            attempt,
            status,
            ok,
            at: params.now()
          })
          if (ok) {
            failures.set(webhook.webhookID, 0)
            return
          }
          const failed = (failures.get(webhook.webhookID) ?? 0) + 1
          failures.set(webhook.webhookID, failed)
          if (failed >= threshold) {
            webhook.active = false
            return
          }
        }
      }).pipe(
        Effect.ensuring(Effect.suspend(() => (--pending === 0 ? idleLatch.open : Effect.void)))
      )

    const landed = yield* Queue.unbounded<Events.TransactionsLanded>()
    const unsubscribe = Events.transactionsLanded(params.state).subscribe((event) => {
      pending++
      idleLatch.unsafeClose()
      Queue.unsafeOffer(landed, event)
    })
    yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

    const dispatch = (event: Events.TransactionsLanded) =>
      Effect.gen(function*() {
        const blockTime = Math.floor(params.now() / 1000)
        const hooks = params.webhooks().filter((o) => o.webhook.active)
        for (const [index, tx] of event.transactions.entries()) {
          for (const owned of hooks) {
            if (!matches(owned.webhook, tx)) continue
            const item = kindOf(owned.webhook.webhookType) === "raw"
              ? rawOf(tx, event.slot, blockTime, index, params.dataset)
              : enhancedOf(tx, event.slot, blockTime)
            const body = Json.stringify(WebhookDelivery.encode([item]))
            pending++
            yield* FiberSet.run(running, deliver({ owned, signature: tx.signatures[0]!, body }))
          }
        }
      }).pipe(Effect.ensuring(Effect.suspend(() => (--pending === 0 ? idleLatch.open : Effect.void))))

    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(landed), dispatch)))

    return {
      attempts: () => attempts.slice(),
      idle: idleLatch.await
    }
  })
