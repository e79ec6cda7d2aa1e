/**
 * The service's WebSocket subscriptions as Streams. Each method returns a
 * `Stream` of `SubscriptionEvent.Event`s: decoded notifications, and a `Gap`
 * wherever some may be missing. Every subscription of the layer shares one
 * socket per endpoint (standard and enhanced), opened by the first subscriber
 * and closed when the last one's scope closes; interrupting a stream
 * unsubscribes it. The socket is kept alive with pings, replaced when it goes
 * quiet or breaks or the server closes it (1008 for a client too slow, 1001 for a
 * server going away, as any other close), and every live subscription is made
 * again on the new one, after a `Gap`.
 * A signature subscription can backfill what a reconnection missed (`SignatureOptions.backfill`:
 * the signature's status, looked up with `getSignatureStatuses`).
 *
 * The key is read only where the socket is opened (the service authenticates a
 * WebSocket by its `api-key` query): no error, span or value solfx builds shows
 * the URL.
 *
 * @example
 * const slots = Stream.unwrap(Effect.map(Subscriptions.Subscriptions, (s) => s.slot()))
 * // Subscriptions.layer over SolfxConfig and a WebSocketConstructor (NodeSocket.layerWebSocketConstructor)
 * @since 0.1.0
 */
import * as Socket from "@effect/platform/Socket"
import * as SolfxConfig from "@solfx/core/Config"
import { InsecureTransport, InvalidRequest } from "@solfx/core/Errors"
import { open } from "@solfx/core/internal/apiKey"
import * as SubscriptionEndpoints from "@solfx/core/SubscriptionEndpoints"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as RcRef from "effect/RcRef"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import * as Connection from "./internal/connection.js"
import * as Notifications from "./Notifications.js"
import type { Event, Missed } from "./SubscriptionEvent.js"

/**
 * Everything a subscription's stream can fail with.
 *
 * @since 0.1.0
 * @category errors
 */
export type SubscriptionError = Connection.SubscriptionError | InvalidRequest | InsecureTransport

/**
 * A commitment level.
 *
 * @since 0.1.0
 * @category models
 */
export type Commitment = "processed" | "confirmed" | "finalized"

/**
 * Per-subscription options: its commitment, and its buffer. The buffer holds what
 * the consumer has not taken yet, at most `capacity` notifications (default 1,024);
 * past that, `overflow` decides: `"dropOldest"` (default) drops the oldest and
 * puts a `Gap` with the count before the next one the consumer takes, `"fail"`
 * ends the stream with `BufferOverflow`. Suspending the socket is not offered:
 * a WebSocket cannot stop reading, so a paused consumer would only move the
 * unbounded buffer elsewhere.
 *
 * @since 0.1.0
 * @category models
 */
export interface SubscribeOptions {
  /** When a change is notified: `"processed"`, `"confirmed"` or `"finalized"` (the service's default: finalized). */
  readonly commitment?: Commitment | undefined
  /** Notifications held for a slow consumer: an integer of at least 1 (default 1,024, or the service's `bufferCapacity`). */
  readonly bufferCapacity?: number | undefined
  /** A full buffer: `"dropOldest"` (default: the oldest goes, a `Gap` counts them) or `"fail"` (`BufferOverflow`). */
  readonly overflow?: "fail" | "dropOldest" | undefined
}

/**
 * Where a signature subscription looks a signature up after a reconnection: the standard RPC's
 * `getSignatureStatuses` (`@solfx/rpc/Signatures`'s service has this shape).
 *
 * @since 0.1.0
 * @category models
 */
export interface StatusSource {
  readonly getSignatureStatuses: (input: {
    readonly signatures: ReadonlyArray<string>
    readonly searchTransactionHistory?: boolean | undefined
  }) => Effect.Effect<
    {
      readonly value: ReadonlyArray<
        { readonly slot: bigint; readonly err: unknown; readonly confirmationStatus: Commitment | null } | null
      >
    },
    unknown
  >
}

