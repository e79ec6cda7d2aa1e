/**
 * The Wallet API (beta, as the service documents it) over the seeded wallets: identity, batch
 * identity, balances, history, transfers and funded-by.
 *
 * Data, all derived from the dataset:
 * - `wallet.wallets` (default 400) seeded wallets, `walletAt(dataset, i)`. Four in
 *   five have an identity (`hasIdentity`), one in three of those also a domain
 *   `wallet<i>.sol`; six in seven have a funding source (`hasFunder`).
 * - Wallet 0 has `wallet.bigTransfers` (default 1,234) transfers and 250 tokens
 *   (three pages of 100); the others 5..184 tokens and enough transfers to have received them.
 * - Funding: wallets 1..20 are hubs that fund the others (`fundingPlan`); a wallet's funded-by is
 *   its funding, the oldest of its transfers and history, and the same transfer is in its funder's.
 * - Balances at start are what the history adds up to (`ledgerOf`): replaying a wallet's history
 *   oldest first from nothing (fees included) gives its SOL and every mint's amount, never
 *   negative on the way; a mint it emptied is in its history too.
 * - Any other valid address is unknown: identity and funded-by answer 404,
 *   balances, history and transfers answer empty pages.
 *
 * Every call is charged by its entry of core's `Endpoints`, in usage `api`: the
 * Wallet API is served from the enhanced-API host (`api.helius.xyz`), and the older
 * usage record has no wallet category. Malformed requests (a wallet that
 * fails the documented regex or is not 32 bytes, a limit outside 1..100, a bad
 * cursor) are rejected with 400 `{"error": …}` by the precheck, before charging,
 * as a gateway validating its parameters would.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import { base58ByteLength, DOMAIN_REGEX, WALLET_REGEX } from "@solfx/core/Primitives"
import type * as WalletRecords from "@solfx/core/WalletRecords"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, RestRequest, RestRoute } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import * as Dataset from "../Dataset.js"
import * as Paging from "../Paging.js"
import type { Funding } from "../seed/WalletActivity.js"
import {
  counterTransfer,
  entryHistory,
  entryTransfer,
  entryType,
  fundingPlan,
  isFailed,
  slotAt,
  timeOfSlot
} from "../seed/WalletActivity.js"
import { activityByCounterparty, counterpartyOf, seededOf } from "../seed/WalletCounterparties.js"
import type { Balance, Encoded, HistoryEntry, Identity } from "../seed/Wallets.js"
import {
  byUsdValue,
  domainOf,
  hasIdentity,
  identityOf,
  MAX_BATCH,
  MAX_LIMIT,
  MAX_NFTS,
  NATIVE_MINT,
  nftsOf,
  round,
  tokenBalance,
  tokenCount,
  ui,
  walletAt,
  walletCount,
  zeroCount
} from "../seed/Wallets.js"
import { historyOf } from "../seed/WalletSignatures.js"
import * as World from "../World.js"
import * as DasTokenAccounts from "./digitalAssets/TokenAccounts.js"
import {
  solBalance,
  worldBalance,
  worldCompressedNft,
  worldHistoryEntry,
  worldNft,
  worldTransfers
} from "./wallet/WorldChanges.js"

const indexOf = (ctx: AreaContext, address: string): number | undefined =>
  ctx.state("wallet:index", () => {
    const map = new Map<string, number>()
    for (let i = 0; i < walletCount(ctx.dataset); i++) map.set(walletAt(ctx.dataset, i), i)
    return map
  }).get(address)

/** A seeded wallet with an identity, by address or domain. */
const identityFor = (ctx: AreaContext, key: string): Identity | undefined => {
  let i: number | undefined
  if (key.includes(".")) {
    const m = /^wallet(\d{1,9})\.sol$/i.exec(key)
    i = m === null ? undefined : Number(m[1])
    if (i !== undefined && domainOf(i) === undefined) i = undefined
  } else {
    i = indexOf(ctx, key)
  }
  return i !== undefined && i < walletCount(ctx.dataset) && hasIdentity(i) ? identityOf(ctx.dataset, i) : undefined
}

