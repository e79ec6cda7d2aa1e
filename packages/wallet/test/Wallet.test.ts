/**
 * Unit tests over the HTTP test layer: what goes on the wire, what never does,
 * how pages are followed and how credits are estimated.
 */
import { describe, expect, it } from "@effect/vitest"
import { sha256 } from "@noble/hashes/sha2.js"
import * as Pagination from "@solfx/core/Pagination"
import { encodeBase58 } from "@solfx/core/Primitives"
import { Credits, HttpTesting } from "@solfx/http"
import { Wallet } from "@solfx/wallet"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as TestClock from "effect/TestClock"

const addr = (label: string) => encodeBase58(sha256(new TextEncoder().encode(label)))
const sig = (label: string) => {
  const out = new Uint8Array(64)
  out.set(sha256(new TextEncoder().encode(`a${label}`)), 0)
  out.set(sha256(new TextEncoder().encode(`b${label}`)), 32)
  return encodeBase58(out)
}
const WALLET = addr("wallet")

const run = <A, E>(
  handler: HttpTesting.Handler,
  f: (w: Wallet.WalletShape) => Effect.Effect<A, E>,
  retryTimes = 0
) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const log = yield* HttpTesting.RequestLog
    const exit = yield* Effect.exit(f(wallet))
    return { exit, count: yield* log.count, requests: yield* log.requests, credits: yield* wallet.creditsUsed }
  }).pipe(
    Effect.provide(
      Wallet.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport(handler, { retry: { times: retryTimes } })))
    )
  )

const identityOf = (address: string, extra: object = {}) => ({
  address,
  type: "exchange",
  name: `name of ${address.slice(0, 4)}`,
  category: "Centralized Exchange",
  tags: ["Centralized Exchange"],
  ...extra
})

const balance = (label: string, usdValue: number | null) => ({
  mint: addr(label),
  balance: 1,
  decimals: 6,
  tokenProgram: "spl-token",
  symbol: label,
  name: label,
  pricePerToken: usdValue,
  usdValue,
  logoUri: null
})

const transfer = (label: string) => ({
  signature: sig(label),
  timestamp: 1704067200,
  direction: "in",
  counterparty: addr(`cp${label}`),
  mint: "So11111111111111111111111111111111111111112",
  symbol: "SOL",
  amount: 1.5,
  amountRaw: "1500000000",
  decimals: 9
})

/** History entry `k`; `untimed` gives it the null timestamp the service sends for some. */
const historyEntry = (k: number, untimed = false) => ({
  signature: sig(`h${k}`),
  timestamp: untimed ? null : 1700000000 - k,
  slot: 1000 - k,
  fee: 0.000005,
  feePayer: WALLET,
  error: null,
  balanceChanges: []
})

const value = <A, E>(exit: Exit.Exit<A, E>): A => {
  if (Exit.isSuccess(exit)) return exit.value
  throw new Error(`expected a success, got ${String(exit.cause)}`)
}

