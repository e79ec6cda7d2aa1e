/**
 * The DAS view of what the world made since start (`World`): an NFT the world minted is a
 * `V1_NFT` or `ProgrammableNFT` asset owned by the holder of its token account; a fungible
 * mint is a `FungibleToken` asset with `token_info` (supply, decimals, authorities) computed
 * from the same mint record the token accounts and token metadata read, so they agree.
 *
 * @since 0.1.0
 */
import * as Transaction from "@solfx/core/Transaction"
import type * as World from "../World.js"

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
  authorities?: { readonly mint: string | null; readonly freeze: string | null }
): unknown => {
  const nft = mint.kind === "nft"
  const holders = world.holdersOf(mint.address)
  const held = holder === undefined ? undefined : holders.find((t) => t.owner === holder)
  const largest = holders.reduce<World.TokenAccount | undefined>(
    (best, t) => (best === undefined || t.amount > best.amount ? t : best),
    undefined
  )
  const owner = nft ? world.nftOwner(mint.address) ?? mint.authority : held?.owner ?? largest?.owner ?? mint.authority
  return {
    interface: mint.interface,
    id: mint.address,
    content: {
      $schema: "https://schema.metaplex.com/nft1.0.json",
      json_uri: mint.uri,
      files: [],
      metadata: { name: mint.name, symbol: mint.symbol },
      links: {}
    },
    authorities: [{ address: mint.authority, scopes: ["full"] }],
    compression: NO_COMPRESSION,
    grouping: mint.collection === null ? [] : [{ group_key: "collection", group_value: mint.collection }],
    royalty: {
      royalty_model: "creators",
      target: null,
      percent: 0,
      basis_points: 0,
      primary_sale_happened: false,
      locked: false
    },
    creators: nft ? [{ address: mint.authority, share: 100, verified: true }] : [],
    ownership: {
      frozen: false,
      delegated: false,
      delegate: null,
      ownership_model: nft ? "single" : "token",
      owner
    },
    ...(nft ? { supply: { print_max_supply: 0, print_current_supply: 0, edition_nonce: null } } : {}),
    mutable: true,
    burnt: false,
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
