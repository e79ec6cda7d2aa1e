/**
 * The accounts of the one world, as the chain holds them: lamports, owner program, data bytes
 * (SPL Token and Token-2022 mints and token accounts in their real layouts, system accounts
 * empty), executable and rent epoch. Derived from what every area reads today, not stored twice:
 *
 * - an account the bank wrote (`write`: what an executed transaction left) is that account;
 * - a mint the world API made, a token account it opened (amounts as they stand now);
 * - a seeded mint (token metadata's facts: decimals, supply the sum of its accounts,
 *   authorities; an uncompressed NFT of the asset index: decimals 0, supply 1);
 * - a seeded token account (DAS owners' and mint holders', the seeded wallets' tokens, the NFT
 *   accounts of the asset index), the same mint, owner and amount DAS and the Wallet API show;
 * - any other address with lamports (a seeded wallet, an address the world funded) is a system
 *   account with no data; an address with nothing is no account (`undefined`).
 *
 * Mints and token accounts hold their rent-exempt minimum (as the runtime computes it), plus
 * whatever the world sent them. Addresses are found lazily: a seeded token account by an index
 * built on the first lookup that needs it, the large authorities' NFT accounts only when the
 * small lists do not hold the address (the 100,000-asset owners are never listed whole).
 *
 * @example
 * const account = emulator.accounts.get(address) // { lamports, owner, data, executable, rentEpoch } | undefined
 * emulator.accounts.write(address, account) // the bank's post-state of an account it executed
 * @since 0.1.0
 */

import * as AQ from "./areas/AssetQueries.js"
import * as DasTokenAccounts from "./areas/digitalAssets/TokenAccounts.js"
import * as TokenMetadata from "./areas/TokenMetadata.js"
import type * as Dataset from "./Dataset.js"
import * as Layout from "./internal/AccountLayout.js"
import * as AssetSeed from "./seed/DigitalAssets.js"
import * as WalletActivity from "./seed/WalletActivity.js"
import * as Wallets from "./seed/Wallets.js"
import type * as World from "./World.js"

/**
 * An account as the runtime holds it.
 *
 * @since 0.1.0
 * @category models
 */
export interface Account {
  readonly lamports: bigint
  /** The owner program. */
  readonly owner: string
  readonly data: Uint8Array
  readonly executable: boolean
  /** u64: `2^64 - 1` for a rent-exempt account, as today's runtime reports every one. */
  readonly rentEpoch: bigint
}

/**
 * A scan refused because it would visit more accounts than the bound (`Accounts.SCAN_BOUND`).
 *
 * @since 0.1.0
 * @category models
 */
export interface TooMany {
  readonly _tag: "TooMany"
  /** The accounts the scan would visit (at least). */
  readonly count: number
}

/**
 * What `byOwnerProgram` accepts to narrow a token program's scan through an index: the bytes a
 * `memcmp` filter requires at an offset (32 bytes at 0: a mint; at 32: an owner).
 *
 * @since 0.1.0
 * @category models
 */
export interface ScanHint {
  readonly memcmp: ReadonlyArray<{ readonly offset: number; readonly bytes: Uint8Array }>
}

/**
 * The accounts of one emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface Accounts {
  /**
   * The account at an address now, or undefined when there is none. `fresh`: the caller knows the
   * address is none of the seed's token accounts or NFT mints (a verified signer: nobody holds a
   * seeded address's key; an associated token account: a PDA, never a seeded address), so the
   * index of seeded token accounts (seconds to build on first use) is not consulted.
   */
  readonly get: (address: string, options?: { readonly fresh?: boolean | undefined }) => Account | undefined
  /**
   * The bank's write: an account as an executed transaction left it (`undefined`: closed).
   * Every later read sees it first.
   */
  readonly write: (address: string, account: Account | undefined) => void
  /** Whether the bank wrote this address. */
  readonly written: (address: string) => boolean
  /** The accounts written so far (`undefined`: closed), in write order: what `restore` puts back. */
  readonly save: () => ReadonlyArray<readonly [string, Account | undefined]>
  /** Forgets every write, then writes the saved ones again (a snapshot's restore). */
  readonly restore: (saved: ReadonlyArray<readonly [string, Account | undefined]>) => void
  /**
   * Drops the bank's write of an address (the world API changed it since): the account is
   * derived again from the world.
   */
  readonly forget: (address: string) => void
  /** The token accounts a wallet owns now (any token program), oldest list first; or too many to list. */
  readonly tokenAccountsByOwner: (owner: string) => ReadonlyArray<string> | TooMany
  /** The token accounts that delegate to an address now. */
  readonly tokenAccountsByDelegate: (delegate: string) => ReadonlyArray<string> | TooMany
  /** The token accounts of a mint now (zero balances included). */
  readonly tokenAccountsOfMint: (mint: string) => ReadonlyArray<string> | TooMany
  /**
   * The addresses of the accounts an owner program holds, for getProgramAccounts: every one, or
   * `TooMany` when they are more than `SCAN_BOUND` and no hint narrows them.
   */
  readonly byOwnerProgram: (program: string, hint?: ScanHint) => ReadonlyArray<string> | TooMany
}

