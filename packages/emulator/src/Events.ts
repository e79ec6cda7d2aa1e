/**
 * Events inside one emulator instance, so areas stay independent: the world
 * (`World`) publishes what lands, and whoever reacts (webhook delivery, WebSocket
 * subscriptions) subscribes, without either importing the other. Publishers live in
 * the instance's shared state, so every area sees the same one.
 *
 * Channels:
 * - `worldLanded`: every transaction that lands in the world, whatever made it (an
 *   accepted bundle, or a call of the world API: fund, mint, transfer, …), as a
 *   `LandedTransaction`: signature, slot, block time, fee payer, fee, `err` (null on
 *   success; a failed transaction moved only its fee), logs, and every account it
 *   touched with its owning program and its lamports and token balance before and
 *   after. Published after the change is applied, so a listener that reads the world
 *   sees it. Transactions of one event landed together (one bundle), in order.
 * - `slots`: a tick for every slot the world reaches (as time passes, when a
 *   transaction lands, or when a test advances slots), with its parent and block time.
 *
 * Listeners run synchronously inside the publishing request: they must only
 * hand the event over (to a queue) and return.
 *
 * @example
 * const unsubscribe = Events.worldLanded(ctx.state).subscribe((landed) => Queue.unsafeOffer(queue, landed))
 * Events.slots(ctx.state).subscribe((tick) => Queue.unsafeOffer(ticks, tick))
 * @since 0.1.0
 */
import type * as Transaction from "@solfx/core/Transaction"
import type { AreaContext } from "./Area.js"
import type { RawAccount } from "./Bank.js"

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
 * A channel as its readers see it: they subscribe, only the world publishes.
 *
 * @since 0.1.0
 * @category models
 */
export type Subscriber<A> = Pick<Publisher<A>, "subscribe">

/**
 * A new channel with no listeners. A listener that throws is skipped, so it cannot fail the publisher.
 * `onFirstListener` runs once, when the first listener subscribes (the slot ticker starts then).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makePublisher = <A>(onFirstListener?: () => void): Publisher<A> => {
  const listeners = new Set<(event: A) => void>()
  let first = onFirstListener
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
      if (first !== undefined) {
        const run = first
        first = undefined
        run()
      }
      return () => void listeners.delete(listener)
    }
  }
}

/**
 * Lamports and, for a token account, its token balance, before and after a transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface AccountChange {
  readonly address: string
  /** The program owning the account: the System program for wallets, the Token program for mints and token accounts. */
  readonly program: string
  readonly lamportsBefore: bigint
  readonly lamportsAfter: bigint
  readonly writable: boolean
  readonly signer: boolean
  /** For a token account: its mint, owner, decimals and raw amounts. */
  readonly token?: {
    readonly mint: string
    readonly owner: string
    readonly decimals: number
    readonly amountBefore: bigint
    readonly amountAfter: bigint
    /** The transaction made this token account (it was none before). */
    readonly created?: boolean | undefined
    /** The transaction closed this token account. */
    readonly closed?: boolean | undefined
  } | undefined
  /** For a transaction the bank executed: the account as it left it (undefined: no account). */
  readonly after?: RawAccount | undefined
}

/**
 * A SOL movement of a transaction (System transfer, tip, airdrop).
 *
 * @since 0.1.0
 * @category models
 */
export interface NativeTransfer {
  readonly from: string
  readonly to: string
  readonly lamports: bigint
}

/**
 * A token movement of a transaction. A mint has `from`/`fromTokenAccount` null; a burn `to` null.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenTransfer {
  /** Owner (wallet) of the source token account. */
  readonly from: string | null
  readonly to: string | null
  readonly fromTokenAccount: string | null
  readonly toTokenAccount: string | null
  readonly mint: string
  /** Raw amount (before decimals). */
  readonly amount: bigint
  readonly decimals: number
}

/**
 * What a transaction did, as the enhanced APIs type it.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionType = "TRANSFER" | "TOKEN_MINT" | "NFT_MINT" | "COMPRESSED_NFT_MINT" | "UNKNOWN"

/**
 * One transaction of the world, landed.
 *
 * @since 0.1.0
 * @category models
 */
export interface LandedTransaction {
  readonly signature: string
  readonly slot: number
  /** Seconds; grows with the slot (`World.blockTimeOf`). */
  readonly blockTime: number
  /** Position inside its slot. */
  readonly index: number
  readonly feePayer: string
  /** Lamports taken from the fee payer. */
  readonly fee: bigint
  /** The runtime's error (e.g. `{ InstructionError: [0, { Custom: 1 }] }`), or null on success. */
  readonly err: unknown
  readonly logs: ReadonlyArray<string>
  readonly type: TransactionType
  /** Every account it touched, fee payer first. */
  readonly accounts: ReadonlyArray<AccountChange>
  /** Empty when `err` is set: a failed transaction moves nothing but its fee. */
  readonly nativeTransfers: ReadonlyArray<NativeTransfer>
  readonly tokenTransfers: ReadonlyArray<TokenTransfer>
  /** Every program it called. */
  readonly programs: ReadonlyArray<string>
  /**
   * "bundle" for a landed bundle's transaction, "rpc" for one sent with `sendTransaction`, "world"
   * for a call of the world API (or `requestAirdrop`).
   */
  readonly source: "bundle" | "rpc" | "world"
  readonly bundleId?: string | undefined
  /** The wire transaction, for a signed one (a bundle's, a sent one). */
  readonly wire?: Transaction.ParsedTransaction | undefined
  /** What the bank's run reported, for a transaction the SVM executed. */
  readonly execution?: Execution | undefined
}

/**
 * What the SVM reported of a transaction it executed, beyond the balances: what `getTransaction`
 * shows in its `meta`.
 *
 * @since 0.1.0
 * @category models
 */
export interface Execution {
  readonly unitsConsumed: bigint
  readonly innerInstructions: ReadonlyArray<{
    readonly index: number
    readonly instructions: ReadonlyArray<{
      readonly programIdIndex: number
      readonly accounts: ReadonlyArray<number>
      readonly data: Uint8Array
      readonly stackHeight: number
    }>
  }>
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null
  /** Lookup-table entries the transaction loaded. */
  readonly loaded: { readonly writable: ReadonlyArray<string>; readonly readonly: ReadonlyArray<string> }
}

/**
 * Transactions that landed together, at one slot.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorldLanded {
  readonly slot: number
  readonly transactions: ReadonlyArray<LandedTransaction>
  readonly bundleId?: string | undefined
}

/**
 * A slot the world reached.
 *
 * @since 0.1.0
 * @category models
 */
export interface SlotTick {
  readonly slot: number
  readonly parent: number
  /** Seconds. */
  readonly blockTime: number
}

/**
 * The instance's channel of every transaction landed in the world.
 *
 * @example
 * Events.worldLanded(ctx.state).subscribe((event) => event.transactions.forEach((tx) => queue.push(tx)))
 * @since 0.1.0
 * @category channels
 */
export const worldLanded = (state: AreaContext["state"]): Publisher<WorldLanded> =>
  state("events:worldLanded", () => makePublisher<WorldLanded>())

/**
 * The instance's slot ticks.
 *
 * @example
 * Events.slots(ctx.state).subscribe((tick) => Queue.unsafeOffer(queue, tick))
 * @since 0.1.0
 * @category channels
 */
export const slots = (state: AreaContext["state"]): Publisher<SlotTick> =>
  state("events:slots", () => makePublisher<SlotTick>())
