/**
 * The recent fees of the world: the priority fee (micro-lamports per compute unit) each
 * transaction of the last slots paid, and the accounts it write-locked. Computed here once, and
 * read by every method that prices a transaction: getPriorityFeeEstimate (`estimate`, percentiles
 * of these fees) and getRecentPrioritizationFees (`prioritizationFees`, each slot's minimum).
 *
 * Two sources, both deterministic for a seed and a slot:
 * - the transactions of the ledger (`World.transactions`): a transaction's fee is the price its
 *   Compute Budget `SetComputeUnitPrice` instruction set (0 without one, as the runtime charges;
 *   the world API's transactions have none);
 * - the cluster's other traffic, which the emulator does not list anywhere else: in each slot a
 *   few to a few dozen transactions on a handful of contended accounts (`hotAccounts`), their fees
 *   drawn from the seed and the slot (a third pay nothing, the others from 1 to about 10^6, more on
 *   the busier accounts, in waves over a few hundred slots). So an estimate is never empty, and it
 *   moves as the ledger's own transactions pay more.
 *
 * @example
 * const recent = RecentFees.recent({ dataset, slot: world.slot(), transactions: world.transactions }, 150)
 * RecentFees.levels(recent.map((f) => f.fee)) // { min, low, medium, high, veryHigh, unsafeMax }
 * @since 0.1.0
 */
import * as PriorityFeeEstimate from "@solfx/core/PriorityFeeEstimate"
import type { Dataset } from "./Dataset.js"
import type * as Events from "./Events.js"

/**
 * The Compute Budget program, whose `SetComputeUnitPrice` (tag 3, a u64 little-endian) sets a
 * transaction's priority fee.
 *
 * @since 0.1.0
 * @category constants
 */
export const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111"

/**
 * The floor of the recommendation (`recommended: true`): the Medium level, at least this much,
 * as the service documents its recommendation.
 *
 * @since 0.1.0
 * @category constants
 */
export const MIN_RECOMMENDED = 10_000

/**
 * Contended accounts of the seeded traffic.
 *
 * @since 0.1.0
 * @category constants
 */
export const HOT_ACCOUNTS = 6

/**
 * One fee paid: the slot, the accounts the transaction write-locked, micro-lamports per compute unit.
 *
 * @since 0.1.0
 * @category models
 */
export interface Fee {
  readonly slot: number
  readonly writable: ReadonlyArray<string>
  readonly fee: number
}

/**
 * What the fees are read from: the seed, the current slot and the ledger's transactions (oldest first).
 *
 * @since 0.1.0
 * @category models
 */
export interface Source {
  readonly dataset: Dataset
  readonly slot: number
  readonly transactions: () => ReadonlyArray<Events.LandedTransaction>
}

/**
 * The contended accounts of the seeded traffic (the seed's; the busier first).
 *
 * @since 0.1.0
 * @category data
 */
export const hotAccounts = (dataset: Dataset): ReadonlyArray<string> =>
  Array.from({ length: HOT_ACCOUNTS }, (_, j) => dataset.address(`fees:hot:${j}`))

/**
 * The priority fee a ledger transaction paid: its `SetComputeUnitPrice`, else 0.
 *
 * @since 0.1.0
 * @category data
 */
export const computeUnitPriceOf = (tx: Events.LandedTransaction): number => {
  for (const ix of tx.wire?.instructions ?? []) {
    if (ix.programId !== COMPUTE_BUDGET_PROGRAM || ix.data.length < 9 || ix.data[0] !== 3) continue
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength)
    return Number(view.getBigUint64(1, true))
  }
  return 0
}

/** A small generator of one slot's traffic: one hash a slot, then arithmetic (mulberry32). */
const generator = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

// A slot's seeded traffic never changes: kept per dataset, the most recent slots only.
const cache = new WeakMap<Dataset, Map<number, ReadonlyArray<Fee>>>()
const CACHED_SLOTS = 2_000

