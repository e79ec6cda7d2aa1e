/**
 * The world: the emulator's one ledger. What the seed computes (wallets, assets,
 * token accounts, …, each area's lazy lists) is the world at start; what happens
 * after start (an accepted bundle, a call of the world API) is a small overlay of
 * changes kept here: lamports of the accounts touched, mints made, token accounts
 * and their amounts, compressed NFTs (leaves of the world's Merkle trees) and compressed
 * token accounts, and the transactions that made them. Areas read it to answer
 * (a view consults the overlay, then the seed), so every area sees one change.
 *
 * Every change is a transaction: it lands in the next slot (the world's slot moves
 * on by one), is applied atomically (every transfer of a bundle or none: an
 * overdraw fails it whole), recorded, and published on `Events.worldLanded`.
 *
 * Derived, not stored twice: a mint's supply is the sum of its accounts' amounts
 * (kept as one running total changed with them), an NFT's owner is the owner of its
 * token account of amount 1, a wallet's history is the transactions touching it.
 *
 * Not modelled: the seeded token accounts and assets do not move (a bundle spending
 * from one fails, as from an account that does not exist); transfers made through
 * lookup tables or CPI are not seen.
 *
 * @example
 * const world = World.of(ctx.state)
 * world.lamports(address) // seeded lamports plus what landed since
 * world.tokenAccountsOf(owner) // token accounts the world made for an owner
 * @since 0.1.0
 */

import * as MerkleProof from "@solfx/core/MerkleProof"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as Either from "effect/Either"
import type * as Accounts from "./Accounts.js"
import type { AreaContext } from "./Area.js"
import * as Bank from "./Bank.js"
import { type Dataset, fieldElement } from "./Dataset.js"
import * as Events from "./Events.js"
import * as AccountLayout from "./internal/AccountLayout.js"
import * as Base58 from "./internal/Base58.js"
import * as Bubblegum from "./internal/Bubblegum.js"
import * as Landing from "./internal/Landing.js"
import * as TransactionError from "./internal/TransactionError.js"

/** The System program, owner of wallets. */
const SYSTEM_PROGRAM = Transaction.SYSTEM_PROGRAM as string
const TOKEN_PROGRAM = Transaction.TOKEN_PROGRAM as string

/**
 * The Bubblegum program, which mints compressed NFTs into Merkle trees.
 *
 * @since 0.1.0
 * @category constants
 */
export const BUBBLEGUM_PROGRAM = "BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY"

/**
 * Light's compressed token program: the owner of every compressed token account.
 *
 * @since 0.1.0
 * @category constants
 */
export const COMPRESSED_TOKEN_PROGRAM = "cTokenmWW8bLPjZEBAUgYy3zKxQZW6VKi7bqNFEVv3m"

/**
 * Depth of the world's Merkle trees of compressed NFTs (16,384 leaves each), as the seeded trees.
 *
 * @since 0.1.0
 * @category constants
 */
export const TREE_DEPTH = 14

/**
 * Lamports taken from the fee payer of every world transaction, per signature (the network's base fee).
 *
 * @since 0.1.0
 * @category constants
 */
export const FEE_PER_SIGNATURE = 5_000n

/**
 * Block time (seconds) of the world's first slot.
 *
 * @since 0.1.0
 * @category constants
 */
export const BASE_BLOCK_TIME = 1_760_000_000

/** Milliseconds a slot lasted before the world's first slot: the seeded past runs at mainnet's pace. */
const PAST_SLOT_MS = 400

/**
 * The one clock of the emulator: the block time (seconds) of a slot. Slots before the world's first
 * slot (`baseSlot`, at `BASE_BLOCK_TIME`) are the seeded past, 400 ms each; later ones pass at the
 * instance's `slotMs`. Every area's time comes from here (`World.blockTimeOf`, `pastBlockTime`),
 * so one slot has one time everywhere and a later slot never an earlier time.
 *
 * @since 0.1.0
 * @category data
 */
export const blockTimeAt = (baseSlot: number, slotMs: number, slot: number): number =>
  BASE_BLOCK_TIME + Math.floor(((slot - baseSlot) * (slot <= baseSlot ? PAST_SLOT_MS : slotMs)) / 1000)

/**
 * The block time of a slot of the seeded past (at or before the world's first slot), for data the
 * seed computes without an instance: `blockTimeAt` of the dataset's base slot.
 *
 * @since 0.1.0
 * @category data
 */
export const pastBlockTime = (dataset: Dataset, slot: number): number =>
  blockTimeAt(baseSlotOf(dataset), PAST_SLOT_MS, slot)

/**
 * The slot the world starts at, from the seed.
 *
 * @since 0.1.0
 * @category data
 */
export const baseSlotOf = (dataset: Dataset): number => 300_000_000 + dataset.int("slot:base", 50_000_000)

/**
 * The blockhash of the world's first slot: valid for the first 150 blocks of every emulator of
 * this dataset, so a test can sign before its emulator starts (`@solfx/testing/Kit`'s default).
 *
 * @since 0.1.0
 * @category data
 */
export const firstBlockhash = (dataset: Dataset): string => Bank.blockhashAt(dataset, baseSlotOf(dataset))

/**
 * A mint the world made: fungible (any decimals) or an NFT (decimals 0, supply 1).
 *
 * @since 0.1.0
 * @category models
 */
export interface Mint {
  readonly address: string
  readonly kind: "fungible" | "nft"
  readonly decimals: number
  /** Raw supply: the sum of its token accounts' amounts. */
  supply: bigint
  /** Mint and update authority. */
  readonly authority: string
  readonly name: string
  readonly symbol: string
  readonly uri: string
  /** The collection an NFT belongs to, if any. */
  readonly collection: string | null
  /** DAS interface: `FungibleToken`, `V1_NFT` or `ProgrammableNFT`. */
  readonly interface: "FungibleToken" | "V1_NFT" | "ProgrammableNFT"
  readonly createdSlot: number
}

/**
 * A token account the world made.
 *
 * @since 0.1.0
 * @category models
 */
export interface TokenAccount {
  readonly address: string
  readonly mint: string
  readonly owner: string
  amount: bigint
}

/**
 * A compressed NFT the world minted: leaf `leafIndex` of Merkle tree `tree`, its id the Bubblegum
 * asset address of (tree, leaf index), its leaf the Bubblegum V1 leaf hash.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompressedNft {
  readonly id: string
  readonly tree: string
  readonly leafIndex: number
  readonly owner: string
  readonly dataHash: Uint8Array
  readonly creatorHash: Uint8Array
  /** The Bubblegum V1 leaf hash (no delegate: the owner delegates to itself). */
  readonly leaf: Uint8Array
  /** Tree and update authority. */
  readonly authority: string
  readonly name: string
  readonly symbol: string
  readonly uri: string
  readonly collection: string | null
  /** Leaf changes so far (the mint is the first). */
  readonly seq: number
  readonly createdSlot: number
}

