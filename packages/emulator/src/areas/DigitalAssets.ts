/**
 * The digital-asset (DAS) methods, as the service documents and sends them, over
 * seeded data: getTokenAccounts, getAssetsByAuthority, getSignaturesForAsset
 * and getAssetProofBatch.
 *
 * Data, all derived from the dataset and generated only when asked for:
 * - The dataset is closed: addresses it does not hold have nothing (total 0), as
 *   on the real service. Authorities: the sample one has `das.authorityAssets`
 *   (default 10,000) assets, the big one `das.bigAuthorityAssets` (alias
 *   `das.bigAuthority`, default 100,000), and `das.authorities` (default 8) more
 *   have 1..40 each. One asset in four (index i % 4 === 1) is a compressed NFT in
 *   a real keccak Merkle tree of depth 14 (16,384 leaves per tree, `leaf =
 *   Bubblegum V1 leaf hash`), built on first use and cached per tree, so proofs
 *   verify with the SDK's verifier. Its id is the Bubblegum asset address of
 *   (tree, leaf index), derived once per asset and seed and cached.
 * - Owners, creators and collections follow the authority's `AssetShape`: the big
 *   authority's assets have one owner, one creator and one collection (100,000 each,
 *   for streams and benchmarks); the others' come from pools of 997 owners, 5 creators
 *   and collections of 1,000. One asset in fifty is a master edition: half of them have
 *   an open print run beyond 2^53 (to keep u64 handling honest), the others' prints are
 *   the uncompressed assets among the ten after it (`editionsOf`). The read API over
 *   these (getAsset, the owner/group/creator lists, searchAssets) is `AssetQueries`.
 * - Sort orders: `none` and `created` follow creation order; `updated` and
 *   `recent_action` are seeded permutations (computed once per authority);
 *   `desc` reverses. The default is `none` ascending.
 * - Token accounts. The sample owner has `das.ownerTokenAccounts` (default 2,500)
 *   accounts, `das.owners` (default 8) more owners 1..30; the sample mint has
 *   `das.mintHolders` (default 1,500) holders, `das.mints` (default 8) more mints 1..20. One account in ten has a zero balance
 *   (hidden unless `options.showZeroBalance`); some amounts exceed 2^53.
 * - Signatures. The sample compressed asset has `das.assetSignatures` (default
 *   2,000) signatures, any other asset 1..8: a mint first, then transfers (oldest first).
 * - Metaplex's DAS client names two methods its own way: `getAssetProofs` and
 *   `getAssetSignatures` are served as `getAssetProofBatch` and `getSignaturesForAsset`,
 *   and `displayOptions` is read as `options`.
 *
 * Pagination (the same for every list): `page` (1-indexed) or `cursor`, or
 * `before`/`after`; one style per query. With none of them the list is read by
 * cursor from its start. Cursors are opaque positions in the list's sort order;
 * `before`/`after` also accept an item id (asset id, token account address,
 * signature). `cursor` is null on the last cursor page; `total` is the number
 * of all matching items; `last_indexed_slot` is the current slot. Invalid params
 * (limit above 1000, page below 1, unknown keys, bad addresses, a mixed
 * pagination style, an unknown cursor) are HTTP 400 with JSON-RPC -32602, as
 * the DAS docs document. Every call is charged by its entry of core's `Endpoints`.
 *
 * @since 0.1.0
 */
import * as AssetProofSchema from "@solfx/core/AssetProof"
import * as AssetSignatureSchema from "@solfx/core/AssetSignature"
import type * as DasParams from "@solfx/core/DasParams"
import * as DigitalAssetSchema from "@solfx/core/DigitalAsset"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as TokenAccountSchema from "@solfx/core/TokenAccount"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, Handler } from "../Area.js"
import type * as Dataset from "../Dataset.js"
import * as Base58 from "../internal/Base58.js"
import * as Bubblegum from "../internal/Bubblegum.js"
import {
  decodeParams,
  MAX_LIMIT,
  naturalView,
  permutedView,
  positions,
  type View,
  windowOf,
  withOptionsAlias
} from "../internal/DasList.js"
import * as Wire from "../Wire.js"
import * as World from "../World.js"
import * as AssetReceipts from "./AssetReceipts.js"
import * as WorldAssets from "./WorldAssets.js"

type Encoded<S extends { readonly Encoded: unknown }> = S["Encoded"]
type AssetJson = Encoded<typeof DigitalAssetSchema.DigitalAsset>
type TokenAccountJson = Omit<Encoded<typeof TokenAccountSchema.TokenAccount>, "amount" | "delegated_amount"> & {
  readonly amount: bigint
  readonly delegated_amount: bigint
}
type ProofJson = Encoded<typeof AssetProofSchema.AssetProof>

/**
 * Depth of the seeded Merkle trees.
 *
 * @since 0.1.0
 * @category constants
 */
export const TREE_DEPTH = 14

const TREE_CAPACITY = 2 ** TREE_DEPTH
const BASE_SLOT = 250_000_000

// -- seeded identities -------------------------------------------------------

/**
 * The sample authority (10,000 assets by default).
 *
 * @since 0.1.0
 * @category data
 */
export const sampleAuthority = (dataset: Dataset.Dataset): string => dataset.address("das:authority:sample")

/**
 * The big authority for benchmarks (100,000 assets by default).
 *
 * @since 0.1.0
 * @category data
 */
export const bigAuthority = (dataset: Dataset.Dataset): string => dataset.address("das:authority:big")

