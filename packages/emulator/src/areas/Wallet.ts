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
import { base58ByteLength, decodeBase58, DOMAIN_REGEX, encodeBase58, WALLET_REGEX } from "@solfx/core/Primitives"
import type * as WalletRecords from "@solfx/core/WalletRecords"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, RestRequest, RestRoute } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import * as Dataset from "../Dataset.js"
import type * as Events from "../Events.js"
import * as Paging from "../Paging.js"
import * as World from "../World.js"
import * as AQ from "./AssetQueries.js"
import * as AssetReceipts from "./AssetReceipts.js"
import * as DA from "./DigitalAssets.js"

type Encoded<S extends { readonly Encoded: unknown }> = S["Encoded"]
type Identity = Encoded<typeof WalletRecords.Identity>
// The wire shapes, with the numbers the emulator computes with (the wire also admits digit strings).
type Balance = Omit<Encoded<typeof WalletRecords.Balance>, "balance" | "pricePerToken" | "usdValue"> & {
  readonly balance: number
  readonly pricePerToken: number | null
  readonly usdValue: number | null
}
type Nft = Encoded<typeof WalletRecords.Nft>
type Transfer = Omit<Encoded<typeof WalletRecords.Transfer>, "amount"> & { readonly amount: number }
type HistoryEntry = Encoded<typeof WalletRecords.HistoryEntry>

const NATIVE_MINT = "So11111111111111111111111111111111111111112"
const SOL_PRICE = 145.32
const MAX_LIMIT = 100
const MAX_NFTS = 100
const MAX_BATCH = 100

/**
 * How many wallets are seeded.
 *
 * @since 0.1.0
 * @category data
 */
export const walletCount = (dataset: Dataset.Dataset): number => dataset.size("wallet.wallets", 400)

/**
 * The address of seeded wallet `i`.
 *
 * @since 0.1.0
 * @category data
 */
export const walletAt = (dataset: Dataset.Dataset, i: number): string => dataset.address(`wallet:${i}`)

/**
 * Whether seeded wallet `i` has an identity (four in five do).
 *
 * @since 0.1.0
 * @category data
 */
export const hasIdentity = (i: number): boolean => i % 5 !== 4

/**
 * Whether seeded wallet `i` has a known funding source (six in seven do).
 *
 * @since 0.1.0
 * @category data
 */
export const hasFunder = (i: number): boolean => i % 7 !== 6

/**
 * The domain of seeded wallet `i`, if it has one.
 *
 * @since 0.1.0
 * @category data
 */
export const domainOf = (i: number): string | undefined => hasIdentity(i) && i % 3 === 0 ? `wallet${i}.sol` : undefined

/**
 * Transfers of seeded wallet `i` (its funding included): enough that its history gives every mint
 * it holds or emptied (`tokenCount`, `zeroCount`), and up to 150 more. Wallet 0 has
 * `wallet.bigTransfers` (default 1,234).
 *
 * @since 0.1.0
 * @category data
 */
export const activityCount = (dataset: Dataset.Dataset, i: number): number =>
  i === 0
    ? dataset.size("wallet.bigTransfers", 1234)
    : 1 + tokenCount(dataset, i) + 2 * zeroCount(dataset, i) + dataset.int(`wallet:${i}:activity`, 151)

/**
 * Tokens with a balance held by seeded wallet `i` (zero balances not included). Wallet 0 holds
 * 250, or fewer when `wallet.bigTransfers` is too small for its history to have given them.
 *
 * @since 0.1.0
 * @category data
 */
export const tokenCount = (dataset: Dataset.Dataset, i: number): number =>
  i === 0
    ? Math.min(250, Math.max(0, activityCount(dataset, 0) - 1 - 2 * zeroCount(dataset, 0) - nftCount(dataset, 0)))
    : 5 + dataset.int(`wallet:${i}:tokens`, 180)

/**
 * The NFTs with a token account whose receipt the history of seeded wallet `i` gives: the sample
 * wallet's (its NFTs are DAS assets, `AQ.ownerNftAccounts`), as many as its transfers leave room for.
 */
