/**
 * One WebSocket to one endpoint, carrying every subscription made through it:
 * JSON-RPC ids, the server's subscription ids, keep-alive, reconnection with
 * resubscription, and each subscription's bounded buffer.
 */
import * as Socket from "@effect/platform/Socket"
import * as Decode from "@solfx/core/Decode"
import { DecodeError, JsonRpcError } from "@solfx/core/Errors"
import type * as SubscriptionEndpoints from "@solfx/core/SubscriptionEndpoints"
import * as Cause from "effect/Cause"
import * as Channel from "effect/Channel"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { BufferOverflow, ConnectionLost, type Event, type Gap } from "../SubscriptionEvent.js"

/** What one subscription asks the server for, and how its notifications read. */
export interface Spec<A> {
  /** Its entry of the subscriptions table: method names, notification Schema, whether it ends after one. */
  readonly entry: SubscriptionEndpoints.SubscriptionEndpoint<string, any, any, A, any>
  readonly params: ReadonlyArray<unknown>
  readonly slotOf: (a: A) => bigint
  /**
   * Tells two notifications of one slot apart (a signature, a slot). Without it, the value
   * itself, as its JSON text: computed only when a resumption has to compare (see `notify`).
   */
  readonly keyOf?: ((a: A) => string) | undefined
}

/** The buffer of one subscription: how many notifications wait for a slow consumer, and what happens past that. */
export interface Buffer {
  readonly capacity: number
  readonly overflow: "fail" | "dropOldest"
}

export interface Settings {
  readonly url: Effect.Effect<string>
  readonly endpoint: string
  readonly pingInterval: Duration.Duration
  readonly pongTimeout: Duration.Duration
  readonly openTimeout: Duration.Duration
  readonly reconnect: Schedule.Schedule<unknown, unknown>
}

export type SubscriptionError = JsonRpcError | DecodeError | ConnectionLost | BufferOverflow

type Item = Event<unknown> | { readonly _tag: "End" } | { readonly _tag: "Failed"; readonly error: SubscriptionError }

interface Sub {
  readonly spec: Spec<unknown>
  readonly buffer: Buffer
  /**
   * What waits for the consumer, from `head` on: a buffer of our own with one waiter, woken
   * once per batch of frames (see `wake`). Effect's Queue would complete a new Deferred per
   * take and wake the taker per offer: per notification, per subscription. The waiter is the
   * resume callback of the consumer's `Effect.async` (no Deferred: nothing but it ever waits).
   */
  items: Array<Item>
  head: number
  /** Notifications in `items` (the buffer's bound counts these, not a final End or failure). */
  count: number
  /** The consumer waits for items: resuming it. */
  waiter: ((_: Effect.Effect<void>) => void) | undefined
  readonly acked: Deferred.Deferred<void, SubscriptionError>
  serverId: number | undefined
  /** Was acknowledged on an earlier socket: a new acknowledgement is a resumption. */
  live: boolean
  lastSlot: bigint | undefined
  /** The notifications of `lastSlot` (at most MAX_KEYS), as decoded and as received, for de-duplication after a resumption. */
  atLast: Array<{ readonly value: unknown; readonly raw: unknown }>
  /** The keys of `atLast`, made only when a resumption compares against them. */
  keysAtLast: Set<string> | undefined
  /** After a resumption: drop what is not newer than this slot (already seen, or replayed). */
  resumeFrom: bigint | undefined
  /** Dropped by the `dropOldest` policy since the consumer's last take. */
  dropped: number
  done: boolean
  /** The server ended it itself (a one-shot subscription that notified): no unsubscribe to send. */
  serverEnded: boolean
}

/** Keys of one slot kept for de-duplication at most; more would mean an unbounded set. */
const MAX_KEYS = 4096
const MAX_TAKE = 4096

/**
 * What a consumer takes from its subscription: what waits (at least one event), or `undefined`
 * once it ended.
 */
export type Pull<A, E = SubscriptionError> = Effect.Effect<Chunk.Chunk<Event<A>> | undefined, E>