/**
 * The sample owner of token accounts.
 *
 * @since 0.1.0
 * @category data
 */
export const sampleOwner = (dataset: Dataset.Dataset): string => dataset.address("das:owner:sample")

/**
 * The sample mint with many holders.
 *
 * @since 0.1.0
 * @category data
 */
export const sampleMint = (dataset: Dataset.Dataset): string => dataset.address("das:mint:sample")

/**
 * Extra authority `k` (of `das.authorities`), with 1..40 assets.
 *
 * @since 0.1.0
 * @category data
 */
export const extraAuthority = (dataset: Dataset.Dataset, k: number): string => dataset.address(`das:authority:${k}`)

/**
 * Batch-job authority `k` (of `das.batchAuthorities`, default 20), each with
 * `das.batchAuthorityAssets` (default 5,000) assets: the indexer example's job.
 *
 * @since 0.1.0
 * @category data
 */
export const batchAuthority = (dataset: Dataset.Dataset, k: number): string =>
  dataset.address(`das:authority:batch:${k}`)

/** Every batch-job authority, in order. */
const batchAuthorities = (dataset: Dataset.Dataset): ReadonlyArray<string> =>
  Array.from({ length: dataset.size("das.batchAuthorities", 20) }, (_, k) => batchAuthority(dataset, k))

const batchSets = new WeakMap<Dataset.Dataset, ReadonlySet<string>>()
const isBatch = (dataset: Dataset.Dataset, address: string): boolean => {
  let set = batchSets.get(dataset)
  if (set === undefined) batchSets.set(dataset, set = new Set(batchAuthorities(dataset)))
  return set.has(address)
}

/** Every authority of a dataset, built once. */
const authorityLists = new WeakMap<Dataset.Dataset, ReadonlyArray<string>>()

/**
 * Every authority the dataset holds, in a fixed order: the sample one, the big one, the
 * `das.authorities` extras, then the batch job's. Every asset the emulator serves belongs to
 * exactly one of them.
 *
 * @since 0.1.0
 * @category data
 */
export const authorities = (dataset: Dataset.Dataset): ReadonlyArray<string> => {
  let list = authorityLists.get(dataset)
  if (list === undefined) {
    list = [
      sampleAuthority(dataset),
      bigAuthority(dataset),
      ...Array.from({ length: dataset.size("das.authorities", 8) }, (_, k) => extraAuthority(dataset, k)),
      ...batchAuthorities(dataset)
    ]
    authorityLists.set(dataset, list)
  }
  return list
}

/** The extra addresses of a kind the dataset holds, by address (built once per dataset). */
const extras = new WeakMap<Dataset.Dataset, Map<string, ReadonlySet<string>>>()
const isExtra = (dataset: Dataset.Dataset, kind: "authority" | "owner" | "mint", address: string): boolean => {
  let byKind = extras.get(dataset)
  if (byKind === undefined) extras.set(dataset, byKind = new Map())
  let set = byKind.get(kind)
  if (set === undefined) {
    const n = dataset.size(`das.${kind === "authority" ? "authorities" : `${kind}s`}`, 8)
    set = new Set(Array.from({ length: n }, (_, k) => dataset.address(`das:${kind}:${k}`)))
    byKind.set(kind, set)
  }
  return set.has(address)
}

/**
 * How many assets an authority has: 0 for an authority the dataset does not hold.
 *
 * @since 0.1.0
 * @category data
 */
export const assetCount = (dataset: Dataset.Dataset, authority: string): number =>
  authority === sampleAuthority(dataset)
    ? dataset.size("das.authorityAssets", 10_000)
    : authority === bigAuthority(dataset)
    ? dataset.size("das.bigAuthorityAssets", dataset.size("das.bigAuthority", 100_000))
    : isExtra(dataset, "authority", authority)
    ? 1 + dataset.int(`das:${authority}:count`, 40)
    : isBatch(dataset, authority)
    ? dataset.size("das.batchAuthorityAssets", 5_000)
    : 0

/**
 * Whether asset `i` of an authority is compressed (one in four).
 *
 * @since 0.1.0
 * @category data
 */
export const isCompressed = (i: number): boolean => i % 4 === 1

// Compressed asset ids are PDAs (a costly derivation): each is derived once, kept by authority
// and ordinal, per seed rather than per dataset: emulators of one seed in a process (tests)
// derive each once.
const pdas = new Map<number, Map<string, Array<string | undefined>>>()

/**
 * The id of asset `i` of an authority. A compressed asset's id is the Bubblegum asset
 * address of its tree and leaf index, as mpl-bubblegum's `findLeafAssetIdPda` gives it.
 *
 * @since 0.1.0
 * @category data
 */
export const assetId = (dataset: Dataset.Dataset, authority: string, i: number): string => {
  if (!isCompressed(i)) return dataset.address(`das:${authority}:asset:${i}`)
  let byAuthority = pdas.get(dataset.seed)
  if (byAuthority === undefined) pdas.set(dataset.seed, byAuthority = new Map())
  let ids = byAuthority.get(authority)
  if (ids === undefined) byAuthority.set(authority, ids = [])
  const ordinal = (i - 1) / 4
  return ids[ordinal] ??= Bubblegum.assetId(
    treeId(dataset, authority, Math.floor(ordinal / TREE_CAPACITY)),
    ordinal % TREE_CAPACITY
  )
}

/**
 * A compressed asset of the sample authority (with many signatures).
 *
 * @since 0.1.0
 * @category data
 */
