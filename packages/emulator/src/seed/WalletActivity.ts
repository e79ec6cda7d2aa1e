/**
 * The seeded wallets' activity: transfers and history sharing signatures, slots and times; each
 * wallet's funding (its first incoming SOL, in both sides' activity); the side of each transfer a
 * counterparty sees; and the ledger, a wallet's history replayed oldest first from nothing, which
 * gives its balances at start (`ledgerOf`, `seededLamports`).
 *
 * @since 0.1.0
 */

import { decodeBase58, encodeBase58 } from "@solfx/core/Primitives"
import * as AQ from "../areas/AssetQueries.js"
import * as AssetReceipts from "../areas/AssetReceipts.js"
import * as Dataset from "../Dataset.js"
import * as World from "../World.js"
import type { HistoryEntry, Transfer } from "./Wallets.js"
import {
  activityCount,
  hasFunder,
  holding,
  NATIVE_MINT,
  nftCount,
  tokenBalance,
  tokenCount,
  ui,
  walletAt,
  walletCount,
  walletIndex,
  zeroCount
} from "./Wallets.js"

/**
 * Lamports a seeded wallet holds at start: what its history adds up to (its ledger); 0 for any
 * other address. The world (`World`) starts every account's balance here.
 *
 * @since 0.1.0
 * @category data
 */
export const seededLamports = (dataset: Dataset.Dataset, address: string): bigint => {
  const i = walletIndex(dataset, address)
  return i === undefined ? 0n : ledgerOf(dataset, i).lamports
}

/**
 * Whether an address is a seeded wallet.
 *
 * @since 0.1.0
 * @category data
 */
export const isSeededWallet = (dataset: Dataset.Dataset, address: string): boolean =>
  walletIndex(dataset, address) !== undefined

// -- activity: transfers and history share signatures, times and slots ------

/** 60 bytes from the label, then the index: the position is read back from a signature in O(1). */
const activitySignature = (dataset: Dataset.Dataset, i: number, k: number): string => {
  const bytes = new Uint8Array(64)
  bytes.set(dataset.bytes(`wallet:${i}:tx:${k}`, 60), 0)
  new DataView(bytes.buffer).setUint32(60, k)
  return encodeBase58(bytes)
}

/** The position of one of wallet `i`'s signatures, or undefined. */
export const activityIndex = (
  dataset: Dataset.Dataset,
  i: number,
  n: number,
  signature: string
): number | undefined => {
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const k = new DataView(bytes.buffer, bytes.byteOffset).getUint32(60)
  return k < n && activitySignature(dataset, i, k) === signature ? k : undefined
}

// Seeded activity is dated before the world's first slot (nothing after the indexed slot), and
// its block times are the world's one clock (`World.pastBlockTime`), so slot order and time order agree.
export const slotAt = (dataset: Dataset.Dataset, i: number, k: number) =>
  World.baseSlotOf(dataset) - 1 - k * 2250 - (i % 1000) - dataset.int(`wallet:${i}:tx:${k}:jitter`, 600)

export const timeOfSlot = World.pastBlockTime

const timestampAt = (dataset: Dataset.Dataset, i: number, k: number) => timeOfSlot(dataset, slotAt(dataset, i, k))

/** A mint the history of a wallet moves besides SOL, and the raw amount its account ends with. */
interface Held {
  readonly mint: string
  readonly decimals: number
  readonly symbol: string | null
  readonly raw: bigint
}

/**
 * What the history of wallet `i` gives, besides SOL: its tokens, its emptied mints, then its NFTs
 * with a token account (one each).
 */
const heldOf = (dataset: Dataset.Dataset, i: number): Array<Held> => {
  const tokens = tokenCount(dataset, i)
  const zeros = zeroCount(dataset, i)
  const nfts = AQ.ownerNftAccounts(dataset, walletAt(dataset, i))
  return Array.from({ length: tokens + zeros + nftCount(dataset, i) }, (_, q) => {
    if (q >= tokens + zeros) return { mint: nfts.at(q - tokens - zeros).mint, decimals: 0, symbol: null, raw: 1n }
    const j = q < tokens ? q : q - tokens
    const { decimals, mint, raw } = holding(dataset, i, j, q >= tokens)
    return { mint, decimals, symbol: tokenBalance(dataset, i, j, q >= tokens).symbol ?? null, raw }
  })
}

