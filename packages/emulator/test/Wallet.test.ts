/**
 * Conformance of the wallet area with plain fetch: the spec's field names and
 * rules the service documents (records, endpoints, limits), no SDK schemas involved.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as WalletArea from "../src/areas/Wallet.js"
import * as Emulator from "../src/Emulator.js"
import * as Wallets from "../src/seed/Wallets.js"
import { get, post } from "./support/Http.js"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"
const start = (options: Emulator.Options = {}) => Emulator.make({ seed: 11, areas: [WalletArea.area], ...options })

describe("wallet area", () => {
  it.scopedLive("identity and funded-by: 200 for a seeded wallet, 404 {error} for an unknown one", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const known = yield* get(emu, `/v1/wallet/${emu.samples["wallet"]}/identity`)
      expect(known.status).toBe(200)
      expect(Object.keys(known.json).sort()).toEqual(["address", "category", "domainNames", "name", "tags", "type"])
      const byDomain = yield* get(emu, `/v1/wallet/${emu.samples["walletDomain"]}/identity`)
      expect(byDomain.json.address).toBe(emu.samples["wallet"])
      for (const endpoint of ["identity", "funded-by"]) {
        const r = yield* get(emu, `/v1/wallet/${emu.samples.unknownAddress}/${endpoint}`)
        expect([endpoint, r.status, typeof r.json.error]).toEqual([endpoint, 404, "string"])
      }
      const funded = yield* get(emu, `/v1/wallet/${emu.samples["wallet"]}/funded-by`)
      expect(Object.keys(funded.json).sort()).toEqual([
        "amount",
        "amountRaw",
        "date",
        "decimals",
        "explorerUrl",
        "funder",
        "funderName",
        "funderType",
        "mint",
        "signature",
        "slot",
        "symbol",
        "timestamp"
      ])
      expect(funded.json.amountRaw).toMatch(/^\d+$/)
      // Each of the five calls was charged, 404s included.
      expect(emu.usage().creditsUsed).toBe(5 * 100)
      expect(emu.usage().usage.api).toBe(5)
    }))

  it.scopedLive("a wallet failing the regex, a limit out of range: 400 {error}, not charged", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const w = emu.samples["wallet"]!
      const cases: Array<[string, Record<string, string>]> = [
        [`/v1/wallet/0OIl${w.slice(4)}/balances`, {}],
        [`/v1/wallet/${"z".repeat(44)}/transfers`, {}], // matches the regex, 33 bytes
        [`/v1/wallet/short/identity`, {}],
        [`/v1/wallet/${w}/balances`, { limit: "0" }],
        [`/v1/wallet/${w}/balances`, { limit: "101" }],
        [`/v1/wallet/${w}/balances`, { page: "0" }],
        [`/v1/wallet/${w}/balances`, { showNative: "yes" }],
        [`/v1/wallet/${w}/transfers`, { limit: "101" }],
        [`/v1/wallet/${w}/transfers`, { limit: "1.5" }],
        [`/v1/wallet/${w}/transfers`, { cursor: "not-a-cursor" }],
        [`/v1/wallet/${w}/history`, { limit: "0" }],
        [`/v1/wallet/${w}/history`, { tokenAccounts: "some" }],
        [`/v1/wallet/${w}/history`, { before: "abc" }],
        [`/v1/wallet/${w.slice(0, 10)}/funded-by`, {}]
      ]
      for (const [path, query] of cases) {
        const r = yield* get(emu, path, { query })
        expect([path, query, r.status, typeof r.json?.error]).toEqual([path, query, 400, "string"])
      }
      const tooMany = yield* post(emu, { addresses: Array.from({ length: 101 }, () => w) }, {
        path: "/v1/wallet/batch-identity"
      })
      expect(tooMany.status).toBe(400)
      const badEntry = yield* post(emu, { addresses: [w, "nope"] }, { path: "/v1/wallet/batch-identity" })
      expect(badEntry.status).toBe(400)
      expect(emu.usage().creditsUsed).toBe(0)
    }))

  it.scopedLive("batch identity: known identities of up to 100 addresses or domains, in request order", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const addresses = Array.from({ length: 100 }, (_, i) => Wallets.walletAt(emu.dataset, i))
      const r = yield* post(emu, { addresses }, { path: "/v1/wallet/batch-identity" })
      expect(r.status).toBe(200)
      const expected = addresses.filter((_, i) => Wallets.hasIdentity(i))
      expect(r.json.map((id: { address: string }) => id.address)).toEqual(expected)
      expect(emu.usage().creditsUsed).toBe(100)
    }))

  it.scopedLive("balances: SOL first, usdValue descending, totalUsdValue per page, NFTs on page 1 only", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const path = `/v1/wallet/${emu.samples["wallet"]}/balances`
      const p1 = (yield* get(emu, path, { query: { showNfts: "true" } })).json
      expect(Object.keys(p1).sort()).toEqual(["balances", "nfts", "pagination", "totalUsdValue"])
      expect(p1.pagination).toEqual({ page: 1, limit: 100, hasMore: true })
      expect(p1.balances[0].mint).toBe(NATIVE_MINT)
      expect(Object.keys(p1.balances[0]).sort()).toEqual(
        ["balance", "decimals", "logoUri", "mint", "name", "pricePerToken", "symbol", "tokenProgram", "usdValue"]
      )
      expect(p1.nfts.length).toBeGreaterThan(0)
      expect(p1.nfts.length).toBeLessThanOrEqual(100)
      const sum = (bs: Array<{ usdValue: number | null }>) => bs.reduce((s, b) => s + (b.usdValue ?? 0), 0)
      expect(p1.totalUsdValue).toBeCloseTo(sum(p1.balances), 1)
      const p3 = (yield* get(emu, path, { query: { showNfts: "true", page: "3" } })).json
      expect(p3.nfts).toEqual([])
      expect(p3.pagination.hasMore).toBe(false)
      const tokens = [
        ...p1.balances.slice(1),
        ...(yield* get(emu, path, { query: { page: "2" } })).json.balances,
        ...p3.balances
      ]
      expect(tokens).toHaveLength(250)
      expect(new Set(tokens.map((b: { mint: string }) => b.mint)).size).toBe(250)
      const v = (b: { usdValue: number | null }) => b.usdValue ?? -1
      expect(tokens.every((b: any, k: number) => k === 0 || v(tokens[k - 1]) >= v(b))).toBe(true)
      const noNative = (yield* get(emu, path, { query: { showNative: "false", limit: "5" } })).json
      expect(noNative.balances[0].mint).not.toBe(NATIVE_MINT)
      expect("nfts" in noNative).toBe(false)
      // An unknown wallet: native SOL only, at zero.
      const unknown = (yield* get(emu, `/v1/wallet/${emu.samples.unknownAddress}/balances`)).json
      expect(unknown.balances.map((b: { mint: string; balance: number }) => [b.mint, b.balance])).toEqual([[
        NATIVE_MINT,
        0
      ]])
    }))

  it.scopedLive("transfers: the size knob, limit default 50, consistent cursor pages", () =>
    Effect.gen(function*() {
      const emu = yield* start({ sizes: { "wallet.bigTransfers": 120 } })
      const path = `/v1/wallet/${emu.samples["wallet"]}/transfers`
      const first = (yield* get(emu, path)).json
      expect(first.data).toHaveLength(50)
      expect(Object.keys(first.data[0]).sort()).toEqual(
        ["amount", "amountRaw", "counterparty", "decimals", "direction", "mint", "signature", "symbol", "timestamp"]
      )
      expect(first.pagination.hasMore).toBe(true)
      const second = (yield* get(emu, path, { query: { cursor: first.pagination.nextCursor, limit: "100" } })).json
      expect(second.data).toHaveLength(70)
      expect(second.pagination).toEqual({ hasMore: false })
      const sigs = [...first.data, ...second.data].map((t: { signature: string }) => t.signature)
      expect(new Set(sigs).size).toBe(120)
    }))

  it.scopedLive("history: newest first, nextCursor is the last signature, before/after bound the window", () =>
    Effect.gen(function*() {
      const emu = yield* start({ sizes: { "wallet.bigTransfers": 30 } })
      const path = `/v1/wallet/${emu.samples["wallet"]}/history`
      const all = (yield* get(emu, path)).json
      // Its 30 transfers, and the receipts of the compressed NFTs it owns (their newest transfers).
      const nfts = (yield* get(emu, `/v1/wallet/${emu.samples["wallet"]}/balances`, { query: { showNfts: "true" } }))
        .json.nfts as Array<{ compressed: boolean }>
      expect(all.data).toHaveLength(30 + nfts.filter((n) => n.compressed).length)
      expect(all.pagination).toEqual({ hasMore: false })
      expect(Object.keys(all.data[0]).sort()).toEqual(
        ["balanceChanges", "error", "fee", "feePayer", "signature", "slot", "timestamp"]
      )
      const page = (yield* get(emu, path, { query: { limit: "10" } })).json
      expect(page.pagination).toEqual({ hasMore: true, nextCursor: all.data[9].signature })
      const window = (yield* get(emu, path, {
        query: { before: all.data[4].signature, after: all.data[9].signature }
      })).json
      expect(window.data.map((e: { signature: string }) => e.signature)).toEqual(
        all.data.slice(5, 9).map((e: { signature: string }) => e.signature)
      )
    }))
})