/**
 * Options of `signature`: those of every subscription, and `backfill`. A WebSocket notifies a
 * signature only when it lands while subscribed, so a transaction that landed while the socket
 * was being replaced would never be told. With `backfill`, after each `Gap(Reconnected)` the
 * stream asks the source for the signature's status, and when it has reached the subscription's
 * commitment, delivers it as the notification (`backfilled: true`) and ends. A lookup that fails
 * changes nothing: the `Gap` has said that a notification may be missing.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignatureOptions extends SubscribeOptions {
  /** After a reconnection, look the signature up here (e.g. `@solfx/rpc`'s `Signatures`) and deliver it if it landed meanwhile. */
  readonly backfill?: StatusSource | undefined
}

/**
 * Where a `logs` subscription of one address (`mentions`) looks up what a reconnection missed: the
 * standard RPC's `getSignaturesForAddress` (`@solfx/rpc/Signatures`'s service has this shape).
 *
 * @since 0.1.0
 * @category models
 */
export interface SignatureListSource {
  readonly getSignaturesForAddress: (input: {
    readonly address: string
    readonly until?: string | undefined
  }) => Effect.Effect<ReadonlyArray<Missed>, unknown>
}

/**
 * Options of `logs`: those of every subscription, and `backfill` (with `mentions` only). After each
 * `Gap(Reconnected)` that follows a notification, the address's signatures since the last one
 * delivered are looked up and given in the Gap's `missed` (newest first, at most the 1,000 newest;
 * one that landed just after the new subscription took effect may also come as a notification).
 * A lookup that fails leaves the Gap without `missed`.
 *
 * @since 0.1.0
 * @category models
 */
export interface LogsOptions extends SubscribeOptions {
  /** With `mentions` only: after a reconnection, list here the address's signatures it missed (the Gap's `missed`). */
  readonly backfill?: SignatureListSource | undefined
}

/**
 * The filter of the service's enhanced transaction subscription (`SubscriptionEndpoints.transaction`).
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionFilter {
  /** Include vote transactions (default false). */
  readonly vote?: boolean | undefined
  /** Include failed transactions (default: the service's, all). */
  readonly failed?: boolean | undefined
  /** Only this transaction: a base58 signature (64 bytes). */
  readonly signature?: string | undefined
  /** Transactions touching any of these accounts (base58 addresses of 32 bytes). */
  readonly accountInclude?: ReadonlyArray<string> | undefined
  /** Not transactions touching any of these accounts (base58 addresses of 32 bytes). */
  readonly accountExclude?: ReadonlyArray<string> | undefined
  /** Only transactions touching all of these accounts (base58 addresses of 32 bytes). */
  readonly accountRequired?: ReadonlyArray<string> | undefined
}

/**
 * The subscriptions.
 *
 * @since 0.1.0
 * @category models
 */
export interface Service {
  /** An account's changes (`SubscriptionEndpoints.account`); `enhanced: true` uses the service's enhanced endpoint. */
  readonly account: (
    address: string,
    options?: SubscribeOptions & {
      /** Use the service's enhanced WebSocket endpoint (default false: the standard one). */
      readonly enhanced?: boolean | undefined
    }
  ) => Stream.Stream<Event<Notifications.Account>, SubscriptionError>
  /** Accounts owned by the program (`SubscriptionEndpoints.program`). */
  readonly program: (
    programId: string,
    options?: SubscribeOptions
  ) => Stream.Stream<Event<Notifications.Program>, SubscriptionError>
  /** A signature's status (`SubscriptionEndpoints.signature`): ends after the one notification; `backfill` finds one missed in a reconnection. */
  readonly signature: (
    signature: string,
    options?: SignatureOptions
  ) => Stream.Stream<Event<Notifications.SignatureStatus>, SubscriptionError>
  /** Logs (`SubscriptionEndpoints.logs`); with `mentions`, `backfill` lists in a reconnection's Gap what it missed. */
  readonly logs: (
    filter: "all" | "allWithVotes" | { readonly mentions: readonly [string] },
    options?: LogsOptions
  ) => Stream.Stream<Event<Notifications.Logs>, SubscriptionError>
  /** Slots (`SubscriptionEndpoints.slot`). */
  readonly slot: (options?: SubscribeOptions) => Stream.Stream<Event<Notifications.Slot>, SubscriptionError>
  /** The enhanced transaction subscription (`SubscriptionEndpoints.transaction`; full details, JSON-parsed). */
  readonly transaction: (
    filter: TransactionFilter,
    options?: SubscribeOptions
  ) => Stream.Stream<Event<Notifications.Transaction>, SubscriptionError>
  /** Sockets its current (or last) connection to each endpoint has opened: 1 + reconnections; 0 before any. */
  readonly opened: () => { readonly standard: number; readonly enhanced: number }
}