export const sampleCompressedAsset = (dataset: Dataset.Dataset): string => assetId(dataset, sampleAuthority(dataset), 1)

const compressedCount = (n: number) => Math.floor((n + 2) / 4)

// -- assets ------------------------------------------------------------------

// Addresses drawn from small pools (owners, creators, collections, trees) repeat across
// thousands of assets: remember them per dataset and authority instead of re-hashing each
// time, in arrays (a lookup per asset by a built string key cost more than the rest of it).
type PoolKind = "owner" | "creator" | "collection" | "tree"
interface Pools {
  /** How the authority's assets share owners, creators and collections (see `shapeOf`). */
  readonly shape: AssetShape
  readonly addresses: Record<PoolKind, Array<string | undefined>>
  /** The owners' bytes, for leaf hashes. */
  readonly ownerBytes: Array<Uint8Array | undefined>
}
const pools = new WeakMap<Dataset.Dataset, Map<string, Pools>>()
const poolsOf = (dataset: Dataset.Dataset, authority: string): Pools => {
  let byAuthority = pools.get(dataset)
  if (byAuthority === undefined) pools.set(dataset, byAuthority = new Map())
  let p = byAuthority.get(authority)
  if (p === undefined) {
    p = {
      shape: authority === bigAuthority(dataset) ? SINGLE : POOLED,
      addresses: { owner: [], creator: [], collection: [], tree: [] },
      ownerBytes: []
    }
    byAuthority.set(authority, p)
  }
  return p
}
const pooled = (dataset: Dataset.Dataset, authority: string, kind: PoolKind, k: number): string => {
  const list = poolsOf(dataset, authority).addresses[kind]
  return list[k] ??= kind === "owner" && k === 0 && authority === sampleAuthority(dataset)
    ? walletOwner(dataset)
    : dataset.address(`das:${authority}:${kind}:${k}`)
}

/**
 * The sample authority's first owner is the Wallet API's sample wallet (seeded wallet 0, the
 * address `Wallet.walletAt(dataset, 0)`): its NFTs are these DAS assets, so both areas describe one
 * wallet. (Wallet imports this module, so the address is derived here from the same label.)
 */
const walletOwner = (dataset: Dataset.Dataset): string => dataset.address("wallet:0")

const ownerOf = (dataset: Dataset.Dataset, authority: string, i: number): { address: string; bytes: Uint8Array } => {
  const k = i % poolsOf(dataset, authority).shape.owners
  const address = pooled(dataset, authority, "owner", k)
  const bytes = poolsOf(dataset, authority).ownerBytes
  return { address, bytes: bytes[k] ??= Base58.decode(address)! }
}

/**
 * How an authority's assets share owners, creators and collections: asset i has owner
 * `i % owners`, creator `i % creators` and collection `floor(i / collectionSize)`. The big
 * authority's assets have one owner, one creator and one collection (the samples with
 * ~100,000 assets each); the others draw from pools, as real collections have repeat holders.
 *
 * @since 0.1.0
 * @category data
 */
export interface AssetShape {
  readonly owners: number
  readonly creators: number
  readonly collectionSize: number
}

const POOLED: AssetShape = { owners: 997, creators: 5, collectionSize: 1000 }
const SINGLE: AssetShape = { owners: 1, creators: 1, collectionSize: Number.MAX_SAFE_INTEGER }

/**
 * The shape of an authority's assets.
 *
 * @since 0.1.0
 * @category data
 */
export const shapeOf = (dataset: Dataset.Dataset, authority: string): AssetShape => poolsOf(dataset, authority).shape

/**
 * Owner `k` of an authority's assets (asset i has owner `i % shape.owners`).
 *
 * @since 0.1.0
 * @category data
 */
export const ownerAt = (dataset: Dataset.Dataset, authority: string, k: number): string =>
  pooled(dataset, authority, "owner", k)

/**
 * Creator `k` of an authority's assets (asset i has creator `i % shape.creators`).
 *
 * @since 0.1.0
 * @category data
 */
export const creatorAt = (dataset: Dataset.Dataset, authority: string, k: number): string =>
  pooled(dataset, authority, "creator", k)

/**
 * Collection `g` of an authority (asset i is in collection `floor(i / shape.collectionSize)`).
 *
 * @since 0.1.0
 * @category data
 */
export const collectionAt = (dataset: Dataset.Dataset, authority: string, g: number): string =>
  pooled(dataset, authority, "collection", g)

interface AssetCore {
  readonly id: string
  readonly owner: string
  readonly delegate: string | null
  readonly dataHash: string
  readonly creatorHash: string
  /** The leaf hash's inputs as bytes (compressed assets only): not decoded back from base58. */
  readonly leaf?: {
    readonly owner: Uint8Array
    readonly delegate: Uint8Array | null
    readonly dataHash: Uint8Array
    readonly creatorHash: Uint8Array
  }
}

const assetCore = (dataset: Dataset.Dataset, authority: string, i: number): AssetCore => {
  const label = `das:${authority}:${i}`
  const id = assetId(dataset, authority, i)
  const owner = ownerOf(dataset, authority, i)
  const delegate = delegateOf(dataset, authority, i)
  // Only compressed assets show their hashes (the others send ""): not computed for nothing.
  if (!isCompressed(i)) return { id, owner: owner.address, delegate, dataHash: "", creatorHash: "" }
  const dataHash = dataset.bytes(`${label}:data-hash`)
  const creatorHash = dataset.bytes(`${label}:creator-hash`)
  return {
    id,
    owner: owner.address,
    delegate,
    dataHash: Base58.encode(dataHash),
    creatorHash: Base58.encode(creatorHash),
    leaf: {
      owner: owner.bytes,
      delegate: delegate === null ? null : Base58.decode(delegate)!,
      dataHash,
      creatorHash
    }
  }
}