const failure = (exit: Exit.Exit<unknown, unknown>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? (exit.cause.error as Record<string, unknown>) : undefined

describe("Wallet: input is checked before any request", () => {
  it.effect("a bad wallet string sends no request and names the field", () =>
    Effect.gen(function*() {
      const calls: Array<(w: Wallet.WalletShape) => Effect.Effect<unknown, unknown>> = [
        (w) => w.identity("not a wallet"),
        (w) => w.fundedBy("toly.sol"), // domains only where the docs allow them
        (w) => w.balances("0OIl" + WALLET.slice(4)),
        (w) => w.history("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"), // regex ok, 33 bytes
        (w) => w.transfers(""),
        (w) => Stream.runDrain(w.transfersStream("x")),
        (w) => Stream.runDrain(w.balancesStream("x")),
        (w) => Stream.runDrain(w.historyStream("x"))
      ]
      for (const call of calls) {
        const r = yield* run(() => Response.json({}), call)
        expect(failure(r.exit)).toMatchObject({ _tag: "InvalidRequest", field: "wallet" })
        expect(r.count).toBe(0)
        expect(r.credits).toBe(0)
      }
    }))

  it.effect("limits, page, tokenAccounts, type and unknown options are checked", () =>
    Effect.gen(function*() {
      const cases: Array<[(w: Wallet.WalletShape) => Effect.Effect<unknown, unknown>, string]> = [
        [(w) => w.balances(WALLET, { limit: 0 }), "limit"],
        [(w) => w.balances(WALLET, { limit: 101 }), "limit"],
        [(w) => w.balances(WALLET, { page: 0 }), "page"],
        [(w) => w.transfers(WALLET, { limit: 101 }), "limit"],
        [(w) => w.transfers(WALLET, { cursor: "" }), "cursor"],
        [(w) => w.history(WALLET, { limit: 1.5 }), "limit"],
        [(w) => w.history(WALLET, { tokenAccounts: "some" as never }), "tokenAccounts"],
        [(w) => w.history(WALLET, { type: "swap" }), "type"],
        [(w) => w.balances(WALLET, { pageSize: 10 } as never), "pageSize"],
        [(w) => Stream.runDrain(w.transfersStream(WALLET, { limit: 500 })), "limit"],
        [(w) => w.batchIdentity([WALLET, WALLET, WALLET, "bad"]), "wallets[3]"],
        [(w) => w.batchIdentity([WALLET], { concurrency: 0 }), "concurrency"]
      ]
      for (const [call, field] of cases) {
        const r = yield* run(() => Response.json({}), call)
        expect(failure(r.exit)).toMatchObject({ _tag: "InvalidRequest", field })
        expect(r.count).toBe(0)
      }
    }))
})

describe("Wallet: the wire", () => {
  it.effect("identity: path, key, 404 is absent; a domain is allowed and encoded", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) =>
          req.url.pathname === `/v1/wallet/${WALLET}/identity`
            ? Response.json(identityOf(WALLET))
            : Response.json({ error: "not found" }, { status: 404 }),
        (w) => Effect.all([w.identity(WALLET), w.identity("toly.sol"), w.fundedBy(WALLET)])
      )
      const [known, domain, funded] = value(r.exit)
      expect(Option.getOrThrow(known)).toMatchObject({ address: WALLET, domainNames: [] })
      expect(Option.isNone(domain)).toBe(true)
      expect(Option.isNone(funded)).toBe(true)
      expect(r.requests.map((q) => `${q.method} ${q.url.pathname}`)).toEqual([
        `GET /v1/wallet/${WALLET}/identity`,
        "GET /v1/wallet/toly.sol/identity",
        `GET /v1/wallet/${WALLET}/funded-by`
      ])
      expect(r.requests[0]!.url.searchParams.get("api-key")).toBe("test-key")
      expect(r.credits).toBe(300)
    }))

  it.effect("balances: every option on the wire under the service's names", () =>
    Effect.gen(function*() {
      const r = yield* run(
        () => Response.json({ balances: [], totalUsdValue: 0, pagination: { page: 3, limit: 7, hasMore: false } }),
        (w) =>
          Effect.zip(
            w.balances(WALLET, { page: 3, limit: 7, showNative: false, showNfts: true, showZeroBalance: true }),
            w.balances(WALLET)
          )
      )
      expect(Exit.isSuccess(r.exit)).toBe(true)
      expect(Object.fromEntries(r.requests[0]!.url.searchParams)).toEqual({
        page: "3",
        limit: "7",
        showNative: "false",
        showNfts: "true",
        showZeroBalance: "true",
        "api-key": "test-key"
      })
      // Unset options are not sent: the service's defaults apply.
      expect([...r.requests[1]!.url.searchParams.keys()]).toEqual(["api-key"])
    }))

  it.effect("history and transfers: query names on the wire", () =>
    Effect.gen(function*() {
      const empty = { data: [], pagination: { hasMore: false } }
      const r = yield* run(() => Response.json(empty), (w) =>
        Effect.zip(
          w.history(WALLET, { limit: 10, before: "c1", after: "c0", type: "SWAP", tokenAccounts: "all" }),
          w.transfers(WALLET, { limit: 20, cursor: "abc" })
        ))
      expect(Exit.isSuccess(r.exit)).toBe(true)
      expect(r.requests[0]!.url.pathname).toBe(`/v1/wallet/${WALLET}/history`)
      expect(Object.fromEntries(r.requests[0]!.url.searchParams)).toMatchObject({
        limit: "10",
        before: "c1",
        after: "c0",
        type: "SWAP",
        tokenAccounts: "all"
      })
      expect(r.requests[1]!.url.pathname).toBe(`/v1/wallet/${WALLET}/transfers`)
      expect(Object.fromEntries(r.requests[1]!.url.searchParams)).toMatchObject({ limit: "20", cursor: "abc" })
    }))
})

