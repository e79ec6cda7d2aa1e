/**
 * DAS getTokenAccounts: the token accounts of an owner or a mint, seeded and the world's.
 *
 * @since 0.1.0
 */

import * as TokenAccountSchema from "@solfx/core/TokenAccount"
import * as Effect from "effect/Effect"
import type { AreaContext, Handler } from "../../Area.js"
import type * as Dataset from "../../Dataset.js"
import {
  decodeParams,
  MAX_LIMIT,
  permutedView,
  positions,
  type View,
  windowOf,
  withOptionsAlias
} from "../../internal/DasList.js"
import { assetId, isExtra, isFrozen, ownerAt, sampleMint, sampleOwner, shapeOf } from "../../seed/DigitalAssets.js"
import * as World from "../../World.js"
import type { TokenAccountJson } from "../DigitalAssets.js"
import * as WorldAssets from "../WorldAssets.js"

// -- getTokenAccounts --------------------------------------------------------------

/**
 * How many token accounts an owner has (zero balances included).
 *
 * @since 0.1.0
 * @category data
 */
export const ownerAccountCount = (dataset: Dataset.Dataset, owner: string): number =>
  owner === sampleOwner(dataset)
    ? dataset.size("das.ownerTokenAccounts", 2_500)
    : isExtra(dataset, "owner", owner)
    ? 1 + dataset.int(`das:ta:${owner}:count`, 30)
    : 0

/**
 * How many holders a mint has (zero balances included).
 *
 * @since 0.1.0
 * @category data
 */
export const mintHolderCount = (dataset: Dataset.Dataset, mint: string): number =>
  mint === sampleMint(dataset)
    ? dataset.size("das.mintHolders", 1_500)
    : isExtra(dataset, "mint", mint)
    ? 1 + dataset.int(`das:mh:${mint}:count`, 20)
    : 0

const amountOf = (dataset: Dataset.Dataset, label: string, i: number): bigint => {
  if (i % 10 === 9) return 0n
  // One in fifty beyond 2^53 (its delegated half too), to keep u64 handling honest; small enough that a mint's accounts
  // add up within u64 (its supply).
  // 2^54 + 4k + 2: neither it nor its half (2^53 + 2k + 1) is a double.
  if (i % 50 === 7) return 2n ** 54n + 4n * BigInt(dataset.int(`${label}:big`, 1_000_000_000)) + 2n
  return BigInt(1 + dataset.int(`${label}:amount`, 1_000_000_000))
}

const tokenAccountJson = (
  address: string,
  mint: string,
  owner: string,
  amount: bigint,
  dataset: Dataset.Dataset,
  i: number,
  label: string
): TokenAccountJson => {
  const delegated = i % 11 === 0 && amount > 0n
  return {
    address,
    mint,
    owner,
    amount,
    delegated_amount: delegated ? amount / 2n : 0n,
    frozen: i % 13 === 0,
    burnt: false,
    delegate: delegated ? dataset.address(`${label}:delegate`) : null,
    close_authority: null
  }
}

/** Token account `i` of an owner, or holder `i` of a mint. */
const ownerAccount = (dataset: Dataset.Dataset, owner: string, i: number): TokenAccountJson => {
  const label = `das:ta:${owner}:${i}`
  const mint = i % 5 === 0 && owner === sampleOwner(dataset) ? sampleMint(dataset) : dataset.address(`${label}:mint`)
  return tokenAccountJson(dataset.address(label), mint, owner, amountOf(dataset, label, i), dataset, i, label)
}

/** The sample owner's accounts of the sample mint (every fifth), which lead the mint's holders. */
const sharedHolders = (dataset: Dataset.Dataset, mint: string): number =>
  mint === sampleMint(dataset)
    ? Math.min(mintHolderCount(dataset, mint), Math.ceil(ownerAccountCount(dataset, sampleOwner(dataset)) / 5))
    : 0

/**
 * Holder `i` of a mint (of `mintHolderCount`): the sample owner's shared accounts first.
 *
 * @since 0.1.0
 * @category data
 */