/** Each seeded wallet trades with this many counterparties (`wallet:<i>:counterparty:<c>`). */
export const COUNTERPARTIES = 37

export const counterpartyAt = (ds: Dataset.Dataset, i: number, c: number) => ds.address(`wallet:${i}:counterparty:${c}`)

/** Which of wallet `i`'s counterparties activity `k` is with. */
export const counterpartyOfActivity = (ds: Dataset.Dataset, i: number, k: number) =>
  ds.int(`wallet:${i}:tx:${k}:cp`, COUNTERPARTIES)

const transferAt = (dataset: Dataset.Dataset, i: number, k: number): Transfer => {
  const ledger = ledgerOf(dataset, i)
  const q = ledger.mint[k]!
  const token = q < 0 ? undefined : ledger.held[q]!
  const decimals = token?.decimals ?? 9
  const raw = ledger.raw[k]!
  return {
    signature: activitySignature(dataset, i, k),
    timestamp: timestampAt(dataset, i, k),
    direction: ledger.out[k] === 1 ? "out" : "in",
    counterparty: counterpartyAt(dataset, i, counterpartyOfActivity(dataset, i, k)),
    mint: token?.mint ?? NATIVE_MINT,
    symbol: token === undefined ? "SOL" : token.symbol,
    amount: ui(raw, decimals),
    amountRaw: raw.toString(),
    decimals
  }
}

/** One activity in 53 failed: it is in the history (with its fee) but moved nothing, so no transfer lists it. */
export const isFailed = (k: number) => k % 53 === 52

/** Activity `k` of transfer `j`: the activity without its failed transactions. */
const transferActivity = (j: number) => Math.floor(j / 52) * 53 + (j % 52)
/** The history of a wallet with `transfers` transfers: those, and the failed ones between them. */
export const historyCount = (transfers: number) => transfers === 0 ? 0 : transferActivity(transfers - 1) + 1

const HISTORY_TYPES = ["TRANSFER", "TRANSFER", "SWAP", "TRANSFER", "NFT_SALE", "STAKE"] as const

const historyTypeAt = (dataset: Dataset.Dataset, i: number, k: number) =>
  HISTORY_TYPES[dataset.int(`wallet:${i}:tx:${k}:type`, HISTORY_TYPES.length)]!

const FEE = World.FEE_PER_SIGNATURE
const FEE_SOL = ui(FEE, 9)

const historyAt = (dataset: Dataset.Dataset, i: number, k: number, tokenAccounts: string): HistoryEntry => {
  const t = transferAt(dataset, i, k)
  const ledger = ledgerOf(dataset, i)
  const pays = ledger.pays[k] === 1
  const failed = isFailed(k)
  const raw = ledger.raw[k]!
  // The wallet's own balance changes, its fee included when it paid it; a failed transaction moved
  // nothing but its fee.
  const fee = pays ? [{ mint: "SOL", amount: -FEE_SOL, decimals: 9 }] : []
  const changes = failed
    ? fee
    : t.mint === NATIVE_MINT
    ? [{ mint: "SOL", amount: ui(t.direction === "in" ? raw : -raw - (pays ? FEE : 0n), 9), decimals: 9 }]
    : [...fee, { mint: t.mint, amount: t.direction === "in" ? t.amount : -t.amount, decimals: t.decimals }]
      .filter((c) => tokenAccounts !== "none" || c.mint === "SOL")
  return {
    signature: t.signature,
    // The real service has entries whose block time is unknown: here one failed transaction in two,
    // which no transfer lists (a transfer's time is the same in /transfers and /history).
    timestamp: k % 106 === 105 ? null : t.timestamp,
    slot: slotAt(dataset, i, k),
    fee: FEE_SOL,
    feePayer: pays ? walletAt(dataset, i) : t.counterparty,
    error: failed ? "InstructionError: custom program error: 0x1" : null,
    balanceChanges: changes
  }
}

// -- funding: the first incoming SOL transfer, in both sides' activity ----------

/** Wallets 1..HUBS fund the others (and hubs with a higher index): their funders. */
const HUBS = 20

/** A funding transfer: `funder` sent `raw` lamports to `wallet` at `slot`, before any other activity of it. */
export interface Funding {
  readonly wallet: number
  readonly funder: number
  readonly slot: number
  readonly raw: bigint
  readonly signature: string
}

/**
 * The SOL of a hub no one funded (a root of the funding tree): a stake account's lamports
 * withdrawn to it, its oldest history entry. A withdrawal is not a System transfer: it is in no
 * transfer list and is no funding, so such a hub still has no funded-by.
 */