/**
 * The seeded traffic of one slot.
 *
 * @since 0.1.0
 * @category data
 */
export const seededFees = (dataset: Dataset, slot: number): ReadonlyArray<Fee> => {
  let bySlot = cache.get(dataset)
  if (bySlot === undefined) cache.set(dataset, bySlot = new Map())
  const known = bySlot.get(slot)
  if (known !== undefined) return known
  const hot = hotAccounts(dataset)
  const next = generator(dataset.int(`fees:slot:${slot}`, 2 ** 31))
  // Waves of congestion over a few hundred slots, the same for every seed's slot numbering.
  const phase = dataset.int("fees:phase", 1000)
  const wave = 1 + Math.sin((slot + phase) / 80)
  const count = 4 + Math.floor(next() * 32)
  const out: Array<Fee> = []
  for (let t = 0; t < count; t++) {
    // The busier accounts are drawn more often, and pay more.
    const j = Math.floor(next() * next() * HOT_ACCOUNTS)
    const free = next() < 0.34
    const fee = free ? 0 : Math.round(10 ** (next() * 5) * (HOT_ACCOUNTS - j) * wave)
    out.push({ slot, writable: [hot[j]!], fee })
  }
  if (bySlot.size >= CACHED_SLOTS) bySlot.delete(bySlot.keys().next().value!)
  bySlot.set(slot, out)
  return out
}

/**
 * The fees of the last `lookback` slots up to the current one (both sources), oldest slot first.
 *
 * @since 0.1.0
 * @category data
 */
export const recent = (source: Source, lookback: number): ReadonlyArray<Fee> => {
  const first = source.slot - lookback + 1
  const out: Array<Fee> = []
  for (let s = first; s <= source.slot; s++) out.push(...seededFees(source.dataset, s))
  const txs = source.transactions()
  const landed: Array<Fee> = []
  for (let x = txs.length - 1; x >= 0; x--) {
    const tx = txs[x]!
    if (tx.slot < first) break
    if (tx.slot > source.slot) continue
    landed.push({
      slot: tx.slot,
      writable: tx.accounts.filter((a) => a.writable).map((a) => a.address),
      fee: computeUnitPriceOf(tx)
    })
  }
  return out.concat(landed.reverse())
}

/**
 * The `p`th percentile of fees sorted ascending (nearest rank; 0 is the least), 0 when there are none.
 *
 * @since 0.1.0
 * @category math
 */
export const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!

/**
 * The six levels of some fees: their percentiles 0, 25, 50, 75, 95 and 100.
 *
 * @since 0.1.0
 * @category math
 */
export const levels = (fees: ReadonlyArray<number>): PriorityFeeEstimate.PriorityFeeLevels => {
  const sorted = [...fees].sort((a, b) => a - b)
  const [min, low, medium, high, veryHigh, unsafeMax] = PriorityFeeEstimate.PERCENTILES.map((p) =>
    percentile(sorted, p)
  )
  return { min: min!, low: low!, medium: medium!, high: high!, veryHigh: veryHigh!, unsafeMax: unsafeMax! }
}

const detailOf = (fees: ReadonlyArray<number>): PriorityFeeEstimate.PriorityFeeDetail => {
  const n = fees.length
  const mean = n === 0 ? 0 : fees.reduce((s, f) => s + f, 0) / n
  const stdev = n === 0 ? 0 : Math.sqrt(fees.reduce((s, f) => s + (f - mean) ** 2, 0) / n)
  return { estimates: levels(fees), mean: Math.round(mean), stdev: Math.round(stdev), skew: null, count: n }
}

/**
 * What an estimate is asked: the accounts the transaction locks, and the request's options.
 *
 * @since 0.1.0
 * @category models
 */
export interface EstimateRequest {
  readonly accounts: ReadonlyArray<string>
  readonly options?: typeof PriorityFeeEstimate.PriorityFeeOptions.Type | undefined
}

