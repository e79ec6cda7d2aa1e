/**
 * The DAS read API that real clients call by default: getAsset,
 * getAssetBatch (Metaplex: getAssets), getAssetProof, getAssetsByOwner, getAssetsByGroup,
 * getAssetsByCreator and searchAssets, over the digital-asset area's dataset.
 *
 * The dataset is closed and indexed. Every asset belongs to one authority (`DigitalAssets.authorities`);
 * its owner, creator and collection follow the authority's `AssetShape`, so each owner's, creator's
 * and collection's list is an arithmetic progression of one authority's assets: found from the
 * address in O(1) after a small index (about 1,300 addresses) is built, never stored. The big
 * authority's 100,000 assets share one owner, one creator and one collection (the samples
 * `dasAssetOwner`, `dasCreator`, `dasCollection`). Every list serves the same asset text as
 * getAsset and getAssetsByAuthority (`DigitalAssets.assetText`, served by `servedAssetText`).
 *
 * searchAssets tests each filter with the same attribute functions the asset builder uses, over
 * the narrowest list a filter names (owner, creator, collection or authority) or, for `any`,
 * `negate` or no such filter, over every asset (about 110,000 by default); its matches are kept
 * for the next pages of the same query (a bounded cache).
 *
 * Sort orders, paging, `total` and the -32602 answers are the digital-asset area's. An unknown id
 * answers as the reference implementation does: getAsset and getAssetProof fail with -32000
 * `Database Error: RecordNotFound Error: Asset (Proof) Not Found`; a batch has `null` in its place.
 *
 * @since 0.1.0
 */

import * as AssetQuery from "@solfx/core/AssetQuery"
import * as AssetSearch from "@solfx/core/AssetSearch"
import type * as DasParams from "@solfx/core/DasParams"
import * as Endpoints from "@solfx/core/Endpoints"
import * as NftEdition from "@solfx/core/NftEdition"
import { decodeBase58 } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { AreaContext, Handler } from "../Area.js"
import * as Area from "../Area.js"
import { RpcFailure } from "../Area.js"
import type * as Dataset from "../Dataset.js"
import {
  decodeParams,
  MAX_LIMIT,
  naturalView,
  permutedView,
  positions,
  type View,
  windowOf
} from "../internal/DasList.js"
import * as AssetSeed from "../seed/DigitalAssets.js"
import * as Wallets from "../seed/Wallets.js"
import * as Wire from "../Wire.js"
import * as World from "../World.js"
import * as AssetReceipts from "./AssetReceipts.js"
import * as DA from "./DigitalAssets.js"
import * as DasTokenAccounts from "./digitalAssets/TokenAccounts.js"
import * as TokenMetadata from "./TokenMetadata.js"
import * as WorldAssets from "./WorldAssets.js"

// -- the asset universe and its indexes --------------------------------------------

/** An authority's place in the global numbering of assets. */
interface Universe {
  readonly authorities: ReadonlyArray<string>
  /** `offsets[r]` is the global number of authority r's first asset; the last entry is the total. */
  readonly offsets: ReadonlyArray<number>
}

/** Members `start + k * step` (k < count) of one authority's assets. */
interface Progression {
  readonly authority: string
  readonly start: number
  readonly step: number
  readonly count: number
}

interface Indexes {
  readonly universe: Universe
  readonly owners: ReadonlyMap<string, Progression>
  readonly creators: ReadonlyMap<string, Progression>
  readonly collections: ReadonlyMap<string, Progression>
}

const indexCache = new WeakMap<Dataset.Dataset, Indexes>()