interface Stake {
  readonly wallet: number
  readonly slot: number
  readonly raw: bigint
  readonly signature: string
}

interface FundingPlan {
  /** The funding of each wallet, if it has one. */
  readonly into: ReadonlyArray<Funding | undefined>
  /** The fundings each wallet made, newest first. */
  readonly outOf: ReadonlyMap<number, ReadonlyArray<Funding>>
  /** The stake withdrawal of each hub with no funding. */
  readonly stakes: ReadonlyMap<number, Stake>
}

const plans = new WeakMap<Dataset.Dataset, FundingPlan>()

/**
 * Who funded whom, once per dataset. A hub is funded (by a hub of lower index) long before the
 * seeded activity begins, in hub order; any other wallet by a hub just before its own oldest
 * activity. So a funder was funded before it funded, and no funding has a cycle. A hub receives
 * what it pays out (with the fees) and a little more, so no funding overdraws it: computed from
 * the highest hub down, as a hub funds only hubs of higher index.
 */
export const fundingPlan = (ds: Dataset.Dataset): FundingPlan => {
  const known = plans.get(ds)
  if (known !== undefined) return known
  const n = walletCount(ds)
  const hubs = Math.min(HUBS, n - 1)
  // Up to 100 SOL: what a funding gives beyond what its wallet pays out.
  const base = (i: number) => BigInt(1 + ds.int(`wallet:${i}:funding:raw`, 100_000)) * 1_000_000n
  const funders: Array<number | undefined> = []
  for (let i = 0; i < n; i++) {
    const hub = i >= 1 && i <= hubs
    funders.push(
      !hasFunder(i) || (hub && i === 1) || hubs < 1 ? undefined : 1 + ds.int(`wallet:${i}:funder`, hub ? i - 1 : hubs)
    )
  }
  const into: Array<Funding | undefined> = new Array(n).fill(undefined)
  const outOf = new Map<number, Array<Funding>>()
  const stakes = new Map<number, Stake>()
  const owed = (i: number) => (outOf.get(i) ?? []).reduce((s, f) => s + f.raw + FEE, 0n)
  const fund = (i: number, raw: bigint, slot: number) => {
    const funder = funders[i]
    if (funder === undefined) return
    const f: Funding = { wallet: i, funder, slot, raw, signature: ds.signature(`wallet:${i}:funding`) }
    into[i] = f
    const outs = outOf.get(funder) ?? []
    outs.push(f)
    outOf.set(funder, outs)
  }
  for (let i = hubs + 1; i < n; i++) {
    fund(i, base(i), slotAt(ds, i, historyCount(activityCount(ds, i))) - 9000)
  }
  if (n > 0) fund(0, base(0), slotAt(ds, 0, historyCount(activityCount(ds, 0))) - 9000)
  const hubSlot = (i: number) => World.baseSlotOf(ds) - 10_000_000 + i * 1_000
  for (let i = hubs; i >= 1; i--) {
    const raw = owed(i) + base(i)
    if (funders[i] !== undefined) fund(i, raw, hubSlot(i))
    else stakes.set(i, { wallet: i, slot: hubSlot(i) - 500, raw, signature: ds.signature(`wallet:${i}:stake`) })
  }
  for (const outs of outOf.values()) outs.sort((a, b) => b.slot - a.slot || a.wallet - b.wallet)
  const plan = { into, outOf, stakes }
  plans.set(ds, plan)
  return plan
}

/**
 * One entry of a seeded history: activity `k` of wallet `i`, a funding in or out, a root hub's
 * stake, the receipt of a compressed NFT the address owns (`AssetReceipts`), or, for a counterparty
 * of wallet `i`, that wallet's activity `counter` seen from the other side.
 */
export type Entry =
  | { readonly k: number }
  | { readonly funding: Funding }
  | { readonly stake: Stake }
  | { readonly receipt: AssetReceipts.Receipt }
  | { readonly counter: number }

export const entrySignature = (ds: Dataset.Dataset, i: number, e: Entry) =>
  "k" in e
    ? activitySignature(ds, i, e.k)
    : "counter" in e
    ? activitySignature(ds, i, e.counter)
    : "funding" in e
    ? e.funding.signature
    : "stake" in e
    ? e.stake.signature
    : e.receipt.signature

