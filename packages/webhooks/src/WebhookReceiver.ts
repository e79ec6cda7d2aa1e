/**
 * The receiving end of webhooks, as the service documents and sends them: an @effect/platform
 * `HttpApp` to mount in any Effect HTTP server, so every team does not write the
 * same receiver and get the auth check or the retries wrong.
 *
 * Each POST goes through, in order:
 * 1. `Authorization` checked against the configured `authHeader` in constant
 *    time (SHA-256 digests of equal length compared byte by byte without an early exit):
 *    401 when wrong or missing.
 * 2. The body size: 413 when `Content-Length` says too much, or when the bytes
 *    actually streamed exceed the limit (a chunked body has no length).
 * 3. The body decoded with `WebhookDelivery.Delivery`: 400 naming the first bad
 *    path (`$[0].meta.fee`).
 * 4. Deduplication by signature within a window: the service retries on
 *    non-2xx and may deliver the same transaction twice, late or out of order.
 *    The signatures are claimed in a `DedupeStore`: this process's memory by
 *    default, or Redis (`DedupeStoreRedis`) for several receivers behind one URL.
 *    At-least-once in, once per window out. When the store cannot answer, the
 *    answer is 503 and nothing reaches the app: the service retries, nothing is lost.
 *    A claim the store took though its answer was lost (`DedupeUnavailable.outcome`)
 *    is asked again once the store answers, and what it took is handed over then.
 * 5. The new items go to a bounded queue and the request is answered 200 at
 *    once; a fiber in the receiver's scope hands them to `onEvents`, in order.
 *    When the queue is full the answer is 503, so the service retries later.
 *
 * A failing handler is logged (never with the auth value) and counted. By
 * default the request was already answered 200; with `failureStatus` the
 * receiver waits for the handler and answers that status when it fails, and
 * forgets the batch's signatures so the service's retry is processed.
 *
 * @example
 * const receiver = yield* WebhookReceiver.make({
 *   authHeader: Redacted.make(process.env.WEBHOOK_AUTH!),
 *   onEvents: (events) => Effect.log(`got ${events.length} transactions`)
 * })
 * yield* HttpServer.serveEffect(WebhookReceiver.router(receiver, "/webhooks"))
 * @since 0.1.0
 */
import * as HttpApp from "@effect/platform/HttpApp"
import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import { sha256 } from "@noble/hashes/sha2.js"
import { utf8ToBytes } from "@noble/hashes/utils.js"
import * as Json from "@solfx/core/Json"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Queue from "effect/Queue"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as DedupeStore from "./DedupeStore.js"

/**
 * How a receiver checks, bounds and hands over deliveries; only `authHeader` and `onEvents` are required.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options<E = never, R = never> {
  /** The webhook's `authHeader`: the exact `Authorization` value the service sends. */
  readonly authHeader: Redacted.Redacted<string>
  /** Receives each batch of new (deduplicated) transactions, in arrival order, one batch at a time. */
  readonly onEvents: (events: ReadonlyArray<WebhookDelivery.DeliveryItem>) => Effect.Effect<void, E, R>
  /** Largest accepted body in bytes (default 5 MiB). */
  readonly maxBodyBytes?: number | undefined
  /** How long a signature is remembered (default 15 minutes: the service's retries span about 3). */
  readonly dedupeWindow?: Duration.DurationInput | undefined
  /** Most signatures remembered at once by the in-memory store; the oldest are forgotten first (default 100,000). */
  readonly dedupeCapacity?: number | undefined
  /** Where signatures are claimed (default: this process's memory, `DedupeStore.memory`). */
  readonly dedupeStore?: DedupeStore.DedupeStore | undefined
  /** Batches waiting for the handler before the receiver answers 503 (default 1024). */
  readonly queueCapacity?: number | undefined
  /**
   * When set, the receiver waits for the handler and answers this status (e.g. 500)
   * if it fails, so the service retries. Default: answer 200 at once whatever the handler does.
   */
  readonly failureStatus?: number | undefined
}

/**
 * What the receiver has seen, for tests and dashboards.
 *
 * @since 0.1.0
 * @category models
 */