describe("Wallet: batch identity", () => {
  it.effect("250 wallets: 3 POSTs of at most 100, results aligned with the input", () =>
    Effect.gen(function*() {
      const wallets = Array.from({ length: 250 }, (_, i) => addr(`w${i}`))
      const known = (a: string) => wallets.indexOf(a) % 3 !== 2
      const r = yield* run(
        (req) => {
          const addresses = (req.body as { addresses: Array<string> }).addresses
          // Answer out of order and without the unknown ones.
          return Response.json(addresses.filter(known).reverse().map((a) => identityOf(a)))
        },
        (w) => w.batchIdentity(wallets, { concurrency: 2 })
      )
      expect(r.count).toBe(3)
      expect(r.requests.map((q) => (q.body as { addresses: Array<string> }).addresses.length).sort()).toEqual([
        100,
        100,
        50
      ])
      expect(r.requests.every((q) => q.method === "POST" && q.url.pathname === "/v1/wallet/batch-identity")).toBe(
        true
      )
      const result = value(r.exit)
      expect(result.length).toBe(250)
      result.forEach((id, i) => {
        if (i % 3 === 2) expect(Option.isNone(id)).toBe(true)
        else expect(Option.getOrThrow(id).address).toBe(wallets[i])
      })
      expect(r.credits).toBe(Wallet.batchIdentityCredits(250))
    }))

  it.effect("domains match by domainNames; no wallets, no request", () =>
    Effect.gen(function*() {
      const a = addr("a")
      const r = yield* run(
        () => Response.json([identityOf(a, { domainNames: ["toly.sol"] })]),
        (w) => Effect.zip(w.batchIdentity(["Toly.sol", addr("b")]), w.batchIdentity([]))
      )
      const [found, none] = value(r.exit)
      expect(Option.getOrThrow(found[0]).address).toBe(a)
      expect(Option.isNone(found[1])).toBe(true)
      expect(none).toEqual([])
      expect(r.count).toBe(1)
    }))
})

