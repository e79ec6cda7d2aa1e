/**
 * The PriorityFees service against the emulator over loopback: the levels of the world's recent
 * fees, refusals before any request, and an estimate that follows what landed bundles paid.
 */
import { describe, expect, it } from "@effect/vitest"
import * as kit from "@solana/kit"
import * as Emulator from "@solfx/emulator/Emulator"
import * as PriorityFees from "@solfx/rpc/PriorityFees"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"

const TestLayer = Loopback.layer(PriorityFees.layer, { seed: 21, slotMs: 60_000 })

const COMPUTE_BUDGET = kit.address("ComputeBudget111111111111111111111111111111")

/** `SetComputeUnitPrice(price)`: tag 3, then micro-lamports a compute unit (u64 LE). */
const unitPrice = (price: bigint) => {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, price, true)
  return { programAddress: COMPUTE_BUDGET, accounts: [], data }
}

describe("PriorityFees (integration, loopback emulator)", () => {
  it.live("every level, ordered; one level; the same answer twice at one slot", () =>
    Effect.gen(function*() {
      const fees = yield* PriorityFees.PriorityFees
      const emu = yield* Emulator.EmulatorHandle
      const accountKeys = [emu.samples.feeAccount]
      const all = yield* fees.getPriorityFeeEstimate({ accountKeys, options: { includeAllPriorityFeeLevels: true } })
      const l = all.priorityFeeLevels!
      expect([l.min, l.low, l.medium, l.high, l.veryHigh, l.unsafeMax]).toEqual(
        [l.min, l.low, l.medium, l.high, l.veryHigh, l.unsafeMax].sort((a, b) => a - b)
      )
      expect(l.unsafeMax).toBeGreaterThan(0)
      expect(yield* fees.getPriorityFeeEstimate({ accountKeys, options: { priorityLevel: "High" } })).toEqual({
        priorityFeeEstimate: l.high
      })
      expect(yield* fees.getPriorityFeeEstimate({ accountKeys })).toEqual({ priorityFeeEstimate: l.medium })
      expect(emu.count("getPriorityFeeEstimate")).toBe(3)
    }).pipe(Effect.provide(TestLayer)))

  it.live("bad input is refused with the field and the rule, nothing sent", () =>
    Effect.gen(function*() {
      const fees = yield* PriorityFees.PriorityFees
      const emu = yield* Emulator.EmulatorHandle
      const accountKeys = [emu.samples.feeAccount]
      const refused = (
        input: PriorityFees.PriorityFeesShape["getPriorityFeeEstimate"] extends (i: infer I) => any ? I
          : never
      ) => Effect.flip(fees.getPriorityFeeEstimate(input))
      expect(yield* refused({ accountKeys, transaction: "abc" })).toMatchObject({
        _tag: "InvalidRequest",
        field: "transaction",
        rule: "transaction and accountKeys cannot both be provided"
      })
      expect(yield* refused({})).toMatchObject({ field: "accountKeys" })
      expect(yield* refused({ accountKeys, options: { lookbackSlots: 151 } })).toMatchObject({
        field: "options.lookbackSlots",
        rule: "an integer from 1 to 150"
      })
      expect(yield* refused({ accountKeys, options: { recommended: true, priorityLevel: "High" } })).toMatchObject({
        field: "options.priorityLevel",
        rule: "recommended cannot be used with priorityLevel"
      })
      expect(yield* refused({ accountKeys, options: { priorityLevel: "Extreme" as never } })).toMatchObject({
        field: "options.priorityLevel"
      })
      expect(yield* refused({ transaction: "0OIl", options: { transactionEncoding: "Base58" } })).toMatchObject({
        field: "transaction",
        rule: "a base58 serialized transaction"
      })
      expect(emu.count("getPriorityFeeEstimate")).toBe(0)
    }).pipe(Effect.provide(TestLayer)))

  it.live("a transaction asks for its own accounts; landed bundles paying more raise the estimate", () =>
    Effect.gen(function*() {
      const fees = yield* PriorityFees.PriorityFees
      const emu = yield* Emulator.EmulatorHandle
      const payer = yield* Effect.promise(() => Kit.signer())
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      const rpc = (method: string, params: ReadonlyArray<unknown>) =>
        Effect.promise(() =>
          fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
          }).then((r) => r.json() as Promise<{ result?: any; error?: unknown }>)
        )
      // The bank executes bundles: they must be signed over a blockhash it issued (this seed's).
      const { blockhash } = (yield* rpc("getLatestBlockhash", [])).result.value
      const build = (price: bigint, n: number) =>
        Effect.promise(() =>
          Kit.build({
            version: 0,
            payer,
            blockhash,
            instructions: [
              unitPrice(price) as unknown as Kit.Instruction,
              Kit.transfer(payer, Kit.TIP, 1_000n + BigInt(n))
            ]
          })
        )
      const probe = yield* build(1n, 0)
      const asTransaction = { transaction: probe.base64, options: { transactionEncoding: "Base64" as const } }
      const before = yield* fees.getPriorityFeeEstimate({
        ...asTransaction,
        options: { ...asTransaction.options, includeAllPriorityFeeLevels: true }
      })
      const price = BigInt(before.priorityFeeLevels!.unsafeMax) * 10n + 1_000_000n
      // Asked by transaction, the estimate is that of the accounts it names.
      const keys = [payer.address, Kit.TIP, COMPUTE_BUDGET, Kit.SYSTEM]
      expect(yield* fees.getPriorityFeeEstimate({ accountKeys: keys, options: { includeAllPriorityFeeLevels: true } }))
        .toEqual(before)
      // No traffic of the cluster locks the tip account: the bundles' fees are all of its recent fees.
      for (const n of [1, 2, 3]) {
        const tx = yield* build(price, n)
        const sent = yield* rpc("sendBundle", [[tx.base64], { encoding: "base64" }])
        expect(sent.error).toBeUndefined()
        // Accepted is not landed: a bundle the bank refused pays no fee (its status says why).
        const status = (yield* rpc("getBundleStatuses", [[sent.result]])).result.value[0]
        expect(status).toMatchObject({ transactions: [tx.signature], err: { Ok: null } })
      }
      const after = yield* fees.getPriorityFeeEstimate({
        accountKeys: [Kit.TIP],
        options: { includeAllPriorityFeeLevels: true }
      })
      expect(after.priorityFeeLevels!.unsafeMax).toBe(Number(price))
      expect(after.priorityFeeLevels!.medium).toBe(Number(price))
    }).pipe(Effect.provide(TestLayer)))
})
