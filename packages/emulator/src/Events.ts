/**
 * Events inside one emulator instance, so areas stay independent: an area that
 * lands transactions (bundles) publishes them here, and whoever reacts (webhook
 * delivery) subscribes, without either importing the other. Publishers live in
 * the instance's shared state, so every area sees the same one.
 *
 * Listeners run synchronously inside the publishing request: they must only
 * hand the event over (to a queue) and return.
 *
 * @example
 * const unsubscribe = Events.transactionsLanded(ctx.state).subscribe((landed) => Queue.unsafeOffer(queue, landed))
 * @since 0.1.0
 */
import type * as Transaction from "@solfx/core/Transaction"
import type { AreaContext } from "./Area.js"

/**
 * A simple synchronous publish/subscribe channel.
 *
 * @since 0.1.0
 * @category models
 */
export interface Publisher<A> {
  readonly publish: (event: A) => void
  /** Adds a listener; the returned function removes it. */
  readonly subscribe: (listener: (event: A) => void) => () => void
}

/**
 * A new channel with no listeners. A listener that throws is skipped, so it cannot fail the publisher.
 *
 * @since 0.1.0
 * @category constructors
 */
export const makePublisher = <A>(): Publisher<A> => {
  const listeners = new Set<(event: A) => void>()
  return {
    publish: (event) => {
      for (const listener of [...listeners]) {
        try {
          listener(event)
        } catch {
          // A listener's bug must not fail the request that published.
        }
      }
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    }
  }
}

/**
 * Transactions that landed together (one bundle), in order, at one slot.
 *
 * @since 0.1.0
 * @category models
 */
export interface TransactionsLanded {
  readonly slot: number
  readonly transactions: ReadonlyArray<Transaction.ParsedTransaction>
  /** The bundle they landed in, when they came as one. */
  readonly bundleId?: string | undefined
}

/**
 * The instance's "transactions landed" channel.
 *
 * @example
 * Events.transactionsLanded(ctx.state).publish({ slot: ctx.slot(), transactions, bundleId })
 * @since 0.1.0
 * @category channels
 */
export const transactionsLanded = (state: AreaContext["state"]): Publisher<TransactionsLanded> =>
  state("events:transactionsLanded", () => makePublisher<TransactionsLanded>())