export const holderAccount = (dataset: Dataset.Dataset, mint: string, i: number): TokenAccountJson => {
  // By owner and by mint list the same accounts.
  if (i < sharedHolders(dataset, mint)) return ownerAccount(dataset, sampleOwner(dataset), 5 * i)
  const label = `das:mh:${mint}:${i}`
  return tokenAccountJson(
    dataset.address(label),
    mint,
    dataset.address(`${label}:owner`),
    amountOf(dataset, label, i),
    dataset,
    i,
    label
  )
}

/**
 * The token accounts of uncompressed NFTs (amount 1) a query names: an owner's, or the one of an
 * NFT's mint. Given by the asset index (`AssetQueries`), so the owner of an NFT holds its account.
 *
 * @since 0.1.0
 * @category lists
 */
export interface NftAccounts {
  readonly length: number
  readonly at: (j: number) => TokenAccountJson
}

/**
 * The NFT token account of asset `i` of an authority (uncompressed), owned by its owner.
 *
 * @since 0.1.0
 * @category data
 */
export const nftAccount = (dataset: Dataset.Dataset, authority: string, i: number): TokenAccountJson => {
  const id = assetId(dataset, authority, i)
  return {
    address: dataset.address(`das:nft-ta:${id}`),
    mint: id,
    owner: ownerAt(dataset, authority, i % shapeOf(dataset, authority).owners),
    amount: 1n,
    delegated_amount: 0n,
    frozen: isFrozen(i),
    burnt: false,
    delegate: null,
    close_authority: null
  }
}

/**
 * getTokenAccounts: the seeded token accounts, then the NFT and wallet accounts the other areas
 * hold (`nfts`), then the accounts the world made since start.
 *
 * @since 0.1.0
 * @category methods
 */
export const makeGetTokenAccounts = (
  nfts: (ctx: AreaContext, owner: string | undefined, mint: string | undefined, showZero: boolean) => NftAccounts
): Handler => ({
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(TokenAccountSchema.GetTokenAccountsParams, withOptionsAlias(raw))
      const dataset = ctx.dataset
      const showZero = params.options?.showZeroBalance === true
      const owner = params.owner
      const mint = params.mint
      // The visible natural indices, materialised once per query shape.
      const key = `ta:${owner ?? ""}:${mint ?? ""}:${showZero}`
      const lists = ctx.state("das:token-lists", () =>
        new Map<string, { readonly indices: Int32Array; readonly get: (i: number) => TokenAccountJson }>())
      let list = lists.get(key)
      if (list === undefined) {
        const get = owner !== undefined
          ? (i: number) =>
            ownerAccount(dataset, owner, i)
          : (i: number) => holderAccount(dataset, mint!, i)
        const n = owner !== undefined ? ownerAccountCount(dataset, owner) : mintHolderCount(dataset, mint!)
        const visible: Array<number> = []
        for (let i = 0; i < n; i++) {
          if (!showZero && i % 10 === 9) continue
          if (owner !== undefined && mint !== undefined && get(i).mint !== mint) continue
          visible.push(i)
        }
        list = { indices: Int32Array.from(visible), get }
        lists.set(key, list)
      }
      const { get, indices } = list
      const seeded = permutedView(indices, (i) => get(i).address, false)
      // After the seeded accounts, the NFT accounts, then the ones the world made since start (oldest first).
      const held = nfts(ctx, owner, mint, showZero)
      const world = World.of(ctx.state)
      const recent = (owner !== undefined ? world.tokenAccountsOf(owner) : world.holdersOf(mint!)).filter((t) =>
        (mint === undefined || t.mint === mint) && (showZero || t.amount > 0n)
      )
      const n = seeded.length
      const m = held.length
      const at = (p: number) =>
        p < n ? get(seeded.indexAt(p)) : p < n + m ? held.at(p - n) : WorldAssets.tokenAccountJson(recent[p - n - m]!)
      const view: View = m + recent.length === 0 ? seeded : {
        length: n + m + recent.length,
        indexAt: (p) => p,
        idAt: (p) => (p < n ? seeded.idAt(p) : at(p).address)
      }
      const w = yield* windowOf(
        ctx,
        recent.length === 0 ? key : `${key}:world${world.version()}`,
        view,
        params
      )
      return {
        last_indexed_slot: ctx.slot(),
        total: view.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        token_accounts: positions(w).map(at)
      }
    })
})