/** Transfers of seeded wallet `i` besides its funding. */
export const transferCount = (ds: Dataset.Dataset, i: number) =>
  Math.max(0, activityCount(ds, i) - (fundingPlan(ds).into[i] === undefined ? 0 : 1))

const merged = new WeakMap<Dataset.Dataset, Map<string, ReadonlyArray<Entry>>>()

/**
 * The activity of seeded wallet `i` with its fundings, newest first: its funding in (or a root
 * hub's stake) is its oldest entry; a hub's fundings out sit among its activity by slot. Most
 * wallets have no funding out: their list is the activity, then the funding in, computed lazily.
 * `transfersOnly` leaves out what is no transfer (failed transactions, the stake).
 */
export const entriesOf = (ds: Dataset.Dataset, i: number, transfersOnly: boolean): Dataset.LazyList<Entry> => {
  const plan = fundingPlan(ds)
  const into = plan.into[i]
  const stake = plan.stakes.get(i)
  const oldest: Entry | undefined = into !== undefined
    ? { funding: into }
    : stake !== undefined && !transfersOnly
    ? { stake }
    : undefined
  const m = transferCount(ds, i)
  const n = transfersOnly ? m : historyCount(m)
  const kAt = (x: number) => transfersOnly ? transferActivity(x) : x
  const outs = plan.outOf.get(i) ?? []
  // The receipts of the compressed NFTs it owns (the sample wallet owns DAS assets): history only.
  const owned = transfersOnly ? undefined : AQ.ownerReceipts(ds, walletAt(ds, i))?.receipts
  if (outs.length === 0 && (owned === undefined || owned.length === 0)) {
    return Dataset.lazyList(n + (oldest === undefined ? 0 : 1), (x) => x < n ? { k: kAt(x) } : oldest!)
  }
  let cache = merged.get(ds)
  if (cache === undefined) merged.set(ds, cache = new Map())
  const key = `${i}:${transfersOnly}`
  let list = cache.get(key)
  if (list === undefined) {
    // Fundings out and receipts, newest first, merged into the activity by slot.
    const extras: Array<{ readonly slot: number; readonly entry: Entry }> = [
      ...outs.map((funding) => ({ slot: funding.slot, entry: { funding } })),
      ...Array.from({ length: owned?.length ?? 0 }, (_, j) => {
        const receipt = owned!.get(j)
        return { slot: receipt.slot, entry: { receipt } }
      })
    ].sort((a, b) => b.slot - a.slot)
    const out: Array<Entry> = []
    let o = 0
    for (let x = 0; x < n; x++) {
      const slot = slotAt(ds, i, kAt(x))
      while (o < extras.length && extras[o]!.slot > slot) out.push(extras[o++]!.entry)
      out.push({ k: kAt(x) })
    }
    while (o < extras.length) out.push(extras[o++]!.entry)
    if (oldest !== undefined) out.push(oldest)
    cache.set(key, list = out)
  }
  const entries = list
  return Dataset.lazyList(entries.length, (x) => entries[x]!)
}

const fundingTransfer = (ds: Dataset.Dataset, i: number, f: Funding): Transfer => {
  const incoming = f.wallet === i
  return {
    signature: f.signature,
    timestamp: timeOfSlot(ds, f.slot),
    direction: incoming ? "in" : "out",
    counterparty: walletAt(ds, incoming ? f.funder : f.wallet),
    mint: NATIVE_MINT,
    symbol: "SOL",
    amount: ui(f.raw, 9),
    amountRaw: f.raw.toString(),
    decimals: 9
  }
}

/** An entry of a transfer list (`entriesOf(…, true)`, `counterEntries(…, true)`: no stake, no receipt). */
export const entryTransfer = (ds: Dataset.Dataset, i: number, e: Entry): Transfer => {
  if ("k" in e) return transferAt(ds, i, e.k)
  if ("counter" in e) return counterTransfer(ds, i, e.counter)
  if ("funding" in e) return fundingTransfer(ds, i, e.funding)
  throw new Error("emulator: a stake withdrawal or an NFT receipt is no transfer")
}

/** Wallet `i`'s transfer `k` as its counterparty lists it: the same transfer, the other way. */
export const counterTransfer = (ds: Dataset.Dataset, i: number, k: number): Transfer => {
  const t = transferAt(ds, i, k)
  return { ...t, direction: t.direction === "in" ? "out" : "in", counterparty: walletAt(ds, i) }
}

