/**
 * One WebSocket to one endpoint, carrying every subscription made through it:
 * JSON-RPC ids, the server's subscription ids, keep-alive, reconnection with
 * resubscription, and each subscription's bounded buffer.
 */
import * as Socket from "@effect/platform/Socket"
import * as Decode from "@solfx/core/Decode"
import { DecodeError, JsonRpcError } from "@solfx/core/Errors"
import * as Json from "@solfx/core/Json"
import type * as SubscriptionEndpoints from "@solfx/core/SubscriptionEndpoints"
import * as Cause from "effect/Cause"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"
import * as Stream from "effect/Stream"
import { BufferOverflow, ConnectionLost, type Event, type Gap } from "../SubscriptionEvent.js"

/** What one subscription asks the server for, and how its notifications read. */
export interface Spec<A> {
  /** Its entry of the subscriptions table: method names, notification Schema, whether it ends after one. */
  readonly entry: SubscriptionEndpoints.SubscriptionEndpoint<string, any, any, A, any>
  readonly params: ReadonlyArray<unknown>
  readonly slotOf: (a: A) => bigint
  /** Tells two notifications of one slot apart (a signature, or the value itself). */
  readonly keyOf: (a: A, raw: unknown) => string
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
  readonly queue: Queue.Queue<Item>
  readonly acked: Deferred.Deferred<void, SubscriptionError>
  serverId: number | undefined
  /** Was acknowledged on an earlier socket: a new acknowledgement is a resumption. */
  live: boolean
  lastSlot: bigint | undefined
  keysAtLast: Set<string>
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

/** The live state of one endpoint's socket, exposed to the service. */
export interface Connection {
  readonly subscribe: <A>(spec: Spec<A>, buffer: Buffer) => Stream.Stream<Event<A>, SubscriptionError>
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

    const offer = (sub: Sub, item: Item) => {
      if (sub.done) return
      if (item._tag === "End" || item._tag === "Failed") {
        sub.done = true
        subs.delete(sub)
        if (sub.serverId !== undefined) byServer.delete(sub.serverId)
      }
      if (Option.getOrElse(sub.queue.unsafeSize(), () => 0) >= sub.buffer.capacity) {
        if (sub.buffer.overflow === "fail" && !sub.done) {
          const error = new BufferOverflow({ method: sub.spec.entry.method, capacity: sub.buffer.capacity })
          return offer(sub, { _tag: "Failed", error })
        }
        // The sliding queue drops its oldest item to take this one.
        if (sub.buffer.overflow === "dropOldest") sub.dropped++
      }
      sub.queue.unsafeOffer(item)
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

    const notify = (sub: Sub, result: unknown) => {
      const decoded = Decode.decodeFast(sub.spec.entry.result, result)
      let value: unknown
      if (Option.isSome(decoded)) value = decoded.value
      else {
        const exit = Effect.runSyncExit(
          Decode.decodeWith(sub.spec.entry.result, sub.spec.entry.method, result, "$.params.result")
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
      const key = sub.spec.keyOf(value, result)
      if (sub.resumeFrom !== undefined) {
        if (slot < sub.resumeFrom || (slot === sub.resumeFrom && sub.keysAtLast.has(key))) return
        if (slot > sub.resumeFrom) sub.resumeFrom = undefined
      }
      if (sub.lastSlot === undefined || slot > sub.lastSlot) {
        sub.lastSlot = slot
        sub.keysAtLast = new Set([key])
      } else if (slot === sub.lastSlot && sub.keysAtLast.size < MAX_KEYS) sub.keysAtLast.add(key)
      offer(sub, { _tag: "Notification", slot, value })
      if (sub.spec.entry.once) {
        sub.serverEnded = true
        offer(sub, { _tag: "End" })
      }
    }

    let broken: Deferred.Deferred<never, Broken> | undefined

    const onFrame = (data: string | Uint8Array) => {
      seen = true
      let msg: any
      try {
        msg = Json.parse(typeof data === "string" ? data : new TextDecoder().decode(data))
      } catch {
        // A frame that is not JSON: the stream cannot be trusted from here, so the socket is replaced.
        if (broken !== undefined) Deferred.unsafeDone(broken, Exit.fail(new Broken("a malformed frame")))
        return
      }
      if (typeof msg !== "object" || msg === null) return
      if (typeof msg.method === "string") {
        const sub = byServer.get(msg.params?.subscription)
        if (sub !== undefined) notify(sub, msg.params.result)
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

    const subscribe = <A>(spec: Spec<A>, buffer: Buffer): Stream.Stream<Event<A>, SubscriptionError> =>
      Stream.unwrapScoped(Effect.gen(function*() {
        const sub = yield* Effect.acquireRelease(
          Effect.gen(function*() {
            const sub: Sub = {
              spec: spec as Spec<unknown>,
              buffer,
              // "fail" keeps one place more than the capacity, so the failure always fits.
              queue: yield* Queue.sliding<Item>(buffer.capacity + (buffer.overflow === "fail" ? 1 : 0)),
              acked: yield* Deferred.make<void, SubscriptionError>(),
              serverId: undefined,
              live: false,
              lastSlot: undefined,
              keysAtLast: new Set(),
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
              return Effect.zipRight(
                Queue.shutdown(sub.queue),
                wasLive
                  ? send({ jsonrpc: "2.0", id: nextId++, method: spec.entry.unsubscribe, params: [serverId] })
                  : Effect.void
              )
            })
        )
        yield* Deferred.await(sub.acked)
        return Stream.repeatEffectChunkOption(pull(sub)) as Stream.Stream<Event<A>, SubscriptionError>
      }))

    return { subscribe, opened: () => opened }
  })

/** Takes what waits (at least one), a `Gap` first when the buffer dropped some. */
const pull = (sub: Sub) => {
  let end: Option.Option<SubscriptionError> | undefined
  return Effect.suspend(() => {
    if (end !== undefined) return Effect.fail(end)
    return Effect.flatMap(Queue.takeBetween(sub.queue, 1, MAX_TAKE), (items) => {
      const out: Array<Event<unknown>> = []
      if (sub.dropped > 0) {
        out.push({ _tag: "Gap", reason: "Overflow", afterSlot: undefined, dropped: sub.dropped })
        sub.dropped = 0
      }
      for (const item of items) {
        if (item._tag === "End") end = Option.none()
        else if (item._tag === "Failed") end = Option.some(item.error)
        else out.push(item)
        if (end !== undefined) break
      }
      return out.length === 0 && end !== undefined ? Effect.fail(end) : Effect.succeed(Chunk.unsafeFromArray(out))
    })
  })
}

const describe = (e: Socket.SocketError): string =>
  e.reason === "Close"
    ? `closed with code ${(e as Socket.SocketCloseError).code}`
    : e.reason === "OpenTimeout"
    ? "no open within the open timeout"
    : e.reason === "Open"
    ? "could not open"
    : "read or write failed"