/**
 * The subscriptions service.
 *
 * @since 0.1.0
 * @category tags
 */
export class Subscriptions extends Context.Tag("@solfx/subscriptions/Subscriptions")<Subscriptions, Service>() {}

/**
 * How the sockets are kept.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  /** WebSocket URLs without the key. By default the RPC host's, with `ws(s)://`, and its `atlas-` host for enhanced. */
  readonly urls?: { readonly standard?: string | undefined; readonly enhanced?: string | undefined } | undefined
  /** A ping every this often (default 30 s). */
  readonly pingInterval?: Duration.DurationInput | undefined
  /** No frame at all this long after a ping: the socket is dead and replaced (default 10 s). */
  readonly pongTimeout?: Duration.DurationInput | undefined
  /** A socket not open after this long is a failed attempt (default 10 s). */
  readonly openTimeout?: Duration.DurationInput | undefined
  /** Between reconnection attempts; when it ends, streams fail with `ConnectionLost`. Default: exponential from 100 ms, at most 5 s apart, 10 tries. */
  readonly reconnect?: Schedule.Schedule<unknown, unknown> | undefined
  /** Default buffer of each subscription: an integer of at least 1 (default 1,024; see `SubscribeOptions`). */
  readonly bufferCapacity?: number | undefined
  /** Default for a full buffer: `"dropOldest"` (default) or `"fail"` (see `SubscribeOptions`). */
  readonly overflow?: "fail" | "dropOldest" | undefined
}

const defaultReconnect = Schedule.exponential("100 millis").pipe(
  Schedule.union(Schedule.spaced("5 seconds")),
  Schedule.intersect(Schedule.recurs(10))
)

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"])