/** Wallet `i`'s activity `k` in its counterparty's history: the same transaction, the other side's changes. */
const counterHistory = (ds: Dataset.Dataset, i: number, k: number, tokenAccounts: string): HistoryEntry => {
  const mine = historyAt(ds, i, k, tokenAccounts)
  const t = transferAt(ds, i, k)
  const raw = ledgerOf(ds, i).raw[k]!
  // The counterparty pays the fee when the wallet does not.
  const pays = mine.feePayer !== walletAt(ds, i)
  const into = t.direction === "out"
  const fee = pays ? [{ mint: "SOL", amount: -FEE_SOL, decimals: 9 }] : []
  const balanceChanges = isFailed(k)
    ? fee
    : t.mint === NATIVE_MINT
    ? [{ mint: "SOL", amount: ui((into ? raw : -raw) - (pays ? FEE : 0n), 9), decimals: 9 }]
    : [...fee, { mint: t.mint, amount: into ? t.amount : -t.amount, decimals: t.decimals }]
      .filter((c) => tokenAccounts !== "none" || c.mint === "SOL")
  return { ...mine, balanceChanges }
}

export const entryHistory = (ds: Dataset.Dataset, i: number, e: Entry, tokenAccounts: string): HistoryEntry => {
  if ("k" in e) return historyAt(ds, i, e.k, tokenAccounts)
  if ("counter" in e) return counterHistory(ds, i, e.counter, tokenAccounts)
  if ("receipt" in e) {
    // A compressed NFT has no token account: its receipt changes no balance of its owner.
    const r = e.receipt
    return {
      signature: r.signature,
      timestamp: timeOfSlot(ds, r.slot),
      slot: r.slot,
      fee: FEE_SOL,
      feePayer: r.feePayer,
      error: null,
      balanceChanges: []
    }
  }
  const { raw, signature, slot } = "funding" in e ? e.funding : e.stake
  // The funder pays the fee of its funding; a stake withdrawal's fee payer is the stake authority.
  const payer = "funding" in e ? walletAt(ds, e.funding.funder) : ds.address(`wallet:${i}:stake-authority`)
  const incoming = "stake" in e || e.funding.wallet === i
  return {
    signature,
    timestamp: timeOfSlot(ds, slot),
    slot,
    fee: FEE_SOL,
    feePayer: payer,
    error: null,
    balanceChanges: [{ mint: "SOL", amount: ui(incoming ? raw : -raw - FEE, 9), decimals: 9 }]
  }
}

export const entryType = (ds: Dataset.Dataset, i: number, e: Entry) =>
  "k" in e
    ? historyTypeAt(ds, i, e.k)
    : "counter" in e
    ? historyTypeAt(ds, i, e.counter)
    : "receipt" in e
    ? e.receipt.type
    : "funding" in e
    ? "TRANSFER"
    : "STAKE"

// -- the ledger: a seeded wallet's history replayed, its balances at start ---------------------

/**
 * What a seeded wallet's activity moved, replayed oldest first from nothing, so its balances at
 * start are what its history adds up to and no step spends what the wallet does not hold:
 * - its oldest transfers give each mint it holds, then take each emptied mint back to zero
 *   (every mint of its balances is in its history); the newest transfer of a mint brings the
 *   running amount to the balance its token account holds;
 * - another transfer goes out only when the wallet holds the amount (SOL: the amount and the fee,
 *   beyond what its fundings still to come need), else in; only a funded wallet moves SOL (its
 *   first incoming SOL is its funding);
 * - the wallet pays the fee of what it sends when it holds the SOL, else its counterparty does.
 */
interface Ledger {
  /** What it gives besides SOL (`heldOf`). */
  readonly held: ReadonlyArray<Held>
  /** Per activity: -1 for SOL, else the index in `held`. */
  readonly mint: Int32Array
  readonly out: Uint8Array
  /** Whether the wallet paid the activity's fee. */
  readonly pays: Uint8Array
  readonly raw: Array<bigint>
  /** Lamports after its last entry: its seeded balance. */
  readonly lamports: bigint
}

const ledgers = new WeakMap<Dataset.Dataset, Map<number, Ledger>>()