/**
 * getPriorityFeeEstimate over the recent fees. Each account's levels are the percentiles of the
 * fees of the transactions that write-locked it (with `evaluateEmptySlotAsZero`, a slot where it
 * was not locked counts a 0); the answer takes, level by level, the highest of the accounts'
 * (the contended account prices the transaction). With no fee on any account, the levels of
 * every recent fee (`Global`) answer.
 *
 * @since 0.1.0
 * @category estimates
 */
export const estimate = (source: Source, request: EstimateRequest): PriorityFeeEstimate.PriorityFeeEstimate => {
  const options = request.options ?? {}
  const lookback = options.lookbackSlots ?? PriorityFeeEstimate.MAX_LOOKBACK_SLOTS
  const fees = recent(source, lookback)
  const byAccount = new Map<string, Array<number>>(request.accounts.map((a) => [a, []]))
  const slotsOf = new Map<string, Set<number>>()
  for (const f of fees) {
    for (const a of f.writable) {
      const list = byAccount.get(a)
      if (list === undefined) continue
      list.push(f.fee)
      let slots = slotsOf.get(a)
      if (slots === undefined) slotsOf.set(a, slots = new Set())
      slots.add(f.slot)
    }
  }
  if (options.evaluateEmptySlotAsZero === true) {
    for (const [a, list] of byAccount) {
      const seen = slotsOf.get(a)?.size ?? 0
      for (let s = seen; s < lookback; s++) list.push(0)
    }
  }
  const global = fees.map((f) => f.fee)
  const counted = [...byAccount.entries()].filter(([, list]) => list.length > 0)
  const perAccount = counted.map(([, list]) => levels(list))
  const chosen = perAccount.length === 0 ? levels(global) : perAccount.reduce((acc, l) => ({
    min: Math.max(acc.min, l.min),
    low: Math.max(acc.low, l.low),
    medium: Math.max(acc.medium, l.medium),
    high: Math.max(acc.high, l.high),
    veryHigh: Math.max(acc.veryHigh, l.veryHigh),
    unsafeMax: Math.max(acc.unsafeMax, l.unsafeMax)
  }))
  const details = options.includeDetails === true
    ? {
      priorityFeeEstimateDetails: [
        ...counted.map(([a, list]) => [a, detailOf(list)] as const),
        ["Global", detailOf(global)] as const
      ]
    }
    : {}
  if (options.includeAllPriorityFeeLevels === true) return { priorityFeeLevels: chosen, ...details }
  const value = options.recommended === true
    ? Math.max(chosen.medium, MIN_RECOMMENDED)
    : chosen[PriorityFeeEstimate.levelKey(options.priorityLevel ?? "Medium")]
  return { priorityFeeEstimate: value, ...details }
}

/**
 * getRecentPrioritizationFees over the recent fees: for each of the last 150 slots, oldest first,
 * the least fee a transaction of the slot paid, raised to the least fee paid by a transaction
 * write-locking each given account (as a validator's prioritization fee cache answers).
 *
 * @since 0.1.0
 * @category estimates
 */
export const prioritizationFees = (
  source: Source,
  accounts: ReadonlyArray<string>
): ReadonlyArray<{ readonly slot: number; readonly prioritizationFee: number }> => {
  const wanted = new Set(accounts)
  const bySlot = new Map<number, { least: number; perAccount: Map<string, number> }>()
  for (const f of recent(source, PriorityFeeEstimate.MAX_LOOKBACK_SLOTS)) {
    let slot = bySlot.get(f.slot)
    if (slot === undefined) bySlot.set(f.slot, slot = { least: Infinity, perAccount: new Map() })
    slot.least = Math.min(slot.least, f.fee)
    for (const a of f.writable) {
      if (wanted.has(a)) slot.perAccount.set(a, Math.min(slot.perAccount.get(a) ?? Infinity, f.fee))
    }
  }
  return [...bySlot.entries()].sort(([a], [b]) => a - b).map(([slot, { least, perAccount }]) => ({
    slot,
    prioritizationFee: Math.max(least, ...perAccount.values())
  }))
}
