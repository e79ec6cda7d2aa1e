/**
 * The seeded wallets: how many, their addresses, identities and domains, and what they hold at
 * start (tokens, emptied tokens, NFTs), in the Wallet API's wire shapes. All derived from the
 * dataset. The Wallet area, standard RPC's token accounts and DAS read them.
 *
 * @since 0.1.0
 */

import type * as WalletRecords from "@solfx/core/WalletRecords"
import * as AQ from "../areas/AssetQueries.js"
import * as DasTokenAccounts from "../areas/digitalAssets/TokenAccounts.js"
import * as Dataset from "../Dataset.js"
import * as AssetSeed from "./DigitalAssets.js"

export type Encoded<S extends { readonly Encoded: unknown }> = S["Encoded"]
export type Identity = Encoded<typeof WalletRecords.Identity>
// The wire shapes, with the numbers the emulator computes with (the wire also admits digit strings).
export type Balance = Omit<Encoded<typeof WalletRecords.Balance>, "balance" | "pricePerToken" | "usdValue"> & {
  readonly balance: number
  readonly pricePerToken: number | null
  readonly usdValue: number | null
}
export type Nft = Encoded<typeof WalletRecords.Nft>
export type Transfer = Omit<Encoded<typeof WalletRecords.Transfer>, "amount"> & { readonly amount: number }
export type HistoryEntry = Encoded<typeof WalletRecords.HistoryEntry>

export const NATIVE_MINT = "So11111111111111111111111111111111111111112"
export const SOL_PRICE = 145.32
export const MAX_LIMIT = 100
export const MAX_NFTS = 100
export const MAX_BATCH = 100

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
export const nftCount = (dataset: Dataset.Dataset, i: number): number =>
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

export const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

export const ui = (raw: bigint, decimals: number) => Number(raw) / 10 ** decimals

// -- identity ----------------------------------------------------------------

const KINDS = [
  ["exchange", "Centralized Exchange", ["Binance", "Coinbase", "Kraken", "OKX", "Bybit"]],
  ["protocol", "DeFi", ["Jupiter", "Raydium", "Orca", "Marinade", "Kamino"]],
  ["market-maker", "Market Maker", ["Wintermute", "Jump", "GSR"]],
  ["validator", "Validator", ["Helius Validator", "Everstake", "Figment"]],
  ["wallet", "Individual", ["Whale", "Fund", "Treasury"]]
] as const

export const identityOf = (dataset: Dataset.Dataset, i: number): Identity => {
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

// -- balances ----------------------------------------------------------------

/** Token `j` of seeded wallet `i`: its mint, decimals and raw amount (its token account's). */
export const holding = (dataset: Dataset.Dataset, i: number, j: number, zero: boolean) => {
  const label = `wallet:${i}:${zero ? "zero" : "token"}:${j}`
  // The mint's decimals, as token metadata shows them (one place for both).
  const decimals = DasTokenAccounts.mintDecimals(dataset, dataset.address(label))
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

export const tokenBalance = (dataset: Dataset.Dataset, i: number, j: number, zero: boolean): Balance => {
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

/** Each seeded wallet's index by address, built once per dataset. */
export const seededIndexes = new WeakMap<Dataset.Dataset, Map<string, number>>()

/** The index of a seeded wallet, or undefined (built once per dataset). */
export const walletIndex = (dataset: Dataset.Dataset, address: string): number | undefined => {
  let index = seededIndexes.get(dataset)
  if (index === undefined) {
    index = new Map()
    for (let i = 0; i < walletCount(dataset); i++) index.set(walletAt(dataset, i), i)
    seededIndexes.set(dataset, index)
  }
  return index.get(address)
}

/** usdValue descending, unpriced last, then by mint: a total order, so pages never overlap. */
export const byUsdValue = (a: Balance, b: Balance) => {
  const av = a.usdValue ?? -1
  const bv = b.usdValue ?? -1
  return av !== bv ? bv - av : a.mint < b.mint ? -1 : a.mint > b.mint ? 1 : 0
}

/** A wallet's NFTs: the DAS assets it owns (at most 100, the page's cap). */
export const nftsOf = (dataset: Dataset.Dataset, owner: string): Array<Nft> =>
  AQ.ownerAssets(dataset, owner, MAX_NFTS).map(({ authority, id, index }) => {
    const links = AssetSeed.assetJson(dataset, authority, index).content?.links
    const collection = AssetSeed.collectionAt(
      dataset,
      authority,
      Math.floor(index / AssetSeed.shapeOf(dataset, authority).collectionSize)
    )
    return {
      mint: id,
      compressed: AssetSeed.isCompressed(index),
      name: AssetSeed.assetName(index),
      imageUri: typeof links?.["image"] === "string" ? links["image"] : null,
      collectionName: null,
      collectionAddress: collection
    }
  })