/** The owner, creator and collection indexes of a dataset: about 1,300 addresses, built once. */
const indexesOf = (ds: Dataset.Dataset): Indexes => {
  const cached = indexCache.get(ds)
  if (cached !== undefined) return cached
  const authorities = AssetSeed.authorities(ds)
  const offsets = [0]
  const owners = new Map<string, Progression>()
  const creators = new Map<string, Progression>()
  const collections = new Map<string, Progression>()
  for (const authority of authorities) {
    const n = AssetSeed.assetCount(ds, authority)
    offsets.push(offsets[offsets.length - 1]! + n)
    const shape = AssetSeed.shapeOf(ds, authority)
    const residues = (pool: number, at: (k: number) => string, into: Map<string, Progression>) => {
      for (let k = 0; k < Math.min(pool, n); k++) {
        into.set(at(k), { authority, start: k, step: pool, count: Math.ceil((n - k) / pool) })
      }
    }
    residues(shape.owners, (k) => AssetSeed.ownerAt(ds, authority, k), owners)
    residues(shape.creators, (k) => AssetSeed.creatorAt(ds, authority, k), creators)
    for (let g = 0; g * shape.collectionSize < n; g++) {
      const start = g * shape.collectionSize
      collections.set(AssetSeed.collectionAt(ds, authority, g), {
        authority,
        start,
        step: 1,
        count: Math.min(shape.collectionSize, n - start)
      })
    }
  }
  const indexes = { universe: { authorities, offsets }, owners, creators, collections }
  indexCache.set(ds, indexes)
  return indexes
}

/** A list of assets: member k is asset `at(k)`. */
interface Members {
  readonly length: number
  readonly at: (k: number) => readonly [authority: string, index: number]
  /** Whether member order is creation order (one authority, ascending index). */
  readonly createdOrder: boolean
}

const EMPTY: Members = { length: 0, at: () => ["", 0], createdOrder: true }

const progression = (p: Progression | undefined): Members =>
  p === undefined
    ? EMPTY
    : { length: p.count, at: (k) => [p.authority, p.start + k * p.step], createdOrder: true }

const globalMembers = (u: Universe, globals: Int32Array): Members => ({
  length: globals.length,
  at: (k) => {
    const g = globals[k]!
    let r = 0
    while (u.offsets[r + 1]! <= g) r++
    return [u.authorities[r]!, g - u.offsets[r]!]
  },
  createdOrder: false
})

// -- ordered views ------------------------------------------------------------------

/**
 * A bounded cache in the area's state: sort orders and search matches of 100,000 assets are
 * worth keeping between pages, but not without limit. A Map keeps insertion order: the oldest
 * entry goes first.
 */
const bounded = <A>(ctx: AreaContext, name: string, key: string, make: () => A, max = 16): A => {
  const cache = ctx.state(name, () => new Map<string, A>())
  const hit = cache.get(key)
  if (hit !== undefined) return hit
  const value = make()
  cache.set(key, value)
  if (cache.size > max) cache.delete(cache.keys().next().value!)
  return value
}

const viewOf = (
  ctx: AreaContext,
  key: string,
  members: Members,
  sorting: typeof AssetQuery.ListSorting.Type | undefined
): View => {
  const ds = ctx.dataset
  const by = sorting?.sortBy ?? "none"
  const descending = sorting?.sortDirection === "desc"
  const idOf = (k: number) => AssetSeed.assetId(ds, ...members.at(k))
  if (by === "none" || (by === "created" && members.createdOrder)) return naturalView(members.length, idOf, descending)
  const order = bounded(ctx, "das:query-orders", `${key}:${by}`, () => {
    const n = members.length
    const order = Int32Array.from({ length: n }, (_, k) => k)
    if (by === "id") {
      // By the id's bytes, as the reference implementation sorts its bytea column.
      const ids = Array.from({ length: n }, (_, k) => Buffer.from(decodeBase58(idOf(k))!))
      return order.sort((a, b) => Buffer.compare(ids[a]!, ids[b]!) || a - b)
    }
    const keys = new Float64Array(n)
    for (let k = 0; k < n; k++) keys[k] = AssetSeed.sortKey(ds, ...members.at(k), by)
    return order.sort((a, b) => keys[a]! - keys[b]! || a - b)
  })
  return permutedView(order, idOf, descending)
}

/** What every list method takes besides its key: paging, `sortBy` and the display options. */
type ListParams = DasParams.Paging & {
  readonly sortBy?: typeof AssetQuery.ListSorting.Type | undefined
  readonly options?: { readonly showGrandTotal?: boolean | undefined } | undefined
}

const listPage = (
  ctx: AreaContext,
  key: string,
  members: Members,
  params: ListParams,
  recent?: DA.RecentAssets | undefined
) => {
  const view = viewOf(ctx, key, members, params.sortBy)
  const direction = params.sortBy?.sortDirection ?? "asc"
  return DA.assetListPage(
    ctx,
    `${key}:${params.sortBy?.sortBy ?? "none"}:${direction}`,
    view,
    members.at,
    params,
    recent
  )
}