/**
 * A compressed token account (Light's Photon) the world opened by compressing tokens.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompressedTokenAccount {
  /** The account's hash (a field element, as Photon's are). */
  readonly hash: string
  /** The holder (the token data's owner; the account's owner is the compressed token program). */
  readonly owner: string
  readonly mint: string
  readonly amount: bigint
  /** Leaf index in the state tree: beyond the seeded ones' range, so none collides. */
  readonly leafIndex: number
  /** The transaction that opened it. */
  readonly signature: string
  readonly slotCreated: number
}

/**
 * Bad input to the world API: the field and the rule it broke. Nothing changed.
 *
 * @since 0.1.0
 * @category errors
 */
export class WorldInputError extends Error {
  readonly _tag = "WorldInputError"
  constructor(readonly field: string, readonly rule: string) {
    super(`${field}: ${rule}`)
    this.name = "WorldInputError"
  }
}

/**
 * What a world API call landed.
 *
 * @since 0.1.0
 * @category models
 */
export interface Receipt {
  readonly signature: string
  readonly slot: number
  /** Set by mints: the mint and the owner's token account. */
  readonly mint?: string | undefined
  readonly tokenAccount?: string | undefined
}

/**
 * What `compress` landed: the compressed NFT's id, tree and leaf, or the compressed token account's hash.
 *
 * @since 0.1.0
 * @category models
 */
export interface CompressReceipt extends Receipt {
  readonly assetId?: string | undefined
  readonly tree?: string | undefined
  readonly leafIndex?: number | undefined
  readonly hash?: string | undefined
}

/**
 * Why a bundle did not land: the transaction and instruction that would have overdrawn (or
 * used a token account that does not exist), as the runtime's error.
 *
 * @since 0.1.0
 * @category models
 */
export interface BundleFailure {
  readonly transaction: number
  readonly err: unknown
  readonly message: string
}

/**
 * The world of one emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface World {
  readonly baseSlot: number
  /** The current slot: the base, plus time passed, plus slots landed or advanced. */
  readonly slot: () => number
  /** Seconds: the one clock (`blockTimeAt`), `slotMs` a slot since start, 400 ms before. */
  readonly blockTimeOf: (slot: number) => number
  /** Lamports of an account: seeded, or as the last transaction left them. */
  readonly lamports: (address: string) => bigint
  /** Whether a transaction of the world changed this account's lamports. */
  readonly touched: (address: string) => boolean
  readonly mint: (address: string) => Mint | undefined
  readonly mints: () => ReadonlyArray<Mint>
  readonly tokenAccount: (address: string) => TokenAccount | undefined
  /** Token accounts of an owner, oldest first. */
  readonly tokenAccountsOf: (owner: string) => ReadonlyArray<TokenAccount>
  /** Token accounts of a mint, oldest first. */
  readonly holdersOf: (mint: string) => ReadonlyArray<TokenAccount>
  /** The owner of an NFT the world minted: the holder of its token account of amount 1. */
  readonly nftOwner: (mint: string) => string | undefined
  /** NFTs the world minted that an owner holds now. */
  readonly nftsOf: (owner: string) => ReadonlyArray<Mint>
  /** A compressed NFT the world minted, by asset id. */
  readonly compressedNft: (id: string) => CompressedNft | undefined
  /** Every compressed NFT the world minted, oldest first. */
  readonly compressedNfts: () => ReadonlyArray<CompressedNft>
  /** Compressed NFTs the world minted to an owner, oldest first. */
  readonly compressedNftsOf: (owner: string) => ReadonlyArray<CompressedNft>
  /** The leaves of one of the world's trees, in leaf order. */
  readonly leavesOf: (tree: string) => ReadonlyArray<Uint8Array>
  /** Compressed token accounts the world opened for an owner, oldest first. */
  readonly compressedTokenAccountsOf: (owner: string) => ReadonlyArray<CompressedTokenAccount>
  /** Every compressed token account the world opened, oldest first. */
  readonly compressedTokenAccounts: () => ReadonlyArray<CompressedTokenAccount>
  /** A compressed token account the world opened, by hash or by the signature that opened it. */
  readonly compressedTokenAccount: (hashOrSignature: string) => CompressedTokenAccount | undefined
  /** Landed transactions touching an address (as account, token account owner, mint or compressed asset), newest first. */
  readonly transactionsOf: (address: string) => ReadonlyArray<Events.LandedTransaction>
  readonly transaction: (signature: string) => Events.LandedTransaction | undefined
  /** Every landed transaction, oldest first. */
  readonly transactions: () => ReadonlyArray<Events.LandedTransaction>
  /** Signatures already landed (a bundle holding one is refused). */
  readonly landed: (signature: string) => boolean
  /** Publishes ticks up to the current slot (called as time passes). */
  readonly tick: () => void
  /**
   * The commitment a transaction landed at `slot` has reached now, and the blocks since it
   * (`confirmations`, null once finalized): confirmed after `bundles.confirmDepth` slots (default
   * 1), finalized after `bundles.finalizeDepth` (default 32). Every status reads this one rule.
   */
  readonly confirmation: (slot: number) => {
    readonly status: "processed" | "confirmed" | "finalized"
    readonly confirmations: number | null
  }
  /** Applies a bundle's wire transactions atomically: all land, or none and why. */
  readonly landBundle: (
    transactions: ReadonlyArray<Transaction.ParsedTransaction>,
    bundleId: string
  ) => Either.Either<ReadonlyArray<Events.LandedTransaction>, BundleFailure>
  /** The world API: see `WorldApi`. */
  readonly api: WorldApi
  /**
   * Grows with every change (a landing, an advance, a restore): caches of what the world shows
   * are keyed by it, never by a count that a restore takes back.
   */
  readonly version: () => number
  /** What happened since start, as a value `restore` puts back (a copy: later changes do not touch it). */
  readonly save: () => Saved
  /** Puts back what `save` gave: every area then answers as it did then. */
  readonly restore: (saved: Saved) => void
  /** Sets an account's lamports, as the cheat code `setAccount` does (no transaction). */
  readonly setLamports: (address: string, lamports: bigint) => void
  /** The SVM that executes signed transactions, over this world's accounts. */
  readonly bank: Bank.Bank
  /**
   * Records transactions the bank executed and that landed, in order, at the current slot (or,
   * for a bundle, the next), and publishes them; the ledger's model takes their post-state.
   */
  readonly landExecuted: (
    runs: ReadonlyArray<{ readonly wire: Transaction.ParsedTransaction; readonly run: Bank.Executed }>,
    options?: { readonly bundleId?: string | undefined }
  ) => ReadonlyArray<Events.LandedTransaction>
}

/**
 * What happened since start: the world's changes and counters, as `World.save` gives them and
 * `World.restore` takes them (also what `--state` files hold, encoded by `StateFile`).
 *
 * @since 0.1.0
 * @category models
 */
