/**
 * The digital-asset (DAS) methods (spec §4.2, REAL-WORLD §1–2, §10, §14) over
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
 *   (tree, leaf index), derived once per asset and cached.
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
import * as Endpoints from "@solfx/core/Endpoints"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as TokenAccountSchema from "@solfx/core/TokenAccount"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Area, AreaContext, RpcMethod } from "../Area.js"
import { RpcFailure } from "../Area.js"
import type * as Dataset from "../Dataset.js"
import * as Base58 from "../internal/Base58.js"
import * as Bubblegum from "../internal/Bubblegum.js"
import * as Paging from "../Paging.js"
import * as Wire from "../Wire.js"

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
const MAX_LIMIT = 1000
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

// Compressed asset ids are PDAs (a costly derivation): each is derived once per dataset.
const pdas = new WeakMap<Dataset.Dataset, Map<string, string>>()

/**
 * The id of asset `i` of an authority. A compressed asset's id is the Bubblegum asset
 * address of its tree and leaf index, as mpl-bubblegum's `findLeafAssetIdPda` gives it.
 *
 * @since 0.1.0
 * @category data
 */
export const assetId = (dataset: Dataset.Dataset, authority: string, i: number): string => {
  if (!isCompressed(i)) return dataset.address(`das:${authority}:asset:${i}`)
  let cache = pdas.get(dataset)
  if (cache === undefined) pdas.set(dataset, cache = new Map())
  const key = `${authority}:${i}`
  let id = cache.get(key)
  if (id === undefined) {
    const ordinal = (i - 1) / 4
    id = Bubblegum.assetId(
      treeId(dataset, authority, Math.floor(ordinal / TREE_CAPACITY)),
      ordinal % TREE_CAPACITY
    )
    cache.set(key, id)
  }
  return id
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

// Addresses drawn from small pools (owners, creators, collections) repeat across
// thousands of assets: remember them per dataset instead of re-hashing each time.
const pools = new WeakMap<Dataset.Dataset, Map<string, string>>()
const pooled = (dataset: Dataset.Dataset, label: string): string => {
  let pool = pools.get(dataset)
  if (pool === undefined) pools.set(dataset, pool = new Map())
  let address = pool.get(label)
  if (address === undefined) pool.set(label, address = dataset.address(label))
  return address
}

interface AssetCore {
  readonly id: string
  readonly owner: string
  readonly delegate: string | null
  readonly dataHash: string
  readonly creatorHash: string
}

const assetCore = (dataset: Dataset.Dataset, authority: string, i: number): AssetCore => {
  const label = `das:${authority}:${i}`
  return {
    id: assetId(dataset, authority, i),
    // A pool of owners, as real collections have repeat holders.
    owner: pooled(dataset, `das:${authority}:owner:${i % 997}`),
    delegate: i % 9 === 0 ? dataset.address(`${label}:delegate`) : null,
    // Only compressed assets show their hashes (the others send ""): not computed for nothing.
    dataHash: isCompressed(i) ? Base58.encode(dataset.bytes(`${label}:data-hash`)) : "",
    creatorHash: isCompressed(i) ? Base58.encode(dataset.bytes(`${label}:creator-hash`)) : ""
  }
}

const leafOf = (dataset: Dataset.Dataset, authority: string, i: number): Uint8Array =>
  leafOfCore(assetCore(dataset, authority, i), i)

const leafOfCore = (c: AssetCore, i: number): Uint8Array => {
  const owner = Base58.decode(c.owner)!
  return MerkleProof.leafHashV1({
    assetId: Base58.decode(c.id)!,
    owner,
    delegate: c.delegate === null ? owner : Base58.decode(c.delegate)!,
    nonce: BigInt(((i - 1) / 4) % TREE_CAPACITY),
    dataHash: Base58.decode(c.dataHash)!,
    creatorHash: Base58.decode(c.creatorHash)!
  })
}

const treeId = (dataset: Dataset.Dataset, authority: string, t: number) => pooled(dataset, `das:${authority}:tree:${t}`)

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

const assetJson = (dataset: Dataset.Dataset, authority: string, i: number): AssetJson => {
  const label = `das:${authority}:${i}`
  const c = assetCore(dataset, authority, i)
  const compressed = isCompressed(i)
  const ordinal = (i - 1) / 4
  const basisPoints = dataset.int(`${label}:bp`, 1000)
  const image = `https://assets.solfx.invalid/${c.id}.png`
  return {
    interface: compressed ? "V1_NFT" : INTERFACES[i % 3]!,
    id: c.id,
    content: {
      $schema: "https://schema.metaplex.com/nft1.0.json",
      json_uri: `https://assets.solfx.invalid/${c.id}.json`,
      files: [{ uri: image, cdn_uri: `https://cdn.solfx.invalid/${c.id}.png`, mime: "image/png" }],
      metadata: { name: `Asset #${i}`, symbol: "SFX" },
      links: { image }
    },
    authorities: [{ address: authority, scopes: ["full"] }],
    compression: compressed
      ? {
        eligible: false,
        compressed: true,
        data_hash: c.dataHash,
        creator_hash: c.creatorHash,
        asset_hash: Base58.encode(leafOfCore(c, i)),
        tree: treeId(dataset, authority, Math.floor(ordinal / TREE_CAPACITY)),
        seq: 1 + (ordinal % TREE_CAPACITY),
        leaf_id: ordinal % TREE_CAPACITY
      }
      : {
        eligible: false,
        compressed: false,
        data_hash: "",
        creator_hash: "",
        asset_hash: "",
        tree: "",
        seq: 0,
        leaf_id: 0
      },
    grouping: [{
      group_key: "collection",
      group_value: pooled(dataset, `das:${authority}:collection:${Math.floor(i / 1000)}`)
    }],
    royalty: {
      royalty_model: "creators",
      target: null,
      percent: basisPoints / 10_000,
      basis_points: basisPoints,
      primary_sale_happened: i % 3 !== 0,
      locked: false
    },
    creators: [{ address: pooled(dataset, `das:${authority}:creator:${i % 5}`), share: 100, verified: true }],
    ownership: {
      frozen: i % 23 === 0,
      delegated: c.delegate !== null,
      delegate: c.delegate,
      ownership_model: "single",
      owner: c.owner
    },
    burnt: false,
    mutable: true,
    // One in fifty a master edition with a supply beyond 2^53, to keep u64 handling honest (bigints go out as bare numbers).
    ...(i % 50 === 7
      ? {
        supply: {
          print_max_supply: 2n ** 60n + BigInt(dataset.int(`${label}:max-supply`, 1_000_000_000)),
          print_current_supply: 2n ** 54n + BigInt(i),
          edition_nonce: 254
        } as unknown as AssetJson["supply"]
      }
      : {})
  }
}

/** Creation, update and last-action slots: the sort keys. */
const sortKey = (dataset: Dataset.Dataset, authority: string, i: number, by: DasParams.SortByField): number => {
  const created = BASE_SLOT + i * 7
  if (by === "none" || by === "created") return created
  const updated = created + dataset.int(`das:${authority}:${i}:updated`, 2_000_000)
  return by === "updated"
    ? updated
    : Math.max(updated, created + dataset.int(`das:${authority}:${i}:action`, 3_000_000))
}

// -- ordered views and pagination ---------------------------------------------

/** A list in its sort order: `indexAt(position)` is the item's natural index. */
interface View {
  readonly length: number
  readonly indexAt: (position: number) => number
  /** The id a client may pass as `before`/`after`. */
  readonly idAt: (position: number) => string
}

const naturalView = (length: number, idOf: (i: number) => string, descending: boolean): View => ({
  length,
  indexAt: (p) => (descending ? length - 1 - p : p),
  idAt: (p) => idOf(descending ? length - 1 - p : p)
})

const permutedView = (order: Int32Array, idOf: (i: number) => string, descending: boolean): View => ({
  length: order.length,
  indexAt: (p) => order[descending ? order.length - 1 - p : p]!,
  idAt: (p) => idOf(order[descending ? order.length - 1 - p : p]!)
})

/** Positions of ids in a view, built on first use (only when a client passes an id as a cursor). */
const positionOf = (ctx: AreaContext, key: string, view: View, id: string): number | undefined => {
  const maps = ctx.state("das:positions", () => new Map<string, Map<string, number>>())
  let map = maps.get(key)
  if (map === undefined) {
    map = new Map()
    for (let p = 0; p < view.length; p++) map.set(view.idAt(p), p)
    maps.set(key, map)
  }
  return map.get(id)
}

const invalid = (message: string) => new RpcFailure(-32602, `Invalid request parameters: ${message}`, 400)

interface Window {
  readonly start: number
  readonly end: number
  /** Fields of the list wrapper that describe the window. */
  readonly fields: {
    readonly page?: number
    readonly cursor?: string | null
    readonly before?: string | null
    readonly after?: string | null
  }
}

/**
 * The window a query selects. A cursor is a gap between items (`Paging.encodeCursor(g)`
 * is the gap before position g); an id as `after` is the gap after it, as `before` the gap before it.
 */
const windowOf = (
  ctx: AreaContext,
  key: string,
  view: View,
  p: DasParams.Paging
): Effect.Effect<Window, RpcFailure> =>
  Effect.suspend((): Effect.Effect<Window, RpcFailure> => {
    const limit = p.limit ?? MAX_LIMIT
    const gap = (token: string, side: "before" | "after"): number | undefined => {
      const decoded = Paging.decodeCursor(token)
      if (decoded !== undefined) return decoded <= view.length ? decoded : undefined
      const position = positionOf(ctx, key, view, token)
      return position === undefined ? undefined : side === "after" ? position + 1 : position
    }
    const bad = (field: string, token: string) =>
      Effect.fail(invalid(`${field}: Cursor Validation Err: ${token} is invalid`))
    if (p.page !== undefined) {
      const start = Math.min(view.length, (p.page - 1) * limit)
      return Effect.succeed({ start, end: Math.min(view.length, start + limit), fields: { page: p.page } })
    }
    if (p.before === undefined && p.after === undefined) {
      const start = p.cursor === undefined ? 0 : gap(p.cursor, "after")
      if (start === undefined) return bad("cursor", p.cursor!)
      const end = Math.min(view.length, start + limit)
      return Effect.succeed({ start, end, fields: { cursor: end < view.length ? Paging.encodeCursor(end) : null } })
    }
    const lo = p.after === undefined ? 0 : gap(p.after, "after")
    if (lo === undefined) return bad("after", p.after!)
    const hi = p.before === undefined ? view.length : gap(p.before, "before")
    if (hi === undefined) return bad("before", p.before!)
    // `before` alone reads backwards: the page just before the gap.
    const start = p.after === undefined ? Math.max(0, hi - limit) : Math.min(lo, hi)
    const end = p.after === undefined ? hi : Math.max(start, Math.min(hi, lo + limit))
    return Effect.succeed({
      start,
      end,
      fields: start < end
        ? { before: Paging.encodeCursor(start), after: Paging.encodeCursor(end) }
        : { before: null, after: null }
    })
  })

const positions = (w: Window): Array<number> => Array.from({ length: w.end - w.start }, (_, k) => w.start + k)

/** Decodes params with the shared request schema; failures are -32602 naming the field. */
const decodeParams = <A, I>(schema: Schema.Schema<A, I>, params: unknown): Effect.Effect<A, RpcFailure> => {
  const result = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })(params ?? {})
  if (Either.isRight(result)) return Effect.succeed(result.right)
  const issue = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
  const path = issue === undefined || issue.path.length === 0 ? "params" : issue.path.join(".")
  return Effect.fail(invalid(`${path}: ${issue?.message ?? "invalid"}`))
}

