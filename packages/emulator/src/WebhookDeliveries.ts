/**
 * Webhook delivery, as the service documents it: when transactions land (the
 * `Events.worldLanded` channel), each one that touches a monitored
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
 * - An answer after `attemptTimeout` counts as a failed attempt and is retried, though the receiver
 *   may have processed it: the receiver then sees the transaction again.
 * - `faults` make deliveries as the service's retries and network make them, each at its own rate
 *   (seeded, so a run repeats): `duplicate` posts a delivery twice, `reorder` lets the next delivery
 *   to the same webhook go first, `delay` posts it `delayMs` late. Receivers are tested against them.
 *
 * The payloads are built from the landed transaction (a bundle's from its wire form) and encoded with
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
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberSet from "effect/FiberSet"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import type * as Scope from "effect/Scope"
import type { AreaContext, Project } from "./Area.js"
import type { Dataset } from "./Dataset.js"
import * as EnhancedTransactions from "./EnhancedTransactions.js"
import * as Events from "./Events.js"
import { prng } from "./Faults.js"

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
  /** Deliveries as retries and networks make them (none by default). */
  readonly faults?: DeliveryFaults | undefined
}

/**
 * The delivery faults: each a probability (0..1) per delivery, drawn from a generator seeded by
 * `seed` (default: the emulator's seed).
 *
 * @since 0.1.0
 * @category models
 */
export interface DeliveryFaults {
  /** The delivery is posted a second time right after the first, whatever the first's answer. */
  readonly duplicate?: number | undefined
  /** The delivery waits until the next one to the same webhook has been posted (at most `delayMs`). */
  readonly reorder?: number | undefined
  /** The delivery is posted `delayMs` late. */
  readonly delay?: number | undefined
  /** How late a delayed delivery is, and how long a reordered one waits at most (default 1,000 ms). */
  readonly delayMs?: number | undefined
  readonly seed?: number | undefined
}

/**
 * The delivery fault kinds, as `solfx emulator --delivery-faults` names them.
 *
 * @since 0.1.0
 * @category constants
 */
export const deliveryFaultKinds = ["duplicate", "reorder", "delay"] as const

/**
 * What is wrong with delivery faults, if anything (a rate outside 0..1, a negative delay).
 *
 * @since 0.1.0
 * @category validation
 */