const leafOf = (dataset: Dataset.Dataset, authority: string, i: number): Uint8Array =>
  leafOfCore(assetCore(dataset, authority, i), i)

const leafOfCore = (c: AssetCore, i: number): Uint8Array =>
  MerkleProof.leafHashV1({
    assetId: Base58.decode(c.id)!,
    owner: c.leaf!.owner,
    delegate: c.leaf!.delegate ?? c.leaf!.owner,
    nonce: BigInt(((i - 1) / 4) % TREE_CAPACITY),
    dataHash: c.leaf!.dataHash,
    creatorHash: c.leaf!.creatorHash
  })

const treeId = (dataset: Dataset.Dataset, authority: string, t: number) => pooled(dataset, authority, "tree", t)

/** The Merkle tree `t` of an authority, built once per emulator from its compressed assets. */
const treeOf = (ctx: AreaContext, authority: string, t: number): MerkleProof.MerkleTree => {
  const trees = ctx.state("das:trees", () => new Map<string, MerkleProof.MerkleTree>())
  const key = `${authority}:${t}`
  const cached = trees.get(key)
  if (cached !== undefined) return cached
  const total = compressedCount(assetCount(ctx.dataset, authority))
  const leaves: Array<Uint8Array> = []
  for (let c = t * TREE_CAPACITY; c < Math.min(total, (t + 1) * TREE_CAPACITY); c++) {
    leaves.push(leafOf(ctx.dataset, authority, 4 * c + 1))
  }
  const tree = MerkleProof.buildTree(leaves, TREE_DEPTH)
  trees.set(key, tree)
  return tree
}

const INTERFACES = ["ProgrammableNFT", "V1_NFT", "MplCoreAsset"] as const

// The attributes searchAssets filters on, one function each, so the filters and the assets agree.

/**
 * The interface of asset `i` (compressed assets are `V1_NFT`).
 *
 * @since 0.1.0
 * @category data
 */
export const interfaceOf = (i: number): typeof INTERFACES[number] => isCompressed(i) ? "V1_NFT" : INTERFACES[i % 3]!

/**
 * The delegate of asset `i` of an authority (one in nine has one), or null.
 *
 * @since 0.1.0
 * @category data
 */
export const delegateOf = (dataset: Dataset.Dataset, authority: string, i: number): string | null =>
  i % 9 === 0 ? dataset.address(`das:${authority}:${i}:delegate`) : null

/**
 * Whether asset `i` is frozen (one in 23).
 *
 * @since 0.1.0
 * @category data
 */
export const isFrozen = (i: number): boolean => i % 23 === 0

/**
 * The royalty of asset `i` of an authority, in basis points.
 *
 * @since 0.1.0
 * @category data
 */
export const royaltyBasisPoints = (dataset: Dataset.Dataset, authority: string, i: number): number =>
  dataset.int(`das:${authority}:${i}:bp`, 1000)

/**
 * The name of asset `i`.
 *
 * @since 0.1.0
 * @category data
 */
export const assetName = (i: number): string => `Asset #${i}`

/**
 * The metadata URI of an asset id.
 *
 * @since 0.1.0
 * @category data
 */
export const jsonUriOf = (id: string): string => `https://assets.solfx.invalid/${id}.json`

/**
 * Whether asset `i` is a master edition (one in fifty, never a compressed one).
 *
 * @since 0.1.0
 * @category data
 */
export const isMasterEdition = (i: number): boolean => i % 50 === 7

/**
 * The most prints master edition `i` of an authority allows: beyond 2^53.
 *
 * @since 0.1.0
 * @category data
 */
export const maxSupplyOf = (dataset: Dataset.Dataset, authority: string, i: number): bigint =>
  2n ** 60n + BigInt(dataset.int(`das:${authority}:${i}:max-supply`, 1_000_000_000))

/**
 * Whether master edition `i` has an open print run beyond 2^53 (every other one), to keep u64
 * handling honest. Its prints are not assets of the dataset: getNftEditions does not list them.
 *
 * @since 0.1.0
 * @category data
 */
export const hasOpenPrintRun = (i: number): boolean => i % 100 === 7

/**
 * How many prints master edition `i` of an authority has (its `print_current_supply`).
 *
 * @since 0.1.0
 * @category data
 */
export const printCount = (dataset: Dataset.Dataset, authority: string, i: number): bigint =>
  hasOpenPrintRun(i) ? 2n ** 54n + BigInt(i) : BigInt(editionsOf(dataset, authority, i).length)

/**
 * The prints of a limited master edition `i` of an authority, by asset index: the uncompressed
 * assets among the ten after it (edition k + 1 is the k-th), so every print is an asset of the dataset.
 *
 * @since 0.1.0
 * @category data
 */
export const editionsOf = (dataset: Dataset.Dataset, authority: string, i: number): ReadonlyArray<number> => {
  if (!isMasterEdition(i) || hasOpenPrintRun(i)) return []
  const n = assetCount(dataset, authority)
  const out: Array<number> = []
  for (let j = i + 1; j <= i + 10 && j < n; j++) if (!isCompressed(j)) out.push(j)
  return out
}