const ledgerOf = (ds: Dataset.Dataset, i: number): Ledger => {
  let cache = ledgers.get(ds)
  if (cache === undefined) ledgers.set(ds, cache = new Map())
  const known = cache.get(i)
  if (known !== undefined) return known
  const plan = fundingPlan(ds)
  const funded = plan.into[i] !== undefined
  const m = transferCount(ds, i)
  const n = historyCount(m)
  const tokens = tokenCount(ds, i)
  const zeros = zeroCount(ds, i)
  const held = heldOf(ds, i)
  // Later transfers move fungible tokens (an NFT's one transfer is its receipt).
  const fungible = tokens + zeros
  const mint = new Int32Array(n).fill(-1)
  const raw = new Array<bigint>(n).fill(0n)
  // The newest activity of each holding: its amount lands on the balance.
  const last = new Int32Array(held.length).fill(-1)
  // A round trip beyond 2^53: activity `k` receives `raw[k]`, the next transfer sends it back.
  const big = new Int8Array(n)
  for (let p = 0; p < m; p++) {
    const k = transferActivity(m - 1 - p)
    const label = `wallet:${i}:tx:${k}`
    const back = p > 0 && big[transferActivity(m - p)] === 1
    const q = p < held.length
      ? p
      : p < held.length + zeros
      ? tokens + p - held.length
      : back
      ? mint[transferActivity(m - p)]!
      : fungible === 0 || (funded && ds.int(`${label}:sol`, 3) === 0)
      ? -1
      : ds.int(`${label}:token`, fungible)
    mint[k] = q
    if (q < 0) {
      raw[k] = BigInt(1 + ds.int(`${label}:raw`, 1_000_000_000)) * BigInt(1 + ds.int(`${label}:mul`, 100))
    } else if (back) {
      big[k] = -1
      raw[k] = raw[transferActivity(m - p)]!
    } else if (k % 50 === 7 && p >= held.length + zeros && p + 1 < m) {
      // One token transfer in fifty moves more raw units than 2^53 (odd: no double holds it), to
      // keep u64 handling honest; sent back next, a replay of UI amounts still adds up exactly.
      big[k] = 1
      raw[k] = 2n ** 60n + 2n * BigInt(ds.int(`${label}:big`, 1_000_000_000)) + 1n
    } else {
      last[q] = k
      // Up to 10,000 tokens, as balances: exact as UI amounts.
      const r = BigInt(1 + ds.int(`${label}:raw`, 1_000_000)) * 10n ** BigInt(held[q]!.decimals) / 100n
      raw[k] = r > 0n ? r : 1n
    }
  }
  const out = new Uint8Array(n)
  const pays = new Uint8Array(n)
  const amounts = new Array<bigint>(held.length).fill(0n)
  const entries = entriesOf(ds, i, false)
  let sol = 0n
  // Lamports the fundings still to come will take.
  let reserved = (plan.outOf.get(i) ?? []).reduce((s, f) => s + f.raw + FEE, 0n)
  for (let x = entries.length - 1; x >= 0; x--) {
    const e = entries.get(x)
    if ("receipt" in e || "counter" in e) continue
    if (!("k" in e)) {
      const moved = "stake" in e ? e.stake.raw : e.funding.wallet === i ? e.funding.raw : -e.funding.raw - FEE
      if (moved < 0n) reserved += moved
      sol += moved
      continue
    }
    const k = e.k
    const wantsOut = ds.int(`wallet:${i}:tx:${k}:dir`, 2) !== 0
    const free = sol - reserved
    const q = mint[k]!
    let a = raw[k]!
    let sends: boolean
    if (isFailed(k)) {
      sends = wantsOut
    } else if (big[k] !== 0) {
      sends = big[k] === -1
    } else if (q < 0) {
      sends = wantsOut && free >= a + FEE
      sol += sends ? -a : a
    } else {
      const have = amounts[q]!
      const target = held[q]!.raw
      if (last[q] === k) {
        sends = have > target
        a = sends ? have - target : target - have
      } else {
        sends = wantsOut && have >= a
        // Never the balance before the newest transfer of the mint, so that one moves something.
        if ((sends ? have - a : have + a) === target) {
          if (sends) sends = false
          else if (have >= a) sends = true
          else a += 1n
        }
      }
      raw[k] = a
      amounts[q] = sends ? have - a : have + a
    }
    out[k] = sends ? 1 : 0
    if (sends && sol - reserved >= FEE) {
      pays[k] = 1
      sol -= FEE
    }
  }
  const ledger: Ledger = { held, mint, out, pays, raw, lamports: sol }
  cache.set(i, ledger)
  return ledger
}