export interface Saved {
  /** The slot at the time of saving: a restore continues from it. */
  readonly slot: number
  readonly ticked: number
  readonly counter: number
  readonly lastLandedSlot: number
  readonly indexInSlot: number
  readonly lamports: ReadonlyArray<readonly [string, bigint]>
  readonly mints: ReadonlyArray<Mint>
  /** In the order they were opened (each owner's and mint's lists follow it). */
  readonly tokenAccounts: ReadonlyArray<TokenAccount>
  readonly transactions: ReadonlyArray<Events.LandedTransaction>
  /** The signatures touching each address, oldest first. */
  readonly byAddress: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
  readonly compressedNfts: ReadonlyArray<CompressedNft>
  readonly compressedNftsByOwner: ReadonlyArray<readonly [string, ReadonlyArray<string>]>
  readonly leaves: ReadonlyArray<readonly [string, ReadonlyArray<Uint8Array>]>
  readonly compressedTokenAccounts: ReadonlyArray<CompressedTokenAccount>
}

/**
 * The world API: cheat codes for tests and demos. Each call checks its whole input first
 * (throwing `WorldInputError` naming the field, with nothing changed), then lands one
 * transaction that every area sees and that `Events.worldLanded` publishes.
 *
 * Amounts are raw (lamports, or token units before decimals): a bigint, a safe integer or a
 * string of digits.
 *
 * @since 0.1.0
 * @category models
 */
export interface WorldApi {
  /** Airdrops lamports to an address (from the world's faucet). */
  readonly fund: (input: { readonly address: string; readonly lamports: Amount }) => Receipt
  /**
   * Mints a fungible token to an owner: a new mint (default 6 decimals), or more of a mint the
   * world made. The owner's token account is made when missing.
   */
  readonly mintFungible: (input: {
    readonly owner: string
    readonly amount: Amount
    readonly mint?: string | undefined
    readonly decimals?: number | undefined
    readonly name?: string | undefined
    readonly symbol?: string | undefined
  }) => Receipt
  /** Mints an NFT (supply 1) to an owner, optionally in a collection, optionally programmable. */
  readonly mintNft: (input: {
    readonly owner: string
    readonly name?: string | undefined
    readonly symbol?: string | undefined
    readonly uri?: string | undefined
    readonly collection?: string | undefined
    readonly programmable?: boolean | undefined
  }) => Receipt
  /**
   * Transfers SOL (`lamports`), or a token the world minted (`mint` and `amount`), from one
   * owner to another; `from` pays the fee. Overdrawing is refused (field `lamports`/`amount`).
   * A compressed NFT the world minted (`mint` its asset id, `amount` 1 or omitted) changes its
   * leaf: the new owner's leaf hash, `seq` one more.
   */
  readonly transfer: (input: {
    readonly from: string
    readonly to: string
    readonly lamports?: Amount | undefined
    readonly mint?: string | undefined
    readonly amount?: Amount | undefined
  }) => Receipt
  /**
   * Compresses, as Bubblegum and Light do. Without `mint`: mints a compressed NFT to `owner` (a new
   * leaf of the world's Merkle tree, with `name`, `symbol`, `uri`, `collection` as `mintNft`).
   * With `mint` and `amount`: moves `amount` of a fungible token the world minted from the owner's
   * token account into the mint's token pool and opens a compressed token account of that amount
   * for the owner (the mint's supply is unchanged: the pool holds what is compressed).
   */
  readonly compress: (input: {
    readonly owner: string
    readonly mint?: string | undefined
    readonly amount?: Amount | undefined
    readonly name?: string | undefined
    readonly symbol?: string | undefined
    readonly uri?: string | undefined
    readonly collection?: string | undefined
  }) => CompressReceipt
  /** Moves the world on by `slots` slots (1..1,000,000) with no transaction. */
  readonly advanceSlots: (input: { readonly slots: number }) => { readonly slot: number }
}

/**
 * A raw amount as the world API accepts it.
 *
 * @since 0.1.0
 * @category models
 */
export type Amount = bigint | number | string

/**
 * What the world needs from its emulator.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly dataset: Dataset
  /** Epoch milliseconds (the runtime's Clock). */
  readonly now: () => number
  readonly slotMs: number
  readonly state: AreaContext["state"]
  /** Lamports an address holds in the seeded world (0 when unknown). */
  readonly seededLamports: (address: string) => bigint
  /** Programs the bank loads besides its default ones. */
  readonly programs?: ReadonlyArray<Bank.Program> | undefined
  /**
   * The chain's accounts (`Accounts`, made from this world once it exists): the bank reads its
   * accounts there and writes what it executes there; a change of the world API drops the bank's
   * write of an address, so the account is derived again.
   */
  readonly accounts: () => Pick<Accounts.Accounts, "get" | "write" | "forget">
  /** Block height of a slot, from the cluster's clock (`Chain`, made from this world once it exists). */
  readonly blockHeight: (slot: number) => number
}

const U64_MAX = 2n ** 64n - 1n
const TREE_CAPACITY = 2 ** TREE_DEPTH
/** The seeded compressed token accounts' leaf indexes are below 2^28: the world's follow them. */
const COMPRESSED_LEAF_BASE = 2 ** 28
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/
const MAX_ADVANCE = 1_000_000
/** Ticks published one by one at most; beyond, only the last slot is announced. */
const MAX_TICKS = 1_000

const WORLD_KEY = "world"

const push = <K, V>(map: Map<K, Array<V>>, key: K, value: V) => {
  const list = map.get(key)
  if (list === undefined) map.set(key, [value])
  else list.push(value)
}

/**
 * The world of an instance (made by `Emulator.make`).
 *
 * @since 0.1.0
 * @category accessors
 */
export const of = (state: AreaContext["state"]): World =>
  state<World>(WORLD_KEY, () => {
    throw new Error("emulator: the world is made by Emulator.make")
  })

// -- input checks ---------------------------------------------------------------------------

const isRecord = (u: unknown): u is Record<string, unknown> => typeof u === "object" && u !== null && !Array.isArray(u)

/**
 * Checks the world API's input objects: each getter names the field it reads.
 */
const fields = (input: unknown) => {
  if (!isRecord(input)) throw new WorldInputError("body", "must be a JSON object")
  const address = (name: string, optional = false): string | undefined => {
    const v = input[name]
    if (v === undefined && optional) return undefined
    if (typeof v !== "string" || !ADDRESS.test(v) || base58ByteLength(v) !== 32) {
      throw new WorldInputError(name, "must be a base58 address of 32 bytes")
    }
    return v
  }
  const amount = (name: string, optional = false, positive = true): bigint | undefined => {
    const v = input[name]
    if (v === undefined && optional) return undefined
    const n = typeof v === "bigint"
      ? v
      : typeof v === "number" && Number.isSafeInteger(v)
      ? BigInt(v)
      : typeof v === "string" && /^\d{1,20}$/.test(v)
      ? BigInt(v)
      : undefined
    if (n === undefined || n < (positive ? 1n : 0n) || n > U64_MAX) {
      throw new WorldInputError(
        name,
        `must be an integer from ${positive ? 1 : 0} to 2^64-1 (a number or a string of digits)`
      )
    }
    return n
  }
  const text = (name: string, max: number): string | undefined => {
    const v = input[name]
    if (v === undefined) return undefined
    if (typeof v !== "string" || v.length > max) {
      throw new WorldInputError(name, `must be a string of at most ${max} characters`)
    }
    return v
  }
  const int = (name: string, min: number, max: number): number | undefined => {
    const v = input[name]
    if (v === undefined) return undefined
    if (typeof v !== "number" || !Number.isInteger(v) || v < min || v > max) {
      throw new WorldInputError(name, `must be an integer from ${min} to ${max}`)
    }
    return v
  }
  const bool = (name: string): boolean | undefined => {
    const v = input[name]
    if (v === undefined) return undefined
    if (typeof v !== "boolean") throw new WorldInputError(name, "must be true or false")
    return v
  }
  return { address, amount, text, int, bool, input }
}