/** The reference implementation's alias `displayOptions` for `options`. */
const withOptionsAlias = (params: unknown): unknown => {
  if (typeof params !== "object" || params === null || !("displayOptions" in params)) return params
  const { displayOptions, ...rest } = params as Record<string, unknown>
  return "options" in rest ? params : { ...rest, options: displayOptions }
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

interface Located {
  readonly authority: string
  readonly index: number
}

/** Ids served so far (and every asset of the sample authority), for proof lookups. */
const registry = (ctx: AreaContext) => ctx.state("das:registry", () => new Map<string, Located>())

const register = (ctx: AreaContext, authority: string, index: number, id: string) => {
  registry(ctx).set(id, { authority, index })
}

const getAssetsByAuthority: RpcMethod = {
  entry: Endpoints.getAssetsByAuthority,
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(DigitalAssetSchema.GetAssetsByAuthorityParams, withOptionsAlias(raw))
      const view = assetView(ctx, params.authorityAddress, params.sortBy)
      const sortKeyName = `assets:${params.authorityAddress}:${params.sortBy?.sortBy ?? "none"}:${
        params.sortBy?.sortDirection ?? "asc"
      }`
      const w = yield* windowOf(ctx, sortKeyName, view, params)
      const authority = params.authorityAddress
      // Each asset is built and serialised once while the cache holds it; pages join the texts.
      const items = positions(w).map((p) => {
        const i = view.indexAt(p)
        return ctx.cache.get(`das:asset:${authority}:${i}`, () => {
          const asset = assetJson(ctx.dataset, authority, i)
          register(ctx, authority, i, asset.id)
          return Wire.stringify(asset)
        })
      })
      return {
        last_indexed_slot: ctx.slot(),
        total: view.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        ...(params.options?.showGrandTotal === true ? { grand_total: view.length } : {}),
        items: Wire.rawArray(items)
      }
    })
}

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
  // One in fifty beyond 2^53, to keep u64 handling honest.
  if (i % 50 === 7) return 2n ** 60n + BigInt(dataset.int(`${label}:big`, 1_000_000_000))
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
  const mint = i % 5 === 0 ? sampleMint(dataset) : dataset.address(`${label}:mint`)
  return tokenAccountJson(dataset.address(label), mint, owner, amountOf(dataset, label, i), dataset, i, label)
}

