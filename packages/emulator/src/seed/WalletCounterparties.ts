/**
 * The seeded wallets' counterparties (`wallet:<i>:counterparty:<c>`): each sees its side of the
 * transfers it made with a seeded wallet; and any seeded address's history (`seededOf`), a
 * wallet's or a counterparty's.
 *
 * @since 0.1.0
 */

import * as AQ from "../areas/AssetQueries.js"
import * as Dataset from "../Dataset.js"
import type { Entry } from "./WalletActivity.js"
import {
  activityIndex,
  COUNTERPARTIES,
  counterpartyAt,
  counterpartyOfActivity,
  entriesOf,
  entrySignature,
  historyCount,
  isFailed,
  transferCount
} from "./WalletActivity.js"
import { walletCount, walletIndex } from "./Wallets.js"

// -- counterparties: each sees its side of the transfers it made with a seeded wallet ---------

const counterparties = new WeakMap<Dataset.Dataset, ReadonlyMap<string, readonly [number, number]>>()

/** The seeded wallet and the number of a counterparty address (built once per dataset: 14,800 addresses). */
export const counterpartyOf = (ds: Dataset.Dataset, address: string): readonly [number, number] | undefined => {
  let index = counterparties.get(ds)
  if (index === undefined) {
    const all = new Map<string, readonly [number, number]>()
    for (let i = 0; i < walletCount(ds); i++) {
      for (let c = 0; c < COUNTERPARTIES; c++) all.set(counterpartyAt(ds, i, c), [i, c])
    }
    counterparties.set(ds, index = all)
  }
  return index.get(address)
}

const counterActivity = new WeakMap<Dataset.Dataset, Map<number, ReadonlyArray<ReadonlyArray<number>>>>()

/** Wallet `i`'s activity with each of its counterparties, newest first (ascending `k`), once per wallet. */
export const activityByCounterparty = (ds: Dataset.Dataset, i: number): ReadonlyArray<ReadonlyArray<number>> => {
  let cache = counterActivity.get(ds)
  if (cache === undefined) counterActivity.set(ds, cache = new Map())
  let lists = cache.get(i)
  if (lists === undefined) {
    const out = Array.from({ length: COUNTERPARTIES }, () => [] as Array<number>)
    for (let k = 0; k < historyCount(transferCount(ds, i)); k++) out[counterpartyOfActivity(ds, i, k)]!.push(k)
    cache.set(i, lists = out)
  }
  return lists
}

/**
 * What a seeded history holds for an address, newest first, and a signature's position in it: a
 * seeded wallet's own (`i` its index), a counterparty's side of its wallet's (`i` that wallet), or
 * an owner's receipts of compressed NFTs (`i` -1). `transfersOnly`: its transfers alone.
 */
export interface Seeded {
  readonly i: number
  readonly entries: Dataset.LazyList<Entry>
  readonly indexOf: (signature: string) => number | undefined
}

export const seededOf = (ds: Dataset.Dataset, address: string, transfersOnly: boolean): Seeded | undefined => {
  const i = walletIndex(ds, address)
  if (i !== undefined) {
    const entries = entriesOf(ds, i, transfersOnly)
    const indexOf = (signature: string): number | undefined => {
      const k = activityIndex(ds, i, entries.length, signature)
      // A hub's list has its fundings among the activity: find the entry (at most a few thousand).
      for (let x = k ?? 0; x < entries.length; x++) {
        const e = entries.get(x)
        if ("k" in e ? e.k === k : entrySignature(ds, i, e) === signature) return x
      }
      return undefined
    }
    return { i, entries, indexOf }
  }
  const cp = counterpartyOf(ds, address)
  if (cp !== undefined) {
    const [w, c] = cp
    const all = activityByCounterparty(ds, w)[c]!
    const ks = transfersOnly ? all.filter((k) => !isFailed(k)) : all
    const n = historyCount(transferCount(ds, w))
    return {
      i: w,
      entries: Dataset.lazyList(ks.length, (x) => ({ counter: ks[x]! })),
      indexOf: (signature) => {
        const k = activityIndex(ds, w, n, signature)
        const x = k === undefined ? -1 : ks.indexOf(k)
        return x < 0 ? undefined : x
      }
    }
  }
  const owned = transfersOnly ? undefined : AQ.ownerReceipts(ds, address)
  if (owned === undefined || owned.receipts.length === 0) return undefined
  return {
    i: -1,
    entries: Dataset.lazyList(owned.receipts.length, (x) => ({ receipt: owned.receipts.get(x) })),
    indexOf: owned.positionOf
  }
}