const sortedTokens = (ctx: AreaContext, i: number, zero: boolean): ReadonlyArray<Balance> =>
  ctx.state(`wallet:tokens:${i}:${zero}`, () => {
    const list: Array<Balance> = []
    for (let j = 0; j < tokenCount(ctx.dataset, i); j++) list.push(tokenBalance(ctx.dataset, i, j, false))
    if (zero) {
      for (let j = 0; j < zeroCount(ctx.dataset, i); j++) {
        list.push(tokenBalance(ctx.dataset, i, j, true))
      }
    }
    return list.sort(byUsdValue)
  })

/**
 * The balances of an owner of seeded DAS token accounts: its accounts with their mints' decimals
 * (unpriced), so the Wallet API and getTokenAccounts describe one wallet.
 */
const accountTokens = (ctx: AreaContext, owner: string, zero: boolean): ReadonlyArray<Balance> => {
  const accounts = DasTokenAccounts.ownerAccounts(ctx.dataset, owner)
  if (accounts.length === 0) return []
  return ctx.state(`wallet:das-tokens:${owner}:${zero}`, () => {
    // One balance a mint: the sum of the owner's accounts of it.
    const byMint = new Map<string, bigint>()
    for (let k = 0; k < accounts.length; k++) {
      const t = accounts.at(k)
      byMint.set(t.mint, (byMint.get(t.mint) ?? 0n) + t.amount)
    }
    const list: Array<Balance> = []
    for (const [mint, amount] of byMint) {
      if (!zero && amount === 0n) continue
      const decimals = DasTokenAccounts.mintDecimals(ctx.dataset, mint)
      list.push({
        mint,
        balance: ui(amount, decimals),
        decimals,
        tokenProgram: "spl-token",
        symbol: null,
        name: null,
        pricePerToken: null,
        usdValue: null,
        logoUri: null
      })
    }
    return list.sort(byUsdValue)
  })
}

// -- request parsing ---------------------------------------------------------

const bad = (message: string) => Effect.fail(new RestFailure(400, message))

const isWallet = (s: string) => WALLET_REGEX.test(s) && base58ByteLength(s) === 32
const isDomain = (s: string) => s.includes(".") && DOMAIN_REGEX.test(s)

const walletRule = "wallet must be a base58 address matching ^[1-9A-HJ-NP-Za-km-z]{32,44}$ (32 bytes)"

const limitOf = (query: URLSearchParams, fallback: number): number | undefined => {
  const raw = query.get("limit")
  const n = raw === null ? fallback : Paging.intParam(raw)
  return n !== undefined && Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT ? n : undefined
}

const boolOf = (query: URLSearchParams, name: string, fallback: boolean): boolean | undefined => {
  const raw = query.get(name)
  return raw === null ? fallback : raw === "true" ? true : raw === "false" ? false : undefined
}

const checkWallet = (request: RestRequest) => isWallet(request.params["wallet"] ?? "") ? Effect.void : bad(walletRule)

const checkLimit = (request: RestRequest, fallback: number) =>
  limitOf(request.query, fallback) === undefined
    ? bad(`limit must be an integer between 1 and ${MAX_LIMIT}`)
    : Effect.void

/** The known wallet's index, or undefined for a valid address the dataset does not hold. */
const seeded = (ctx: AreaContext, request: RestRequest) => indexOf(ctx, request.params["wallet"]!)

// -- routes ------------------------------------------------------------------

const route = (
  entry: Parameters<typeof restRoute>[0],
  precheck: RestRoute["precheck"],
  handle: RestRoute["handle"]
): RestRoute => restRoute(entry, { ...(precheck === undefined ? {} : { precheck }), handle })