/**
 * The Merkle tree of compressed asset `i` of an authority.
 *
 * @since 0.1.0
 * @category data
 */
export const treeIdOf = (dataset: Dataset.Dataset, authority: string, i: number): string =>
  treeId(dataset, authority, Math.floor((i - 1) / 4 / TREE_CAPACITY))

/** What an asset's JSON holds beyond its core, computed once for both of its forms below. */
interface AssetFields {
  readonly core: AssetCore
  readonly interface: string
  readonly basisPoints: number
  readonly compression: {
    readonly assetHash: string
    readonly tree: string
    readonly leafId: number
    readonly seq: number
  } | undefined
  readonly collection: string
  readonly creator: string
  readonly supply: { readonly max: bigint; readonly current: bigint } | undefined
}

// One literal of one shape (no spreads): this runs once per asset served.
const assetFields = (dataset: Dataset.Dataset, authority: string, i: number): AssetFields => {
  const shape = shapeOf(dataset, authority)
  const core = assetCore(dataset, authority, i)
  const ordinal = (i - 1) / 4
  const compressed = isCompressed(i)
  return {
    core,
    interface: interfaceOf(i),
    basisPoints: royaltyBasisPoints(dataset, authority, i),
    compression: compressed
      ? {
        assetHash: Base58.encode(leafOfCore(core, i)),
        tree: treeIdOf(dataset, authority, i),
        leafId: ordinal % TREE_CAPACITY,
        // Every signature of a compressed asset (mint, transfers, delegations) changed its leaf.
        seq: signatureCount(dataset, core.id)
      }
      : undefined,
    collection: collectionAt(dataset, authority, Math.floor(i / shape.collectionSize)),
    creator: creatorAt(dataset, authority, i % shape.creators),
    // One in fifty a master edition with a maximum supply beyond 2^53, to keep u64 handling honest
    // (bigints go out as bare numbers); its current supply is its prints (`printCount`).
    supply: isMasterEdition(i)
      ? { max: maxSupplyOf(dataset, authority, i), current: printCount(dataset, authority, i) }
      : undefined
  }
}

/**
 * Asset `i` of an authority as a value (its JSON text is `assetText`).
 *
 * @since 0.1.0
 * @category data
 */
export const assetJson = (dataset: Dataset.Dataset, authority: string, i: number): AssetJson => {
  const f = assetFields(dataset, authority, i)
  const c = f.core
  const image = `https://assets.solfx.invalid/${c.id}.png`
  return {
    interface: f.interface as AssetJson["interface"],
    id: c.id,
    content: {
      $schema: "https://schema.metaplex.com/nft1.0.json",
      json_uri: jsonUriOf(c.id),
      files: [{ uri: image, cdn_uri: `https://cdn.solfx.invalid/${c.id}.png`, mime: "image/png" }],
      metadata: { name: assetName(i), symbol: "SFX" },
      links: { image }
    },
    authorities: [{ address: authority, scopes: ["full"] }],
    compression: f.compression !== undefined
      ? {
        eligible: false,
        compressed: true,
        data_hash: c.dataHash,
        creator_hash: c.creatorHash,
        asset_hash: f.compression.assetHash,
        tree: f.compression.tree,
        seq: f.compression.seq,
        leaf_id: f.compression.leafId
      }
      : WorldAssets.NO_COMPRESSION,
    grouping: [{ group_key: "collection", group_value: f.collection }],
    royalty: {
      royalty_model: "creators",
      target: null,
      percent: f.basisPoints / 10_000,
      basis_points: f.basisPoints,
      primary_sale_happened: i % 3 !== 0,
      locked: false
    },
    creators: [{ address: f.creator, share: 100, verified: true }],
    ownership: {
      frozen: isFrozen(i),
      delegated: c.delegate !== null,
      delegate: c.delegate,
      ownership_model: "single",
      owner: c.owner
    },
    burnt: false,
    mutable: true,
    ...(f.supply !== undefined
      ? {
        supply: {
          print_max_supply: f.supply.max,
          print_current_supply: f.supply.current,
          edition_nonce: 254
        } as unknown as AssetJson["supply"]
      }
      : {})
  }
}

/**
 * The JSON text of `assetJson(dataset, authority, i)`, written directly: building the value and
 * serialising it cost more than all the hashing of a page. Every string in it is base58, a
 * number or a fixed ASCII literal, so none needs escaping; a test holds it equal to the value's
 * serialisation.
 *
 * @since 0.1.0
 * @category data
 */
export const assetText = (dataset: Dataset.Dataset, authority: string, i: number): string =>
  writeAsset(assetFields(dataset, authority, i), authority, i)