describe("Wallet: streams", () => {
  it.effect("transfers.pages follows nextCursor while hasMore, from a start cursor, limit 100 by default", () =>
    Effect.gen(function*() {
      const pages: Record<string, { data: Array<unknown>; pagination: object }> = {
        start: { data: [transfer("1"), transfer("2")], pagination: { hasMore: true, nextCursor: "p2" } },
        p2: { data: [transfer("3")], pagination: { hasMore: true, nextCursor: "p3" } },
        // hasMore false wins over a stray cursor
        p3: { data: [transfer("4")], pagination: { hasMore: false, nextCursor: "p4" } }
      }
      const r = yield* run(
        (req) => Response.json(pages[req.url.searchParams.get("cursor") ?? "none"] ?? { error: "bad cursor" }),
        (w) => Stream.runCollect(w.transfers.pages(WALLET, { start: "start" }))
      )
      const got = Chunk.toReadonlyArray(value(r.exit))
      expect(got.map((p) => [p.items.length, p.next])).toEqual([[2, "p2"], [1, "p3"], [1, undefined]])
      expect(r.requests.map((q) => q.url.searchParams.get("limit"))).toEqual(["100", "100", "100"])
      expect(r.credits).toBe(300)
    }))

  it.effect("a page claiming more without a cursor fails instead of stopping silently", () =>
    Effect.gen(function*() {
      const r = yield* run(
        () => Response.json({ data: [transfer("1")], pagination: { hasMore: true } }),
        (w) => Stream.runDrain(w.transfersStream(WALLET))
      )
      expect(failure(r.exit)).toMatchObject({ _tag: "DecodeError", path: "$.pagination.nextCursor" })
    }))

  it.effect("history.stream sends nextCursor as before and keeps after and type on every page", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) => {
          const before = req.url.searchParams.get("before")
          return before === null
            ? Response.json({
              data: [historyEntry(0), historyEntry(1, true)],
              pagination: { hasMore: true, nextCursor: sig("h1") }
            })
            : Response.json({ data: [historyEntry(2)], pagination: { hasMore: false, nextCursor: null } })
        },
        (w) => Stream.runCollect(w.history.stream(WALLET, { after: "a0", type: "TRANSFER", limit: 2 }))
      )
      expect(Chunk.size(value(r.exit))).toBe(3)
      expect(r.requests.map((q) => Object.fromEntries(q.url.searchParams))).toEqual([
        { limit: "2", after: "a0", type: "TRANSFER", "api-key": "test-key" },
        { limit: "2", before: sig("h1"), after: "a0", type: "TRANSFER", "api-key": "test-key" }
      ])
    }))

  it.effect("balances: pages by number while hasMore, NFTs on page 1; portfolio sums every page", () =>
    Effect.gen(function*() {
      const body = (page: number) => {
        const balances = page === 1
          ? [balance("SOL", 100), balance("a", 50.5), balance("b", null)]
          : page === 2
          ? [balance("c", 20), balance("d", 0.25), balance("e", null)]
          : [balance("f", 4)]
        return {
          balances,
          totalUsdValue: balances.reduce((s, b) => s + (b.usdValue ?? 0), 0),
          pagination: { page, limit: 3, hasMore: page < 3 },
          ...(page === 1 ? { nfts: [{ mint: addr("nft"), compressed: true, name: null }] } : {})
        }
      }
      const r = yield* run(
        (req) => Response.json(body(Number(req.url.searchParams.get("page")))),
        (w) =>
          Effect.all([
            Stream.runCollect(w.balances.pages(WALLET, { limit: 3, showNfts: true })),
            w.portfolioUsdValue(WALLET, { limit: 3 }),
            Stream.runCollect(w.balances.stream(WALLET, { limit: 3, start: 3 }))
          ])
      )
      const [pages, usd, fromPage3] = value(r.exit)
      const ps = Chunk.toReadonlyArray(pages)
      expect(ps.map((p) => p.pagination.page)).toEqual([1, 2, 3])
      expect(ps.map((p) => p.nfts.length)).toEqual([1, 0, 0])
      expect(usd).toBe(100 + 50.5 + 20 + 0.25 + 4)
      expect(Chunk.size(fromPage3)).toBe(1)
      expect(r.requests.map((q) => q.url.searchParams.get("page"))).toEqual(["1", "2", "3", "1", "2", "3", "3"])
      // The portfolio does not ask for NFTs.
      expect(r.requests[3]!.url.searchParams.get("showNfts")).toBe("false")
      expect(r.credits).toBe(700)
    }))

  it.effect("balances: a run of empty pages that claim more fails after MAX_EMPTY_RUN of them (it would bill forever)", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) =>
          Response.json({
            balances: req.url.searchParams.get("page") === "1" ? [balance("a", 1)] : [],
            totalUsdValue: 0,
            pagination: { page: 1, limit: 1, hasMore: true }
          }),
        (w) => w.portfolioUsdValue(WALLET, { limit: 1 })
      )
      expect(failure(r.exit)).toMatchObject({ _tag: "PaginationError", reason: "empty" })
      expect(r.count).toBe(1 + Pagination.MAX_EMPTY_RUN)
    }))

  it.effect("Stream.take stops fetching", () =>
    Effect.gen(function*() {
      let n = 0
      const r = yield* run(
        () => {
          n++
          return Response.json({ data: [transfer(`${n}`)], pagination: { hasMore: true, nextCursor: `c${n}` } })
        },
        (w) => Stream.runCollect(w.transfersStream(WALLET, { limit: 1 }).pipe(Stream.take(2)))
      )
      expect(Chunk.size(value(r.exit))).toBe(2)
      expect(r.count).toBeLessThanOrEqual(3)
    }))
})