const holderAccount = (dataset: Dataset.Dataset, mint: string, i: number): TokenAccountJson => {
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

const getTokenAccounts: RpcMethod = {
  entry: Endpoints.getTokenAccounts,
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
      const view = permutedView(indices, (i) => get(i).address, false)
      const w = yield* windowOf(ctx, key, view, params)
      return {
        last_indexed_slot: ctx.slot(),
        total: view.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        token_accounts: positions(w).map((p) => get(view.indexAt(p)))
      }
    })
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

const signatureAt = (dataset: Dataset.Dataset, id: string, k: number) => dataset.signature(`das:sig:${id}:${k}`)

const kindAt = (k: number) => (k === 0 ? "MintToCollectionV1" : k % 5 === 3 ? "Delegate" : "Transfer")

const getSignaturesForAsset: RpcMethod = {
  entry: Endpoints.getSignaturesForAsset,
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetSignatureSchema.GetSignaturesForAssetParams, raw)
      const descending = params.sortDirection === "desc"
      const n = locate(ctx, params.id) === undefined ? 0 : signatureCount(ctx.dataset, params.id)
      const view = naturalView(n, (k) => signatureAt(ctx.dataset, params.id, k), descending)
      const w = yield* windowOf(ctx, `sig:${params.id}:${descending}`, view, params)
      return {
        last_indexed_slot: ctx.slot(),
        total: view.length,
        limit: params.limit ?? MAX_LIMIT,
        ...w.fields,
        items: positions(w).map((p) => {
          const k = view.indexAt(p)
          return [signatureAt(ctx.dataset, params.id, k), kindAt(k)]
        })
      }
    })
}

