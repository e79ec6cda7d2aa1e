/**
 * Integration: the Wallet service against the emulator over loopback, with the
 * real Node HTTP client. Every endpoint and every stream, request counts as the
 * emulator logged them, and credits as its usage record shows them.
 */
import { describe, expect, it } from "@effect/vitest"
import { WALLET_REGEX } from "@solfx/core/Primitives"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Wallets from "@solfx/emulator/seed/Wallets"
import * as Loopback from "@solfx/testing/Loopback"
import * as Walks from "@solfx/testing/Walks"
import { Wallet } from "@solfx/wallet"
import * as Chunk from "effect/Chunk"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

const NATIVE_MINT = "So11111111111111111111111111111111111111112"
const OP = {
  identity: "GET /v1/wallet/:wallet/identity",
  batch: "POST /v1/wallet/batch-identity",
  balances: "GET /v1/wallet/:wallet/balances",
  history: "GET /v1/wallet/:wallet/history",
  transfers: "GET /v1/wallet/:wallet/transfers",
  fundedBy: "GET /v1/wallet/:wallet/funded-by"
}

const layerFor = (options: Emulator.Options = {}) => Loopback.layer(Wallet.layer, options)

/** Like `layerFor`, with fast and patient retries for fault-injection runs. */
const layerWithRetries = (options: Emulator.Options) =>
  Loopback.layer(Wallet.layer, options, {
    config: { retry: { times: 12, base: Duration.millis(5), maxDelay: Duration.millis(20) } }
  })

/** A fresh emulator (seed 7) and service per test. */
const withEmulator = <A, E>(
  f: (wallet: Wallet.WalletShape, emu: Emulator.Emulator) => Effect.Effect<A, E>,
  options: Emulator.Options = {}
) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const emu = yield* Emulator.EmulatorHandle
    return yield* f(wallet, emu)
  }).pipe(Effect.provide(layerFor({ seed: 7, ...options })))

