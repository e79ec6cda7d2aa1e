/**
 * The DAS view of what the world made since start (`World`): an NFT the world minted is a
 * `V1_NFT` or `ProgrammableNFT` asset owned by the holder of its token account; a fungible
 * mint is a `FungibleToken` asset with `token_info` (supply, decimals, authorities) computed
 * from the same mint record the token accounts and token metadata read, so they agree. A
 * compressed NFT the world minted is a compressed `V1_NFT`: its leaf is in one of the world's
 * Merkle trees, whose proofs verify (keccak) against the tree's root as the seeded ones do.
 *
 * @since 0.1.0
 */

import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Transaction from "@solfx/core/Transaction"
import * as Base58 from "../internal/Base58.js"
import * as World from "../World.js"

/**
 * The `compression` member of an asset that is not compressed.
 *
 * @since 0.1.0
 * @category data
 */
export const NO_COMPRESSION = {
  eligible: false,
  compressed: false,
  data_hash: "",
  creator_hash: "",
  asset_hash: "",
  tree: "",
  seq: 0,
  leaf_id: 0
} as const

/**
 * The DAS asset of a world mint. `holder` (a by-owner listing) adds the owner's balance and token
 * account to a fungible's `token_info` and makes them its owner; without one a fungible is owned by
 * its largest holder, as no single owner exists. `authorities` gives a seeded mint's own (the world's
 * mints have the world's faucet as mint authority and no freeze authority).
 *
 * @since 0.1.0
 * @category data
 */
export const assetJson = (
  world: World.World,
  mint: World.Mint,
  holder?: string,
  authorities?: {
    readonly mint: string | null
    readonly freeze: string | null
    /** A seeded NFT's owner (the world's own are the holders of their tokens). */
    readonly owner?: string | undefined
  }
): unknown => {
  const nft = mint.kind === "nft"
  const holders = world.holdersOf(mint.address)
  const held = holder === undefined ? undefined : holders.find((t) => t.owner === holder)
  const largest = holders.reduce<World.TokenAccount | undefined>(
    (best, t) => (best === undefined || t.amount > best.amount ? t : best),
    undefined
  )
  const owner = nft
    ? world.nftOwner(mint.address) ?? authorities?.owner ?? mint.authority
    : held?.owner ?? largest?.owner ?? mint.authority
  return {
    ...body(mint.interface, mint.address, mint, NO_COMPRESSION, nft, owner),
    token_info: {
      symbol: mint.symbol,
      supply: mint.supply,
      decimals: mint.decimals,
      token_program: Transaction.TOKEN_PROGRAM,
      mint_authority: authorities !== undefined ? authorities.mint : nft ? null : mint.authority,
      freeze_authority: authorities?.freeze ?? null,
      ...(held === undefined ? {} : { balance: held.amount, associated_token_address: held.address })
    }
  }
}

/** What every asset the world made shows alike: content, authority, grouping, royalty, creators, ownership. */
const body = (
  iface: string,
  id: string,
  meta: {
    readonly name: string
    readonly symbol: string
    readonly uri: string
    readonly authority: string
    readonly collection: string | null
  },
  compression: unknown,
  nft: boolean,
  owner: string
) => ({
  interface: iface,
  id,
  content: {
    $schema: "https://schema.metaplex.com/nft1.0.json",
    json_uri: meta.uri,
    files: [],
    metadata: { name: meta.name, symbol: meta.symbol },
    links: {}
  },
  authorities: [{ address: meta.authority, scopes: ["full"] }],
  compression,
  grouping: meta.collection === null ? [] : [{ group_key: "collection", group_value: meta.collection }],
  royalty: {
    royalty_model: "creators",
    target: null,
    percent: 0,
    basis_points: 0,
    primary_sale_happened: false,
    locked: false
  },
  creators: nft ? [{ address: meta.authority, share: 100, verified: true }] : [],
  ownership: {
    frozen: false,
    delegated: false,
    delegate: null,
    ownership_model: nft ? "single" : "token",
    owner
  },
  ...(nft ? { supply: { print_max_supply: 0, print_current_supply: 0, edition_nonce: null } } : {}),
  mutable: true,
  burnt: false
})