const identity = route(
  Endpoints.walletIdentity,
  (request) => {
    const w = request.params["wallet"] ?? ""
    return isWallet(w) || isDomain(w) ? Effect.void : bad(`${walletRule}, or a name-service domain`)
  },
  (request, ctx) => {
    const found = identityFor(ctx, request.params["wallet"]!)
    return found === undefined ? Effect.fail(new RestFailure(404, "Identity not found")) : Effect.succeed(found)
  }
)

const addressesOf = (body: unknown): ReadonlyArray<unknown> | undefined => {
  const addresses = typeof body === "object" && body !== null ? (body as { addresses?: unknown }).addresses : undefined
  return Array.isArray(addresses) ? addresses : undefined
}

const batchIdentity = route(
  Endpoints.walletBatchIdentity,
  (request) => {
    const addresses = addressesOf(request.body)
    if (addresses === undefined) return bad("body must be {\"addresses\": string[]}")
    if (addresses.length > MAX_BATCH) return bad(`at most ${MAX_BATCH} addresses per request`)
    const invalid = addresses.findIndex((a) => typeof a !== "string" || !(isWallet(a) || isDomain(a)))
    return invalid === -1 ? Effect.void : bad(`addresses[${invalid}] is not a wallet address or a domain`)
  },
  (request, ctx) =>
    Effect.sync(() =>
      (addressesOf(request.body) as ReadonlyArray<string>).flatMap((a) => {
        const found = identityFor(ctx, a)
        return found === undefined ? [] : [found]
      })
    )
)

const balances = route(
  Endpoints.walletBalances,
  (request) =>
    Effect.gen(function*() {
      yield* checkWallet(request)
      yield* checkLimit(request, MAX_LIMIT)
      const page = request.query.get("page")
      const n = page === null ? 1 : Paging.intParam(page)
      if (n === undefined || !Number.isSafeInteger(n) || n < 1) yield* bad("page must be an integer of at least 1")
      for (const name of ["showNative", "showNfts", "showZeroBalance"]) {
        if (boolOf(request.query, name, false) === undefined) yield* bad(`${name} must be true or false`)
      }
    }),
  (request, ctx) =>
    Effect.sync(() => {
      const q = request.query
      const page = Paging.intParam(q.get("page") ?? "1")!
      const limit = limitOf(q, MAX_LIMIT)!
      const showNative = boolOf(q, "showNative", true)!
      const showNfts = boolOf(q, "showNfts", false)!
      const showZero = boolOf(q, "showZeroBalance", false)!
      const i = seeded(ctx, request)
      const wallet = request.params["wallet"]!
      const world = World.of(ctx.state)
      const seededTokens = i === undefined ? accountTokens(ctx, wallet, showZero) : sortedTokens(ctx, i, showZero)
      const own = world.tokenAccountsOf(wallet).filter((t) =>
        world.mint(t.mint)?.kind === "fungible" && (showZero || t.amount > 0n)
      )
      const tokens = own.length === 0
        ? seededTokens
        : [...seededTokens, ...own.map((t) => worldBalance(world, t))].sort(byUsdValue)
      const native = showNative ? [solBalance(world.lamports(wallet))] : []
      // Native SOL is the first entry of page 1; the rest follow it in usdValue order.
      const all = Dataset.lazyList(native.length + tokens.length, (k) =>
        k < native.length ? native[k]! : tokens[k - native.length]!)
      const slice = Paging.pageOf(all, page, limit)
      return {
        balances: slice.items,
        ...(showNfts
          ? {
            nfts: page === 1
              ? [
                ...nftsOf(ctx.dataset, wallet),
                ...world.nftsOf(wallet).map(worldNft),
                ...world.compressedNftsOf(wallet).map(worldCompressedNft)
              ].slice(
                0,
                MAX_NFTS
              )
              : []
          }
          : {}),
        totalUsdValue: round(
          slice.items.reduce((s, b) =>
            s + (b.usdValue ?? 0), 0),
          2
        ),
        pagination: { page, limit, hasMore: slice.hasMore }
      } satisfies Encoded<typeof WalletRecords.BalancesPage>
    })
)

