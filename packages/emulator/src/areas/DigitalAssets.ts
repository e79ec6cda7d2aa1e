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
import {
  assetCount,
  assetFields,
  assetId,
  authorities,
  batchAuthorities,
  bigAuthority,
  isBatch,
  isCompressed,
  sampleAuthority,
  sampleCompressedAsset,
  sampleMint,
  sampleOwner,
  signatureCount,
  sortKey,
  TREE_CAPACITY,
  treeId,
  treeOf,
  writeAsset
} from "../seed/DigitalAssets.js"
import * as Wire from "../Wire.js"
import * as World from "../World.js"
import * as AssetReceipts from "./AssetReceipts.js"
import * as WorldAssets from "./WorldAssets.js"

type Encoded<S extends { readonly Encoded: unknown }> = S["Encoded"]
export type AssetJson = Encoded<typeof DigitalAssetSchema.DigitalAsset>
export type TokenAccountJson = Omit<Encoded<typeof TokenAccountSchema.TokenAccount>, "amount" | "delegated_amount"> & {
  readonly amount: bigint
  readonly delegated_amount: bigint
}
type ProofJson = Encoded<typeof AssetProofSchema.AssetProof>

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

// -- getSignaturesForAsset --------------------------------------------------------

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