const writeAsset = (f: AssetFields, authority: string, i: number): string => {
  const c = f.core
  const image = `https://assets.solfx.invalid/${c.id}.png`
  const k = f.compression
  const compression = k === undefined
    ? `{"eligible":false,"compressed":false,"data_hash":"","creator_hash":"","asset_hash":"","tree":"","seq":0,"leaf_id":0}`
    : `{"eligible":false,"compressed":true,"data_hash":"${c.dataHash}","creator_hash":"${c.creatorHash}","asset_hash":"${k.assetHash}","tree":"${k.tree}","seq":${k.seq},"leaf_id":${k.leafId}}`
  const supply = f.supply === undefined
    ? ""
    : `,"supply":{"print_max_supply":${f.supply.max},"print_current_supply":${f.supply.current},"edition_nonce":254}`
  return `{"interface":"${f.interface}","id":"${c.id}","content":{"$schema":"https://schema.metaplex.com/nft1.0.json","json_uri":"${
    jsonUriOf(c.id)
  }","files":[{"uri":"${image}","cdn_uri":"https://cdn.solfx.invalid/${c.id}.png","mime":"image/png"}],"metadata":{"name":"${
    assetName(i)
  }","symbol":"SFX"},"links":{"image":"${image}"}},"authorities":[{"address":"${authority}","scopes":["full"]}],"compression":${compression},"grouping":[{"group_key":"collection","group_value":"${f.collection}"}],"royalty":{"royalty_model":"creators","target":null,"percent":${
    f.basisPoints / 10_000
  },"basis_points":${f.basisPoints},"primary_sale_happened":${
    i % 3 !== 0
  },"locked":false},"creators":[{"address":"${f.creator}","share":100,"verified":true}],"ownership":{"frozen":${
    isFrozen(i)
  },"delegated":${c.delegate !== null},"delegate":${
    c.delegate === null ? "null" : `"${c.delegate}"`
  },"ownership_model":"single","owner":"${c.owner}"},"burnt":false,"mutable":true${supply}}`
}

/**
 * Creation, update and last-action slots: the sort keys.
 *
 * @since 0.1.0
 * @category data
 */
export const sortKey = (dataset: Dataset.Dataset, authority: string, i: number, by: DasParams.SortByField): number => {
  const created = BASE_SLOT + i * 7
  if (by === "none" || by === "created") return created
  const updated = created + dataset.int(`das:${authority}:${i}:updated`, 2_000_000)
  return by === "updated"
    ? updated
    : Math.max(updated, created + dataset.int(`das:${authority}:${i}:action`, 3_000_000))
}

// -- getAssetsByAuthority ---------------------------------------------------------

const assetView = (
  ctx: AreaContext,
  authority: string,
  sorting: typeof DasParams.AssetSorting.Type | undefined
): View => {
  const by = sorting?.sortBy ?? "none"
  const descending = sorting?.sortDirection === "desc"
  const n = assetCount(ctx.dataset, authority)
  const idOf = (i: number) => assetId(ctx.dataset, authority, i)
  if (by === "none" || by === "created") return naturalView(n, idOf, descending)
  const orders = ctx.state("das:orders", () => new Map<string, Int32Array>())
  const key = `${authority}:${by}`
  let order = orders.get(key)
  if (order === undefined) {
    const keys = new Float64Array(n)
    for (let i = 0; i < n; i++) keys[i] = sortKey(ctx.dataset, authority, i, by)
    order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => keys[a]! - keys[b]! || a - b)
    orders.set(key, order)
  }
  return permutedView(order, idOf, descending)
}

/**
 * An asset's place in the dataset.
 *
 * @since 0.1.0
 * @category data
 */
export interface Located {
  readonly authority: string
  readonly index: number
}

/**
 * Ids served so far (and the assets of indexed authorities), for lookups: each authority's ids
 * to their index (a number, not a record per asset: a page registers 1,000).
 */
const registry = (ctx: AreaContext) => ctx.state("das:registry", () => new Map<string, Map<string, number>>())

const registryOf = (ctx: AreaContext, authority: string): Map<string, number> => {
  const all = registry(ctx)
  let ids = all.get(authority)
  if (ids === undefined) all.set(authority, ids = new Map())
  return ids
}

const register = (ctx: AreaContext, authority: string, index: number, id: string) => {
  registryOf(ctx, authority).set(id, index)
}

/**
 * Assets served but not yet in the registry, per authority: a mark an asset (1 once served)
 * and the ids and indexes waiting. Serving marks a byte and appends; ids enter the registry's
 * Map only when a lookup needs them (`flush`): a Map insert per asset served cost about a
 * tenth of serving a page, and most served ids are never asked for.
 */
interface Served {
  readonly marks: Uint8Array
  ids: Array<string>
  indexes: Array<number>
}
const served = (ctx: AreaContext) => ctx.state("das:served", () => new Map<string, Served>())

const markServed = (ctx: AreaContext, authority: string, i: number, id: string) => {
  const all = served(ctx)
  let s = all.get(authority)
  if (s === undefined) {
    all.set(authority, s = { marks: new Uint8Array(assetCount(ctx.dataset, authority)), ids: [], indexes: [] })
  }
  if (i >= s.marks.length) return register(ctx, authority, i, id)
  if (s.marks[i] !== 0) return
  s.marks[i] = 1
  s.ids.push(id)
  s.indexes.push(i)
}

/** Registers every asset served since the last lookup: each asset once, however often served. */
const flush = (ctx: AreaContext) => {
  for (const [authority, s] of served(ctx)) {
    if (s.ids.length === 0) continue
    const ids = registryOf(ctx, authority)
    for (let k = 0; k < s.ids.length; k++) ids.set(s.ids[k]!, s.indexes[k]!)
    s.ids = []
    s.indexes = []
  }
}

const lookup = (ctx: AreaContext, id: string): Located | undefined => {
  flush(ctx)
  for (const [authority, ids] of registry(ctx)) {
    const index = ids.get(id)
    if (index !== undefined) return { authority, index }
  }
  return undefined
}

const getAssetsByAuthority: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(DigitalAssetSchema.GetAssetsByAuthorityParams, withOptionsAlias(raw))
      const view = assetView(ctx, params.authorityAddress, params.sortBy)
      const sortKeyName = `assets:${params.authorityAddress}:${params.sortBy?.sortBy ?? "none"}:${
        params.sortBy?.sortDirection ?? "asc"
      }`
      const authority = params.authorityAddress
      return yield* assetListPage(ctx, sortKeyName, view, (i) => [authority, i], params)
    })
}