/** The WebSocket URL of an HTTP one: same host and path, `ws(s)://`. */
const toWs = (url: string): string => url.replace(/^http(s?):\/\//, "ws$1://")

const enhancedOf = (standard: string): string => {
  const url = new URL(standard)
  return /^(mainnet|devnet)\.helius-rpc\.com$/.test(url.hostname)
    ? toWs(`${url.protocol}//atlas-${url.hostname}${url.pathname}`)
    : standard
}

/**
 * Checks a subscription's params with its table entry's Schema (the one the emulator checks
 * them with), naming the field as the caller gave it: `params[0]` is `argument`.
 */
const checked = <P>(
  entry: SubscriptionEndpoints.SubscriptionEndpoint<string, P, any, any, any>,
  params: ReadonlyArray<unknown>,
  argument: string
): Effect.Effect<void, InvalidRequest> =>
  Either.match(SubscriptionEndpoints.check(entry, params), {
    onLeft: (e) => Effect.fail(new InvalidRequest({ ...e, field: e.field.replace(/^params\[0\]/, argument) })),
    onRight: () => Effect.void
  })

const RANK: Record<Commitment, number> = { processed: 0, confirmed: 1, finalized: 2 }

/**
 * A signature's stream with each `Gap(Reconnected)` followed by a lookup of its status: when it
 * landed meanwhile (at the commitment asked), its notification, `backfilled`, and the end.
 */
const backfilled = <E>(
  live: Stream.Stream<Event<Notifications.SignatureStatus>, E>,
  signature: string,
  commitment: Commitment,
  source: StatusSource
): Stream.Stream<Event<Notifications.SignatureStatus>, E> => {
  const lookup = source.getSignatureStatuses({ signatures: [signature], searchTransactionHistory: true }).pipe(
    Effect.map(({ value }): ReadonlyArray<Event<Notifications.SignatureStatus>> => {
      const status = value[0]
      if (status == null || RANK[status.confirmationStatus ?? "processed"] < RANK[commitment]) return []
      const value_ = { context: { slot: status.slot }, value: { err: status.err ?? null } }
      return [{ _tag: "Notification", slot: status.slot, value: value_, backfilled: true }]
    }),
    // A failed lookup leaves the stream as it was: its `Gap` says a notification may be missing.
    Effect.orElseSucceed(() => [])
  )
  return live.pipe(
    Stream.flatMap((event) =>
      event._tag === "Gap" && event.reason === "Reconnected"
        ? Stream.concat(Stream.make(event), Stream.flatMap(Stream.fromEffect(lookup), Stream.fromIterable))
        : Stream.make(event)
    ),
    // One notification, live or backfilled, ends it (the live one can no longer come twice).
    Stream.takeUntil((event) => event._tag === "Notification" && event.value.value !== "receivedSignature")
  )
}

/** A logs stream whose reconnection Gaps list the address's signatures since the last one delivered. */
const missedSince = <E>(
  live: Stream.Stream<Event<Notifications.Logs>, E>,
  address: string,
  source: SignatureListSource
): Stream.Stream<Event<Notifications.Logs>, E> =>
  Stream.suspend(() => {
    // Per run of the stream: the last signature this consumer was given.
    let last: string | undefined
    return Stream.mapEffect(live, (event): Effect.Effect<Event<Notifications.Logs>> => {
      if (event._tag === "Notification") {
        last = event.value.value.signature
        return Effect.succeed(event)
      }
      if (event.reason !== "Reconnected" || last === undefined) return Effect.succeed(event)
      return source.getSignaturesForAddress({ address, until: last }).pipe(
        Effect.map((missed) => ({ ...event, missed })),
        // A failed lookup: the Gap as it was, which says notifications may be missing.
        Effect.orElseSucceed(() => event)
      )
    })
  })

/**
 * Builds the service over the config's URLs and key.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (
  options: Options = {}
): Effect.Effect<Service, never, SolfxConfig.SolfxConfig | Socket.WebSocketConstructor | Scope.Scope> =>
  Effect.gen(function*() {
    const config = yield* SolfxConfig.SolfxConfig
    const constructor = yield* Socket.WebSocketConstructor
    const standard = options.urls?.standard ?? toWs(config.urls.rpc)
    const enhanced = options.urls?.enhanced ?? enhancedOf(standard)
    const defaults = {
      capacity: options.bufferCapacity ?? 1024,
      overflow: options.overflow ?? "dropOldest"
    } as const
    const endpoint = (name: string, base: string) =>
      RcRef.make({
        acquire: Connection.make({
          endpoint: name,
          // The key joins the URL here only, as the socket opens; the URL goes nowhere else.
          url: Effect.sync(() => {
            const url = new URL(base)
            url.searchParams.set("api-key", open(config.apiKey))
            return url.toString()
          }),
          pingInterval: Duration.decode(options.pingInterval ?? "30 seconds"),
          pongTimeout: Duration.decode(options.pongTimeout ?? "10 seconds"),
          openTimeout: Duration.decode(options.openTimeout ?? "10 seconds"),
          reconnect: options.reconnect ?? defaultReconnect
        }).pipe(Effect.provideService(Socket.WebSocketConstructor, constructor))
      })
    const refs = { standard: yield* endpoint("standard", standard), enhanced: yield* endpoint("enhanced", enhanced) }
    const opened = { standard: () => 0, enhanced: () => 0 }

    // As over HTTP: the key goes in clear text only to loopback, unless the config allows it.
    const insecure = (base: string): InsecureTransport | undefined => {
      const url = new URL(base)
      return url.protocol === "ws:" && !config.allowInsecureHttp && !LOOPBACK.has(url.hostname)
        ? new InsecureTransport({ host: url.hostname })
        : undefined
    }
    const refused = { standard: insecure(standard), enhanced: insecure(enhanced) }

    const run = <A>(
      on: "standard" | "enhanced",
      argument: string,
      spec: Connection.Spec<A>,
      o: SubscribeOptions | undefined
    ): Stream.Stream<Event<A>, SubscriptionError> => {
      const capacity = o?.bufferCapacity ?? defaults.capacity
      const buffer = { capacity, overflow: o?.overflow ?? defaults.overflow }
      const refusal = refused[on]
      return Connection.stream<A, SubscriptionError, never>(Effect.gen(function*() {
        if (refusal !== undefined) return yield* Effect.fail(refusal)
        yield* checked(spec.entry, spec.params, argument)
        if (!(Number.isInteger(capacity) && capacity >= 1)) {
          return yield* Effect.fail(new InvalidRequest({ field: "bufferCapacity", rule: "an integer of at least 1" }))
        }
        const connection = yield* RcRef.get(refs[on])
        opened[on] = connection.opened
        return yield* connection.open(spec, buffer)
      }))
    }
    const config_ = (o: SubscribeOptions | undefined, extra: Record<string, unknown> = {}) => ({
      commitment: o?.commitment ?? "confirmed",
      ...extra
    })

    const T = SubscriptionEndpoints.table
    return {
      account: (address, o) =>
        run(o?.enhanced === true ? "enhanced" : "standard", "address", {
          entry: T.account,
          params: [address, config_(o, { encoding: "base64" })],
          slotOf: (n) => n.context.slot
        }, o),
      program: (programId, o) =>
        run("standard", "programId", {
          entry: T.program,
          params: [programId, config_(o, { encoding: "base64" })],
          slotOf: (n) => n.context.slot
        }, o),
      signature: (signature, o) => {
        const live = run("standard", "signature", {
          entry: T.signature,
          params: [signature, config_(o)],
          slotOf: (n) => n.context.slot
        }, o)
        return o?.backfill === undefined ? live : backfilled(live, signature, config_(o).commitment, o.backfill)
      },
      logs: (filter, o) => {
        const live = run("standard", "filter", {
          entry: T.logs,
          params: [filter, config_(o)],
          slotOf: (n) => n.context.slot,
          keyOf: (n) => n.value.signature
        }, o)
        return o?.backfill === undefined || typeof filter === "string"
          ? live
          : missedSince(live, filter.mentions[0], o.backfill)
      },
      slot: (o) =>
        run("standard", "params", {
          entry: T.slot,
          params: [],
          slotOf: (n) => n.slot,
          keyOf: (n) => String(n.slot)
        }, o),
      transaction: (filter, o) =>
        run("enhanced", "filter", {
          entry: T.transaction,
          params: [filter, {
            ...config_(o),
            encoding: "jsonParsed",
            transactionDetails: "full",
            maxSupportedTransactionVersion: 0
          }],
          slotOf: (n) => n.slot,
          keyOf: (n) => n.signature
        }, o),
      opened: () => ({ standard: opened.standard(), enhanced: opened.enhanced() })
    }
  })

/**
 * The service with its default options, over `SolfxConfig` and a `WebSocketConstructor` (Node:
 * `NodeSocket.layerWebSocketConstructor`; browsers and Deno:
 * `Socket.layerWebSocketConstructorGlobal`).
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Subscriptions, never, SolfxConfig.SolfxConfig | Socket.WebSocketConstructor> = Layer
  .scoped(Subscriptions, make())

/**
 * The service with the given options (keep-alive, reconnection, buffers, URLs),
 * over `SolfxConfig` and a `WebSocketConstructor`.
 *
 * @example
 * const live = Subscriptions.layerWith({ pingInterval: "30 seconds" })
 * @since 0.1.0
 * @category layers
 */
export const layerWith = (
  options: Options
): Layer.Layer<Subscriptions, never, SolfxConfig.SolfxConfig | Socket.WebSocketConstructor> =>
  Layer.scoped(Subscriptions, make(options))