/**
 * The input of the cheat code `setAccount`, checked: `address`, `lamports` (0 to 2^64-1), `owner`
 * (default the System program), `data` (base64, default empty, at most 10 MiB as the runtime
 * allows) and `executable` (default false). Throws `WorldInputError` naming the field.
 *
 * @since 0.1.0
 * @category constructors
 */
export const accountInput = (input: unknown) => {
  const f = fields(input)
  const address = f.address("address")!
  const lamports = f.amount("lamports", false, false)!
  const owner = f.address("owner", true) ?? SYSTEM_PROGRAM
  const raw = f.input["data"]
  if (raw !== undefined && (typeof raw !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(raw) || raw.length % 4 !== 0)) {
    throw new WorldInputError("data", "must be base64 (the account's bytes)")
  }
  const data = raw === undefined ? new Uint8Array() : new Uint8Array(Buffer.from(raw as string, "base64"))
  if (data.length > 10 * 1024 * 1024) throw new WorldInputError("data", "must be at most 10 MiB")
  const executable = f.bool("executable") ?? false
  return { address, lamports, owner, data, executable }
}

// -- the world --------------------------------------------------------------------------------

/** Changes of one transaction (or bundle), applied to the world only when all of them hold. */
interface Draft {
  readonly lamports: Map<string, bigint>
  readonly amounts: Map<string, bigint>
  readonly accounts: Map<string, TokenAccount>
  readonly mints: Map<string, Mint>
  readonly supply: Map<string, bigint>
  readonly compressedNfts: Array<CompressedNft>
  /** Compressed NFTs as a transfer leaves them (same id and leaf index). */
  readonly leafChanges: Array<CompressedNft>
  readonly compressedTokens: Array<CompressedTokenAccount>
}

const emptyDraft = (): Draft => ({
  lamports: new Map(),
  amounts: new Map(),
  accounts: new Map(),
  mints: new Map(),
  supply: new Map(),
  compressedNfts: [],
  leafChanges: [],
  compressedTokens: []
})