describe("Wallet over loopback", () => {
  it.live("identity: known by address and by domain; an unknown wallet is absent, not an error", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const known = yield* wallet.identity(emu.samples["wallet"]!)
        expect(Option.getOrThrow(known).address).toBe(emu.samples["wallet"])
        const byDomain = yield* wallet.identity(emu.samples["walletDomain"]!)
        expect(Option.getOrThrow(byDomain).address).toBe(emu.samples["wallet"])
        expect(Option.getOrThrow(byDomain).domainNames).toContain(emu.samples["walletDomain"])
        const unknown = yield* wallet.identity(emu.samples.unknownAddress)
        expect(Option.isNone(unknown)).toBe(true)
        expect(emu.count(OP.identity)).toBe(3)
      })
    ))

  it.live("funded-by: the funding transaction, or absent for an unknown wallet", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const funded = Option.getOrThrow(yield* wallet.fundedBy(emu.samples["wallet"]!))
        expect(funded.mint).toBe(NATIVE_MINT)
        expect(typeof funded.amountRaw).toBe("bigint")
        expect(funded.amount).toBeCloseTo(Number(funded.amountRaw) / 1e9, 9)
        expect(new Date(funded.date).getTime()).toBe(funded.timestamp * 1000)
        expect(Option.isNone(yield* wallet.fundedBy(emu.samples.unknownAddress))).toBe(true)
        const noFunder = Wallets.walletAt(emu.dataset, 6) // every seventh seeded wallet has none
        expect(Wallets.hasFunder(6)).toBe(false)
        expect(Option.isNone(yield* wallet.fundedBy(noFunder))).toBe(true)
      })
    ))

  it.live("batch identity: 250 wallets give exactly 3 requests, results in input order", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        // Seeded wallets (one in five has no identity) mixed with unknown ones, in a shuffled order.
        const indices = Array.from({ length: 250 }, (_, k) => (k * 37) % 400)
        const wallets = indices.map((i, k) =>
          k % 25 === 24 ? emu.dataset.address(`unknown:${k}`) : Wallets.walletAt(emu.dataset, i)
        )
        const result = yield* wallet.batchIdentity(wallets, { concurrency: 3 })
        expect(emu.count(OP.batch)).toBe(3)
        expect(result).toHaveLength(250)
        let found = 0
        result.forEach((id, k) => {
          const expected = k % 25 !== 24 && Wallets.hasIdentity(indices[k]!)
          expect([k, Option.isSome(id)]).toEqual([k, expected])
          if (Option.isSome(id)) {
            found++
            expect(id.value.address).toBe(wallets[k])
          }
        })
        expect(found).toBeGreaterThan(150)
        // Domains are matched too.
        const mixed = yield* wallet.batchIdentity([
          emu.samples["walletDomain"]!,
          emu.samples.unknownAddress,
          emu.samples["wallet"]!
        ])
        expect(mixed.map((o) => Option.map(o, (i) => i.address))).toEqual([
          Option.some(emu.samples["wallet"]),
          Option.none(),
          Option.some(emu.samples["wallet"])
        ])
      })
    ))

  it.live("balances, history, transfers: a walk resumed with { start } from page 1's next gives the same items", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const w = emu.samples["wallet"]!
        const checks = [
          yield* Walks.resume((start?: number) => wallet.balances.pages(w, { showNative: true, start })),
          yield* Walks.resume((start?: string) => wallet.history.pages(w, { limit: 100, start })),
          yield* Walks.resume((start?: string) => wallet.transfers.pages(w, { limit: 100, start }))
        ]
        expect(checks.map((c) => [c.pages, typeof c.start])).toEqual([[3, "number"], [13, "string"], [13, "string"]])
        for (const c of checks) {
          expect(c.joined).toEqual(c.whole)
          expect(c.resumedFirst).toEqual(c.second)
          expect(c.second.length).toBeGreaterThan(0)
        }
        // Each walk: the whole, two pages, and the whole less its first page.
        expect([OP.balances, OP.history, OP.transfers].map((op) => emu.count(op))).toEqual([
          3 + 2 + 2,
          13 + 2 + 12,
          13 + 2 + 12
        ])
      })
    ))

  it.live("transfers: 1,234 transfers stream completely with limit 100 in 13 requests, and resume from a cursor", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const w = emu.samples["wallet"]!
        const all = Chunk.toReadonlyArray(yield* Stream.runCollect(wallet.transfersStream(w, { limit: 100 })))
        expect(all).toHaveLength(1234)
        expect(emu.count(OP.transfers)).toBe(13)
        expect(new Set(all.map((t) => t.signature)).size).toBe(1234)
        expect(all.every((t, k) => k === 0 || all[k - 1]!.timestamp >= t.timestamp)).toBe(true)
        expect(all.every((t) => typeof t.amountRaw === "bigint" && (t.direction === "in" || t.direction === "out")))
          .toBe(true)

        // A job that stopped after 5 pages resumes from the saved `next`.
        const first = Chunk.toReadonlyArray(
          yield* Stream.runCollect(wallet.transfersPages(w, { limit: 100 }).pipe(Stream.take(5)))
        )
        const saved = first[4]!.next!
        const rest = Chunk.toReadonlyArray(
          yield* Stream.runCollect(wallet.transfersStream(w, { limit: 100, cursor: saved }))
        )
        expect([...first.flatMap((p) => p.items), ...rest].map((t) => t.signature)).toEqual(all.map((t) => t.signature))

        // One page, service default limit 50.
        const page = yield* wallet.transfers(w)
        expect(page.data).toHaveLength(50)
        expect(page.pagination.hasMore).toBe(true)
        // An unknown wallet has none.
        expect(yield* Stream.runCollect(wallet.transfersStream(emu.samples.unknownAddress))).toEqual(Chunk.empty())
      })
    ))

  it.live("history: every entry in 13 requests; before/after bounds, type filter and resume", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const w = emu.samples["wallet"]!
        const all = Chunk.toReadonlyArray(yield* Stream.runCollect(wallet.historyStream(w)))
        // The 1,234 transfers, the 23 failed transactions between them (one in 53), which moved only their
        // fee, and the receipts of the 3 compressed NFTs it owns (their newest transfers).
        expect(all).toHaveLength(1260)
        expect(emu.count(OP.history)).toBe(13)
        expect(all.some((e) => e.timestamp === null)).toBe(true)
        expect(all.every((e, k) => k === 0 || all[k - 1]!.slot > e.slot)).toBe(true)

        // Newer than entry 500: exactly the 500 before it, whatever the page size.
        const newer = Chunk.toReadonlyArray(
          yield* Stream.runCollect(wallet.historyStream(w, { after: all[500]!.signature, limit: 77 }))
        )
        expect(newer.map((e) => e.signature)).toEqual(all.slice(0, 500).map((e) => e.signature))

        // Resume from a page's `next` (a signature sent as `before`).
        const [page1] = Chunk.toReadonlyArray(
          yield* Stream.runCollect(wallet.historyPages(w, { limit: 40 }).pipe(Stream.take(1)))
        )
        const resumed = yield* wallet.history(w, { before: page1!.next!, limit: 10 })
        expect(resumed.data.map((e) => e.signature)).toEqual(all.slice(40, 50).map((e) => e.signature))

        // A type filter returns a subset, in order.
        const swaps = Chunk.toReadonlyArray(yield* Stream.runCollect(wallet.historyStream(w, { type: "SWAP" })))
        expect(swaps.length).toBeGreaterThan(0)
        expect(swaps.length).toBeLessThan(all.length)
        const order = new Map(all.map((e, k) => [e.signature, k]))
        expect(swaps.every((e, k) => k === 0 || order.get(swaps[k - 1]!.signature)! < order.get(e.signature)!)).toBe(
          true
        )

        // tokenAccounts=none keeps SOL changes only.
        const none = yield* wallet.history(w, { tokenAccounts: "none" })
        expect(none.data.flatMap((e) => e.balanceChanges).every((c) => c.mint === "SOL")).toBe(true)
      })
    ))

  it.live("balances: native SOL first, usdValue descending, per-page totals, NFTs on page 1 only, portfolio sum", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const w = emu.samples["wallet"]!
        const pages = Chunk.toReadonlyArray(
          yield* Stream.runCollect(wallet.balancesPages(w, { showNfts: true, showNative: true }))
        )
        // 250 tokens + SOL at 100 a page.
        expect(pages.map((p) => [p.pagination.page, p.balances.length, p.pagination.hasMore])).toEqual([
          [1, 100, true],
          [2, 100, true],
          [3, 51, false]
        ])
        expect(emu.count(OP.balances)).toBe(3)
        expect(pages[0]!.balances[0]!.mint).toBe(NATIVE_MINT)
        expect(pages[0]!.nfts.length).toBeGreaterThan(0)
        expect(pages[0]!.nfts.length).toBeLessThanOrEqual(100)
        expect(pages.slice(1).every((p) => p.nfts.length === 0)).toBe(true)
        const tokens = pages.flatMap((p) => p.balances).slice(1)
        const value = (b: { usdValue: number | null }) => b.usdValue ?? -1
        expect(tokens.every((b, k) => k === 0 || value(tokens[k - 1]!) >= value(b))).toBe(true)
        expect(tokens.some((b) => b.usdValue === null)).toBe(true)
        for (const p of pages) {
          expect(p.totalUsdValue).toBeCloseTo(p.balances.reduce((s, b) => s + (b.usdValue ?? 0), 0), 1)
        }

        // The portfolio is the sum over every page, not page 1's totalUsdValue.
        const usd = yield* wallet.portfolioUsdValue(w)
        const byPages = pages.reduce((s, p) => s + p.totalUsdValue, 0)
        expect(usd).toBeCloseTo(byPages, 0)
        expect(usd).toBeGreaterThan(pages[0]!.totalUsdValue)

        // Without native SOL, with zero balances.
        const plain = yield* wallet.balances(w, { showNative: false, limit: 100, page: 3, showZeroBalance: true })
        expect(plain.balances.some((b) => b.mint === NATIVE_MINT)).toBe(false)
        expect(plain.balances.some((b) => b.balance === 0)).toBe(true)
        expect(plain.nfts).toEqual([])

        // Another seeded wallet (of 400, 320 with identities) for portfolio examples.
        const other = yield* wallet.balances(Wallets.walletAt(emu.dataset, 12))
        expect(other.balances.length).toBeGreaterThan(0)
        expect(other.balances.length).toBeLessThanOrEqual(100)
      })
    ))

  it.live("bad input sends no request", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const bad = "0OIl" + emu.samples["wallet"]!.slice(4)
        expect(WALLET_REGEX.test(bad)).toBe(false)
        const failures = yield* Effect.all([
          Effect.flip(wallet.identity(bad)),
          Effect.flip(wallet.fundedBy(emu.samples["walletDomain"]!)),
          Effect.flip(wallet.balances(bad)),
          Effect.flip(wallet.balances(emu.samples["wallet"]!, { limit: 101 })),
          Effect.flip(wallet.transfers(emu.samples["wallet"]!, { limit: 0 })),
          Effect.flip(wallet.history(emu.samples["wallet"]!, { limit: 1000 })),
          Effect.flip(Stream.runDrain(wallet.transfersStream(bad))),
          Effect.flip(wallet.batchIdentity([emu.samples["wallet"]!, bad]))
        ])
        expect(failures.map((e) => [e._tag, "field" in e ? e.field : ""])).toEqual([
          ["InvalidRequest", "wallet"],
          ["InvalidRequest", "wallet"],
          ["InvalidRequest", "wallet"],
          ["InvalidRequest", "limit"],
          ["InvalidRequest", "limit"],
          ["InvalidRequest", "limit"],
          ["InvalidRequest", "wallet"],
          ["InvalidRequest", "wallets[1]"]
        ])
        expect(emu.count()).toBe(0)
        expect(yield* wallet.creditsUsed).toBe(0)
      })
    ))

  it.live("after N calls the emulator's usage shows N × 100 more credits, and the SDK's estimate agrees", () =>
    withEmulator((wallet, emu) =>
      Effect.gen(function*() {
        const before = emu.usage()
        const w = emu.samples["wallet"]!
        const wallets = Array.from({ length: 120 }, (_, i) => Wallets.walletAt(emu.dataset, i))
        yield* wallet.identity(w)
        yield* wallet.identity(emu.samples.unknownAddress) // a 404 is billed too
        yield* wallet.fundedBy(emu.samples.unknownAddress)
        yield* wallet.batchIdentity(wallets) // 2 requests
        yield* wallet.portfolioUsdValue(w) // 3 pages
        yield* Stream.runDrain(wallet.transfersStream(w, { limit: 100 }).pipe(Stream.take(150))) // 2 pages
        yield* wallet.history(w, { limit: 5 })
        // Portfolios of 20 seeded wallets, 4 at a time.
        yield* Effect.forEach(wallets.slice(20, 40), (a) => wallet.portfolioUsdValue(a), { concurrency: 4 })
        const n = emu.count()
        expect(n).toBeGreaterThanOrEqual(1 + 1 + 1 + 2 + 3 + 2 + 1 + 20)
        const after = emu.usage()
        expect(after.creditsUsed - before.creditsUsed).toBe(n * 100)
        expect(after.usage.api - before.usage.api).toBe(n)
        expect(yield* wallet.creditsUsed).toBe(n * 100)
      })
    ))

  it.live("under injected faults (429, 500, 503, resets, cut bodies) the estimate still matches the bill", () =>
    Effect.gen(function*() {
      const wallet = yield* Wallet.Wallet
      const emu = yield* Emulator.EmulatorHandle
      const w = emu.samples["wallet"]!
      const transfers = yield* Stream.runCollect(wallet.transfersStream(w, { limit: 100 }))
      expect(Chunk.size(transfers)).toBe(1234)
      const ids = yield* wallet.batchIdentity(
        Array.from({ length: 150 }, (_, i) => Wallets.walletAt(emu.dataset, i))
      )
      expect(ids.filter(Option.isSome)).toHaveLength(120)
      yield* wallet.portfolioUsdValue(w)
      const hits = emu.faultsHit
      // Seeded: this run sees unbilled faults and bodies cut short after billing.
      expect(hits["429"] + hits["500"] + hits["503"] + hits["reset"]).toBeGreaterThan(0)
      expect(hits["truncate"]).toBeGreaterThan(0)
      const billedRequests = emu.requests.filter((r) => r.credits > 0).length
      expect(emu.usage().creditsUsed).toBe(billedRequests * 100)
      expect(yield* wallet.creditsUsed).toBe(emu.usage().creditsUsed)
    }).pipe(
      Effect.provide(
        layerWithRetries({
          seed: 7,
          // Rare enough that twelve retries never run out, frequent enough to hit every kind.
          faults: { rate: 0.25, kinds: ["429", "500", "503", "reset", "truncate"], retryAfterSeconds: 0 }
        })
      )
    ))
})