const MINT_DECIMALS = [0, 6, 6, 8, 9] as const

/**
 * The decimals of a seeded mint (not a wallet's): token metadata and the Wallet API read them here.
 *
 * @since 0.1.0
 * @category data
 */
export const mintDecimals = (dataset: Dataset.Dataset, mint: string): number =>
  MINT_DECIMALS[dataset.int(`tm:${mint}:decimals`, MINT_DECIMALS.length)]!

/**
 * The token accounts of an owner of seeded token accounts (the sample owner, the extra owners),
 * empty balances included, as a length and a function.
 *
 * @since 0.1.0
 * @category data
 */
export const ownerAccounts = (dataset: Dataset.Dataset, owner: string) => ({
  length: ownerAccountCount(dataset, owner),
  at: (i: number) => ownerAccount(dataset, owner, i)
})

/** Each mint of an owner's seeded token account: the (owner, index) of its accounts. */
const accountMints = new WeakMap<Dataset.Dataset, ReadonlyMap<string, ReadonlyArray<readonly [string, number]>>>()

const accountMintIndex = (dataset: Dataset.Dataset) => {
  let index = accountMints.get(dataset)
  if (index === undefined) {
    const all = new Map<string, Array<readonly [string, number]>>()
    const owners = [
      sampleOwner(dataset),
      ...Array.from({ length: dataset.size("das.owners", 8) }, (_, k) => dataset.address(`das:owner:${k}`))
    ]
    for (const owner of owners) {
      for (let i = 0; i < ownerAccountCount(dataset, owner); i++) {
        const mint = ownerAccount(dataset, owner, i).mint
        const list = all.get(mint)
        if (list === undefined) all.set(mint, [[owner, i]])
        else list.push([owner, i])
      }
    }
    accountMints.set(dataset, index = all)
  }
  return index
}

/**
 * Whether some seeded token account (of the sample owner or an extra owner) is of this mint.
 *
 * @since 0.1.0
 * @category data
 */
export const isAccountMint = (dataset: Dataset.Dataset, mint: string): boolean =>
  accountMintIndex(dataset).has(mint) || mintHolderCount(dataset, mint) > 0

/**
 * The owners' seeded token accounts of a mint that its holder list does not already hold (every
 * mint but the sample one, whose shared accounts lead its holders), zero balances included.
 *
 * @since 0.1.0
 * @category data
 */
export const ownerAccountsOfMint = (dataset: Dataset.Dataset, mint: string): ReadonlyArray<TokenAccountJson> =>
  mint === sampleMint(dataset)
    ? []
    : (accountMintIndex(dataset).get(mint) ?? []).map(([owner, i]) => ownerAccount(dataset, owner, i))

const supplies = new WeakMap<Dataset.Dataset, Map<string, bigint>>()

/**
 * The supply of a mint the token accounts list holders of: the sum of its accounts' amounts
 * (computed once per seed), or undefined for a mint they do not hold.
 *
 * @since 0.1.0
 * @category data
 */
export const mintSupply = (dataset: Dataset.Dataset, mint: string): bigint | undefined => {
  const n = mintHolderCount(dataset, mint)
  if (n === 0) return undefined
  let known = supplies.get(dataset)
  if (known === undefined) supplies.set(dataset, known = new Map())
  let sum = known.get(mint)
  if (sum === undefined) {
    sum = 0n
    for (let i = 0; i < n; i++) sum += holderAccount(dataset, mint, i).amount
    known.set(mint, sum)
  }
  return sum
}
