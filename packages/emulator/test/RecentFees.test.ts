/**
 * The recent fees of the world and the estimates read from them (getPriorityFeeEstimate):
 * levels are ordered, the same for a seed and a slot however often they are computed, and they
 * move when the ledger's recent transactions pay more.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fc from "fast-check"
import * as Dataset from "../src/Dataset.js"
import type * as Events from "../src/Events.js"
import * as RecentFees from "../src/RecentFees.js"

const SLOT = 320_000_000

/** The data of `SetComputeUnitPrice(price)`: tag 3, then the price (u64 LE). */
const unitPrice = (price: number) => {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, BigInt(price), true)
  return data
}

/** A ledger transaction in `slot` that write-locks `account` and pays `price` a compute unit. */
const landed = (ds: Dataset.Dataset, n: number, slot: number, account: string, price: number) =>
  ({
    signature: ds.signature(`fees:test:${n}`),
    slot,
    blockTime: 0,
    index: n,
    feePayer: account,
    fee: 5000n,
    err: null,
    logs: [],
    type: "UNKNOWN",
    accounts: [{ address: account, program: "11111111111111111111111111111111", writable: true, signer: true }],
    nativeTransfers: [],
    tokenTransfers: [],
    programs: [RecentFees.COMPUTE_BUDGET_PROGRAM],
    source: "bundle",
    wire: { instructions: [{ programId: RecentFees.COMPUTE_BUDGET_PROGRAM, data: unitPrice(price) }] }
  }) as unknown as Events.LandedTransaction

const ordered = (l: { min: number; low: number; medium: number; high: number; veryHigh: number; unsafeMax: number }) =>
  l.min <= l.low && l.low <= l.medium && l.medium <= l.high && l.high <= l.veryHigh && l.veryHigh <= l.unsafeMax

const levelsOf = (source: RecentFees.Source, accounts: ReadonlyArray<string>, lookbackSlots?: number) =>
  RecentFees.estimate(source, { accounts, options: { includeAllPriorityFeeLevels: true, lookbackSlots } })
    .priorityFeeLevels!

const arbitrary = fc.record({
  seed: fc.integer({ min: 0, max: 10_000 }),
  slot: fc.integer({ min: SLOT, max: SLOT + 1_000_000 }),
  // Which of the hot accounts to ask for (none: an account with no fee, so the global levels).
  hot: fc.subarray([0, 1, 2, 3, 4, 5]),
  lookback: fc.integer({ min: 1, max: 150 })
})

describe("RecentFees", () => {
  it("levels are ordered, and the same for a seed and a slot (fresh datasets, no shared cache)", () => {
    fc.assert(
      fc.property(arbitrary, ({ hot, lookback, seed, slot }) => {
        const source = (ds: Dataset.Dataset): RecentFees.Source => ({ dataset: ds, slot, transactions: () => [] })
        const a = Dataset.make(seed)
        const accounts = [...hot.map((j) => RecentFees.hotAccounts(a)[j]!), a.address("fees:quiet")]
        const first = levelsOf(source(a), accounts, lookback)
        expect(ordered(first)).toBe(true)
        expect(levelsOf(source(Dataset.make(seed)), accounts, lookback)).toEqual(first)
        // One level alone is that level of the whole set.
        const medium = RecentFees.estimate(source(a), { accounts, options: { lookbackSlots: lookback } })
        expect(medium).toEqual({ priorityFeeEstimate: first.medium })
      }),
      { numRuns: 60 }
    )
  })

  it("levels move with the ledger: transactions paying more than any recent fee raise them, to that fee", () => {
    fc.assert(
      fc.property(arbitrary, fc.integer({ min: 1, max: 5 }), ({ hot, seed, slot }, extra) => {
        const ds = Dataset.make(seed)
        const account = RecentFees.hotAccounts(ds)[hot[0] ?? 0]!
        const ledger: Array<Events.LandedTransaction> = []
        const source: RecentFees.Source = { dataset: ds, slot, transactions: () => ledger }
        const before = levelsOf(source, [account])
        const counted = RecentFees.recent(source, 150).filter((f) => f.writable.includes(account)).length
        const price = before.unsafeMax * 2 + 1_000
        // More than as many as the account's recent fees: the median is now the new price.
        for (let n = 0; n < counted + extra; n++) ledger.push(landed(ds, n, slot - (n % 150), account, price))
        const after = levelsOf(source, [account])
        expect(ordered(after)).toBe(true)
        expect(after.unsafeMax).toBe(price)
        expect(after.medium).toBe(price)
        expect(after.medium).toBeGreaterThan(before.medium)
        for (const k of ["min", "low", "high", "veryHigh"] as const) expect(after[k]).toBeGreaterThanOrEqual(before[k])
        // Transactions older than the lookback window count for nothing.
        const old = { ...source, transactions: () => ledger.map((tx) => ({ ...tx, slot: slot - 200 })) }
        expect(levelsOf(old, [account])).toEqual(before)
      }),
      { numRuns: 40 }
    )
  })

  it("the recommendation is the Medium level with a floor; prioritization fees give each slot's least fee", () => {
    const ds = Dataset.make(42)
    const source: RecentFees.Source = { dataset: ds, slot: SLOT, transactions: () => [] }
    const hot = RecentFees.hotAccounts(ds)[0]!
    const { medium } = levelsOf(source, [hot])
    expect(RecentFees.estimate(source, { accounts: [hot], options: { recommended: true } })).toEqual({
      priorityFeeEstimate: Math.max(medium, RecentFees.MIN_RECOMMENDED)
    })
    const fees = RecentFees.prioritizationFees(source, [])
    expect(fees.length).toBe(150)
    expect(fees.map((f) => f.slot)).toEqual(Array.from({ length: 150 }, (_, i) => SLOT - 149 + i))
    const recent = RecentFees.recent(source, 150)
    for (const f of fees) {
      expect(f.prioritizationFee).toBe(Math.min(...recent.filter((r) => r.slot === f.slot).map((r) => r.fee)))
    }
    // An account raises a slot's fee to the least it paid there.
    const withHot = RecentFees.prioritizationFees(source, [hot])
    for (const [i, f] of withHot.entries()) {
      expect(f.prioritizationFee).toBeGreaterThanOrEqual(fees[i]!.prioritizationFee)
    }
  })
})