export interface Counters {
  /** Requests accepted (authorized, within the size limit, well formed). */
  readonly deliveries: number
  /** Transactions in accepted requests, duplicates included. */
  readonly received: number
  /** Transactions dropped because their signature was seen within the window. */
  readonly duplicatesDropped: number
  /** Transactions handed to `onEvents` whose batch succeeded. */
  readonly handled: number
  /** Batches whose handler failed (or died). */
  readonly handlerFailures: number
  /** Requests answered 401. */
  readonly unauthorized: number
  /** Requests answered 413. */
  readonly tooLarge: number
  /** Requests answered 400. */
  readonly malformed: number
  /** Requests answered 503 because the queue was full. */
  readonly queueFull: number
  /** Requests answered 503 because the de-duplication store could not answer. */
  readonly storeUnavailable: number
  /**
   * Transactions of a request answered 503 whose claim the store had taken though its answer was
   * lost (a timeout): asked again once the store answered, and handed over.
   */
  readonly recovered: number
}

/**
 * A running receiver.
 *
 * @since 0.1.0
 * @category models
 */
export interface Receiver {
  /** The HTTP app: mount it at the path the webhook's URL names. */
  readonly app: HttpApp.Default
  /** A snapshot of the counters. */
  readonly counters: Effect.Effect<Counters>
  /** Completes when every accepted batch has been through the handler. */
  readonly idle: Effect.Effect<void>
}

/**
 * A receiver provided by `layer`, for apps that mount it far from where it is configured.
 *
 * @since 0.1.0
 * @category tags
 */
export class WebhookReceiver extends Context.Tag("@solfx/webhooks/WebhookReceiver")<WebhookReceiver, Receiver>() {}

/**
 * Defaults of the options.
 *
 * @since 0.1.0
 * @category constants
 */
export const defaults = {
  maxBodyBytes: 5 * 1024 * 1024,
  dedupeWindow: Duration.minutes(15),
  dedupeCapacity: 100_000,
  queueCapacity: 1024
} as const

interface Job {
  readonly items: ReadonlyArray<WebhookDelivery.DeliveryItem>
  readonly signatures: ReadonlyArray<string>
  /** Set when the request waits for the handler (`failureStatus`). */
  readonly done?: Deferred.Deferred<boolean> | undefined
}

/** Bytes read and discarded past the limit before the connection is dropped. */
const DRAIN_BYTES = 1024 * 1024

class TooLarge {
  readonly _tag = "TooLarge"
}

// @noble/hashes, not node:crypto: the receiver runs on every runtime @solfx/sdk/neutral reaches.
const digest = (value: string): Uint8Array => sha256(utf8ToBytes(value))

// Both sides are 32-byte digests, so the comparison's time says nothing about where they differ.
const sameDigest = (a: Uint8Array, b: Uint8Array): boolean => {
  let diff = a.length ^ b.length
  for (let i = 0; i < a.length && i < b.length; i++) diff |= a[i]! ^ b[i]!
  return diff === 0
}

const json = (status: number, body: unknown, headers?: Record<string, string>) =>
  HttpServerResponse.text(JSON.stringify(body), {
    status,
    contentType: "application/json",
    ...(headers === undefined ? {} : { headers })
  })

const positiveInt = (name: string, value: number): number => {
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new RangeError(`WebhookReceiver: ${name} must be a positive integer`)
  }
  return value
}

/**
 * Starts a receiver in the current scope: its handler fiber stops when the scope closes.
 *
 * @example
 * import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
 * import * as HttpServer from "@effect/platform/HttpServer"
 *
 * const program = Effect.gen(function*() {
 *   const receiver = yield* WebhookReceiver.make({
 *     authHeader: Redacted.make(process.env.WEBHOOK_AUTH!),
 *     onEvents: (events) => Effect.log(`got ${events.length} transactions`)
 *   })
 *   yield* HttpServer.serveEffect(WebhookReceiver.router(receiver, "/webhooks"))
 * })
 * @since 0.1.0
 * @category constructors
 */