// -- single assets ------------------------------------------------------------------

const assetNotFound = () => new RpcFailure(-32000, "Database Error: RecordNotFound Error: Asset Not Found")
const proofNotFound = () => new RpcFailure(-32000, "Database Error: RecordNotFound Error: Asset Proof Not Found")

const textOf = (ctx: AreaContext, id: string): string | undefined => {
  const world = World.of(ctx.state)
  const minted = world.mint(id)
  if (minted !== undefined) return Wire.stringify(WorldAssets.assetJson(world, minted))
  const compressed = world.compressedNft(id)
  if (compressed !== undefined) return Wire.stringify(WorldAssets.compressedAssetJson(compressed))
  // A seeded mint (of token accounts, compressed holders, or token metadata's alone) is no asset of
  // an authority: found first, so it never costs `locate` its indexing of every authority.
  if (TokenMetadata.isMintAccount(ctx.dataset, id)) return seededMintAsset(ctx, world, id)
  const at = DA.locate(ctx, id)
  return at === undefined ? undefined : DA.servedAssetText(ctx, at.authority, at.index)
}

/**
 * A seeded mint (of token accounts: DAS owners' and holders', seeded wallets'; of compressed
 * holders; or of token metadata alone) as DAS serves it,
 * from the facts token metadata shows (`TokenMetadata.seededMint`: supply the sum of its accounts):
 * a `FungibleToken` with `token_info`, or, when the ledger makes it one (supply 1, no decimals), an
 * NFT owned by the holder of its one token.
 */
const seededMintAsset = (ctx: AreaContext, world: World.World, id: string): string => {
  const facts = TokenMetadata.seededMint(ctx.dataset, id, world.slot())
  const mint: World.Mint = {
    address: id,
    kind: facts.nft ? "nft" : "fungible",
    decimals: facts.decimals,
    supply: facts.supply,
    authority: facts.updateAuthority,
    name: facts.name,
    symbol: facts.symbol,
    uri: facts.uri,
    collection: null,
    interface: facts.nft ? "V1_NFT" : "FungibleToken",
    createdSlot: world.baseSlot
  }
  const owner = facts.nft ? holderOfOne(ctx.dataset, id) : undefined
  return Wire.stringify(
    WorldAssets.assetJson(world, mint, undefined, { mint: facts.mintAuthority, freeze: facts.freezeAuthority, owner })
  )
}

/** The owner of the one token of a seeded mint of supply 1. */
const holderOfOne = (ds: Dataset.Dataset, mint: string): string | undefined => {
  const holders = DasTokenAccounts.mintHolderCount(ds, mint)
  for (let i = 0; i < holders; i++) {
    const t = DasTokenAccounts.holderAccount(ds, mint, i)
    if (t.amount === 1n) return t.owner
  }
  return TokenMetadata.seededAccountsOfMint(ds, mint).find((t) => t.amount === 1n)?.owner
}

const getAsset: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetQuery.GetAssetParams, raw)
      const text = textOf(ctx, params.id)
      return text === undefined ? yield* Effect.fail(assetNotFound()) : new Wire.Raw(text)
    })
}

const getAssetBatch: Handler = {
  handle: (raw, ctx) =>
    Effect.map(
      decodeParams(AssetQuery.GetAssetBatchParams, raw),
      (params) => Wire.rawArray(params.ids.map((id) => textOf(ctx, id) ?? "null"))
    )
}

const getAssetProof: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetQuery.GetAssetProofParams, raw)
      const proof = DA.proofOf(ctx, params.id)
      return proof === null ? yield* Effect.fail(proofNotFound()) : proof
    })
}

// -- lists --------------------------------------------------------------------------

/** A list method: its params decoded, then the list they name under a key (for caches and cursors). */
const listMethod = <P extends ListParams>(
  schema: Schema.Schema<P, any>,
  select: (params: P, ix: Indexes) => readonly [key: string, members: Members]
): Handler => ({
  handle: (raw, ctx) =>
    Effect.flatMap(decodeParams(schema, raw), (params) => {
      const [key, members] = select(params, indexesOf(ctx.dataset))
      return listPage(ctx, key, members, params)
    })
})