describe("Wallet: credits", () => {
  it.effect("100 per 2xx or 404 answer, retries included; 500, 429 and 401 are not billed; the metric agrees", () =>
    Effect.gen(function*() {
      const before = (yield* Metric.value(Wallet.creditsMetric)).count
      const fiber = yield* Effect.fork(run(
        (req, i) =>
          i === 0
            ? Response.json({ error: "internal" }, { status: 500 })
            : i === 1
            ? Response.json({ error: "slow down" }, { status: 429, headers: { "retry-after": "1" } })
            : req.url.pathname.endsWith("/identity")
            ? Response.json(identityOf(WALLET))
            : Response.json({ error: "invalid api key" }, { status: 401 }),
        (w) => Effect.zip(w.identity(WALLET), Effect.exit(w.fundedBy(WALLET))),
        3
      ))
      yield* TestClock.adjust("1 minute")
      const r = yield* Fiber.join(fiber)
      // identity: 500 (not billed), 429 (not), 200 (billed); fundedBy: 401 (not).
      expect(r.count).toBe(4)
      expect(r.credits).toBe(100)
      expect((yield* Metric.value(Wallet.creditsMetric)).count - before).toBe(100)
    }))
})

describe("Wallet: balances.pages resume", () => {
  it.effect("each page carries next = page + 1 while hasMore, and resuming from a saved next fetches only the rest", () =>
    Effect.gen(function*() {
      const body = (page: number) => ({
        balances: [balance(`p${page}`, page)],
        totalUsdValue: page,
        pagination: { page, limit: 1, hasMore: page < 3 }
      })
      const r = yield* run(
        (req) => Response.json(body(Number(req.url.searchParams.get("page")))),
        (w) =>
          Effect.gen(function*() {
            const all = Chunk.toReadonlyArray(yield* Stream.runCollect(w.balances.pages(WALLET, { limit: 1 })))
            const resumed = Chunk.toReadonlyArray(
              yield* Stream.runCollect(w.balances.pages(WALLET, { limit: 1, start: all[0]!.next! }))
            )
            return { all, resumed }
          })
      )
      const { all, resumed } = value(r.exit)
      expect(all.map((p) => p.next)).toEqual([2, 3, undefined])
      expect(all.map((p) => p.items)).toEqual(all.map((p) => p.balances))
      expect(resumed.map((p) => [p.pagination.page, p.next])).toEqual([[2, 3], [3, undefined]])
      expect(r.requests.map((q) => q.url.searchParams.get("page"))).toEqual(["1", "2", "3", "2", "3"])
    }))
})