const nftCount = (dataset: Dataset.Dataset, i: number): number =>
  i === 0
    ? Math.min(
      AQ.ownerNftAccounts(dataset, walletAt(dataset, 0)).length,
      Math.max(0, activityCount(dataset, 0) - 1 - 2 * zeroCount(dataset, 0))
    )
    : 0

/**
 * Mints seeded wallet `i` held and spent down to zero (listed with `showZeroBalance`): 1..9.
 *
 * @since 0.1.0
 * @category data
 */
export const zeroCount = (dataset: Dataset.Dataset, i: number): number => {
  const drawn = 1 + dataset.int(`wallet:${i}:zeros`, 8)
  // Each takes two of wallet 0's transfers (in, then out); one of them is its funding.
  return i === 0 ? Math.min(drawn, Math.floor(Math.max(0, activityCount(dataset, 0) - 1) / 2)) : drawn
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

const ui = (raw: bigint, decimals: number) => Number(raw) / 10 ** decimals

const indexOf = (ctx: AreaContext, address: string): number | undefined =>
  ctx.state("wallet:index", () => {
    const map = new Map<string, number>()
    for (let i = 0; i < walletCount(ctx.dataset); i++) map.set(walletAt(ctx.dataset, i), i)
    return map
  }).get(address)

// -- identity ----------------------------------------------------------------

const KINDS = [
  ["exchange", "Centralized Exchange", ["Binance", "Coinbase", "Kraken", "OKX", "Bybit"]],
  ["protocol", "DeFi", ["Jupiter", "Raydium", "Orca", "Marinade", "Kamino"]],
  ["market-maker", "Market Maker", ["Wintermute", "Jump", "GSR"]],
  ["validator", "Validator", ["Helius Validator", "Everstake", "Figment"]],
  ["wallet", "Individual", ["Whale", "Fund", "Treasury"]]
] as const

const identityOf = (dataset: Dataset.Dataset, i: number): Identity => {
  const [type, category, names] = KINDS[dataset.int(`wallet:${i}:kind`, KINDS.length)]!
  const domain = domainOf(i)
  return {
    address: walletAt(dataset, i),
    type,
    name: `${names[dataset.int(`wallet:${i}:name`, names.length)]} ${i}`,
    category,
    tags: [category],
    ...(domain === undefined ? {} : { domainNames: [domain] })
  }
}

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

// -- balances ----------------------------------------------------------------

/** Token `j` of seeded wallet `i`: its mint, decimals and raw amount (its token account's). */
const holding = (dataset: Dataset.Dataset, i: number, j: number, zero: boolean) => {
  const label = `wallet:${i}:${zero ? "zero" : "token"}:${j}`
  // The mint's decimals, as token metadata shows them (one place for both).
  const decimals = DA.mintDecimals(dataset, dataset.address(label))
  // Up to 10,000 tokens: realistic magnitudes, never beyond 2^53.
  const scaled = BigInt(1 + dataset.int(`${label}:raw`, 1_000_000)) * 10n ** BigInt(decimals) / 100n
  return { label, mint: dataset.address(label), decimals, raw: zero ? 0n : scaled > 0n ? scaled : 1n }
}

/**
 * The token accounts of a seeded wallet (its tokens, then with `showZero` its emptied ones), as
 * getTokenAccounts lists them: the same mints and raw amounts as its balances. Empty for any other address.
 *
 * @since 0.1.0
 * @category data
 */
export const walletTokenAccounts = (dataset: Dataset.Dataset, owner: string, showZero: boolean) => {
  const i = walletIndex(dataset, owner)
  const tokens = i === undefined ? 0 : tokenCount(dataset, i)
  const zeros = i === undefined || !showZero ? 0 : zeroCount(dataset, i)
  return {
    length: tokens + zeros,
    at: (k: number) => {
      const h = holding(dataset, i!, k < tokens ? k : k - tokens, k >= tokens)
      return {
        address: dataset.address(`${h.label}:account`),
        mint: h.mint,
        owner,
        amount: h.raw,
        delegated_amount: 0n,
        frozen: false,
        burnt: false,
        delegate: null,
        close_authority: null
      }
    }
  }
}

/** The token program of a seeded wallet's holding: one in four is Token-2022's. */
const programOfLabel = (dataset: Dataset.Dataset, label: string): "token-2022" | "spl-token" =>
  dataset.int(`${label}:program`, 4) === 0 ? "token-2022" : "spl-token"

const tokenBalance = (dataset: Dataset.Dataset, i: number, j: number, zero: boolean): Balance => {
  const { decimals, label, mint, raw } = holding(dataset, i, j, zero)
  const balance = ui(raw, decimals)
  const priced = dataset.int(`${label}:priced`, 8) !== 0
  // Prices from $0.000001 to $100, so no holding is worth more than $1M: plausible wallets.
  const price = priced
    ? round((1 + dataset.int(`${label}:price`, 100_000)) / 10 ** (3 + dataset.int(`${label}:pexp`, 4)), 6)
    : null
  const named = dataset.int(`${label}:named`, 10) !== 0
  return {
    mint,
    balance,
    decimals,
    tokenProgram: programOfLabel(dataset, label),
    symbol: named ? `T${i}X${j}` : null,
    name: named ? `Token ${j} of wallet ${i}` : null,
    pricePerToken: price,
    usdValue: price === null ? null : round(balance * price, 2),
    logoUri: named ? `https://example.invalid/logo/${mint}.png` : null
  }
}

/** Each seeded wallet's mint: the wallet and the token (or emptied token) that is its account. */
const walletMints = new WeakMap<Dataset.Dataset, ReadonlyMap<string, readonly [number, number, boolean]>>()

const walletMintIndex = (dataset: Dataset.Dataset) => {
  let index = walletMints.get(dataset)
  if (index === undefined) {
    const all = new Map<string, readonly [number, number, boolean]>()
    for (let i = 0; i < walletCount(dataset); i++) {
      for (let j = 0; j < tokenCount(dataset, i); j++) all.set(dataset.address(`wallet:${i}:token:${j}`), [i, j, false])
      for (let j = 0; j < zeroCount(dataset, i); j++) all.set(dataset.address(`wallet:${i}:zero:${j}`), [i, j, true])
    }
    walletMints.set(dataset, index = all)
  }
  return index
}

/**
 * Whether a seeded wallet holds (or held: zero balances) this mint.
 *
 * @since 0.1.0
 * @category data
 */
export const isWalletMint = (dataset: Dataset.Dataset, mint: string): boolean => walletMintIndex(dataset).has(mint)

/**
 * The seeded wallets' token accounts of a mint (each wallet mint is one wallet's: one account, maybe
 * empty), as `walletTokenAccounts` lists them by owner.
 *
 * @since 0.1.0
 * @category data
 */
export const walletAccountsOfMint = (dataset: Dataset.Dataset, mint: string) => {
  const at = walletMintIndex(dataset).get(mint)
  if (at === undefined) return []
  const [i, j, zero] = at
  const owner = walletAt(dataset, i)
  const accounts = walletTokenAccounts(dataset, owner, zero)
  return [accounts.at(zero ? tokenCount(dataset, i) + j : j)]
}

/**
 * The token program of a seeded wallet's mint, as its balances show it (`tokenProgram`), or
 * undefined for a mint no seeded wallet holds.
 *
 * @since 0.1.0
 * @category data
 */
export const walletMintProgram = (dataset: Dataset.Dataset, mint: string): "token-2022" | "spl-token" | undefined => {
  const at = walletMintIndex(dataset).get(mint)
  return at === undefined ? undefined : programOfLabel(dataset, `wallet:${at[0]}:${at[2] ? "zero" : "token"}:${at[1]}`)
}

const seededIndexes = new WeakMap<Dataset.Dataset, Map<string, number>>()

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

/** The index of a seeded wallet, or undefined (built once per dataset). */
const walletIndex = (dataset: Dataset.Dataset, address: string): number | undefined => {
  let index = seededIndexes.get(dataset)
  if (index === undefined) {
    index = new Map()
    for (let i = 0; i < walletCount(dataset); i++) index.set(walletAt(dataset, i), i)
    seededIndexes.set(dataset, index)
  }
  return index.get(address)
}

/** usdValue descending, unpriced last, then by mint: a total order, so pages never overlap. */
const byUsdValue = (a: Balance, b: Balance) => {
  const av = a.usdValue ?? -1
  const bv = b.usdValue ?? -1
  return av !== bv ? bv - av : a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0
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
  const accounts = DA.ownerAccounts(ctx.dataset, owner)
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
      const decimals = DA.mintDecimals(ctx.dataset, mint)
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

/** A wallet's NFTs: the DAS assets it owns (at most 100, the page's cap). */
const nftsOf = (dataset: Dataset.Dataset, owner: string): Array<Nft> =>
  AQ.ownerAssets(dataset, owner, MAX_NFTS).map(({ authority, id, index }) => {
    const links = DA.assetJson(dataset, authority, index).content?.links
    const collection = DA.collectionAt(
      dataset,
      authority,
      Math.floor(index / DA.shapeOf(dataset, authority).collectionSize)
    )
    return {
      mint: id,
      compressed: DA.isCompressed(index),
      name: DA.assetName(index),
      imageUri: typeof links?.["image"] === "string" ? links["image"] : null,
      collectionName: null,
      collectionAddress: collection
    }
  })

// -- activity: transfers and history share signatures, times and slots ------

/** 60 bytes from the label, then the index: the position is read back from a signature in O(1). */
const activitySignature = (dataset: Dataset.Dataset, i: number, k: number): string => {
  const bytes = new Uint8Array(64)
  bytes.set(dataset.bytes(`wallet:${i}:tx:${k}`, 60), 0)
  new DataView(bytes.buffer).setUint32(60, k)
  return encodeBase58(bytes)
}

/** The position of one of wallet `i`'s signatures, or undefined. */
const activityIndex = (dataset: Dataset.Dataset, i: number, n: number, signature: string): number | undefined => {
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const k = new DataView(bytes.buffer, bytes.byteOffset).getUint32(60)
  return k < n && activitySignature(dataset, i, k) === signature ? k : undefined
}

// Seeded activity is dated before the world's first slot (nothing after the indexed slot), and
// its block times are the world's one clock (`World.pastBlockTime`), so slot order and time order agree.
const slotAt = (dataset: Dataset.Dataset, i: number, k: number) =>
  World.baseSlotOf(dataset) - 1 - k * 2250 - (i % 1000) - dataset.int(`wallet:${i}:tx:${k}:jitter`, 600)

const timeOfSlot = World.pastBlockTime

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
const COUNTERPARTIES = 37

const counterpartyAt = (ds: Dataset.Dataset, i: number, c: number) => ds.address(`wallet:${i}:counterparty:${c}`)

/** Which of wallet `i`'s counterparties activity `k` is with. */
const counterpartyOfActivity = (ds: Dataset.Dataset, i: number, k: number) =>
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
const isFailed = (k: number) => k % 53 === 52

/** Activity `k` of transfer `j`: the activity without its failed transactions. */
const transferActivity = (j: number) => Math.floor(j / 52) * 53 + (j % 52)
/** The history of a wallet with `transfers` transfers: those, and the failed ones between them. */
const historyCount = (transfers: number) => transfers === 0 ? 0 : transferActivity(transfers - 1) + 1

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
interface Funding {
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
const fundingPlan = (ds: Dataset.Dataset): FundingPlan => {
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
type Entry =
  | { readonly k: number }
  | { readonly funding: Funding }
  | { readonly stake: Stake }
  | { readonly receipt: AssetReceipts.Receipt }
  | { readonly counter: number }

const entrySignature = (ds: Dataset.Dataset, i: number, e: Entry) =>
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
const transferCount = (ds: Dataset.Dataset, i: number) =>
  Math.max(0, activityCount(ds, i) - (fundingPlan(ds).into[i] === undefined ? 0 : 1))

const merged = new WeakMap<Dataset.Dataset, Map<string, ReadonlyArray<Entry>>>()

/**
 * The activity of seeded wallet `i` with its fundings, newest first: its funding in (or a root
 * hub's stake) is its oldest entry; a hub's fundings out sit among its activity by slot. Most
 * wallets have no funding out: their list is the activity, then the funding in, computed lazily.
 * `transfersOnly` leaves out what is no transfer (failed transactions, the stake).
 */
const entriesOf = (ds: Dataset.Dataset, i: number, transfersOnly: boolean): Dataset.LazyList<Entry> => {
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
const entryTransfer = (ds: Dataset.Dataset, i: number, e: Entry): Transfer => {
  if ("k" in e) return transferAt(ds, i, e.k)
  if ("counter" in e) return counterTransfer(ds, i, e.counter)
  if ("funding" in e) return fundingTransfer(ds, i, e.funding)
  throw new Error("emulator: a stake withdrawal or an NFT receipt is no transfer")
}

/** Wallet `i`'s transfer `k` as its counterparty lists it: the same transfer, the other way. */
const counterTransfer = (ds: Dataset.Dataset, i: number, k: number): Transfer => {
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

const entryHistory = (ds: Dataset.Dataset, i: number, e: Entry, tokenAccounts: string): HistoryEntry => {
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

const entryType = (ds: Dataset.Dataset, i: number, e: Entry) =>
  "k" in e
    ? historyTypeAt(ds, i, e.k)
    : "counter" in e
    ? historyTypeAt(ds, i, e.counter)
    : "receipt" in e
    ? e.receipt.type
    : "funding" in e
    ? "TRANSFER"
    : "STAKE"

// -- counterparties: each sees its side of the transfers it made with a seeded wallet ---------

const counterparties = new WeakMap<Dataset.Dataset, ReadonlyMap<string, readonly [number, number]>>()

/** The seeded wallet and the number of a counterparty address (built once per dataset: 14,800 addresses). */
const counterpartyOf = (ds: Dataset.Dataset, address: string): readonly [number, number] | undefined => {
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
const activityByCounterparty = (ds: Dataset.Dataset, i: number): ReadonlyArray<ReadonlyArray<number>> => {
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
interface Seeded {
  readonly i: number
  readonly entries: Dataset.LazyList<Entry>
  readonly indexOf: (signature: string) => number | undefined
}

const seededOf = (ds: Dataset.Dataset, address: string, transfersOnly: boolean): Seeded | undefined => {
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

// -- the world's changes: what landed since start, newest first -------------------

const solBalance = (lamports: bigint): Balance => {
  const balance = ui(lamports, 9)
  return {
    mint: NATIVE_MINT,
    balance,
    decimals: 9,
    tokenProgram: "spl-token",
    symbol: "SOL",
    name: "Solana",
    pricePerToken: SOL_PRICE,
    usdValue: round(balance * SOL_PRICE, 2),
    logoUri: "https://example.invalid/logo/sol.png"
  }
}

/** A token account the world made, as a balance (unpriced: no market knows a world mint). */
const worldBalance = (world: World.World, t: World.TokenAccount): Balance => {
  const m = world.mint(t.mint)!
  return {
    mint: t.mint,
    balance: ui(t.amount, m.decimals),
    decimals: m.decimals,
    tokenProgram: "spl-token",
    symbol: m.symbol,
    name: m.name,
    pricePerToken: null,
    usdValue: null,
    logoUri: null
  }
}

const worldNft = (m: World.Mint): Nft => ({
  mint: m.address,
  compressed: false,
  name: m.name,
  imageUri: null,
  collectionName: null,
  collectionAddress: m.collection
})

const worldCompressedNft = (c: World.CompressedNft): Nft => ({
  mint: c.id,
  compressed: true,
  name: c.name,
  imageUri: null,
  collectionName: null,
  collectionAddress: c.collection
})

/** The SOL and token movements of a landed transaction to or from `wallet`. */
const worldTransfersOf = (world: World.World, wallet: string, tx: Events.LandedTransaction): Array<Transfer> => {
  if (tx.err !== null) return []
  const out: Array<Transfer> = []
  const base = { signature: tx.signature, timestamp: tx.blockTime }
  for (const n of tx.nativeTransfers) {
    if ((n.from === wallet) === (n.to === wallet)) continue
    out.push({
      ...base,
      direction: n.to === wallet ? "in" : "out",
      counterparty: n.to === wallet ? n.from : n.to,
      mint: NATIVE_MINT,
      symbol: "SOL",
      amount: ui(n.lamports, 9),
      amountRaw: n.lamports.toString(),
      decimals: 9
    })
  }
  for (const t of tx.tokenTransfers) {
    if ((t.from === wallet) === (t.to === wallet)) continue
    const into = t.to === wallet
    out.push({
      ...base,
      direction: into ? "in" : "out",
      // A mint comes from the mint's authority.
      counterparty: (into ? t.from : t.to) ?? world.mint(t.mint)?.authority ?? t.mint,
      mint: t.mint,
      symbol: world.mint(t.mint)?.symbol ?? null,
      amount: ui(t.amount, t.decimals),
      amountRaw: t.amount.toString(),
      decimals: t.decimals
    })
  }
  return out
}

const worldTransfers = (world: World.World, wallet: string): ReadonlyArray<Transfer> =>
  world.transactionsOf(wallet).flatMap((tx) => worldTransfersOf(world, wallet, tx))

/** A landed transaction as the wallet's history shows it: the wallet's own balance changes. */
const worldHistoryEntry = (wallet: string, tx: Events.LandedTransaction, tokenAccounts: string): HistoryEntry => {
  const changes: Array<{ mint: string; amount: number; decimals: number }> = []
  for (const a of tx.accounts) {
    if (a.address === wallet && a.lamportsAfter !== a.lamportsBefore) {
      changes.push({ mint: "SOL", amount: ui(a.lamportsAfter - a.lamportsBefore, 9), decimals: 9 })
    }
    if (a.token !== undefined && a.token.owner === wallet && tokenAccounts !== "none") {
      const delta = a.token.amountAfter - a.token.amountBefore
      if (delta !== 0n || tokenAccounts === "all") {
        changes.push({ mint: a.token.mint, amount: ui(delta, a.token.decimals), decimals: a.token.decimals })
      }
    }
  }
  return {
    signature: tx.signature,
    timestamp: tx.blockTime,
    slot: tx.slot,
    fee: ui(tx.fee, 9),
    feePayer: tx.feePayer,
    error: tx.err === null ? null : JSON.stringify(tx.err),
    balanceChanges: changes
  }
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

/**
 * The history of `wallet`: what landed since start (newest first), then its seeded entries
 * (older: `seededOf`), and the position of one of its signatures in that order.
 */
const historyOf = (ctx: AreaContext, wallet: string) => {
  const recent = World.of(ctx.state).transactionsOf(wallet)
  const own = seededOf(ctx.dataset, wallet, false)
  const indexOf = (signature: string): number | undefined => {
    const mine = recent.findIndex((tx) => tx.signature === signature)
    if (mine >= 0) return mine
    const x = own?.indexOf(signature)
    return x === undefined ? undefined : x + recent.length
  }
  return { recent, own, indexOf }
}

/**
 * A signature of an address's history as the standard RPC lists it (getSignaturesForAddress,
 * getSignatureStatuses): `err` is the runtime's error of a failed transaction, null on success.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignedTransaction {
  readonly signature: string
  readonly slot: number
  readonly blockTime: number | null
  readonly err: unknown
  /** A seeded entry's history as the Wallet API shows it (its fee payer, type and the address's changes). */
  readonly seeded?: {
    readonly entry: HistoryEntry
    readonly type: string
    readonly wallet: string
    /** Its slot's block time, which the history may leave null (one clock for every area). */
    readonly time: number
  } | undefined
}

/** A seeded failed transaction's error as the runtime gives it (its history says "custom program error: 0x1"). */
const SEEDED_ERROR = { InstructionError: [0, { Custom: 1 }] }

/**
 * The signatures of an address, newest first, exactly those its `/history` lists, in the same
 * order (one list, `historyOf`): what landed since start, then a seeded wallet's seeded activity.
 * `indexOf` is a signature's position, or undefined for one the address does not have.
 *
 * @since 0.1.0
 * @category data
 */
export const signaturesOf = (
  ctx: AreaContext,
  address: string
): Dataset.LazyList<SignedTransaction> & { readonly indexOf: (signature: string) => number | undefined } => {
  const { indexOf: position, own, recent } = historyOf(ctx, address)
  const at = (x: number): SignedTransaction => {
    if (x >= recent.length) {
      const e = own!.entries.get(x - recent.length)
      const entry = entryHistory(ctx.dataset, own!.i, e, "balanceChanged")
      return seededSigned(ctx.dataset, entry, entryType(ctx.dataset, own!.i, e), address)
    }
    const tx = recent[x]!
    return { signature: tx.signature, slot: tx.slot, blockTime: tx.blockTime, err: tx.err }
  }
  return { ...Dataset.lazyList(recent.length + (own?.entries.length ?? 0), at), indexOf: position }
}

/** A history entry as a signature of the standard RPC. */
const signedOf = (e: HistoryEntry): SignedTransaction => ({
  signature: e.signature,
  slot: e.slot,
  blockTime: e.timestamp,
  err: e.error === null ? null : SEEDED_ERROR
})

/** A seeded history entry of `wallet` as a signature with its history. */
const seededSigned = (ds: Dataset.Dataset, entry: HistoryEntry, type: string, wallet: string): SignedTransaction => ({
  ...signedOf(entry),
  seeded: { entry, type, wallet, time: timeOfSlot(ds, entry.slot) }
})

/** Entry `e` of seeded wallet `i`, as a signature with its history. */
const signedEntry = (ds: Dataset.Dataset, i: number, e: Entry): SignedTransaction => {
  const entry = entryHistory(ds, i, e, "balanceChanged")
  return seededSigned(ds, entry, entryType(ds, i, e), walletAt(ds, i))
}

/**
 * A seeded transaction by signature, or undefined: every signature a seeded history lists (an
 * activity of a seeded wallet, which its counterparty lists too, a funding, a stake withdrawal, the
 * receipt of a compressed NFT). The one lookup of a seeded signature that getSignatureStatuses,
 * getTransaction and the enhanced transactions share. An activity signature carries its index:
 * each wallet's is compared by its bytes, without encoding (one hash per wallet); a receipt's
 * carries its asset (`AssetReceipts.receiptOfSignature`).
 *
 * @since 0.1.0
 * @category data
 */
export const seededSignature = (ctx: AreaContext, signature: string): SignedTransaction | undefined => {
  const ds = ctx.dataset
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const k = new DataView(bytes.buffer, bytes.byteOffset).getUint32(60)
  const head = bytes.subarray(0, 60)
  for (let i = 0; i < walletCount(ds); i++) {
    if (k >= historyCount(transferCount(ds, i))) continue
    const own = ds.bytes(`wallet:${i}:tx:${k}`, 60)
    if (own.every((b, x) => b === head[x])) return signedEntry(ds, i, { k })
  }
  const plan = fundingPlan(ds)
  for (const funding of plan.into) {
    if (funding?.signature === signature) return signedEntry(ds, funding.wallet, { funding })
  }
  for (const stake of plan.stakes.values()) {
    if (stake.signature === signature) return signedEntry(ds, stake.wallet, { stake })
  }
  const owned = AssetReceipts.receiptOfSignature(ds, signature)
  if (owned === undefined) return undefined
  const entry = entryHistory(ds, -1, { receipt: owned.receipt }, "balanceChanged")
  return seededSigned(ds, entry, owned.receipt.type, owned.owner)
}

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