/**
 * The JSON text of asset `i` of an authority as served: it is marked served, so getAsset and
 * proofs find its id without indexing the whole authority.
 *
 * @since 0.1.0
 * @category data
 */
export const servedAssetText = (ctx: AreaContext, authority: string, i: number): string => {
  const fields = assetFields(ctx.dataset, authority, i)
  markServed(ctx, authority, i, fields.core.id)
  return writeAsset(fields, authority, i)
}

/**
 * One page of an asset list in the DAS list wrapper. `view.indexAt` gives a member number that
 * `resolve` turns into (authority, index); `key` names the list and its order (for ids as cursors).
 *
 * @since 0.1.0
 * @category lists
 */
export const assetListPage = (
  ctx: AreaContext,
  key: string,
  seeded: View,
  resolve: (member: number) => readonly [authority: string, index: number],
  params: DasParams.Paging & { readonly options?: { readonly showGrandTotal?: boolean | undefined } | undefined },
  recent?: RecentAssets | undefined
) => {
  const view = recent === undefined ? seeded : withRecent(seeded, recent)
  const textAt = (p: number) =>
    p < seeded.length ? servedAssetText(ctx, ...resolve(seeded.indexAt(p))) : recent!.text(p - seeded.length)
  return Effect.map(windowOf(ctx, key, view, params), (w) => ({
    last_indexed_slot: ctx.slot(),
    total: view.length,
    limit: params.limit ?? MAX_LIMIT,
    ...w.fields,
    ...(params.options?.showGrandTotal === true ? { grand_total: view.length } : {}),
    // A page's items are built, serialised and encoded once while the cache holds them:
    // served again, their bytes are copied into the body as they are.
    items: ownedUnlessCached(
      ctx,
      ctx.cache.get(
        `das:assets:${key}:${w.start}:${w.end}`,
        () => Wire.utf8Array(w.end - w.start, (k) => textAt(w.start + k))
      )
    )
  }))
}

/**
 * Assets the world made since start that a list shows after its seeded members (`World`):
 * their ids and their JSON text. A list key that holds them names the world's state, so
 * cached pages and cursor positions of an older state are not reused.
 *
 * @since 0.1.0
 * @category lists
 */
export interface RecentAssets {
  readonly ids: ReadonlyArray<string>
  readonly text: (j: number) => string
}

const withRecent = (seeded: View, recent: RecentAssets): View => ({
  length: seeded.length + recent.ids.length,
  indexAt: (p) => p,
  idAt: (p) => (p < seeded.length ? seeded.idAt(p) : recent.ids[p - seeded.length]!)
})

/** Bytes the cache did not keep are this response's alone: the body is written around them. */
const ownedUnlessCached = (ctx: AreaContext, bytes: Uint8Array): Wire.Raw =>
  new Wire.Raw(bytes, !ctx.cache.shares(bytes))

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

// -- getSignaturesForAsset --------------------------------------------------------

/**
 * How many signatures an asset the dataset holds has.
 *
 * @since 0.1.0
 * @category data
 */
export const signatureCount = (dataset: Dataset.Dataset, id: string): number =>
  id === sampleCompressedAsset(dataset)
    ? dataset.size("das.assetSignatures", 2_000)
    : 1 + dataset.int(`das:sig:${id}:count`, 8)

/**
 * The kind of an asset's signature `k` (oldest first): its mint, then transfers and delegations.
 *
 * @since 0.1.0
 * @category data
 */
export const signatureKind = (k: number): "MintToCollectionV1" | "Delegate" | "Transfer" =>
  k === 0 ? "MintToCollectionV1" : k % 5 === 3 ? "Delegate" : "Transfer"

const getSignaturesForAsset: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetSignatureSchema.GetSignaturesForAssetParams, raw)
      const descending = params.sortDirection === "desc"
      const world = World.of(ctx.state)
      const compressed = world.compressedNft(params.id)
      if (world.mint(params.id) !== undefined || compressed !== undefined) {
        // The world's transactions of the asset, oldest first as the seeded lists are.
        const txs = [...world.transactionsOf(params.id)].reverse()
        const kind = (tx: (typeof txs)[number]) =>
          tx.type === "COMPRESSED_NFT_MINT" && compressed?.collection != null
            ? "MintToCollectionV1"
            : tx.type === "NFT_MINT" || tx.type === "TOKEN_MINT" || tx.type === "COMPRESSED_NFT_MINT"
            ? "MintV1"
            : "Transfer"
        const view = naturalView(txs.length, (k) => txs[k]!.signature, descending)
        const w = yield* windowOf(
          ctx,
          `sig:${params.id}:${descending}:world${world.version()}`,
          view,
          params
        )
        return {
          last_indexed_slot: ctx.slot(),
          total: view.length,
          limit: params.limit ?? MAX_LIMIT,
          ...w.fields,
          items: positions(w).map((p) => [txs[view.indexAt(p)]!.signature, kind(txs[view.indexAt(p)]!)])
        }
      }
      const at = locate(ctx, params.id)
      const n = at === undefined ? 0 : signatureCount(ctx.dataset, params.id)
      // A compressed NFT's receipt is its owner's history entry: that signature, wherever it is listed.
      const receipt = at !== undefined && isCompressed(at.index)
        ? AssetReceipts.receiptOfAsset(ctx.dataset, at.authority, at.index)
        : undefined
      const signatureAt = (k: number) =>
        k === receipt?.k ? receipt.signature : ctx.dataset.signature(`das:sig:${params.id}:${k}`)
      const view = naturalView(n, signatureAt, descending)
      const w = yield* windowOf(ctx, `sig:${params.id}:${descending}`, view, params)
      return {
        last_indexed_slot: ctx.slot(),
        total: view.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        items: positions(w).map((p) => {
          const k = view.indexAt(p)
          return [signatureAt(k), signatureKind(k)]
        })
      }
    })
}