// -- getAssetProofBatch -----------------------------------------------------------

const locate = (ctx: AreaContext, id: string): Located | undefined => {
  const found = registry(ctx).get(id)
  if (found !== undefined) return found
  // Every asset of the sample and extra authorities is known without having been listed first.
  const sample = ctx.state("das:registry:sample", () => ({ done: false }))
  if (!sample.done) {
    const ds = ctx.dataset
    const authorities = [
      sampleAuthority(ds),
      ...Array.from({ length: ds.size("das.authorities", 8) }, (_, k) => extraAuthority(ds, k))
    ]
    for (const authority of authorities) {
      const n = assetCount(ds, authority)
      for (let i = 0; i < n; i++) register(ctx, authority, i, assetId(ds, authority, i))
    }
    sample.done = true
  }
  return registry(ctx).get(id)
}

const proofOf = (ctx: AreaContext, id: string): ProofJson | null => {
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

const getAssetProofBatch: RpcMethod = {
  entry: Endpoints.getAssetProofBatch,
  handle: (raw, ctx) =>
    Effect.gen(function*() {
      const params = yield* decodeParams(AssetProofSchema.GetAssetProofBatchParams, raw)
      const result: Record<string, ProofJson | null> = {}
      for (const id of params.ids) result[id] = proofOf(ctx, id)
      return result
    })
}

/**
 * The DAS area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "digital-assets",
  rpc: {
    getTokenAccounts,
    getAssetsByAuthority,
    getSignaturesForAsset,
    getAssetProofBatch,
    // Metaplex's DAS client's names for the last two.
    getAssetSignatures: getSignaturesForAsset,
    getAssetProofs: getAssetProofBatch
  },
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