// The seeded assets of an owner, then (after them, oldest first) what the world gave it since start.
const getAssetsByOwner: Handler = {
  handle: (raw, ctx) =>
    Effect.flatMap(decodeParams(AssetQuery.GetAssetsByOwnerParams, raw), (params) => {
      const owner = params.ownerAddress
      const world = World.of(ctx.state)
      const owned = WorldAssets.ownedAssets(world, owner, params.options?.showFungible === true)
      const members = progression(indexesOf(ctx.dataset).owners.get(owner))
      if (owned.length === 0) return listPage(ctx, `owner:${owner}`, members, params)
      return listPage(ctx, `owner:${owner}:world${world.version()}:${owned.length}`, members, params, {
        ids: owned.map((a) => a.id),
        text: (j) => Wire.stringify(owned[j]!.json())
      })
    })
}

/**
 * The first `max` seeded assets an owner holds (creation order), as the Wallet API lists NFTs:
 * the wallet's NFTs are its DAS assets, one list read by both areas.
 *
 * @since 0.1.0
 * @category data
 */
export const ownerAssets = (
  ds: Dataset.Dataset,
  owner: string,
  max: number
): ReadonlyArray<{ readonly authority: string; readonly index: number; readonly id: string }> => {
  const members = progression(indexesOf(ds).owners.get(owner))
  return Array.from({ length: Math.min(max, members.length) }, (_, k) => {
    const [authority, index] = members.at(k)
    return { authority, index, id: AssetSeed.assetId(ds, authority, index) }
  })
}

// Every creator of the dataset has signed its assets: `onlyVerified` keeps them all.
const getAssetsByCreator = listMethod(
  AssetQuery.GetAssetsByCreatorParams,
  (p, ix) => [`creator:${p.creatorAddress}`, progression(ix.creators.get(p.creatorAddress))]
)

// A collection's seeded assets, then (oldest first) the NFTs and compressed NFTs the world minted into it.
const getAssetsByGroup: Handler = {
  handle: (raw, ctx) =>
    Effect.flatMap(decodeParams(AssetQuery.GetAssetsByGroupParams, raw), (params) => {
      const collection = params.groupKey === "collection" ? params.groupValue : undefined
      const key = `group:${params.groupKey}:${params.groupValue}`
      const members = collection === undefined ? EMPTY : progression(indexesOf(ctx.dataset).collections.get(collection))
      const world = World.of(ctx.state)
      const minted = collection === undefined ? [] : WorldAssets.collectionAssets(world, collection)
      if (minted.length === 0) return listPage(ctx, key, members, params)
      return listPage(ctx, `${key}:world${world.version()}`, members, params, {
        ids: minted.map((a) => a.id),
        text: (j) => Wire.stringify(minted[j]!.json())
      })
    })
}

// -- token accounts of NFTs -------------------------------------------------------------

/** Whether asset `i` has an SPL mint and so a token account: uncompressed and not an MplCore asset. */
/**
 * Whether asset `i` of an authority has an SPL mint and token account (uncompressed, not MPL Core).
 *
 * @since 0.1.0
 * @category data
 */
export const hasTokenAccount = (i: number): boolean =>
  !AssetSeed.isCompressed(i) && AssetSeed.interfaceOf(i) !== "MplCoreAsset"

/** Members of a progression whose asset has a token account (`hasTokenAccount` repeats every 12 indices). */
const withTokenAccounts = (p: Progression) => {
  const residues = Array.from({ length: 12 }, (_, k) => k).filter((k) => hasTokenAccount(p.start + k * p.step))
  const whole = Math.floor(p.count / 12)
  const length = whole * residues.length + residues.filter((r) => r < p.count % 12).length
  return {
    length,
    index: (j: number) => p.start + (Math.floor(j / residues.length) * 12 + residues[j % residues.length]!) * p.step
  }
}

const NO_ACCOUNTS: DasTokenAccounts.NftAccounts = { length: 0, at: () => undefined as never }

/**
 * The token accounts other areas hold for a query: a seeded wallet's tokens (the Wallet API's
 * balances), and the NFT accounts of an owner (every asset it owns with an SPL mint) or of one NFT's mint.
 */
