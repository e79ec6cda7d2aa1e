/**
 * The receipt of each seeded compressed NFT: the newest of its signatures (`getSignaturesForAsset`)
 * that gave it to its current owner (its last transfer, else its mint), which is also an entry of
 * that owner's wallet history. One signature, one slot, read by DAS and the Wallet API alike.
 *
 * An owner's assets are one authority's arithmetic progression (`start + k * step`, see
 * `AssetSeed.shapeOf`); its compressed ones (`AssetSeed.isCompressed`, every fourth index) repeat with period four
 * in `k`, so the `j`-th compressed asset of an owner, and the position of a given asset among them,
 * are computed without a scan. A receipt's signature carries that position in its last four bytes
 * (as the Wallet API's activity signatures carry theirs), so a history cursor finds it in O(1), and
 * its asset (the authority's number and the asset's index, the four bytes each before), so a
 * signature alone finds its receipt (`receiptOfSignature`) without a scan of the owners.
 *
 * @since 0.1.0
 */

import { decodeBase58, encodeBase58 } from "@solfx/core/Primitives"
import * as Dataset from "../Dataset.js"
import * as AssetSeed from "../seed/DigitalAssets.js"
import * as World from "../World.js"
import * as DA from "./DigitalAssets.js"

/**
 * An owner's assets: members `start + k * step` (k < count) of one authority's.
 *
 * @since 0.1.0
 * @category models
 */
export interface OwnedRun {
  readonly authority: string
  readonly start: number
  readonly step: number
  readonly count: number
}

/**
 * A compressed NFT's receipt, as its owner's history lists it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Receipt {
  readonly id: string
  readonly signature: string
  readonly slot: number
  /** `TRANSFER`, or `COMPRESSED_NFT_MINT` for an asset never transferred. */
  readonly type: "TRANSFER" | "COMPRESSED_NFT_MINT"
  /** Who paid: the previous owner of a transfer, the authority of a mint. */
  readonly feePayer: string
}

/**
 * Receipts sit 2,250 slots apart from 1,200 below the world's first slot: between the seeded
 * wallets' activities (2,250 apart, within 600 of their place), so a seeded wallet that owns
 * compressed NFTs (the sample wallet) has no two entries in one slot. An owner of very many is
 * spread over at most 180,000,000 slots.
 */
const OFFSET = 1_200
const SPACING = 2_250
const SPAN = 180_000_000

/** The run of asset `index` of an authority: its owner's assets, and its place `k` among them. */
const runOf = (ds: Dataset.Dataset, authority: string, index: number) => {
  const step = AssetSeed.shapeOf(ds, authority).owners
  const start = index % step
  const count = Math.ceil((AssetSeed.assetCount(ds, authority) - start) / step)
  return { run: { authority, start, step, count }, k: Math.floor((index - start) / step) }
}

/** Which of four consecutive members are compressed (the pattern repeats every four). */
const residues = (run: OwnedRun) => [0, 1, 2, 3].filter((r) => AssetSeed.isCompressed(run.start + r * run.step))

/** Compressed members before member `k`. */
const compressedBefore = (run: OwnedRun, k: number) => {
  const rs = residues(run)
  return Math.floor(k / 4) * rs.length + rs.filter((r) => r < k % 4).length
}

/**
 * How many compressed NFTs a run holds: the length of its owner's receipts.
 *
 * @since 0.1.0
 * @category data
 */
export const receiptCount = (run: OwnedRun): number => compressedBefore(run, run.count)

/** The place among an asset's signatures of its receipt: its last `Transfer`, else its mint (0). */
const receiptIndex = (n: number) => n === 1 ? 0 : DA.signatureKind(n - 1) === "Transfer" ? n - 1 : n - 2

const signatureOf = (ds: Dataset.Dataset, id: string, k: number, at: AssetAt, j: number) => {
  const bytes = new Uint8Array(64)
  bytes.set(ds.bytes(`das:sig:${id}:${k}`, 52), 0)
  const view = new DataView(bytes.buffer)
  view.setUint32(52, at.authorityNumber)
  view.setUint32(56, at.index)
  view.setUint32(60, j)
  return encodeBase58(bytes)
}