export const make = <E, R>(options: Options<E, R>): Effect.Effect<Receiver, never, R | Scope.Scope> =>
  Effect.gen(function*() {
    const maxBodyBytes = positiveInt("maxBodyBytes", options.maxBodyBytes ?? defaults.maxBodyBytes)
    const windowMillis = Duration.toMillis(Duration.decode(options.dedupeWindow ?? defaults.dedupeWindow))
    const dedupeCapacity = positiveInt("dedupeCapacity", options.dedupeCapacity ?? defaults.dedupeCapacity)
    const queueCapacity = positiveInt("queueCapacity", options.queueCapacity ?? defaults.queueCapacity)
    const failureStatus = options.failureStatus
    // Only the digest is kept: the secret itself never sits in the closure.
    const expected = digest(Redacted.value(options.authHeader))

    const counters = {
      deliveries: 0,
      received: 0,
      duplicatesDropped: 0,
      handled: 0,
      handlerFailures: 0,
      unauthorized: 0,
      tooLarge: 0,
      malformed: 0,
      queueFull: 0,
      storeUnavailable: 0,
      recovered: 0
    }

    const store = options.dedupeStore ?? DedupeStore.memory({ capacity: dedupeCapacity })
    // A release that fails leaves the claims to expire with the window: logged, never fatal.
    const release = (signatures: ReadonlyArray<string>) =>
      store.release(signatures).pipe(
        Effect.catchAll((e) => Effect.logWarning(`webhook receiver: ${e.message}; the claims expire with the window`))
      )

    const scope = yield* Effect.scope
    const queue = yield* Queue.dropping<Job>(queueCapacity)
    let pending = 0
    const idleLatch = yield* Effect.makeLatch(true)

    const finish = (job: Job, ok: boolean) =>
      Effect.gen(function*() {
        if (ok) counters.handled += job.items.length
        else {
          counters.handlerFailures++
          if (job.done !== undefined) yield* release(job.signatures)
        }
        if (job.done !== undefined) yield* Deferred.succeed(job.done, ok)
        pending--
        if (pending === 0) yield* idleLatch.open
      })

    const runJob = (job: Job) =>
      options.onEvents(job.items).pipe(
        Effect.exit,
        Effect.flatMap((exit) =>
          Exit.isSuccess(exit)
            ? finish(job, true)
            : Effect.zipRight(
              Effect.logWarning(
                "webhook handler failed",
                Cause.isInterruptedOnly(exit.cause) ? "interrupted" : exit.cause
              )
                .pipe(
                  Effect.annotateLogs({
                    transactions: job.items.length,
                    firstSignature: job.signatures[0] ?? ""
                  })
                ),
              finish(job, false)
            )
        )
      )

    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.take(queue), runJob)))
    yield* Effect.addFinalizer(() => Queue.shutdown(queue))

    /**
     * Reads the body, counting streamed bytes. Past the limit it stops keeping
     * bytes but reads on (up to `DRAIN_BYTES` more) so the sender gets a clean
     * 413: stopping the stream would destroy the socket before the answer is
     * written. Beyond that the connection is dropped.
     */
    const readBody = (request: HttpServerRequest.HttpServerRequest) => {
      const chunks: Array<Uint8Array> = []
      let size = 0
      return request.stream.pipe(
        Stream.runForEach((chunk): Effect.Effect<void, TooLarge> => {
          size += chunk.length
          if (size > maxBodyBytes + DRAIN_BYTES) return Effect.fail(new TooLarge())
          if (size <= maxBodyBytes) chunks.push(chunk)
          return Effect.void
        }),
        Effect.flatMap(() =>
          size > maxBodyBytes ? Effect.fail(new TooLarge()) : Effect.succeed(Buffer.concat(chunks, size))
        )
      )
    }

    const tooLarge = () => {
      counters.tooLarge++
      // Close the connection: the rest of an oversized body is not read.
      return json(413, { error: `body larger than ${maxBodyBytes} bytes` }, { connection: "close" })
    }
    const malformed = (message: string) => {
      counters.malformed++
      return json(400, { error: message })
    }

    const freshOf = (
      items: ReadonlyArray<WebhookDelivery.DeliveryItem>,
      all: ReadonlyArray<string>,
      claimed: ReadonlyArray<boolean>
    ) => {
      const fresh: Array<WebhookDelivery.DeliveryItem> = []
      const signatures: Array<string> = []
      items.forEach((item, i) => {
        if (claimed[i] === true) {
          fresh.push(item)
          signatures.push(all[i]!)
        } else counters.duplicatesDropped++
      })
      return { fresh, signatures }
    }

    /** Queues a claimed batch for the handler; when the queue is full, gives the claims back (false). */
    const handOff = (job: Job) =>
      Effect.gen(function*() {
        pending++
        yield* idleLatch.close
        if (yield* Queue.offer(queue, job)) return true
        pending--
        if (pending === 0) yield* idleLatch.open
        yield* release(job.signatures)
        counters.queueFull++
        return false
      })

    /**
     * A claim whose answer was lost may have been taken in the store: the service's retries are now
     * duplicates for every receiver, so this one asks the store (after 0.5 s, then twice as long each
     * time up to every 10 s, within the window: a long outage is not flooded with questions) which it
     * took and hands those over itself, in a fiber of the receiver's scope. The request was answered
     * 503; `idle` waits for the answer.
     */
    const recover = (
      items: ReadonlyArray<WebhookDelivery.DeliveryItem>,
      all: ReadonlyArray<string>,
      outcome: Effect.Effect<ReadonlyArray<boolean>, DedupeStore.DedupeUnavailable>
    ) =>
      Effect.gen(function*() {
        pending++
        yield* idleLatch.close
        yield* outcome.pipe(
          Effect.retry({
            schedule: Schedule.exponential(Duration.millis(500)).pipe(
              Schedule.union(Schedule.spaced(Duration.seconds(10))),
              Schedule.upTo(Duration.millis(windowMillis))
            )
          }),
          Effect.flatMap((claimed) => {
            const { fresh, signatures } = freshOf(items, all, claimed)
            counters.recovered += fresh.length
            return fresh.length === 0 ? Effect.void : handOff({ items: fresh, signatures })
          }),
          Effect.catchAll((e) =>
            Effect.logWarning(`webhook receiver: ${e.message}; a lost claim's signatures expire with the window`)
          ),
          Effect.ensuring(Effect.suspend(() => --pending === 0 ? idleLatch.open : Effect.void)),
          Effect.forkIn(scope)
        )
      })

    const app: HttpApp.Default = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      if (request.method !== "POST") return json(405, { error: "method not allowed" }, { allow: "POST" })

      const given = request.headers["authorization"]
      if (given === undefined || !sameDigest(digest(given), expected)) {
        counters.unauthorized++
        return json(401, { error: "unauthorized" })
      }

      const declared = request.headers["content-length"]
      if (declared !== undefined) {
        if (!/^\d+$/.test(declared)) return malformed("invalid Content-Length")
        if (Number(declared) > maxBodyBytes) return tooLarge()
      }
      const read = yield* Effect.either(readBody(request))
      if (Either.isLeft(read)) {
        return read.left._tag === "TooLarge" ? tooLarge() : malformed("the body could not be read")
      }

      let parsed: unknown
      try {
        parsed = Json.parse(new TextDecoder("utf-8", { fatal: true }).decode(read.right))
      } catch {
        return malformed("the body is not UTF-8 JSON")
      }
      const decoded = WebhookDelivery.decode(parsed)
      if (Either.isLeft(decoded)) {
        return malformed(`malformed delivery at ${decoded.left.path}: ${decoded.left.expected}`)
      }

      const items = decoded.right
      counters.deliveries++
      counters.received += items.length
      const all = items.map(WebhookDelivery.signatureOf)
      const claimed = yield* Effect.either(store.claim(all, windowMillis))
      if (Either.isLeft(claimed)) {
        counters.storeUnavailable++
        const outcome = claimed.left.outcome
        if (outcome !== undefined) yield* recover(items, all, outcome)
        yield* Effect.logWarning(`webhook receiver: ${claimed.left.message}; answered 503, the service retries`)
        return json(503, { error: "receiver busy" }, { "retry-after": "1" })
      }
      const { fresh, signatures } = freshOf(items, all, claimed.right)
      if (fresh.length === 0) return json(200, { accepted: 0, duplicates: items.length })

      const done = failureStatus === undefined ? undefined : yield* Deferred.make<boolean>()
      if (!(yield* handOff({ items: fresh, signatures, done }))) {
        return json(503, { error: "receiver busy" }, { "retry-after": "1" })
      }
      const body = { accepted: fresh.length, duplicates: items.length - fresh.length }
      if (done === undefined) return json(200, body)
      const ok = yield* Deferred.await(done)
      return ok ? json(200, body) : json(failureStatus!, { error: "handler failed" })
    })

    return WebhookReceiver.of({
      app,
      counters: Effect.sync(() => ({ ...counters })),
      idle: idleLatch.await
    })
  })

/**
 * The receiver as a layer: the handler fiber lives as long as the layer.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = <E, R>(options: Options<E, R>): Layer.Layer<WebhookReceiver, never, R> =>
  Layer.scoped(WebhookReceiver, make(options))

/**
 * A router answering `POST path` with the receiver, to mount or concatenate with others.
 *
 * @example
 * const router = WebhookReceiver.router(receiver, "/hooks/solana")
 * @since 0.1.0
 * @category combinators
 */
export const router = (receiver: Receiver, path: `/${string}` = "/"): HttpRouter.HttpRouter =>
  HttpRouter.empty.pipe(HttpRouter.post(path, receiver.app))