const otherAccounts = (
  ctx: AreaContext,
  owner: string | undefined,
  mint: string | undefined,
  showZero: boolean
): DasTokenAccounts.NftAccounts => {
  if (owner === undefined && mint !== undefined && TokenMetadata.isAccountMint(ctx.dataset, mint)) {
    // The owners' and wallets' accounts of a fungible mint (it has no NFT account).
    const accounts = TokenMetadata.seededAccountsOfMint(ctx.dataset, mint).filter((t) => showZero || t.amount > 0n)
    return { length: accounts.length, at: (j) => accounts[j]! }
  }
  const wallet = owner === undefined ? NO_ACCOUNTS : Wallets.walletTokenAccounts(ctx.dataset, owner, showZero)
  const nfts = nftAccounts(ctx, owner, mint)
  if (wallet.length === 0) return nfts
  // A seeded wallet's tokens, then the NFT accounts of the assets it owns (the sample wallet has both).
  const matching = Array.from({ length: wallet.length }, (_, k) => wallet.at(k)).filter((t) =>
    mint === undefined || t.mint === mint
  )
  return {
    length: matching.length + nfts.length,
    at: (j) => j < matching.length ? matching[j]! : nfts.at(j - matching.length)
  }
}

/**
 * The NFT token accounts of an owner: every seeded asset it owns with an SPL mint, in creation
 * order (the Wallet API's history gives the sample wallet's).
 *
 * @since 0.1.0
 * @category data
 */
export const ownerNftAccounts = (ds: Dataset.Dataset, owner: string): DasTokenAccounts.NftAccounts => {
  const p = indexesOf(ds).owners.get(owner)
  if (p === undefined) return NO_ACCOUNTS
  const u = withTokenAccounts(p)
  return { length: u.length, at: (j) => DasTokenAccounts.nftAccount(ds, p.authority, u.index(j)) }
}

/**
 * The receipts of an owner's compressed NFTs (`AssetReceipts`), newest first, and a signature's
 * position among them: its history's entries for them. Empty for an address that owns no asset.
 *
 * @since 0.1.0
 * @category data
 */
export const ownerReceipts = (ds: Dataset.Dataset, owner: string) => {
  const run = indexesOf(ds).owners.get(owner)
  if (run === undefined) return undefined
  return {
    receipts: AssetReceipts.receiptsOf(ds, run),
    positionOf: (signature: string) => AssetReceipts.positionOf(ds, run, signature)
  }
}

/** The NFT token accounts of an owner (every asset it owns with an SPL mint), or of one NFT's mint. */
const nftAccounts = (
  ctx: AreaContext,
  owner: string | undefined,
  mint: string | undefined
): DasTokenAccounts.NftAccounts => {
  const ds = ctx.dataset
  if (owner !== undefined) {
    if (mint === undefined) return ownerNftAccounts(ds, owner)
    const one = nftAccounts(ctx, undefined, mint)
    return one.length === 1 && one.at(0).owner === owner ? one : NO_ACCOUNTS
  }
  if (mint === undefined || World.of(ctx.state).mint(mint) !== undefined) return NO_ACCOUNTS
  const at = DA.locate(ctx, mint, { uncompressedOnly: true })
  if (at === undefined || !hasTokenAccount(at.index)) return NO_ACCOUNTS
  const account = DasTokenAccounts.nftAccount(ds, at.authority, at.index)
  return { length: 1, at: () => account }
}

// -- getNftEditions ------------------------------------------------------------------

const getNftEditions: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(NftEdition.GetNftEditionsParams, raw)
      const ds = ctx.dataset
      const at = DA.locate(ctx, params.mint!)
      if (at === undefined || !AssetSeed.isMasterEdition(at.index)) {
        return yield* Effect.fail(
          new RpcFailure(-32000, "Database Error: RecordNotFound Error: Master Edition Not Found")
        )
      }
      const { authority, index } = at
      if (AssetSeed.hasOpenPrintRun(index)) {
        // More prints than a number holds exactly: listing them would serve ids the dataset does not have.
        return yield* Effect.fail(
          new RpcFailure(-32000, "Validation Error: the emulator lists the prints of limited editions only")
        )
      }
      const editions = AssetSeed.editionsOf(ds, authority, index)
      const view = naturalView(editions.length, (k) => AssetSeed.assetId(ds, authority, editions[k]!), false)
      const w = yield* windowOf(ctx, `editions:${params.mint}`, view, params)
      return {
        total: editions.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        master_edition_address: ds.address(`das:${authority}:${index}:master-edition`),
        supply: editions.length,
        max_supply: AssetSeed.maxSupplyOf(ds, authority, index),
        editions: positions(w).map((p) => ({
          mint: view.idAt(p),
          edition_address: ds.address(`das:${authority}:${editions[p]!}:edition`),
          edition: p + 1
        }))
      }
    })
}

