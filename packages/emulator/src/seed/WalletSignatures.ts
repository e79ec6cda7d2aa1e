/**
 * An address's signatures as the standard RPC lists them: what the world landed (newest first),
 * then its seeded history; and the one lookup of a seeded signature that getSignatureStatuses,
 * getTransaction and the enhanced transactions share (`seededSignature`).
 *
 * @since 0.1.0
 */

import { decodeBase58 } from "@solfx/core/Primitives"
import type { AreaContext } from "../Area.js"
import * as AssetReceipts from "../areas/AssetReceipts.js"
import * as Dataset from "../Dataset.js"
import * as World from "../World.js"
import type { Entry } from "./WalletActivity.js"
import { entryHistory, entryType, fundingPlan, historyCount, timeOfSlot, transferCount } from "./WalletActivity.js"
import { seededOf } from "./WalletCounterparties.js"
import type { HistoryEntry } from "./Wallets.js"
import { walletAt, walletCount } from "./Wallets.js"

/**
 * The history of `wallet`: what landed since start (newest first), then its seeded entries
 * (older: `seededOf`), and the position of one of its signatures in that order.
 */
export const historyOf = (ctx: AreaContext, wallet: string) => {
  const recent = World.of(ctx.state).transactionsOf(wallet)
  const own = seededOf(ctx.dataset, wallet, false)
  const indexOf = (signature: string): number | undefined => {
    const mine = recent.findIndex((tx) => tx.signature === signature)
    if (mine >= 0) return mine
    const x = own?.indexOf(signature)
    return x === undefined ? undefined : x + recent.length
  }
  return { recent, own, indexOf }
}

/**
 * A signature of an address's history as the standard RPC lists it (getSignaturesForAddress,
 * getSignatureStatuses): `err` is the runtime's error of a failed transaction, null on success.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignedTransaction {
  readonly signature: string
  readonly slot: number
  readonly blockTime: number | null
  readonly err: unknown
  /** A seeded entry's history as the Wallet API shows it (its fee payer, type and the address's changes). */
  readonly seeded?: {
    readonly entry: HistoryEntry
    readonly type: string
    readonly wallet: string
    /** Its slot's block time, which the history may leave null (one clock for every area). */
    readonly time: number
  } | undefined
}

/** A seeded failed transaction's error as the runtime gives it (its history says "custom program error: 0x1"). */
const SEEDED_ERROR = { InstructionError: [0, { Custom: 1 }] }

/**
 * The signatures of an address, newest first, exactly those its `/history` lists, in the same
 * order (one list, `historyOf`): what landed since start, then a seeded wallet's seeded activity.
 * `indexOf` is a signature's position, or undefined for one the address does not have.
 *
 * @since 0.1.0
 * @category data
 */
export const signaturesOf = (
  ctx: AreaContext,
  address: string
): Dataset.LazyList<SignedTransaction> & { readonly indexOf: (signature: string) => number | undefined } => {
  const { indexOf: position, own, recent } = historyOf(ctx, address)
  const at = (x: number): SignedTransaction => {
    if (x >= recent.length) {
      const e = own!.entries.get(x - recent.length)
      const entry = entryHistory(ctx.dataset, own!.i, e, "balanceChanged")
      return seededSigned(ctx.dataset, entry, entryType(ctx.dataset, own!.i, e), address)
    }
    const tx = recent[x]!
    return { signature: tx.signature, slot: tx.slot, blockTime: tx.blockTime, err: tx.err }
  }
  return { ...Dataset.lazyList(recent.length + (own?.entries.length ?? 0), at), indexOf: position }
}

/** A history entry as a signature of the standard RPC. */
const signedOf = (e: HistoryEntry): SignedTransaction => ({
  signature: e.signature,
  slot: e.slot,
  blockTime: e.timestamp,
  err: e.error === null ? null : SEEDED_ERROR
})

/** A seeded history entry of `wallet` as a signature with its history. */
const seededSigned = (ds: Dataset.Dataset, entry: HistoryEntry, type: string, wallet: string): SignedTransaction => ({
  ...signedOf(entry),
  seeded: { entry, type, wallet, time: timeOfSlot(ds, entry.slot) }
})

/** Entry `e` of seeded wallet `i`, as a signature with its history. */
const signedEntry = (ds: Dataset.Dataset, i: number, e: Entry): SignedTransaction => {
  const entry = entryHistory(ds, i, e, "balanceChanged")
  return seededSigned(ds, entry, entryType(ds, i, e), walletAt(ds, i))
}

/**
 * A seeded transaction by signature, or undefined: every signature a seeded history lists (an
 * activity of a seeded wallet, which its counterparty lists too, a funding, a stake withdrawal, the
 * receipt of a compressed NFT). The one lookup of a seeded signature that getSignatureStatuses,
 * getTransaction and the enhanced transactions share. An activity signature carries its index:
 * each wallet's is compared by its bytes, without encoding (one hash per wallet); a receipt's
 * carries its asset (`AssetReceipts.receiptOfSignature`).
 *
 * @since 0.1.0
 * @category data
 */
export const seededSignature = (ctx: AreaContext, signature: string): SignedTransaction | undefined => {
  const ds = ctx.dataset
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const k = new DataView(bytes.buffer, bytes.byteOffset).getUint32(60)
  const head = bytes.subarray(0, 60)
  for (let i = 0; i < walletCount(ds); i++) {
    if (k >= historyCount(transferCount(ds, i))) continue
    const own = ds.bytes(`wallet:${i}:tx:${k}`, 60)
    if (own.every((b, x) => b === head[x])) return signedEntry(ds, i, { k })
  }
  const plan = fundingPlan(ds)
  for (const funding of plan.into) {
    if (funding?.signature === signature) return signedEntry(ds, funding.wallet, { funding })
  }
  for (const stake of plan.stakes.values()) {
    if (stake.signature === signature) return signedEntry(ds, stake.wallet, { stake })
  }
  const owned = AssetReceipts.receiptOfSignature(ds, signature)
  if (owned === undefined) return undefined
  const entry = entryHistory(ds, -1, { receipt: owned.receipt }, "balanceChanged")
  return seededSigned(ds, entry, owned.receipt.type, owned.owner)
}
