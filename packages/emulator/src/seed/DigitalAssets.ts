/**
 * The seeded digital assets: identities (authorities, owners, creators, collections, trees),
 * assets (fungible and non-fungible, compressed or not) and the attributes searchAssets filters on,
 * all derived from the dataset, in DAS's wire shape. The DAS areas, token metadata, the Wallet API
 * and standard RPC's accounts read them.
 *
 * @since 0.1.0
 */

import type * as DasParams from "@solfx/core/DasParams"
import * as MerkleProof from "@solfx/core/MerkleProof"
import type { AreaContext } from "../Area.js"
import type { AssetJson } from "../areas/DigitalAssets.js"
import * as WorldAssets from "../areas/WorldAssets.js"
import type * as Dataset from "../Dataset.js"
import * as Base58 from "../internal/Base58.js"
import * as Bubblegum from "../internal/Bubblegum.js"

/**
 * Depth of the seeded Merkle trees.
 *
 * @since 0.1.0
 * @category constants
 */
export const TREE_DEPTH = 14

export const TREE_CAPACITY = 2 ** TREE_DEPTH
export const BASE_SLOT = 250_000_000

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
export const batchAuthorities = (dataset: Dataset.Dataset): ReadonlyArray<string> =>
  Array.from({ length: dataset.size("das.batchAuthorities", 20) }, (_, k) => batchAuthority(dataset, k))

const batchSets = new WeakMap<Dataset.Dataset, ReadonlySet<string>>()
export const isBatch = (dataset: Dataset.Dataset, address: string): boolean => {
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
export const isExtra = (dataset: Dataset.Dataset, kind: "authority" | "owner" | "mint", address: string): boolean => {
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

export const treeId = (dataset: Dataset.Dataset, authority: string, t: number) => pooled(dataset, authority, "tree", t)

/** The Merkle tree `t` of an authority, built once per emulator from its compressed assets. */
export const treeOf = (ctx: AreaContext, authority: string, t: number): MerkleProof.MerkleTree => {
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
export const assetFields = (dataset: Dataset.Dataset, authority: string, i: number): AssetFields => {
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

export const writeAsset = (f: AssetFields, authority: string, i: number): string => {
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