/**
 * The most accounts one scan (getProgramAccounts, getTokenAccountsByOwner) visits; a program
 * holding more is refused unless a filter narrows it through an index, as providers refuse
 * unfiltered scans of large programs.
 *
 * @since 0.1.0
 * @category constants
 */
export const SCAN_BOUND = 10_000

/**
 * `u64::MAX`: the rent epoch of every rent-exempt account.
 *
 * @since 0.1.0
 * @category constants
 */
export const RENT_EPOCH_EXEMPT = 2n ** 64n - 1n

/**
 * What the accounts are derived from.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly dataset: Dataset.Dataset
  readonly world: World.World
}

/** A list of seeded token accounts, as a length and a function. */
interface SeededList {
  readonly length: number
  readonly at: (i: number) => {
    readonly address: string
    readonly mint: string
    readonly owner: string
    readonly amount: bigint
    readonly delegated_amount: bigint
    readonly frozen: boolean
    readonly delegate?: string | null | undefined
    readonly close_authority?: string | null | undefined
  }
}

const tooMany = (count: number): TooMany => ({ _tag: "TooMany", count })

/**
 * The accounts of an emulator's world.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Accounts => {
  const { dataset: ds, world } = options

  // -- the bank's overlay -----------------------------------------------------------------

  const overlay = new Map<string, Account | null>()
  /** Overlay addresses by owner program, and token accounts by token owner, mint and delegate. */
  const overlayByProgram = new Map<string, Set<string>>()
  const overlayByTokenOwner = new Map<string, Set<string>>()
  const overlayByMint = new Map<string, Set<string>>()
  const overlayByDelegate = new Map<string, Set<string>>()
  const add = (map: Map<string, Set<string>>, key: string, address: string) => {
    const set = map.get(key)
    if (set === undefined) map.set(key, new Set([address]))
    else set.add(address)
  }
  // Indexes only grow: a read re-checks the account, so a stale entry is filtered out then.
  const write: Accounts["write"] = (address, account) => {
    overlay.set(address, account ?? null)
    if (account === undefined) return
    add(overlayByProgram, account.owner, address)
    const token = Layout.tokenProgramOf(account.owner) === undefined
      ? undefined
      : Layout.decodeTokenAccount(account.data, account.owner)
    if (token !== undefined) {
      add(overlayByTokenOwner, token.owner, address)
      add(overlayByMint, token.mint, address)
      if (token.delegate !== null) add(overlayByDelegate, token.delegate, address)
    }
  }
  const overlaid = (map: Map<string, Set<string>>, key: string): ReadonlyArray<string> => [...(map.get(key) ?? [])]

  // -- seeded mints -----------------------------------------------------------------------

  /** The token program of a seeded mint: a seeded wallet's says so (the Wallet API's `tokenProgram`), else SPL Token. */
  const programOfMint = (mint: string): string => {
    const made = world.mint(mint)
    if (made !== undefined) return Layout.TOKEN_PROGRAM
    return Wallets.walletMintProgram(ds, mint) === "token-2022" ? Layout.TOKEN_2022_PROGRAM : Layout.TOKEN_PROGRAM
  }

  const mintFields = (address: string): Layout.Mint | undefined => {
    const made = world.mint(address)
    if (made !== undefined) {
      return {
        mintAuthority: made.kind === "nft" ? null : made.authority,
        supply: made.supply,
        decimals: made.decimals,
        isInitialized: true,
        freezeAuthority: null
      }
    }
    if (TokenMetadata.isMintAccount(ds, address)) {
      const facts = TokenMetadata.seededMint(ds, address, world.slot())
      return {
        mintAuthority: facts.mintAuthority,
        supply: facts.supply,
        decimals: facts.decimals,
        isInitialized: true,
        freezeAuthority: facts.freezeAuthority
      }
    }
    const nft = nftMints.get(address)
    if (nft !== undefined) {
      // As token metadata shows an NFT of the asset index: its authority mints and freezes.
      return { mintAuthority: nft[0], supply: 1n, decimals: 0, isInitialized: true, freezeAuthority: nft[0] }
    }
    return undefined
  }

  // -- seeded token accounts --------------------------------------------------------------

  const extraOwners = () => Array.from({ length: ds.size("das.owners", 8) }, (_, k) => ds.address(`das:owner:${k}`))
  const extraMints = () => Array.from({ length: ds.size("das.mints", 8) }, (_, k) => ds.address(`das:mint:${k}`))
  const holders = (mint: string): SeededList => ({
    length: DasTokenAccounts.mintHolderCount(ds, mint),
    at: (i) => DasTokenAccounts.holderAccount(ds, mint, i)
  })
  /** The NFT accounts of an authority's assets; their mints (the asset ids) are indexed beside them. */
  const nftMints = new Map<string, readonly [string, number]>()
  const indexNfts = (authority: string) => {
    const n = AssetSeed.assetCount(ds, authority)
    const indexes: Array<number> = []
    for (let i = 0; i < n; i++) {
      if (!AQ.hasTokenAccount(i)) continue
      const id = AssetSeed.assetId(ds, authority, i)
      nftMints.set(id, [authority, i])
      bySeededAddress.set(ds.address(`das:nft-ta:${id}`), lists.length * 2 ** 24 + indexes.length)
      indexes.push(i)
    }
    lists.push({ length: indexes.length, at: (j) => DasTokenAccounts.nftAccount(ds, authority, indexes[j]!) })
  }
  const isLarge = (authority: string) =>
    authority === AssetSeed.bigAuthority(ds) ||
    AssetSeed.assetCount(ds, authority) >= ds.size("das.batchAuthorityAssets", 5_000)

  /** The seeded lists an address index covers: the small ones first, the large authorities' NFT accounts on demand. */
  const lists: Array<SeededList> = []
  const bySeededAddress = new Map<string, number>()
  const seededByOwner = new Map<string, Array<string>>()
  const seededByDelegate = new Map<string, Array<string>>()
  let indexed: "none" | "small" | "all" = "none"
  const indexList = (list: SeededList, byOwner: boolean) => {
    const k = lists.push(list) - 1
    for (let i = 0; i < list.length; i++) {
      const t = list.at(i)
      // Source list and position in one number (positions stay below 2^24).
      bySeededAddress.set(t.address, k * 2 ** 24 + i)
      if (byOwner) (seededByOwner.get(t.owner) ?? seededByOwner.set(t.owner, []).get(t.owner)!).push(t.address)
      if (t.delegate != null) {
        ;(seededByDelegate.get(t.delegate) ?? seededByDelegate.set(t.delegate, []).get(t.delegate)!).push(t.address)
      }
    }
  }
  const indexSmall = () => {
    if (indexed !== "none") return
    for (const owner of [AssetSeed.sampleOwner(ds), ...extraOwners()]) {
      indexList(DasTokenAccounts.ownerAccounts(ds, owner), false)
    }
    // Holders' owners are listed by owner from here (no other list holds them).
    for (const mint of [AssetSeed.sampleMint(ds), ...extraMints()]) indexList(holders(mint), true)
    for (let i = 0; i < Wallets.walletCount(ds); i++) {
      indexList(Wallets.walletTokenAccounts(ds, Wallets.walletAt(ds, i), true), false)
    }
    for (const authority of AssetSeed.authorities(ds)) if (!isLarge(authority)) indexNfts(authority)
    indexed = "small"
  }
  const indexLarge = () => {
    if (indexed === "all") return
    indexSmall()
    for (const authority of AssetSeed.authorities(ds)) if (isLarge(authority)) indexNfts(authority)
    indexed = "all"
  }
  /** Whether the index knows an address (as a token account or an NFT mint), the large part built only on a miss. */
  const indexedHas = (address: string, large: boolean) => {
    indexSmall()
    if (bySeededAddress.has(address) || nftMints.has(address) || !large || indexed === "all") return
    indexLarge()
  }
  const seededAccount = (address: string) => {
    const at = bySeededAddress.get(address)
    return at === undefined ? undefined : lists[Math.floor(at / 2 ** 24)]!.at(at % 2 ** 24)
  }

  // -- one account --------------------------------------------------------------------------

  const tokenAccount = (
    t: { readonly mint: string; readonly owner: string; readonly amount: bigint },
    extra?: ReturnType<SeededList["at"]>
  ): Account => {
    const owner = programOfMint(t.mint)
    const data = Layout.encodeTokenAccount({
      mint: t.mint,
      owner: t.owner,
      amount: t.amount,
      delegate: extra?.delegate ?? null,
      state: extra?.frozen === true ? "frozen" : "initialized",
      isNative: null,
      delegatedAmount: extra?.delegated_amount ?? 0n,
      closeAuthority: extra?.close_authority ?? null
    })
    return { lamports: Layout.rentExempt(data.length), owner, data, executable: false, rentEpoch: RENT_EPOCH_EXEMPT }
  }

  const mintAccount = (address: string, mint: Layout.Mint, sent: bigint): Account => {
    const data = Layout.encodeMint(mint)
    return {
      lamports: Layout.rentExempt(data.length) + sent,
      owner: programOfMint(address),
      data,
      executable: false,
      rentEpoch: RENT_EPOCH_EXEMPT
    }
  }
  const systemAccount = (lamports: bigint): Account => ({
    lamports,
    owner: Layout.SYSTEM_PROGRAM,
    data: EMPTY,
    executable: false,
    rentEpoch: RENT_EPOCH_EXEMPT
  })

  // Cheapest first: wallets and what the world made are the common reads; the index of seeded
  // token accounts is built only for an address they do not explain.
  const derived = (address: string, fresh: boolean): Account | undefined => {
    const sent = world.lamports(address)
    const made = world.tokenAccount(address)
    if (made !== undefined) return plus(tokenAccount(made), sent)
    if (WalletActivity.isSeededWallet(ds, address)) return sent > 0n ? systemAccount(sent) : undefined
    const mint = world.mint(address) !== undefined || TokenMetadata.isMintAccount(ds, address)
      ? mintFields(address)
      : undefined
    if (mint !== undefined) return mintAccount(address, mint, sent)
    if (fresh) return sent > 0n ? systemAccount(sent) : undefined
    // A funded address is a system account unless the seed made it a token account or NFT mint:
    // the small index tells (the large one holds NFT accounts, which nothing funds).
    indexedHas(address, sent === 0n)
    const seeded = seededAccount(address)
    if (seeded !== undefined) return plus(tokenAccount(seeded, seeded), sent)
    const nft = mintFields(address)
    if (nft !== undefined) return mintAccount(address, nft, sent)
    return sent > 0n ? systemAccount(sent) : undefined
  }

  const get: Accounts["get"] = (address, options) => {
    const written = overlay.get(address)
    if (written !== undefined) return written ?? undefined
    return derived(address, options?.fresh === true)
  }

  // -- enumerations -----------------------------------------------------------------------

  /** Addresses of the listed sources, then the overlay's, once each, each still matching now. */
  const union = (
    sources: ReadonlyArray<ReadonlyArray<string>>,
    matches: (account: Account, token: Layout.TokenAccount | undefined) => boolean
  ): ReadonlyArray<string> | TooMany => {
    const seen = new Set<string>()
    for (const source of sources) {
      for (const a of source) {
        seen.add(a)
        if (seen.size > SCAN_BOUND) return tooMany(seen.size)
      }
    }
    const out: Array<string> = []
    for (const a of seen) {
      const account = get(a)
      if (account === undefined) continue
      const token = Layout.tokenProgramOf(account.owner) === undefined
        ? undefined
        : Layout.decodeTokenAccount(account.data, account.owner)
      if (matches(account, token)) out.push(a)
    }
    return out
  }
  const addressesOf = (list: SeededList, limit = SCAN_BOUND + 1): ReadonlyArray<string> =>
    Array.from({ length: Math.min(list.length, limit) }, (_, i) => list.at(i).address)

  const tokenAccountsByOwner: Accounts["tokenAccountsByOwner"] = (owner) => {
    indexSmall()
    const nfts = AQ.ownerNftAccounts(ds, owner)
    if (nfts.length > SCAN_BOUND) return tooMany(nfts.length)
    return union([
      addressesOf(DasTokenAccounts.ownerAccounts(ds, owner)),
      addressesOf(Wallets.walletTokenAccounts(ds, owner, true)),
      addressesOf(nfts),
      seededByOwner.get(owner) ?? [],
      world.tokenAccountsOf(owner).map((t) => t.address),
      overlaid(overlayByTokenOwner, owner)
    ], (_, t) => t?.owner === owner)
  }

  const tokenAccountsByDelegate: Accounts["tokenAccountsByDelegate"] = (delegate) => {
    indexSmall()
    return union(
      [seededByDelegate.get(delegate) ?? [], overlaid(overlayByDelegate, delegate)],
      (_, t) => t?.delegate === delegate
    )
  }

  const tokenAccountsOfMint: Accounts["tokenAccountsOfMint"] = (mint) => {
    if (world.mint(mint) === undefined && !TokenMetadata.isAccountMint(ds, mint)) indexedHas(mint, true)
    const nft = nftMints.get(mint)
    return union([
      addressesOf(holders(mint)),
      TokenMetadata.seededAccountsOfMint(ds, mint).map((t) => t.address),
      nft !== undefined ? [DasTokenAccounts.nftAccount(ds, nft[0], nft[1]).address] : [],
      world.holdersOf(mint).map((t) => t.address),
      overlaid(overlayByMint, mint)
    ], (_, t) => t?.mint === mint)
  }

  const byOwnerProgram: Accounts["byOwnerProgram"] = (program, hint) => {
    const key = (offset: number) => {
      const m = hint?.memcmp.find((f) => f.offset === offset && f.bytes.length === 32)
      return m === undefined ? undefined : Layout.encodeKey(m.bytes)
    }
    if (Layout.tokenProgramOf(program) !== undefined) {
      // Token accounts narrowed by an index: the owner at offset 32, the mint at 0.
      const owner = key(32)
      const mint = key(0)
      const found = owner !== undefined
        ? tokenAccountsByOwner(owner)
        : mint !== undefined
        ? tokenAccountsOfMint(mint)
        : undefined
      if (found === undefined) {
        // Every seeded token account and mint: far more than the bound whatever the sizes.
        indexSmall()
        const count = bySeededAddress.size + overlaid(overlayByProgram, program).length
        if (count > SCAN_BOUND) return tooMany(count)
        return union([[...bySeededAddress.keys()], overlaid(overlayByProgram, program)], (a) => a.owner === program)
      }
      return "_tag" in found ? found : found.filter((a) => get(a)?.owner === program)
    }
    if (program === Layout.SYSTEM_PROGRAM) {
      const wallets = Array.from({ length: Wallets.walletCount(ds) }, (_, i) => Wallets.walletAt(ds, i))
      const touched = world.transactions().flatMap((tx) => tx.accounts.map((a) => a.address))
      return union([wallets, touched, overlaid(overlayByProgram, program)], (a) => a.owner === program)
    }
    return union([overlaid(overlayByProgram, program)], (a) => a.owner === program)
  }

  return {
    get,
    write,
    written: (address) => overlay.has(address),
    save: () => [...overlay].map(([address, account]) => [address, account ?? undefined] as const),
    restore: (saved) => {
      for (const map of [overlay, overlayByProgram, overlayByTokenOwner, overlayByMint, overlayByDelegate]) map.clear()
      for (const [address, account] of saved) write(address, account)
    },
    forget: (address) => void overlay.delete(address),
    tokenAccountsByOwner,
    tokenAccountsByDelegate,
    tokenAccountsOfMint,
    byOwnerProgram
  }
}

const EMPTY = new Uint8Array(0)

const plus = (account: Account, lamports: bigint): Account =>
  lamports === 0n ? account : { ...account, lamports: account.lamports + lamports }