/** The live state of one endpoint's socket, exposed to the service. */
export interface Connection {
  /** Subscribes (acknowledged when this succeeds) for as long as the scope is open. */
  readonly open: <A>(spec: Spec<A>, buffer: Buffer) => Effect.Effect<Pull<A>, SubscriptionError, Scope.Scope>
  /** Sockets opened so far (1 + reconnections). */
  readonly opened: () => number
}

class Broken {
  constructor(readonly reason: string) {}
}

/** The socket supervisor of one endpoint; it runs until its scope closes. */
export const make = (settings: Settings): Effect.Effect<Connection, never, Scope.Scope | Socket.WebSocketConstructor> =>
  Effect.gen(function*() {
    const subs = new Set<Sub>()
    const byServer = new Map<number, Sub>()
    const pending = new Map<number, (msg: any) => void>()
    let nextId = 1
    let opened = 0
    let write: ((frame: string) => Effect.Effect<void, Socket.SocketError>) | undefined
    let lost: ConnectionLost | undefined
    let seen = false

    // Subscriptions given items since the last wake: their waiting consumers are woken once,
    // after the current batch of frames (the socket delivers a read's frames in one turn).
    const dirty = new Set<Sub>()
    let waking = false
    const wake = () => {
      waking = false
      for (const sub of dirty) {
        const waiter = sub.waiter
        if (waiter !== undefined && sub.head < sub.items.length) {
          sub.waiter = undefined
          waiter(Effect.void)
        }
      }
      dirty.clear()
    }

    const offer = (sub: Sub, item: Item) => {
      if (sub.done) return
      if (item._tag === "End" || item._tag === "Failed") {
        sub.done = true
        subs.delete(sub)
        if (sub.serverId !== undefined) byServer.delete(sub.serverId)
      } else if (sub.count >= sub.buffer.capacity) {
        if (sub.buffer.overflow === "fail") {
          const error = new BufferOverflow({ method: sub.spec.entry.method, capacity: sub.buffer.capacity })
          return offer(sub, { _tag: "Failed", error })
        }
        // dropOldest: the oldest notification goes, and the consumer is told how many went.
        let oldest = sub.head
        while (oldest < sub.items.length && sub.items[oldest]!._tag !== "Notification") oldest++
        if (oldest === sub.head) sub.head++
        else sub.items.splice(oldest, 1)
        sub.count--
        sub.dropped++
      }
      if (item._tag === "Notification") sub.count++
      sub.items.push(item)
      dirty.add(sub)
      if (!waking) {
        waking = true
        queueMicrotask(wake)
      }
    }

    // Bounded: a write waits for an open socket, and the socket may be on its way out.
    const send = (frame: unknown) =>
      write === undefined
        ? Effect.void
        : Effect.ignore(Effect.timeout(write(JSON.stringify(frame)), settings.pongTimeout))

    const request = (sub: Sub) => {
      const id = nextId++
      pending.set(id, (msg) => {
        if (sub.done) {
          // Released before the server answered: the subscription it just made is ended at once.
          if (typeof msg.result === "number") {
            Effect.runFork(
              send({ jsonrpc: "2.0", id: nextId++, method: sub.spec.entry.unsubscribe, params: [msg.result] })
            )
          }
          return
        }
        if (msg.error !== undefined) {
          const error = new JsonRpcError({
            method: sub.spec.entry.method,
            code: typeof msg.error?.code === "number" ? msg.error.code : 0,
            detail: String(msg.error?.message ?? "")
          })
          Deferred.unsafeDone(sub.acked, Exit.fail(error))
          return offer(sub, { _tag: "Failed", error })
        }
        sub.serverId = msg.result
        byServer.set(msg.result, sub)
        if (sub.live) {
          // Everything between the last notification and now may be missing: the consumer is told.
          sub.resumeFrom = sub.lastSlot
          const gap: Gap = { _tag: "Gap", reason: "Reconnected", afterSlot: sub.lastSlot, dropped: undefined }
          offer(sub, gap)
        }
        sub.live = true
        Deferred.unsafeDone(sub.acked, Exit.void)
      })
      return send({ jsonrpc: "2.0", id, method: sub.spec.entry.method, params: sub.spec.params })
    }

    const keyOf = (sub: Sub, value: unknown, raw: unknown): string =>
      sub.spec.keyOf !== undefined ? sub.spec.keyOf(value) : JSON.stringify(raw)

    // The last notification's result text (see `onFrame`), its parse, and its value decoded by each
    // schema that read it: the same event's frames to other subscriptions reuse them. Values are
    // immutable, so subscriptions may share one.
    let lastText: string | undefined
    let lastParsed: unknown
    const lastDecoded = new Map<unknown, Option.Option<unknown>>()

    /**
     * `result` is plain `JSON.parse` output of `text` (the frame, or only its result when `whole` is
     * false): decoded exactly, as HTTP decodes.
     */
    const notify = (sub: Sub, result: unknown, text: string, whole: boolean) => {
      const schema = sub.spec.entry.result
      let decoded: Option.Option<unknown> | undefined
      if (text === lastText) decoded = lastDecoded.get(schema)
      if (decoded === undefined) {
        decoded = Decode.decodeFast(schema, result, text)
        if (text === lastText) lastDecoded.set(schema, decoded)
      }
      let value: unknown
      if (Option.isSome(decoded)) value = decoded.value
      else {
        const exit = Effect.runSyncExit(
          Decode.decodeWith(schema, sub.spec.entry.method, result, "$.params.result", {
            text,
            select: whole ? (frame: any) => frame?.params?.result : (r: unknown) => r
          })
        )
        if (Exit.isFailure(exit)) {
          const error = Option.getOrElse(
            Cause.failureOption(exit.cause),
            () =>
              new DecodeError({ operation: sub.spec.entry.method, path: "$.params.result", expected: "a notification" })
          )
          return offer(sub, { _tag: "Failed", error })
        }
        value = exit.value
      }
      const slot = sub.spec.slotOf(value)
      if (sub.resumeFrom !== undefined) {
        if (slot < sub.resumeFrom) return
        if (slot === sub.resumeFrom) {
          // Only here are keys compared: a notification of the slot the last socket ended on.
          sub.keysAtLast ??= new Set(sub.atLast.map((n) => keyOf(sub, n.value, n.raw)))
          if (sub.keysAtLast.has(keyOf(sub, value, result))) return
        }
        if (slot > sub.resumeFrom) sub.resumeFrom = undefined
      }
      if (sub.lastSlot === undefined || slot > sub.lastSlot) {
        sub.lastSlot = slot
        sub.atLast = [{ value, raw: result }]
        sub.keysAtLast = undefined
      } else if (slot === sub.lastSlot && sub.atLast.length < MAX_KEYS) {
        sub.atLast.push({ value, raw: result })
        if (sub.keysAtLast !== undefined) sub.keysAtLast.add(keyOf(sub, value, result))
      }
      offer(sub, { _tag: "Notification", slot, value })
      if (sub.spec.entry.once) {
        sub.serverEnded = true
        offer(sub, { _tag: "End" })
      }
    }

    let broken: Deferred.Deferred<never, Broken> | undefined

    /**
     * A notification as the service and the emulator write it,
     * `{"jsonrpc":"2.0","method":M,"params":{"result":R,"subscription":N}}`: R's text and N, parsed
     * and decoded once for all the frames of one event (they differ only in N). Anything else, or R
     * not JSON on its own, goes the general way.
     */
    const fastNotification = (text: string): boolean => {
      if (!text.startsWith(NOTIFICATION_HEAD)) return false
      const start = text.indexOf(RESULT_KEY, NOTIFICATION_HEAD.length)
      const tail = NOTIFICATION_TAIL.exec(text.length > 64 ? text.slice(-64) : text)
      // A method name with a quote or an escape in it is not one of ours: the general way.
      if (start < 0 || tail === null || /["\\]/.test(text.slice(NOTIFICATION_HEAD.length, start))) return false
      const resultText = text.slice(start + RESULT_KEY.length, text.length - tail[0].length)
      if (resultText !== lastText) {
        try {
          lastParsed = JSON.parse(resultText)
        } catch {
          return false
        }
        lastText = resultText
        lastDecoded.clear()
      }
      const sub = byServer.get(Number(tail[1]))
      if (sub !== undefined) notify(sub, lastParsed, resultText, false)
      return true
    }

    const onFrame = (data: string | Uint8Array) => {
      seen = true
      let text: string
      let msg: any
      try {
        text = typeof data === "string" ? data : utf8.decode(data)
        if (fastNotification(text)) return
        msg = JSON.parse(text)
      } catch {
        // A frame that is not JSON: the stream cannot be trusted from here, so the socket is replaced.
        if (broken !== undefined) Deferred.unsafeDone(broken, Exit.fail(new Broken("a malformed frame")))
        return
      }
      if (typeof msg !== "object" || msg === null) return
      if (typeof msg.method === "string") {
        const sub = byServer.get(msg.params?.subscription)
        if (sub !== undefined) notify(sub, msg.params.result, text, true)
        return
      }
      const answer = pending.get(msg.id)
      if (answer !== undefined) {
        pending.delete(msg.id)
        answer(msg)
      }
    }

    /** Pings on a period; no frame at all within `pongTimeout` of a ping means the socket is dead. */
    const watchdog = Effect.gen(function*() {
      while (true) {
        yield* Effect.sleep(settings.pingInterval)
        seen = false
        yield* send({ jsonrpc: "2.0", id: nextId++, method: "ping" })
        yield* Effect.sleep(settings.pongTimeout)
        if (!seen) {
          return yield* Effect.fail(new Broken(`no frame within ${Duration.format(settings.pongTimeout)} of a ping`))
        }
      }
    })

    const session = Effect.gen(function*() {
      broken = yield* Deferred.make<never, Broken>()
      const socket = yield* Socket.makeWebSocket(settings.url, { openTimeout: settings.openTimeout })
      const writer = yield* socket.writer
      const onOpen = Effect.suspend(() => {
        opened++
        write = writer
        return Effect.forEach([...subs], request, { discard: true })
      })
      const reason = yield* socket.runRaw(onFrame, { onOpen }).pipe(
        Effect.as(new Broken("closed by the server")),
        Effect.raceFirst(watchdog),
        Effect.raceFirst(Deferred.await(broken)),
        Effect.catchAll((e) =>
          Effect.succeed(e instanceof Broken ? e : new Broken(Socket.isSocketError(e) ? describe(e) : "socket failure"))
        )
      )
      return { reason, wasOpen: write === writer }
    }).pipe(
      Effect.scoped,
      Effect.ensuring(Effect.sync(() => {
        write = undefined
        pending.clear()
        byServer.clear()
        for (const sub of subs) sub.serverId = undefined
      }))
    )

    // Reconnects until the schedule gives up; a socket that opened starts the schedule over.
    const supervise = Effect.gen(function*() {
      let driver = yield* Schedule.driver(settings.reconnect)
      while (true) {
        const { reason, wasOpen } = yield* session
        if (wasOpen) driver = yield* Schedule.driver(settings.reconnect)
        const next = yield* Effect.either(driver.next(undefined))
        if (next._tag === "Left") {
          lost = new ConnectionLost({ endpoint: settings.endpoint, reason: reason.reason })
          for (const sub of [...subs]) {
            Deferred.unsafeDone(sub.acked, Exit.fail(lost))
            offer(sub, { _tag: "Failed", error: lost })
          }
          return
        }
      }
    })
    yield* Effect.forkScoped(supervise)

    const open = <A>(spec: Spec<A>, buffer: Buffer): Effect.Effect<Pull<A>, SubscriptionError, Scope.Scope> =>
      Effect.gen(function*() {
        const sub = yield* Effect.acquireRelease(
          Effect.gen(function*() {
            const sub: Sub = {
              spec: spec as Spec<unknown>,
              buffer,
              // "fail" keeps one place more than the capacity, so the failure always fits.
              items: [],
              head: 0,
              count: 0,
              waiter: undefined,
              acked: yield* Deferred.make<void, SubscriptionError>(),
              serverId: undefined,
              live: false,
              lastSlot: undefined,
              atLast: [],
              keysAtLast: undefined,
              resumeFrom: undefined,
              dropped: 0,
              done: false,
              serverEnded: false
            }
            if (lost !== undefined) return yield* Effect.fail(lost)
            subs.add(sub)
            if (write !== undefined) yield* request(sub)
            return sub
          }),
          (sub) =>
            Effect.suspend(() => {
              const serverId = sub.serverId
              const wasLive = serverId !== undefined && !sub.serverEnded
              sub.done = true
              subs.delete(sub)
              if (serverId !== undefined) byServer.delete(serverId)
              sub.items = []
              sub.head = 0
              sub.count = 0
              return (
                wasLive
                  ? send({ jsonrpc: "2.0", id: nextId++, method: spec.entry.unsubscribe, params: [serverId] })
                  : Effect.void
              )
            })
        )
        yield* Deferred.await(sub.acked)
        return pull(sub) as Pull<A>
      })

    return { open, opened: () => opened }
  })

/**
 * A subscription's events as a Stream: one channel loop over its pull, the subscription opened in a
 * scope of its own closed when the stream ends. Why not `Stream.unwrapScoped(...)` over
 * `Stream.repeatEffectChunkOption(pull)`: each of those is a layer of the channel executor that
 * every chunk goes through, and with hundreds of subscriptions on a socket each notification is a
 * chunk of its own (measured: a third of the client's CPU per notification went there).
 */
export const stream = <A, E, R>(open: Effect.Effect<Pull<A, E>, E, R | Scope.Scope>): Stream.Stream<Event<A>, E, R> =>
  Stream.fromChannel(Channel.suspend(() => {
    let scope: Scope.CloseableScope | undefined
    const start = Effect.flatMap(Scope.make(), (s) => {
      scope = s
      return Scope.extend(open, s)
    })
    return Channel.flatMap(Channel.fromEffect(start), (take) => {
      const loop: Channel.Channel<Chunk.Chunk<Event<A>>, unknown, E, unknown, void, unknown> = Channel.flatMap(
        Channel.fromEffect(take),
        (chunk) => chunk === undefined ? Channel.void : Channel.zipRight(Channel.write(chunk), loop)
      )
      return loop
    }).pipe(Channel.ensuringWith((exit) => scope === undefined ? Effect.void : Scope.close(scope, exit)))
  }))

/** Takes what waits (at least one, waiting once for the next batch when none does), a `Gap` first when the buffer dropped some. */
const pull = (sub: Sub): Pull<unknown> => {
  let end: Option.Option<SubscriptionError> | undefined
  const ended = (): Pull<unknown> => Option.isSome(end!) ? Effect.fail(end.value) : Effect.succeed(undefined)
  const take = (): Pull<unknown> => {
    const out: Array<Event<unknown>> = []
    if (sub.dropped > 0) {
      out.push({ _tag: "Gap", reason: "Overflow", afterSlot: undefined, dropped: sub.dropped })
      sub.dropped = 0
    }
    const stop = Math.min(sub.items.length, sub.head + MAX_TAKE)
    while (sub.head < stop) {
      const item = sub.items[sub.head++]!
      if (item._tag === "End") end = Option.none()
      else if (item._tag === "Failed") end = Option.some(item.error)
      else {
        if (item._tag === "Notification") sub.count--
        out.push(item)
      }
      if (end !== undefined) break
    }
    if (sub.head === sub.items.length) {
      sub.items = []
      sub.head = 0
    }
    return out.length === 0 && end !== undefined ? ended() : Effect.succeed(Chunk.unsafeFromArray(out))
  }
  const wait = Effect.zipRight(
    Effect.async<void>((resume) => {
      sub.waiter = resume
      // Interrupted while waiting: nothing may resume this consumer any more.
      return Effect.sync(() => {
        if (sub.waiter === resume) sub.waiter = undefined
      })
    }),
    Effect.suspend(take)
  )
  return Effect.suspend(() => {
    if (end !== undefined) return ended()
    if (sub.head < sub.items.length || sub.dropped > 0) return take()
    return wait
  })
}

const utf8 = new TextDecoder()

const NOTIFICATION_HEAD = `{"jsonrpc":"2.0","method":"`
const RESULT_KEY = `","params":{"result":`
const NOTIFICATION_TAIL = /,"subscription":(\d+)\}\}$/

const describe = (e: Socket.SocketError): string =>
  e.reason === "Close"
    ? `closed with code ${(e as Socket.SocketCloseError).code}`
    : e.reason === "OpenTimeout"
    ? "no open within the open timeout"
    : e.reason === "Open"
    ? "could not open"
    : "read or write failed"