describe("Wallet: the deprecated names and ways to resume", () => {
  it.effect("xPages / xStream are x.pages / x.stream; page, before and cursor in the options still start a walk", () =>
    Effect.gen(function*() {
      const r = yield* run(
        (req) => {
          const q = req.url.searchParams
          if (req.url.pathname.endsWith("/balances")) {
            const page = Number(q.get("page"))
            return Response.json({
              balances: [balance(`p${page}`, page)],
              totalUsdValue: page,
              pagination: { page, limit: 1, hasMore: page < 3 }
            })
          }
          if (req.url.pathname.endsWith("/history")) {
            const k = q.get("before") === null ? 0 : Number(q.get("before")!.slice(1))
            return Response.json({ data: [historyEntry(k)], pagination: { hasMore: k < 2, nextCursor: `c${k + 1}` } })
          }
          const k = q.get("cursor") === null ? 0 : Number(q.get("cursor")!.slice(1))
          return Response.json({ data: [transfer(`${k}`)], pagination: { hasMore: k < 2, nextCursor: `c${k + 1}` } })
        },
        (w) =>
          Effect.gen(function*() {
            const collect = <A, E>(s: Stream.Stream<A, E>) => Effect.map(Stream.runCollect(s), Chunk.toReadonlyArray)
            expect([w.balancesPages, w.balancesStream, w.historyPages, w.historyStream]).toEqual([
              w.balances.pages,
              w.balances.stream,
              w.history.pages,
              w.history.stream
            ])
            expect([w.transfersPages, w.transfersStream]).toEqual([w.transfers.pages, w.transfers.stream])
            return {
              balances: yield* Effect.all([
                collect(w.balances.stream(WALLET, { limit: 1, start: 2 })),
                collect(w.balancesStream(WALLET, { limit: 1, page: 2 }))
              ]),
              history: yield* Effect.all([
                collect(w.history.stream(WALLET, { start: "c1" })),
                collect(w.historyStream(WALLET, { before: "c1" }))
              ]),
              transfers: yield* Effect.all([
                collect(w.transfers.stream(WALLET, { start: "c1" })),
                collect(w.transfersStream(WALLET, { cursor: "c1" }))
              ])
            }
          })
      )
      const { balances, history, transfers } = value(r.exit)
      expect(balances[0].map((b) => b.symbol)).toEqual(["p2", "p3"])
      expect(balances[1]).toEqual(balances[0])
      expect(history[0].map((h) => h.signature)).toEqual([sig("h1"), sig("h2")])
      expect(history[1]).toEqual(history[0])
      expect(transfers[0].map((t) => t.signature)).toEqual([sig("1"), sig("2")])
      expect(transfers[1]).toEqual(transfers[0])
      // `start` is not sent as a param of its own: only the position it stands for.
      expect(r.requests.every((q) => !q.url.searchParams.has("start"))).toBe(true)
      expect(r.requests.map((q) => q.url.searchParams.get("cursor")).filter((c) => c !== null)).toEqual([
        "c1",
        "c2",
        "c1",
        "c2"
      ])
    }))
})

describe("Wallet: the configured key never comes back in an error", () => {
  it.effect("the key passed by mistake as a wallet: InvalidRequest names the field and rule, not the key", () =>
    Effect.gen(function*() {
      // HttpTesting's key is `test-key`: not an address, so the input is rejected before any request.
      const r = yield* run(() => Response.json({}), (w) => Effect.flip(w.balances("test-key")))
      const exit = yield* run(() => Response.json({}), (w) => Stream.runDrain(w.historyPages("test-key")))
      expect(r.count).toBe(0)
      const error = value(r.exit)
      expect(error).toMatchObject({ _tag: "InvalidRequest", field: "wallet", value: "<redacted>" })
      for (const text of [error.message, JSON.stringify(error), String(error)]) expect(text).not.toContain("test-key")
      // Streams too.
      expect(exit.count).toBe(0)
      expect(Exit.isFailure(exit.exit) && JSON.stringify(exit.exit.cause)).not.toContain("test-key")
      expect(Exit.isFailure(exit.exit) && JSON.stringify(exit.exit.cause)).toContain("InvalidRequest")
    }))
})

describe("Wallet: the SDK-wide credits counter", () => {
  it.effect("the wallet's series is the area=wallet series of Credits.credits", () =>
    Effect.gen(function*() {
      const before = (yield* Metric.value(Credits.forArea("wallet"))).count
      const r = yield* run(() => Response.json(identityOf(WALLET)), (w) => w.identity(WALLET))
      expect(r.credits).toBe(100)
      expect((yield* Metric.value(Credits.forArea("wallet"))).count - before).toBe(100)
    }))
})
