/**
 * helius-sdk 3.2.0's own getPriorityFeeEstimate, getTransactionsForAddress and enhanced
 * transactions calls, unchanged, against the emulator. Its RPC calls go to `baseUrl`; its enhanced
 * client POSTs and GETs a fixed host (`https://api-mainnet.helius-rpc.com/v0`) whatever `baseUrl`
 * says, so the test hands its `fetch` a wrapper that sends the same method, path, query, headers and
 * body to the emulator's origin instead (and records them, to show they reached it as built).
 */
import { afterEach, describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHelius } from "helius-sdk"
import * as Emulator from "../../src/Emulator.js"

const HELIUS_REST = "https://api-mainnet.helius-rpc.com"
const original = globalThis.fetch

afterEach(() => {
  globalThis.fetch = original
})

describe("helius-sdk 3.2.0's fee, history and enhanced calls against the emulator", () => {
  it.scopedLive("priority fee levels, the address history and enhanced transactions of what the world landed", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed: 5 })
      const redirected: Array<{ method: string; path: string }> = []
      globalThis.fetch = ((input: RequestInfo | URL, init?: RequestInit) => {
        const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url)
        if (url.origin !== HELIUS_REST) return original(input, init)
        redirected.push({ method: init?.method ?? "GET", path: url.pathname })
        // Same method, path, query, headers and body: only the origin is the emulator's.
        return original(new URL(`${url.pathname}${url.search}`, emu.url), init)
      }) as typeof fetch
      const helius = createHelius({ apiKey: emu.apiKey, baseUrl: `${emu.url}/` })
      const owner = emu.dataset.address("peers:helius:calls")
      const other = emu.dataset.address("peers:helius:other")
      yield* emu.world.fund({ address: owner, lamports: 2_000_000_000n })
      const sent = yield* emu.world.transfer({ from: owner, to: other, lamports: 250_000_000n })
      yield* emu.world.advanceSlots({ slots: 40 })

      const read = yield* Effect.promise(async () => ({
        levels: await helius.getPriorityFeeEstimate({
          accountKeys: [emu.samples.feeAccount],
          options: { includeAllPriorityFeeLevels: true }
        }),
        medium: await helius.getPriorityFeeEstimate({ accountKeys: [emu.samples.feeAccount] }),
        history: await helius.getTransactionsForAddress([owner, { limit: 10, sortOrder: "asc" }] as never),
        parsed: await helius.enhanced.getTransactions({ transactions: [sent.signature] }),
        listed: await helius.enhanced.getTransactionsByAddress({ address: other, limit: 10 })
      }))
      const l = (read.levels as any).priorityFeeLevels
      expect([l.min, l.low, l.medium, l.high, l.veryHigh, l.unsafeMax]).toEqual(
        [l.min, l.low, l.medium, l.high, l.veryHigh, l.unsafeMax].sort((a: number, b: number) => a - b)
      )
      expect((read.medium as any).priorityFeeEstimate).toBe(l.medium)
      expect((read.history as any).data.map((t: any) => t.signature)).toEqual([
        expect.any(String),
        sent.signature
      ])
      expect((read.history as any).paginationToken).toBeNull()
      expect(read.parsed.map((t: any) => t.signature)).toEqual([sent.signature])
      expect(read.parsed[0]!.nativeTransfers).toEqual([{
        fromUserAccount: owner,
        toUserAccount: other,
        amount: 250_000_000
      }])
      expect(read.listed.map((t: any) => t.signature)).toEqual(
        [sent.signature, expect.any(String)].slice(0, read.listed.length)
      )
      expect(read.listed[0]!.signature).toBe(sent.signature)
      expect(redirected).toEqual([
        { method: "POST", path: "/v0/transactions" },
        { method: "GET", path: `/v0/addresses/${other}/transactions` }
      ])
      expect(emu.requests.map((r) => r.operation)).toEqual([
        "getPriorityFeeEstimate",
        "getPriorityFeeEstimate",
        "getTransactionsForAddress",
        "POST /v0/transactions",
        "GET /v0/addresses/:address/transactions"
      ])
    }))
})