/**
 * The DAS asset of a compressed NFT the world minted.
 *
 * @since 0.1.0
 * @category data
 */
export const compressedAssetJson = (c: World.CompressedNft): unknown =>
  body(
    "V1_NFT",
    c.id,
    c,
    {
      eligible: false,
      compressed: true,
      data_hash: Base58.encode(c.dataHash),
      creator_hash: Base58.encode(c.creatorHash),
      asset_hash: Base58.encode(c.leaf),
      tree: c.tree,
      seq: c.seq,
      leaf_id: c.leafIndex
    },
    true,
    c.owner
  )

/** Each world tree as last built, and how many transactions the world had then (a later one may change a leaf). */
const trees = new WeakMap<World.World, Map<string, { readonly at: number; readonly tree: MerkleProof.MerkleTree }>>()

/**
 * The proof of a compressed NFT the world minted (getAssetProof's answer), or undefined for
 * another id. Its tree is built from the world's leaves, again after the world changed.
 *
 * @since 0.1.0
 * @category data
 */
export const compressedProof = (world: World.World, id: string, slot: number) => {
  const c = world.compressedNft(id)
  if (c === undefined) return undefined
  let built = trees.get(world)
  if (built === undefined) trees.set(world, built = new Map())
  const at = world.version()
  let cached = built.get(c.tree)
  if (cached === undefined || cached.at !== at) {
    built.set(c.tree, cached = { at, tree: MerkleProof.buildTree(world.leavesOf(c.tree), World.TREE_DEPTH) })
  }
  const tree = cached.tree
  return {
    last_indexed_slot: slot,
    ...MerkleProof.proofRecord(tree, c.leafIndex),
    tree_id: c.tree,
    burnt: false
  }
}

/**
 * The world's NFTs and compressed NFTs in a collection, oldest first, each as its id and its DAS JSON.
 *
 * @since 0.1.0
 * @category data
 */
export const collectionAssets = (
  world: World.World,
  collection: string
): ReadonlyArray<{ readonly id: string; readonly json: () => unknown }> => [
  ...world.mints().filter((m) => m.kind === "nft" && m.collection === collection).map((m) => ({
    id: m.address,
    json: () => assetJson(world, m)
  })),
  ...world.compressedNfts().filter((c) => c.collection === collection).map((c) => ({
    id: c.id,
    json: () => compressedAssetJson(c)
  }))
]

/**
 * The world's assets an owner holds, oldest first: its NFTs, with `showFungible` its fungible
 * tokens of nonzero balance, then its compressed NFTs. Each as its id and its DAS JSON.
 *
 * @since 0.1.0
 * @category data
 */
export const ownedAssets = (
  world: World.World,
  owner: string,
  showFungible: boolean
): ReadonlyArray<{ readonly id: string; readonly json: () => unknown }> => [
  ...ownedMints(world, owner, showFungible).map((m) => ({ id: m.address, json: () => assetJson(world, m, owner) })),
  ...world.compressedNftsOf(owner).map((c) => ({ id: c.id, json: () => compressedAssetJson(c) }))
]

/**
 * The world's assets an owner holds: its NFTs, and with `showFungible` its fungible tokens of
 * nonzero balance, oldest first.
 *
 * @since 0.1.0
 * @category data
 */
export const ownedMints = (world: World.World, owner: string, showFungible: boolean): ReadonlyArray<World.Mint> =>
  world.tokenAccountsOf(owner).flatMap((t) => {
    const m = world.mint(t.mint)
    if (m === undefined || t.amount === 0n) return []
    return m.kind === "nft" ? (t.amount === 1n ? [m] : []) : showFungible ? [m] : []
  })

/**
 * A world token account as `getTokenAccounts` lists it.
 *
 * @since 0.1.0
 * @category data
 */
export const tokenAccountJson = (t: World.TokenAccount) => ({
  address: t.address,
  mint: t.mint,
  owner: t.owner,
  amount: t.amount,
  delegated_amount: 0n,
  frozen: false,
  burnt: false,
  delegate: null,
  close_authority: null
})