// -- searchAssets -------------------------------------------------------------------

type Search = AssetSearch.SearchAssetsParams
type Test = (authority: string, i: number) => boolean

/** One test per filter given, each by the attribute function the asset builder uses. */
const testsOf = (ctx: AreaContext, p: Search): Array<Test> => {
  const ds = ctx.dataset
  const shape = (a: string) => AssetSeed.shapeOf(ds, a)
  const same = (id: string): Test => {
    const at = DA.locate(ctx, id)
    return at === undefined ? () => false : (a, i) => a === at.authority && i === at.index
  }
  const tests: Array<Test> = []
  const add = <K extends keyof Search>(key: K, test: (value: NonNullable<Search[K]>) => Test) => {
    const value = p[key]
    if (value !== undefined) tests.push(test(value as NonNullable<Search[K]>))
  }
  add("interface", (v) => (_, i) => AssetSeed.interfaceOf(i) === v)
  add("ownerAddress", (v) => (a, i) => AssetSeed.ownerAt(ds, a, i % shape(a).owners) === v)
  add("ownerType", (v) => () => v === "single")
  add("creatorAddress", (v) => (a, i) => AssetSeed.creatorAt(ds, a, i % shape(a).creators) === v)
  // Every creator of the dataset is verified.
  add("creatorVerified", (v) => () => v)
  add("authorityAddress", (v) => (a) => a === v)
  add(
    "grouping",
    ([key, value]) => (a, i) =>
      key === "collection" && AssetSeed.collectionAt(ds, a, Math.floor(i / shape(a).collectionSize)) === value
  )
  add("delegate", (v) => (a, i) => AssetSeed.delegateOf(ds, a, i) === v)
  add("frozen", (v) => (_, i) => AssetSeed.isFrozen(i) === v)
  // Each asset is one token (an NFT), none burnt: supply 1.
  add("supply", (v) => () => v === 1)
  add("supplyMint", (v) => {
    const test = same(v)
    return (a, i) => !AssetSeed.isCompressed(i) && test(a, i)
  })
  add("compressed", (v) => (_, i) => AssetSeed.isCompressed(i) === v)
  // No asset is eligible for compression, none is burnt, every royalty goes to the creators.
  add("compressible", (v) => () => !v)
  add("burnt", (v) => () => !v)
  add("royaltyTargetType", (v) => () => v === "creators")
  add("royaltyTarget", () => () => false)
  add("royaltyAmount", (v) => (a, i) => AssetSeed.royaltyBasisPoints(ds, a, i) === v)
  add("jsonUri", (v) => {
    const id = /^https:\/\/assets\.solfx\.invalid\/([1-9A-HJ-NP-Za-km-z]{32,44})\.json$/.exec(v)?.[1]
    return id === undefined || AssetSeed.jsonUriOf(id) !== v ? () => false : same(id)
  })
  add("name", (v) => (_, i) => AssetSeed.assetName(i) === v)
  add("tokenType", (v) => {
    switch (v) {
      case "fungible":
      case "Fungible":
        return () => false
      case "regularNft":
      case "regularNFT":
        return (_, i) => !AssetSeed.isCompressed(i)
      case "compressedNft":
      case "compressedNFT":
        return (_, i) => AssetSeed.isCompressed(i)
      default:
        return () => true
    }
  })
  add("tree", (v) => (a, i) => AssetSeed.isCompressed(i) && AssetSeed.treeIdOf(ds, a, i) === v)
  return tests
}

/** The filter fields of a query, for its cache key (paging, sorting and display options left out). */
const filterKey = (p: Search): string =>
  JSON.stringify(Object.keys(AssetSearch.searchFilterFields).map((k) => p[k as keyof Search] ?? null))