/**
 * Makes the world of an instance and keeps it in the instance's state (`of` finds it).
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): World => {
  const { dataset, now, slotMs, state } = options
  const startedAt = now()
  const baseSlot = baseSlotOf(dataset)
  let offset = 0
  let ticked = baseSlot
  let counter = 0
  let lastLandedSlot = -1
  let indexInSlot = 0

  const lamportsOf = new Map<string, bigint>()
  const mintsOf = new Map<string, Mint>()
  const accountsOf = new Map<string, TokenAccount>()
  const byOwner = new Map<string, Array<TokenAccount>>()
  const byMint = new Map<string, Array<TokenAccount>>()
  const txs: Array<Events.LandedTransaction> = []
  const bySignature = new Map<string, Events.LandedTransaction>()
  const byAddress = new Map<string, Array<Events.LandedTransaction>>()
  const cnfts = new Map<string, CompressedNft>()
  const cnftsByOwner = new Map<string, Array<CompressedNft>>()
  const leaves = new Map<string, Array<Uint8Array>>()
  const ctokens: Array<CompressedTokenAccount> = []
  const ctokenByKey = new Map<string, CompressedTokenAccount>()
  const ctokensByOwner = new Map<string, Array<CompressedTokenAccount>>()

  const slot = () => baseSlot + Math.floor((now() - startedAt) / slotMs) + offset
  const blockTimeOf = (s: number) => blockTimeAt(baseSlot, slotMs, s)
  const lamports = (address: string) => lamportsOf.get(address) ?? options.seededLamports(address)
  const bank = Bank.make({
    dataset,
    slot: () => slot(),
    blockTimeOf: (s) => blockTimeOf(s),
    baseSlot,
    blockHeight: (s) => options.blockHeight(s),
    // The ledger's state of an address, as the chain holds it (what the bank wrote, else derived).
    source: (address, fresh) => options.accounts().get(address, { fresh }),
    programs: options.programs
  })
  const landedPublisher = Events.worldLanded(state)
  const slotPublisher = Events.slots(state)

  let version = 0

  const save = (): Saved => ({
    slot: slot(),
    ticked,
    counter,
    lastLandedSlot,
    indexInSlot,
    lamports: [...lamportsOf],
    mints: [...mintsOf.values()].map((m) => ({ ...m })),
    tokenAccounts: [...accountsOf.values()].map((t) => ({ ...t })),
    transactions: [...txs],
    byAddress: [...byAddress].map(([a, list]) => [a, list.map((tx) => tx.signature)] as const),
    compressedNfts: [...cnfts.values()],
    compressedNftsByOwner: [...cnftsByOwner].map(([o, list]) => [o, list.map((c) => c.id)] as const),
    leaves: [...leaves].map(([tree, list]) => [tree, [...list]] as const),
    compressedTokenAccounts: [...ctokens]
  })

  const restore = (saved: Saved) => {
    // The clock continues from the saved slot (a revert, as Hardhat's evm_revert: later slots are taken back).
    offset += saved.slot - slot()
    ticked = saved.ticked
    counter = saved.counter
    lastLandedSlot = saved.lastLandedSlot
    indexInSlot = saved.indexInSlot
    const refill = <K, V>(map: Map<K, V>, entries: Iterable<readonly [K, V]>) => {
      map.clear()
      for (const [k, v] of entries) map.set(k, v)
    }
    refill(lamportsOf, saved.lamports)
    refill(mintsOf, saved.mints.map((m) => [m.address, { ...m }] as const))
    refill(accountsOf, saved.tokenAccounts.map((t) => [t.address, { ...t }] as const))
    byOwner.clear()
    byMint.clear()
    for (const t of accountsOf.values()) {
      push(byOwner, t.owner, t)
      push(byMint, t.mint, t)
    }
    txs.length = 0
    txs.push(...saved.transactions)
    refill(bySignature, txs.map((tx) => [tx.signature, tx] as const))
    refill(byAddress, saved.byAddress.map(([a, list]) => [a, list.map((sig) => bySignature.get(sig)!)] as const))
    refill(cnfts, saved.compressedNfts.map((c) => [c.id, c] as const))
    refill(cnftsByOwner, saved.compressedNftsByOwner.map(([o, ids]) => [o, ids.map((id) => cnfts.get(id)!)] as const))
    refill(leaves, saved.leaves.map(([tree, list]) => [tree, [...list]] as const))
    ctokens.length = 0
    ctokens.push(...saved.compressedTokenAccounts)
    ctokenByKey.clear()
    ctokensByOwner.clear()
    for (const t of ctokens) {
      ctokenByKey.set(t.hash, t)
      ctokenByKey.set(t.signature, t)
      push(ctokensByOwner, t.owner, t)
    }
    version++
  }

  const tick = () => {
    const current = slot()
    if (current <= ticked) return
    const from = current - ticked > MAX_TICKS ? current - 1 : ticked
    for (let s = from + 1; s <= current; s++) {
      slotPublisher.publish({ slot: s, parent: s - 1, blockTime: blockTimeOf(s) })
    }
    ticked = current
  }

  // Reads through a draft, then the world.
  const read = (d: Draft) => ({
    lamports: (a: string) => d.lamports.get(a) ?? lamports(a),
    account: (a: string) => d.accounts.get(a) ?? accountsOf.get(a),
    amount: (a: string) => d.amounts.get(a) ?? (d.accounts.get(a) ?? accountsOf.get(a))?.amount ?? 0n,
    mint: (m: string) => d.mints.get(m) ?? mintsOf.get(m),
    supply: (m: string) => d.supply.get(m) ?? (d.mints.get(m) ?? mintsOf.get(m))?.supply ?? 0n
  })

  /** Applies a draft. A change the bank did not make (the world API's) is read again by the bank. */
  const commit = (d: Draft, byBank = false) => {
    version++
    if (!byBank) {
      for (const m of [d.lamports, d.amounts, d.accounts, d.mints, d.supply]) {
        for (const a of m.keys()) {
          options.accounts().forget(a)
          bank.forget(a)
        }
      }
    }
    for (const [a, v] of d.lamports) lamportsOf.set(a, v)
    for (const m of d.mints.values()) mintsOf.set(m.address, m)
    for (const t of d.accounts.values()) {
      accountsOf.set(t.address, t)
      const owned = byOwner.get(t.owner) ?? []
      owned.push(t)
      byOwner.set(t.owner, owned)
      const held = byMint.get(t.mint) ?? []
      held.push(t)
      byMint.set(t.mint, held)
    }
    for (const [a, v] of d.amounts) accountsOf.get(a)!.amount = v
    for (const [m, v] of d.supply) mintsOf.get(m)!.supply = v
    for (const c of d.compressedNfts) {
      cnfts.set(c.id, c)
      push(cnftsByOwner, c.owner, c)
      push(leaves, c.tree, c.leaf)
    }
    for (const c of d.leafChanges) {
      const before = cnfts.get(c.id)!
      const held = cnftsByOwner.get(before.owner)!
      held.splice(held.indexOf(before), 1)
      cnfts.set(c.id, c)
      push(cnftsByOwner, c.owner, c)
      leaves.get(c.tree)![c.leafIndex] = c.leaf
    }
    for (const t of d.compressedTokens) {
      ctokens.push(t)
      ctokenByKey.set(t.hash, t)
      ctokenByKey.set(t.signature, t)
      push(ctokensByOwner, t.owner, t)
    }
  }

  /** The slot the next landing uses: one past the current, which the world then reaches. */
  const nextSlot = () => {
    offset += 1
    const s = slot()
    if (s !== lastLandedSlot) indexInSlot = 0
    lastLandedSlot = s
    return s
  }

  /** The slot a sent transaction lands in: the current one, which can hold many. */
  const currentSlot = () => {
    const s = slot()
    if (s !== lastLandedSlot) indexInSlot = 0
    lastLandedSlot = s
    return s
  }

  const record = (
    list: ReadonlyArray<Events.LandedTransaction>,
    bundleId?: string,
    assets: ReadonlyArray<string> = []
  ) => {
    for (const tx of list) {
      txs.push(tx)
      bySignature.set(tx.signature, tx)
      // A compressed asset is no account of its transaction: it is listed by id.
      const keys = new Set<string>(assets)
      for (const a of tx.accounts) {
        keys.add(a.address)
        if (a.token !== undefined) {
          keys.add(a.token.owner)
          keys.add(a.token.mint)
        }
      }
      for (const t of tx.tokenTransfers) {
        keys.add(t.mint)
        if (t.from !== null) keys.add(t.from)
        if (t.to !== null) keys.add(t.to)
      }
      for (const k of keys) {
        const list = byAddress.get(k) ?? []
        list.push(tx)
        byAddress.set(k, list)
      }
    }
    tick()
    landedPublisher.publish({
      slot: list[0]!.slot,
      transactions: list,
      ...(bundleId === undefined ? {} : { bundleId })
    })
  }

  /** The account changes of a transaction, from the world before it and the draft after it. */
  const changesOf = (
    before: ReturnType<typeof read>,
    after: ReturnType<typeof read>,
    order: ReadonlyArray<string>,
    signers: ReadonlySet<string>,
    writable: ReadonlySet<string>
  ): Array<Events.AccountChange> =>
    order.map((address) => {
      const account = after.account(address)
      const mint = account === undefined ? undefined : after.mint(account.mint)
      const isMint = after.mint(address) !== undefined
      return {
        address,
        program: account !== undefined || isMint ? TOKEN_PROGRAM : SYSTEM_PROGRAM,
        lamportsBefore: before.lamports(address),
        lamportsAfter: after.lamports(address),
        writable: writable.has(address),
        signer: signers.has(address),
        ...(account === undefined ? {} : {
          token: {
            mint: account.mint,
            owner: account.owner,
            decimals: mint?.decimals ?? 0,
            amountBefore: before.amount(address),
            amountAfter: after.amount(address)
          }
        })
      }
    })

  const snapshot = (d: Draft) => {
    // A frozen copy of the draft's reads as they are now, for "before" values.
    const frozen: Draft = {
      lamports: new Map(d.lamports),
      amounts: new Map(d.amounts),
      accounts: new Map(d.accounts),
      mints: new Map(d.mints),
      supply: new Map(d.supply),
      compressedNfts: [],
      leafChanges: [],
      compressedTokens: []
    }
    return read(frozen)
  }

  const ataOf = (owner: string, mint: string) => dataset.address(`world:ata:${owner}:${mint}`)

  // -- the world API ---------------------------------------------------------------------

  const faucet = dataset.address("world:faucet")

  /** Lands one world transaction built on a fresh draft by `build`; throws WorldInputError before any change. */
  const landOne = (
    feePayer: string,
    type: Events.TransactionType,
    build: (d: Draft, r: ReturnType<typeof read>, signature: string) => {
      readonly native: ReadonlyArray<Events.NativeTransfer>
      readonly token: ReadonlyArray<Events.TokenTransfer>
      readonly order: ReadonlyArray<string>
      readonly logs: ReadonlyArray<string>
      readonly assets?: ReadonlyArray<string>
    },
    fee = FEE_PER_SIGNATURE
  ): Events.LandedTransaction => {
    const d = emptyDraft()
    const r = read(d)
    const before = snapshot(d)
    const signature = dataset.signature(`world:tx:${counter}`)
    const built = build(d, r, signature)
    const payer = r.lamports(feePayer)
    if (feePayer !== faucet && payer < fee) {
      throw new WorldInputError("from", `must hold the fee of ${fee} lamports`)
    }
    if (feePayer !== faucet) d.lamports.set(feePayer, payer - fee)
    const order = [feePayer, ...built.order.filter((a) => a !== feePayer)]
    counter++
    const s = nextSlot()
    // What the draft opened is dated by the slot it lands in.
    for (const c of d.compressedNfts) (c as { createdSlot: number }).createdSlot = s
    for (const t of d.compressedTokens) (t as { slotCreated: number }).slotCreated = s
    const tx: Events.LandedTransaction = {
      signature,
      slot: s,
      blockTime: blockTimeOf(s),
      index: indexInSlot++,
      feePayer,
      fee: feePayer === faucet ? 0n : fee,
      err: null,
      logs: built.logs,
      type,
      accounts: changesOf(before, r, order, new Set([feePayer]), new Set(order)),
      nativeTransfers: built.native,
      tokenTransfers: built.token,
      programs: [...new Set(built.logs.map((l) => l.split(" ")[1]!))],
      source: "world"
    }
    commit(d)
    record([tx], undefined, built.assets)
    return tx
  }

  const invoke = (program: string) => [`Program ${program} invoke [1]`, `Program ${program} success`]

  /** Adds `amount` of `mint` to the owner's token account (made when missing). */
  const mintTo = (d: Draft, r: ReturnType<typeof read>, mint: Mint, owner: string, amount: bigint) => {
    const ata = ataOf(owner, mint.address)
    if (r.account(ata) === undefined) d.accounts.set(ata, { address: ata, mint: mint.address, owner, amount: 0n })
    const supply = r.supply(mint.address) + amount
    if (supply > U64_MAX) throw new WorldInputError("amount", "would take the mint's supply past 2^64-1")
    d.amounts.set(ata, r.amount(ata) + amount)
    d.supply.set(mint.address, supply)
    return ata
  }

  /** What a mint to `owner`'s token account moved, as a world transaction records it. */
  const minted = (mint: Mint, owner: string, ata: string, amount: bigint) => ({
    native: [],
    token: [{
      from: null,
      to: owner,
      fromTokenAccount: null,
      toTokenAccount: ata,
      mint: mint.address,
      amount,
      decimals: mint.decimals
    }],
    order: [ata, mint.address, owner, TOKEN_PROGRAM],
    logs: invoke(TOKEN_PROGRAM)
  })

  const newMint = (
    d: Draft,
    kind: Mint["kind"],
    decimals: number,
    iface: Mint["interface"],
    meta: {
      name?: string | undefined
      symbol?: string | undefined
      uri?: string | undefined
      collection?: string | undefined
    }
  ): Mint => {
    const n = mintsOf.size + d.mints.size
    const address = dataset.address(`world:mint:${n}`)
    const mint: Mint = {
      address,
      kind,
      decimals,
      supply: 0n,
      authority: faucet,
      name: meta.name ?? (kind === "nft" ? `World NFT #${n}` : `World Token ${n}`),
      symbol: meta.symbol ?? (kind === "nft" ? "WNFT" : `WT${n}`),
      uri: meta.uri ?? `https://assets.solfx.invalid/world/${address}.json`,
      collection: meta.collection ?? null,
      interface: iface,
      createdSlot: slot() + 1
    }
    d.mints.set(address, mint)
    return mint
  }

  /** Mints a compressed NFT: the next leaf of the world's current tree (a new tree every 16,384 leaves). */
  const compressNft = (
    owner: string,
    meta: {
      readonly name: string | undefined
      readonly symbol: string | undefined
      readonly uri: string | undefined
      readonly collection: string | undefined
    }
  ): CompressReceipt => {
    const n = cnfts.size
    const tree = dataset.address(`world:tree:${Math.floor(n / TREE_CAPACITY)}`)
    const leafIndex = n % TREE_CAPACITY
    const id = Bubblegum.assetId(tree, leafIndex)
    const ownerBytes = Base58.decode(owner)!
    // Seeded hashes, as the seeded compressed NFTs have (not Bubblegum's hash of the metadata).
    const dataHash = dataset.bytes(`world:cnft:${n}:data-hash`, 32)
    const creatorHash = dataset.bytes(`world:cnft:${n}:creator-hash`, 32)
    const nft: CompressedNft = {
      id,
      tree,
      leafIndex,
      owner,
      dataHash,
      creatorHash,
      leaf: MerkleProof.leafHashV1({
        assetId: Base58.decode(id)!,
        owner: ownerBytes,
        delegate: ownerBytes,
        nonce: leafIndex,
        dataHash,
        creatorHash
      }),
      authority: faucet,
      name: meta.name ?? `World cNFT #${n}`,
      symbol: meta.symbol ?? "WCNFT",
      uri: meta.uri ?? `https://assets.solfx.invalid/world/${id}.json`,
      collection: meta.collection ?? null,
      seq: 1,
      createdSlot: 0
    }
    const tx = landOne(faucet, "COMPRESSED_NFT_MINT", (d) => {
      d.compressedNfts.push(nft)
      return {
        native: [],
        token: [],
        order: [tree, owner, ...(nft.collection === null ? [] : [nft.collection]), BUBBLEGUM_PROGRAM],
        logs: invoke(BUBBLEGUM_PROGRAM),
        assets: [id]
      }
    })
    return { signature: tx.signature, slot: tx.slot, assetId: id, tree, leafIndex }
  }

  /** A compressed NFT to another owner: its leaf rewritten (the owner is in the leaf hash), seq one more. */
  const transferLeaf = (from: string, to: string, nft: CompressedNft, amount: bigint | undefined): Receipt => {
    if (amount !== undefined && amount !== 1n) throw new WorldInputError("amount", "must be 1 (or omitted) for an NFT")
    if (nft.owner !== from) throw new WorldInputError("from", `must own the compressed NFT (its owner is ${nft.owner})`)
    const toBytes = Base58.decode(to)!
    const moved: CompressedNft = {
      ...nft,
      owner: to,
      leaf: MerkleProof.leafHashV1({
        assetId: Base58.decode(nft.id)!,
        owner: toBytes,
        delegate: toBytes,
        nonce: nft.leafIndex,
        dataHash: nft.dataHash,
        creatorHash: nft.creatorHash
      }),
      seq: nft.seq + 1
    }
    const tx = landOne(from, "TRANSFER", (d) => {
      d.leafChanges.push(moved)
      return {
        native: [],
        token: [],
        order: [nft.tree, to, BUBBLEGUM_PROGRAM],
        logs: invoke(BUBBLEGUM_PROGRAM),
        assets: [nft.id]
      }
    })
    return { signature: tx.signature, slot: tx.slot, mint: nft.id }
  }

  /** The token account of a mint's pool, which holds what is compressed, and its authority. */
  const poolAuthority = dataset.address("world:token-pool-authority")

  /** Compresses tokens: the owner's token account to the mint's pool, and a compressed account of that amount. */
  const compressTokens = (owner: string, mint: Mint, amount: bigint): CompressReceipt => {
    const source = ataOf(owner, mint.address)
    const pool = dataset.address(`world:token-pool:${mint.address}`)
    const hash = Base58.encode(fieldElement(dataset.bytes(`world:ctoken:${ctokens.length}`, 32)))
    const tx = landOne(faucet, "TRANSFER", (d, r, signature) => {
      const have = r.amount(source)
      if (r.account(source) === undefined || have < amount) {
        throw new WorldInputError("amount", `exceeds ${owner}'s balance of that mint (${have})`)
      }
      if (r.account(pool) === undefined) {
        d.accounts.set(pool, { address: pool, mint: mint.address, owner: poolAuthority, amount: 0n })
      }
      d.amounts.set(source, have - amount)
      d.amounts.set(pool, r.amount(pool) + amount)
      d.compressedTokens.push({
        hash,
        owner,
        mint: mint.address,
        amount,
        leafIndex: COMPRESSED_LEAF_BASE + ctokens.length,
        signature,
        slotCreated: 0
      })
      return {
        native: [],
        token: [{
          from: owner,
          to: poolAuthority,
          fromTokenAccount: source,
          toTokenAccount: pool,
          mint: mint.address,
          amount,
          decimals: mint.decimals
        }],
        order: [source, pool, owner, mint.address, TOKEN_PROGRAM, COMPRESSED_TOKEN_PROGRAM],
        // The compressed token program moves the tokens to the pool through the token program.
        logs: [
          `Program ${COMPRESSED_TOKEN_PROGRAM} invoke [1]`,
          `Program ${TOKEN_PROGRAM} invoke [2]`,
          `Program ${TOKEN_PROGRAM} success`,
          `Program ${COMPRESSED_TOKEN_PROGRAM} success`
        ]
      }
    })
    return { signature: tx.signature, slot: tx.slot, mint: mint.address, tokenAccount: source, hash }
  }

  const api: WorldApi = {
    fund: (input) => {
      const f = fields(input)
      const address = f.address("address")!
      const amount = f.amount("lamports")!
      if (lamports(address) + amount > U64_MAX) {
        throw new WorldInputError("lamports", "would take the balance past 2^64-1")
      }
      const tx = landOne(faucet, "TRANSFER", (d, r) => {
        d.lamports.set(address, r.lamports(address) + amount)
        return {
          native: [{ from: faucet, to: address, lamports: amount }],
          token: [],
          order: [address, SYSTEM_PROGRAM],
          logs: invoke(SYSTEM_PROGRAM)
        }
      })
      return { signature: tx.signature, slot: tx.slot }
    },
    mintFungible: (input) => {
      const f = fields(input)
      const owner = f.address("owner")!
      const amount = f.amount("amount")!
      const existing = f.address("mint", true)
      const decimals = f.int("decimals", 0, 9)
      const name = f.text("name", 32)
      const symbol = f.text("symbol", 10)
      const known = existing === undefined ? undefined : mintsOf.get(existing)
      if (existing !== undefined && (known === undefined || known.kind !== "fungible")) {
        throw new WorldInputError("mint", "must be a fungible mint the world API made (or omitted for a new one)")
      }
      if (known !== undefined && decimals !== undefined && decimals !== known.decimals) {
        throw new WorldInputError("decimals", `must be the mint's ${known.decimals} (or omitted)`)
      }
      let made: { mint: string; ata: string } | undefined
      const tx = landOne(faucet, "TOKEN_MINT", (d, r) => {
        const mint = known ?? newMint(d, "fungible", decimals ?? 6, "FungibleToken", { name, symbol })
        const ata = mintTo(d, r, mint, owner, amount)
        made = { mint: mint.address, ata }
        return minted(mint, owner, ata, amount)
      })
      return { signature: tx.signature, slot: tx.slot, mint: made!.mint, tokenAccount: made!.ata }
    },
    mintNft: (input) => {
      const f = fields(input)
      const owner = f.address("owner")!
      const name = f.text("name", 32)
      const symbol = f.text("symbol", 10)
      const uri = f.text("uri", 200)
      const collection = f.address("collection", true)
      const programmable = f.bool("programmable") ?? false
      let made: { mint: string; ata: string } | undefined
      const tx = landOne(faucet, "NFT_MINT", (d, r) => {
        const mint = newMint(d, "nft", 0, programmable ? "ProgrammableNFT" : "V1_NFT", {
          name,
          symbol,
          uri,
          collection
        })
        const ata = mintTo(d, r, mint, owner, 1n)
        made = { mint: mint.address, ata }
        return minted(mint, owner, ata, 1n)
      })
      return { signature: tx.signature, slot: tx.slot, mint: made!.mint, tokenAccount: made!.ata }
    },
    transfer: (input) => {
      const f = fields(input)
      const from = f.address("from")!
      const to = f.address("to")!
      const sol = f.amount("lamports", true)
      const mintAddress = f.address("mint", true)
      const amount = f.amount("amount", true)
      if ((sol === undefined) === (mintAddress === undefined)) {
        throw new WorldInputError("lamports", "give either lamports (SOL) or mint and amount (a token)")
      }
      const leaf = mintAddress === undefined ? undefined : cnfts.get(mintAddress)
      if (leaf !== undefined) return transferLeaf(from, to, leaf, amount)
      if (mintAddress !== undefined && amount === undefined) {
        throw new WorldInputError("amount", "is required with mint")
      }
      if (sol !== undefined) {
        const tx = landOne(from, "TRANSFER", (d, r) => {
          const have = r.lamports(from)
          if (have < sol + FEE_PER_SIGNATURE) {
            throw new WorldInputError("lamports", `exceeds the balance of ${from} (${have} lamports, fee included)`)
          }
          d.lamports.set(from, have - sol)
          d.lamports.set(to, r.lamports(to) + sol)
          return {
            native: [{ from, to, lamports: sol }],
            token: [],
            order: [to, SYSTEM_PROGRAM],
            logs: invoke(SYSTEM_PROGRAM)
          }
        })
        return { signature: tx.signature, slot: tx.slot }
      }
      const mint = mintsOf.get(mintAddress!)
      if (mint === undefined) throw new WorldInputError("mint", "must be a mint the world API made")
      const source = ataOf(from, mint.address)
      let dest = ""
      const tx = landOne(from, "TRANSFER", (d, r) => {
        const have = r.amount(source)
        if (r.account(source) === undefined || have < amount!) {
          throw new WorldInputError("amount", `exceeds ${from}'s balance of that mint (${have})`)
        }
        dest = ataOf(to, mint.address)
        if (r.account(dest) === undefined) {
          d.accounts.set(dest, { address: dest, mint: mint.address, owner: to, amount: 0n })
        }
        d.amounts.set(source, have - amount!)
        d.amounts.set(dest, r.amount(dest) + amount!)
        return {
          native: [],
          token: [{
            from,
            to,
            fromTokenAccount: source,
            toTokenAccount: dest,
            mint: mint.address,
            amount: amount!,
            decimals: mint.decimals
          }],
          order: [source, dest, to, mint.address, TOKEN_PROGRAM],
          logs: invoke(TOKEN_PROGRAM)
        }
      })
      return { signature: tx.signature, slot: tx.slot, mint: mint.address, tokenAccount: dest }
    },
    compress: (input) => {
      const f = fields(input)
      const owner = f.address("owner")!
      const mintAddress = f.address("mint", true)
      const amount = f.amount("amount", true)
      const meta = {
        name: f.text("name", 32),
        symbol: f.text("symbol", 10),
        uri: f.text("uri", 200),
        collection: f.address("collection", true)
      }
      if (mintAddress === undefined) {
        if (amount !== undefined) {
          throw new WorldInputError("mint", "is required with amount (the fungible mint to compress)")
        }
        return compressNft(owner, meta)
      }
      for (const [field, v] of Object.entries(meta)) {
        if (v !== undefined) {
          throw new WorldInputError(field, "is for a compressed NFT (no mint); tokens take owner, mint and amount")
        }
      }
      if (amount === undefined) throw new WorldInputError("amount", "is required with mint")
      const mint = mintsOf.get(mintAddress)
      if (mint === undefined || mint.kind !== "fungible") {
        throw new WorldInputError("mint", "must be a fungible mint the world API made (mintFungible first)")
      }
      return compressTokens(owner, mint, amount)
    },
    advanceSlots: (input) => {
      const f = fields(input)
      const n = f.int("slots", 1, MAX_ADVANCE)
      if (n === undefined) throw new WorldInputError("slots", `must be an integer from 1 to ${MAX_ADVANCE}`)
      offset += n
      version++
      tick()
      return { slot: slot() }
    }
  }

  // -- bundles ------------------------------------------------------------------------------

  /** A mint a transaction made, as the ledger's model keeps it: a fungible token without metadata. */
  const executedMint = (address: string, m: AccountLayout.Mint, s: number): Mint => ({
    address,
    kind: "fungible",
    decimals: m.decimals,
    supply: m.supply,
    authority: m.mintAuthority ?? "",
    name: "",
    symbol: "",
    uri: "",
    collection: null,
    interface: "FungibleToken",
    createdSlot: s
  })

  const landExecuted: World["landExecuted"] = (runs, landing = {}) => {
    const d = emptyDraft()
    const r = read(d)
    const written = new Map<string, Bank.RawAccount | undefined>()
    const s = landing.bundleId === undefined ? currentSlot() : nextSlot()
    const landed = runs.map(({ run, wire }): Events.LandedTransaction => {
      const described = Landing.describe(wire, run, (m) => r.mint(m)?.decimals ?? 0)
      for (const [i, address] of run.keys.entries()) {
        if (!run.writable[i]) continue
        const post = run.post[i]
        // The exact state for the chain's accounts; the model keeps a wallet's lamports (a token
        // account's or a mint's are their rent-exempt reserve, which the accounts derive).
        written.set(address, post)
        if (post === undefined || post.owner === SYSTEM_PROGRAM) d.lamports.set(address, post?.lamports ?? 0n)
        if (post === undefined) continue
        const token = Landing.tokenAccountOf(post)
        // A seeded token account (one before this run, not the model's) moves in the chain's
        // accounts only: the model's lists would show it twice.
        const seeded = r.account(address) === undefined && Landing.tokenAccountOf(run.pre[i]) !== undefined
        if (token !== undefined && !seeded) {
          if (r.account(address) === undefined) {
            d.accounts.set(address, { address, mint: token.mint, owner: token.owner, amount: token.amount })
          }
          d.amounts.set(address, token.amount)
        }
        const mint = Landing.mintOf(post)
        if (mint !== undefined) {
          if (r.mint(address) === undefined) d.mints.set(address, executedMint(address, mint, s))
          d.supply.set(address, mint.supply)
        }
      }
      return {
        signature: run.signature,
        slot: s,
        blockTime: blockTimeOf(s),
        index: indexInSlot++,
        feePayer: run.keys[0]!,
        fee: run.fee,
        err: run.err,
        logs: run.logs,
        ...described,
        source: landing.bundleId === undefined ? "rpc" : "bundle",
        ...(landing.bundleId === undefined ? {} : { bundleId: landing.bundleId }),
        wire,
        execution: {
          unitsConsumed: run.unitsConsumed,
          innerInstructions: run.innerInstructions,
          returnData: run.returnData,
          loaded: run.loaded
        }
      }
    })
    commit(d, true)
    for (const [a, v] of written) options.accounts().write(a, v)
    record(landed, landing.bundleId)
    return landed
  }

  // -- bundles ------------------------------------------------------------------------------

  const landBundle: World["landBundle"] = (wire, bundleId) => {
    // The bank has no rollback: the first pre-state of every account the bundle wrote is put back
    // when a transaction fails, so a bundle that does not land leaves no trace.
    const touched = new Map<string, Bank.RawAccount | undefined>()
    const runs: Array<{ readonly wire: Transaction.ParsedTransaction; readonly run: Bank.Executed }> = []
    for (const [t, tx] of wire.entries()) {
      const run = bank.execute(tx)
      for (const [i, k] of run.keys.entries()) if (run.writable[i] && !touched.has(k)) touched.set(k, run.pre[i])
      if (run.err !== null) {
        bank.restore(touched)
        return Either.left({
          transaction: t,
          err: run.err,
          message: `transaction #${t}: ${TransactionError.display(run.err)}`
        })
      }
      runs.push({ wire: tx, run })
    }
    return Either.right(landExecuted(runs, { bundleId }))
  }

  const world: World = {
    compressedNft: (id) => cnfts.get(id),
    compressedNfts: () => [...cnfts.values()],
    compressedNftsOf: (owner) => cnftsByOwner.get(owner) ?? [],
    leavesOf: (tree) => leaves.get(tree) ?? [],
    compressedTokenAccountsOf: (owner) => ctokensByOwner.get(owner) ?? [],
    compressedTokenAccounts: () => ctokens,
    compressedTokenAccount: (key) => ctokenByKey.get(key),
    baseSlot,
    slot,
    blockTimeOf,
    lamports,
    touched: (a) => lamportsOf.has(a),
    mint: (a) => mintsOf.get(a),
    mints: () => [...mintsOf.values()],
    tokenAccount: (a) => accountsOf.get(a),
    tokenAccountsOf: (owner) => byOwner.get(owner) ?? [],
    holdersOf: (mint) => byMint.get(mint) ?? [],
    nftOwner: (mint) => {
      const m = mintsOf.get(mint)
      if (m === undefined || m.kind !== "nft") return undefined
      return byMint.get(mint)?.find((t) => t.amount === 1n)?.owner
    },
    nftsOf: (owner) =>
      (byOwner.get(owner) ?? []).flatMap((t) => {
        const m = mintsOf.get(t.mint)
        return m !== undefined && m.kind === "nft" && t.amount === 1n ? [m] : []
      }),
    transactionsOf: (address) => [...(byAddress.get(address) ?? [])].reverse(),
    confirmation: (landedAt) => {
      const depth = slot() - landedAt
      const finalized = depth >= dataset.size("bundles.finalizeDepth", 32)
      return {
        status: finalized ? "finalized" : depth >= dataset.size("bundles.confirmDepth", 1) ? "confirmed" : "processed",
        confirmations: finalized ? null : Math.max(0, depth)
      }
    },
    transaction: (s) => bySignature.get(s),
    transactions: () => txs,
    landed: (s) => bySignature.has(s),
    tick,
    landBundle,
    api,
    version: () => version,
    save,
    restore,
    setLamports: (address, amount) => {
      version++
      lamportsOf.set(address, amount)
    },
    bank,
    landExecuted
  }
  state(WORLD_KEY, () => world)
  return world
}