/** A `nextCursor` is bound to the wallet whose transfers it pages. */
const transfersScope = (request: RestRequest) => `transfers|${request.params["wallet"]}`

const transfers = route(
  Endpoints.walletTransfers,
  (request) =>
    Effect.gen(function*() {
      yield* checkWallet(request)
      yield* checkLimit(request, 50)
      const cursor = request.query.get("cursor")
      if (cursor !== null && cursor !== "" && Paging.decodeCursor(cursor, transfersScope(request)) === undefined) {
        yield* bad("invalid cursor")
      }
    }),
  (request, ctx) => {
    const wallet = request.params["wallet"]!
    const own = seededOf(ctx.dataset, wallet, true)
    const n = own?.entries.length ?? 0
    // What landed since start first (newest first), then the seeded activity (older).
    const recent = worldTransfers(World.of(ctx.state), wallet)
    const list = Dataset.lazyList(recent.length + n, (k) => {
      if (k < recent.length) return recent[k]!
      return entryTransfer(ctx.dataset, own!.i, own!.entries.get(k - recent.length))
    })
    return Effect.map(
      Paging.sliceRest(
        list,
        request.query.get("cursor"),
        limitOf(request.query, 50)!,
        MAX_LIMIT,
        transfersScope(request)
      ),
      (page): Encoded<typeof WalletRecords.TransfersPage> => ({
        data: page.items,
        pagination: page.cursor === null ? { hasMore: false } : { hasMore: true, nextCursor: page.cursor }
      })
    )
  }
)

const history = route(
  Endpoints.walletHistory,
  (request) =>
    Effect.gen(function*() {
      yield* checkWallet(request)
      yield* checkLimit(request, MAX_LIMIT)
      const tokenAccounts = request.query.get("tokenAccounts")
      if (tokenAccounts !== null && !["none", "balanceChanged", "all"].includes(tokenAccounts)) {
        yield* bad("tokenAccounts must be none, balanceChanged or all")
      }
      const type = request.query.get("type")
      if (type !== null && !/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/.test(type)) yield* bad("invalid type")
      for (const name of ["before", "after"]) {
        const v = request.query.get(name)
        if (v !== null && base58ByteLength(v) !== 64) yield* bad(`${name} must be a transaction signature`)
      }
    }),
  (request, ctx) =>
    Effect.suspend(() => {
      const q = request.query
      const wallet = request.params["wallet"]!
      // What landed since start first (newest first), then the seeded activity (older).
      const { indexOf: positionOf, own, recent } = historyOf(ctx, wallet)
      const w = recent.length
      const n = w + (own?.entries.length ?? 0)
      const position = (name: string) => {
        const v = q.get(name)
        return v === null ? null : positionOf(v)
      }
      const before = position("before")
      const after = position("after")
      if (before === undefined) return bad("before is not a transaction of this wallet")
      if (after === undefined) return bad("after is not a transaction of this wallet")
      const limit = limitOf(q, MAX_LIMIT)!
      const type = q.get("type")
      const tokenAccounts = q.get("tokenAccounts") ?? "balanceChanged"
      // Newest first: strictly older than `before`, strictly newer than `after`.
      const end = after === null ? n : after
      const data: Array<HistoryEntry> = []
      let k = before === null ? 0 : before + 1
      let more = false
      for (; k < end; k++) {
        const e = k < w ? undefined : own!.entries.get(k - w)
        const kind = e === undefined ? recent[k]!.type : entryType(ctx.dataset, own!.i, e)
        if (type !== null && type !== "ANY" && kind !== type) continue
        if (data.length === limit) {
          more = true
          break
        }
        data.push(
          e === undefined
            ? worldHistoryEntry(wallet, recent[k]!, tokenAccounts)
            : entryHistory(ctx.dataset, own!.i, e, tokenAccounts)
        )
      }
      return Effect.succeed(
        {
          data,
          pagination: more ? { hasMore: true, nextCursor: data[data.length - 1]!.signature } : { hasMore: false }
        } satisfies Encoded<typeof WalletRecords.HistoryPage>
      )
    })
)