/** The narrowest list a filter names, when every filter must hold. */
const narrowest = (ix: Indexes, ds: Dataset.Dataset, p: Search): ReadonlyArray<Progression> | undefined => {
  if (p.conditionType === "any" || p.negate === true) return undefined
  const lists: Array<Progression | undefined> = []
  if (p.ownerAddress !== undefined) lists.push(ix.owners.get(p.ownerAddress))
  if (p.creatorAddress !== undefined) lists.push(ix.creators.get(p.creatorAddress))
  if (p.grouping !== undefined) {
    lists.push(p.grouping[0] === "collection" ? ix.collections.get(p.grouping[1]) : undefined)
  }
  if (p.authorityAddress !== undefined) {
    const n = AssetSeed.assetCount(ds, p.authorityAddress)
    lists.push(n === 0 ? undefined : { authority: p.authorityAddress, start: 0, step: 1, count: n })
  }
  if (lists.length === 0) return undefined
  if (lists.some((l) => l === undefined)) return []
  return [lists.reduce((a, b) => (b!.count < a!.count ? b : a))!]
}

/** The global numbers of the assets a query matches, in global order. */
const matchesOf = (ctx: AreaContext, ix: Indexes, p: Search): Int32Array => {
  const u = ix.universe
  const tests = testsOf(ctx, p)
  const any = p.conditionType === "any"
  const negate = p.negate === true
  const match = (a: string, i: number) => {
    const holds = tests.length === 0 ? true : any ? tests.some((t) => t(a, i)) : tests.every((t) => t(a, i))
    return holds !== negate
  }
  const lists = narrowest(ix, ctx.dataset, p) ??
    u.authorities.map((authority, r) => ({ authority, start: 0, step: 1, count: u.offsets[r + 1]! - u.offsets[r]! }))
  const out: Array<number> = []
  for (const l of lists) {
    const base = u.offsets[u.authorities.indexOf(l.authority)]!
    for (let k = 0; k < l.count; k++) {
      const i = l.start + k * l.step
      if (match(l.authority, i)) out.push(base + i)
    }
  }
  return Int32Array.from(out)
}

const searchAssets: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetSearch.SearchAssetsParams, raw)
      const ix = indexesOf(ctx.dataset)
      const key = `search:${filterKey(params)}`
      const globals = bounded(ctx, "das:search-matches", key, () => matchesOf(ctx, ix, params))
      return yield* listPage(ctx, key, globalMembers(ix.universe, globals), params)
    })
}

// -- samples ------------------------------------------------------------------------

/**
 * The owner of the big authority's assets (100,000 by default, `das.bigAuthorityAssets`).
 *
 * @since 0.1.0
 * @category data
 */
export const bigOwner = (ds: Dataset.Dataset): string => AssetSeed.ownerAt(ds, AssetSeed.bigAuthority(ds), 0)

/**
 * The creator of the big authority's assets.
 *
 * @since 0.1.0
 * @category data
 */
export const bigCreator = (ds: Dataset.Dataset): string => AssetSeed.creatorAt(ds, AssetSeed.bigAuthority(ds), 0)

/**
 * The collection of the big authority's assets.
 *
 * @since 0.1.0
 * @category data
 */
export const bigCollection = (ds: Dataset.Dataset): string => AssetSeed.collectionAt(ds, AssetSeed.bigAuthority(ds), 0)

/**
 * The DAS read API area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area.Area = {
  name: "asset-queries",
  // Every DAS method of the table: the read API here, the authority lists, signatures and proofs
  // from `DigitalAssets`; Metaplex's DAS client's own names for three of them.
  rpc: Area.rpcOf(
    Endpoints.digitalAssetMethods,
    {
      ...DA.handlers,
      getTokenAccounts: DasTokenAccounts.makeGetTokenAccounts(otherAccounts),
      getAsset,
      getAssetBatch,
      getAssetProof,
      getAssetsByOwner,
      getAssetsByGroup,
      getAssetsByCreator,
      searchAssets,
      getNftEditions
    },
    { getAssets: "getAssetBatch", getAssetSignatures: "getSignaturesForAsset", getAssetProofs: "getAssetProofBatch" }
  ),
  samples: (ds) => ({
    // 100,000 assets each by default (das.bigAuthorityAssets): the big authority's.
    dasAssetOwner: bigOwner(ds),
    dasCreator: bigCreator(ds),
    dasCollection: bigCollection(ds),
    // An owner of the sample authority, with about ten assets.
    dasSmallOwner: AssetSeed.ownerAt(ds, AssetSeed.sampleAuthority(ds), 1),
    // A master edition with its prints (getNftEditions).
    dasMasterEdition: AssetSeed.assetId(ds, AssetSeed.sampleAuthority(ds), 57)
  })
}