export const deliveryFaultsProblem = (faults: DeliveryFaults): string | undefined => {
  for (const kind of deliveryFaultKinds) {
    const rate = faults[kind]
    if (rate !== undefined && !(rate >= 0 && rate <= 1)) return `delivery fault ${kind} must be a rate from 0 to 1`
  }
  const delayMs = faults.delayMs
  return delayMs !== undefined && !(Number.isFinite(delayMs) && delayMs >= 0)
    ? "delivery fault delayMs must be a number of milliseconds, 0 or more"
    : undefined
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
  /** From the request sent to its answer (or to giving up), in milliseconds. */
  readonly latencyMs: number
  /** The delivery fault this attempt was made under, if any. */
  readonly fault?: (typeof deliveryFaultKinds)[number] | undefined
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

const kindOf = (webhookType: string): "enhanced" | "raw" | undefined =>
  webhookType === "enhanced" || webhookType === "enhancedDevnet"
    ? "enhanced"
    : webhookType === "raw" || webhookType === "rawDevnet"
    ? "raw"
    : undefined

/**
 * An enhanced item for a landed transaction: the one builder (`EnhancedTransactions.enhancedOf`),
 * which the enhanced transactions API serves too.
 *
 * @since 0.1.0
 * @category payloads
 */
export const enhancedOf = EnhancedTransactions.enhancedOf

const tokenBalance = (index: number, a: Events.AccountChange, amount: bigint): WebhookDelivery.TokenBalance => ({
  accountIndex: index,
  mint: a.token!.mint as WebhookDelivery.TokenBalance["mint"],
  owner: a.token!.owner as WebhookDelivery.TokenBalance["mint"],
  programId: a.program as WebhookDelivery.TokenBalance["mint"],
  uiTokenAmount: {
    amount,
    decimals: a.token!.decimals,
    uiAmount: Number(amount) / 10 ** a.token!.decimals
  }
})

/**
 * A raw item for a landed transaction. A bundle's carries its wire message; a
 * transaction of the world API (no wire form) lists its touched accounts, signers
 * first, with no instructions. Balances are the world's, before and after.
 *
 * @since 0.1.0
 * @category payloads
 */
export const rawOf = (tx: Events.LandedTransaction, dataset: Dataset): WebhookDelivery.RawTransaction => {
  const wire = tx.wire
  const byAddress = new Map(tx.accounts.map((a) => [a.address, a]))
  const signers = tx.accounts.filter((a) => a.signer)
  const others = tx.accounts.filter((a) => !a.signer)
  const keys = wire?.staticKeys ?? [...signers, ...others].map((a) => a.address).concat(
    tx.programs.filter((p) => !byAddress.has(p))
  )
  // An account the world did not report (a program) holds its rent-exempt lamport, unchanged.
  const pre = keys.map((k) => byAddress.get(k)?.lamportsBefore ?? 1n)
  const post = keys.map((k) => byAddress.get(k)?.lamportsAfter ?? 1n)
  const tokens = keys.flatMap((k, i) => {
    const a = byAddress.get(k)
    return a?.token === undefined ? [] : [{ i, a }]
  })
  const addresses = keys as unknown as WebhookDelivery.RawTransaction["transaction"]["message"]["accountKeys"]
  return {
    kind: "raw",
    slot: tx.slot,
    blockTime: Option.some(tx.blockTime),
    indexWithinBlock: tx.index,
    version: wire?.version ?? "legacy",
    meta: {
      err: tx.err,
      fee: tx.fee,
      preBalances: pre,
      postBalances: post,
      innerInstructions: [],
      loadedAddresses: { writable: [], readonly: [] },
      logMessages: [...tx.logs],
      preTokenBalances: tokens.map(({ a, i }) => tokenBalance(i, a, a.token!.amountBefore)),
      postTokenBalances: tokens.map(({ a, i }) => tokenBalance(i, a, a.token!.amountAfter)),
      rewards: []
    },
    transaction: {
      message: {
        accountKeys: addresses,
        header: wire === undefined
          ? {
            numRequiredSignatures: Math.max(1, signers.length),
            numReadonlySignedAccounts: 0,
            numReadonlyUnsignedAccounts: keys.length - signers.length - others.filter((a) => a.writable).length
          }
          : {
            numRequiredSignatures: wire.header.numRequiredSignatures,
            numReadonlySignedAccounts: wire.header.numReadonlySigned,
            numReadonlyUnsignedAccounts: wire.header.numReadonlyUnsigned
          },
        instructions: wire?.instructions.map((ix) => ({
          programIdIndex: ix.programIdIndex,
          accounts: ix.accounts.map((a) => a.index),
          data: encodeBase58(ix.data),
          stackHeight: null
        })) ?? [],
        recentBlockhash: wire?.recentBlockhash ?? encodeBase58(dataset.bytes(`webhook:blockhash:${tx.slot}`, 32)),
        ...(wire === undefined || wire.version === "legacy" ? {} : {
          addressTableLookups: wire.lookups.map((l) => ({
            accountKey: l.table,
            writableIndexes: l.writableIndexes,
            readonlyIndexes: l.readonlyIndexes
          }))
        })
      },
      signatures: (wire?.signatures ?? [tx.signature]) as unknown as WebhookDelivery.RawTransaction["transaction"][
        "signatures"
      ]
    }
  }
}

/**
 * Whether a webhook wants a transaction: it touched a monitored account (or
 * called a monitored program); the enhanced kinds want a listed type (or `ANY`)
 * and, as the service documents, no failed transaction; `txnStatus` keeps only
 * successes (`success`) or only failures (`failed`).
 *
 * @since 0.1.0
 * @category payloads
 */
export const matches = (webhook: Target, tx: Events.LandedTransaction): boolean => {
  const kind = kindOf(webhook.webhookType)
  if (kind === undefined) return false
  const failed = tx.err !== null && tx.err !== undefined
  if ((kind === "enhanced" || webhook.txnStatus === "success") && failed) return false
  if (webhook.txnStatus === "failed" && !failed) return false
  const watched = new Set(webhook.accountAddresses)
  const touched = tx.accounts.some((a) =>
    watched.has(a.address) || (a.token !== undefined && watched.has(a.token.owner))
  )
  if (!touched && !tx.programs.some((p) => watched.has(p))) return false
  return kind === "raw" || webhook.transactionTypes.includes("ANY") || webhook.transactionTypes.includes(tx.type)
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
    const faults = options.faults ?? {}
    const problem = deliveryFaultsProblem(faults)
    if (problem !== undefined) throw new RangeError(problem)
    const faultDelay = Duration.millis(faults.delayMs ?? 1_000)
    const random = prng(faults.seed ?? params.dataset.int("webhook:delivery-faults", 2 ** 31))
    const draw = (kind: (typeof deliveryFaultKinds)[number]) => (faults[kind] ?? 0) > 0 && random() < faults[kind]!
    // A reordered delivery waits here until the next delivery to its webhook has been posted.
    const held = new Map<string, Array<Deferred.Deferred<void>>>()
    const posted = (webhookID: string) =>
      Effect.forEach(held.get(webhookID)?.splice(0) ?? [], (d) => Deferred.succeed(d, undefined), { discard: true })

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

    const attempt = (job: Job, n: number, fault?: (typeof deliveryFaultKinds)[number]) =>
      Effect.gen(function*() {
        const { project, webhook } = job.owned
        project.usage.webhook = (project.usage.webhook ?? 0) + 1
        const sentAt = params.now()
        const status = yield* post(job)
        yield* posted(webhook.webhookID)
        const ok = status >= 200 && status < 300
        const at = params.now()
        attempts.push({
          webhookID: webhook.webhookID,
          signature: job.signature,
          attempt: n,
          status,
          ok,
          at,
          latencyMs: at - sentAt,
          ...(fault === undefined ? {} : { fault })
        })
        return ok
      })

    const deliver = (job: Job) =>
      Effect.gen(function*() {
        const { webhook } = job.owned
        if (draw("reorder")) {
          const turn = yield* Deferred.make<void>()
          held.set(webhook.webhookID, [...(held.get(webhook.webhookID) ?? []), turn])
          yield* Deferred.await(turn).pipe(Effect.timeout(faultDelay), Effect.ignore)
        }
        if (draw("delay")) yield* Effect.sleep(faultDelay)
        const duplicate = draw("duplicate")
        for (let n = 1; n <= maxRetries + 1; n++) {
          if (!webhook.active) return
          if (n > 1) yield* Effect.sleep(spacing)
          if (!webhook.active) return
          const ok = yield* attempt(job, n)
          // The service resends what it thinks was lost: the receiver gets it twice.
          if (n === 1 && duplicate) yield* attempt(job, n, "duplicate")
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

    const landed = yield* Queue.unbounded<Events.WorldLanded>()
    const unsubscribe = Events.worldLanded(params.state).subscribe((event) => {
      pending++
      idleLatch.unsafeClose()
      Queue.unsafeOffer(landed, event)
    })
    yield* Effect.addFinalizer(() => Effect.sync(unsubscribe))

    const dispatch = (event: Events.WorldLanded) =>
      Effect.gen(function*() {
        const hooks = params.webhooks().filter((o) => o.webhook.active)
        for (const tx of event.transactions) {
          for (const owned of hooks) {
            if (!matches(owned.webhook, tx)) continue
            const item = kindOf(owned.webhook.webhookType) === "raw" ? rawOf(tx, params.dataset) : enhancedOf(tx)
            const body = Json.stringify(WebhookDelivery.encode([item]))
            pending++
            yield* FiberSet.run(running, deliver({ owned, signature: tx.signature, body }))
          }
        }
      }).pipe(Effect.ensuring(Effect.suspend(() => (--pending === 0 ? idleLatch.open : Effect.void))))

    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(landed), dispatch)))

    return {
      attempts: () => attempts.slice(),
      idle: idleLatch.await
    }
  })