/** Funded-by of a wallet the seed did not fund: its first incoming SOL transfer in the world. */
const worldFunding = (ctx: AreaContext, wallet: string) => {
  const world = World.of(ctx.state)
  const oldestFirst = [...world.transactionsOf(wallet)].reverse()
  for (const tx of oldestFirst) {
    const t = tx.err === null ? tx.nativeTransfers.find((n) => n.to === wallet && n.from !== wallet) : undefined
    if (t === undefined) continue
    return Effect.succeed(
      {
        funder: t.from,
        funderName: null,
        funderType: null,
        mint: NATIVE_MINT,
        symbol: "SOL",
        amount: ui(t.lamports, 9),
        amountRaw: t.lamports.toString(),
        decimals: 9,
        signature: tx.signature,
        timestamp: tx.blockTime,
        date: new Date(tx.blockTime * 1000).toISOString(),
        slot: tx.slot,
        explorerUrl: `https://orbmarkets.io/tx/${tx.signature}`
      } satisfies Encoded<typeof WalletRecords.FundedBy>
    )
  }
  return Effect.fail(new RestFailure(404, "No funding transaction found"))
}

/** A counterparty's funding: the first SOL its seeded wallet sent it (its oldest incoming SOL transfer). */
const counterFunding = (ds: Dataset.Dataset, address: string): Omit<Funding, "wallet"> | undefined => {
  const cp = counterpartyOf(ds, address)
  if (cp === undefined) return undefined
  const [w, c] = cp
  const ks = activityByCounterparty(ds, w)[c]!
  for (let x = ks.length - 1; x >= 0; x--) {
    const k = ks[x]!
    if (isFailed(k)) continue
    const t = counterTransfer(ds, w, k)
    if (t.direction === "in" && t.mint === NATIVE_MINT) {
      return { funder: w, slot: slotAt(ds, w, k), raw: BigInt(t.amountRaw), signature: t.signature }
    }
  }
  return undefined
}

const fundedBy = route(
  Endpoints.walletFundedBy,
  checkWallet,
  (request, ctx) => {
    const i = seeded(ctx, request)
    const ds = ctx.dataset
    // The first incoming SOL transfer: the funding, the oldest entry of the wallet's transfers.
    const funding = i === undefined ? counterFunding(ds, request.params["wallet"]!) : fundingPlan(ds).into[i]
    if (funding === undefined) return worldFunding(ctx, request.params["wallet"]!)
    const f = funding.funder
    const funder = hasIdentity(f) ? identityOf(ds, f) : undefined
    const { raw, signature } = funding
    const timestamp = timeOfSlot(ds, funding.slot)
    return Effect.succeed(
      {
        funder: walletAt(ds, f),
        funderName: funder?.name ?? null,
        funderType: funder?.type ?? null,
        mint: NATIVE_MINT,
        symbol: "SOL",
        amount: ui(raw, 9),
        amountRaw: raw.toString(),
        decimals: 9,
        signature,
        timestamp,
        date: new Date(timestamp * 1000).toISOString(),
        slot: funding.slot,
        explorerUrl: `https://orbmarkets.io/tx/${signature}`
      } satisfies Encoded<typeof WalletRecords.FundedBy>
    )
  }
)

/**
 * The Wallet API area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "wallet",
  routes: [identity, batchIdentity, balances, history, transfers, fundedBy],
  samples: (dataset) => ({
    // Identity, funding source, 250 tokens over 3 pages, NFTs, 1,234 transfers (by default).
    wallet: walletAt(dataset, 0),
    walletDomain: domainOf(0)!,
    // A valid address the dataset does not hold: identity and funded-by answer 404.
    walletUnknown: dataset.address("wallet:unknown")
  })
}
