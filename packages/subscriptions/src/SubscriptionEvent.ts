/**
 * What a subscription's stream carries: notifications, and gaps where some may
 * be missing (never silently), and the errors that end it.
 *
 * @example
 * stream.pipe(Stream.runForEach((event) =>
 *   event._tag === "Gap" ? Console.log(`may have missed notifications after slot ${event.afterSlot}`) : Console.log(event.value)
 * ))
 * @since 0.1.0
 */
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/**
 * One decoded notification, with the slot it is about.
 *
 * @since 0.1.0
 * @category models
 */
export interface Notification<A> {
  readonly _tag: "Notification"
  readonly slot: bigint
  readonly value: A
  /** True when it was not pushed but found after a reconnection (a signature's `backfill`). */
  readonly backfilled?: true | undefined
}

/**
 * A transaction a reconnection missed, as the standard RPC lists it (getSignaturesForAddress).
 *
 * @since 0.1.0
 * @category models
 */
export interface Missed {
  readonly signature: string
  readonly slot: bigint
  readonly err: unknown
}

/**
 * Notifications may be missing here:
 * - `Reconnected`: the socket was replaced and the subscription made again; what
 *   happened after `afterSlot` (the last slot delivered, if any) and before the new
 *   subscription took effect was not pushed. Notifications the new subscription
 *   repeats (at or before `afterSlot`) are not delivered twice.
 * - `Overflow`: the consumer was slower than the notifications and the buffer's
 *   `dropOldest` policy dropped `dropped` of them.
 *
 * @since 0.1.0
 * @category models
 */
export interface Gap {
  readonly _tag: "Gap"
  readonly reason: "Reconnected" | "Overflow"
  readonly afterSlot: bigint | undefined
  readonly dropped: number | undefined
  /** What a `logs` subscription's `backfill` found missed: the address's signatures since the last delivered. */
  readonly missed?: ReadonlyArray<Missed> | undefined
}

/**
 * An element of a subscription's stream.
 *
 * @since 0.1.0
 * @category models
 */
export type Event<A> = Notification<A> | Gap

/**
 * The notifications of an event, or nothing for a gap: `Stream.filterMap(stream, SubscriptionEvent.notification)`.
 *
 * @since 0.1.0
 * @category getters
 */
export const notification = <A>(event: Event<A>): Option.Option<A> =>
  event._tag === "Notification" ? Option.some(event.value) : Option.none()

/**
 * The socket could not be opened again: the reconnection schedule gave up. `reason`
 * is what ended the last socket (never its URL: it carries the key).
 *
 * @since 0.1.0
 * @category errors
 */
export class ConnectionLost extends Schema.TaggedError<ConnectionLost>("@solfx/ConnectionLost")("ConnectionLost", {
  endpoint: Schema.String,
  reason: Schema.String
}) {
  override get message(): string {
    return `the ${this.endpoint} WebSocket was lost and could not be reopened: ${this.reason}`
  }
}

/**
 * The consumer fell `capacity` notifications behind a subscription whose buffer policy is `fail`.
 *
 * @since 0.1.0
 * @category errors
 */
export class BufferOverflow extends Schema.TaggedError<BufferOverflow>("@solfx/BufferOverflow")("BufferOverflow", {
  method: Schema.String,
  capacity: Schema.Number
}) {
  override get message(): string {
    return `${this.method}: the consumer fell ${this.capacity} notifications behind`
  }
}