// -- getAssetProofBatch -----------------------------------------------------------

/**
 * Where an asset id sits (authority and index), or undefined for an id the dataset does not hold.
 * Ids served before are found at once. Otherwise the small authorities are indexed on first use,
 * then the large ones' (the big authority's and the batch job's) uncompressed ids (hashes: cheap).
 * Their compressed ids are PDAs, with no way back but deriving them all (seconds for 25,000, once
 * per seed in a process): only an id off the ed25519 curve can be one, so a real public key (a
 * wallet, a mint) never pays for it; `uncompressedOnly` skips them.
 *
 * @since 0.1.0
 * @category data
 */
export const locate = (
  ctx: AreaContext,
  id: string,
  options?: { readonly uncompressedOnly?: boolean | undefined }
): Located | undefined => {
  const found = lookup(ctx, id)
  if (found !== undefined) return found
  const indexed = ctx.state("das:registry:indexed", () => ({ small: false, plain: false, all: false }))
  const ds = ctx.dataset
  const big = bigAuthority(ds)
  const large = (authority: string) => authority === big || isBatch(ds, authority)
  const index = (authority: string, keep: (i: number) => boolean) => {
    const n = assetCount(ds, authority)
    for (let i = 0; i < n; i++) if (keep(i)) register(ctx, authority, i, assetId(ds, authority, i))
  }
  if (!indexed.small) {
    for (const authority of authorities(ds)) if (!large(authority)) index(authority, () => true)
    indexed.small = true
  }
  if (!indexed.plain && lookup(ctx, id) === undefined) {
    for (const authority of authorities(ds)) if (large(authority)) index(authority, (i) => !isCompressed(i))
    indexed.plain = true
  }
  if (options?.uncompressedOnly === true) return lookup(ctx, id)
  if (!indexed.all && lookup(ctx, id) === undefined) {
    const bytes = Base58.decode(id)
    if (bytes === undefined || bytes.length !== 32 || Bubblegum.isOnCurve(bytes)) return undefined
    for (const authority of authorities(ds)) if (large(authority)) index(authority, isCompressed)
    indexed.all = true
  }
  return lookup(ctx, id)
}

/**
 * The proof record of an asset id (getAssetProofBatch's entry), or null when the id is unknown
 * or the asset is not compressed.
 *
 * @since 0.1.0
 * @category data
 */
export const proofOf = (ctx: AreaContext, id: string): ProofJson | null => {
  const minted = WorldAssets.compressedProof(World.of(ctx.state), id, ctx.slot())
  if (minted !== undefined) return minted
  const at = locate(ctx, id)
  if (at === undefined || !isCompressed(at.index)) return null
  const ordinal = (at.index - 1) / 4
  const t = Math.floor(ordinal / TREE_CAPACITY)
  const record = MerkleProof.proofRecord(treeOf(ctx, at.authority, t), ordinal % TREE_CAPACITY)
  return {
    last_indexed_slot: ctx.slot(),
    root: record.root,
    proof: record.proof,
    node_index: record.node_index,
    leaf: record.leaf,
    tree_id: treeId(ctx.dataset, at.authority, t),
    burnt: false
  }
}

const getAssetProofBatch: Handler = {
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetProofSchema.GetAssetProofBatchParams, raw)
      const result: Record<string, ProofJson | null> = {}
      for (const id of params.ids) result[id] = proofOf(ctx, id)
      return result
    })
}

/**
 * The handlers of the DAS methods this module answers (authority lists, signatures, proofs), by
 * method name: `AssetQueries.area` routes them, with the read API's, from `Endpoints.digitalAssetMethods`.
 *
 * @since 0.1.0
 * @category methods
 */
export const handlers = { getAssetsByAuthority, getSignaturesForAsset, getAssetProofBatch } as const

/**
 * The DAS area's samples (its methods are routed by `AssetQueries.area`).
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "digital-assets",
  samples: (dataset) => ({
    // 10,000 assets by default (das.authorityAssets), one in four compressed.
    dasAuthority: sampleAuthority(dataset),
    // 100,000 assets by default (das.bigAuthorityAssets), for benchmarks.
    dasBigAuthority: bigAuthority(dataset),
    // The batch job's authorities, comma-separated: 20 (das.batchAuthorities) × 5,000 assets (das.batchAuthorityAssets).
    dasBatchAuthorities: batchAuthorities(dataset).join(","),
    // 2,500 token accounts by default (das.ownerTokenAccounts), one in ten empty.
    dasOwner: sampleOwner(dataset),
    // 1,500 holders by default (das.mintHolders).
    dasMint: sampleMint(dataset),
    // Compressed, in a depth-14 tree, with 2,000 signatures by default (das.assetSignatures).
    dasCompressedAsset: sampleCompressedAsset(dataset),
    dasUncompressedAsset: assetId(dataset, sampleAuthority(dataset), 0)
  })
}