/** An asset by its authority's number (its place in `AssetSeed.authorities`) and its index. */
interface AssetAt {
  readonly authorityNumber: number
  readonly index: number
}

const numbers = new WeakMap<Dataset.Dataset, ReadonlyMap<string, number>>()

/** The place of an authority in `AssetSeed.authorities` (a few dozen, numbered once per dataset). */
const authorityNumber = (ds: Dataset.Dataset, authority: string): number => {
  let byAuthority = numbers.get(ds)
  if (byAuthority === undefined) {
    numbers.set(ds, byAuthority = new Map(AssetSeed.authorities(ds).map((a, r) => [a, r])))
  }
  return byAuthority.get(authority)!
}

/** Receipt `j` of a run (the run's `j`-th compressed NFT). */
const receiptAt = (ds: Dataset.Dataset, run: OwnedRun, j: number): Receipt & { readonly k: number } => {
  const rs = residues(run)
  const member = Math.floor(j / rs.length) * 4 + rs[j % rs.length]!
  const index = run.start + member * run.step
  const id = AssetSeed.assetId(ds, run.authority, index)
  const k = receiptIndex(AssetSeed.signatureCount(ds, id))
  const total = receiptCount(run)
  const spacing = total * SPACING <= SPAN ? SPACING : Math.max(1, Math.floor(SPAN / total))
  return {
    id,
    k,
    signature: signatureOf(ds, id, k, { authorityNumber: authorityNumber(ds, run.authority), index }, j),
    slot: World.baseSlotOf(ds) - OFFSET - spacing * j,
    type: k === 0 ? "COMPRESSED_NFT_MINT" : "TRANSFER",
    feePayer: k === 0 ? run.authority : ds.address(`das:sig:${id}:${k}:from`)
  }
}

/**
 * The receipts of a run, newest first (its compressed NFTs in creation order).
 *
 * @since 0.1.0
 * @category data
 */
export const receiptsOf = (ds: Dataset.Dataset, run: OwnedRun): Dataset.LazyList<Receipt> =>
  Dataset.lazyList(receiptCount(run), (j) => receiptAt(ds, run, j))

/**
 * The position of a signature among a run's receipts, or undefined for one it does not hold.
 *
 * @since 0.1.0
 * @category data
 */
export const positionOf = (ds: Dataset.Dataset, run: OwnedRun, signature: string): number | undefined => {
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const j = new DataView(bytes.buffer, bytes.byteOffset).getUint32(60)
  return j < receiptCount(run) && receiptAt(ds, run, j).signature === signature ? j : undefined
}

/**
 * The receipt of compressed asset `index` of an authority: where `getSignaturesForAsset` lists it
 * (`k`) and its signature.
 *
 * @since 0.1.0
 * @category data
 */
export const receiptOfAsset = (
  ds: Dataset.Dataset,
  authority: string,
  index: number
): { readonly k: number; readonly signature: string } => {
  const { k, run } = runOf(ds, authority, index)
  return receiptAt(ds, run, compressedBefore(run, k))
}

/**
 * The receipt a signature is, with its owner, or undefined for one that is no receipt: its asset
 * and position are read from its bytes and the receipt there is compared whole.
 *
 * @since 0.1.0
 * @category data
 */
export const receiptOfSignature = (
  ds: Dataset.Dataset,
  signature: string
): { readonly receipt: Receipt; readonly owner: string } | undefined => {
  const bytes = decodeBase58(signature)
  if (bytes === undefined || bytes.length !== 64) return undefined
  const view = new DataView(bytes.buffer, bytes.byteOffset)
  const authority = AssetSeed.authorities(ds)[view.getUint32(52)]
  const index = view.getUint32(56)
  if (authority === undefined || index >= AssetSeed.assetCount(ds, authority) || !AssetSeed.isCompressed(index)) {
    return undefined
  }
  const { k, run } = runOf(ds, authority, index)
  const j = compressedBefore(run, k)
  if (view.getUint32(60) !== j) return undefined
  const receipt = receiptAt(ds, run, j)
  if (receipt.signature !== signature) return undefined
  return { receipt, owner: AssetSeed.ownerAt(ds, authority, run.start) }
}
