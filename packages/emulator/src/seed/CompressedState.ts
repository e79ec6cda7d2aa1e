/**
 * The seeded compressed state Photon indexes: compressed token mints, their holders and accounts,
 * address accounts and their signatures, all derived from the dataset (nothing stored), in Photon's
 * wire shapes; and the world's compressed token accounts shaped as the seeded ones. Ids are sealed
 * (`seal`): each decodes back to the entry it names in O(1). The compression area and token metadata
 * read it.
 *
 * @since 0.1.0
 */

import { encodeBase64 } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as Dataset from "../Dataset.js"
import * as Base58 from "../internal/Base58.js"
import * as World from "../World.js"

// ---------------------------------------------------------------------------
// Sealed ids: (kind, a, b, c) <-> 32 or 64 bytes that look random.
// body = kind (1) | a, b, c (6 bytes each); tail = H(body); out = (body ^ H'(tail)) | tail.
// A 32-byte id is also a BN254 field element, as Photon's Poseidon hashes and addresses are
// in real answers: the kind (< 16) is masked with 5 bits only, so the first byte stays below
// 0x20 and the big-endian value below the modulus (0x3064…).

const BODY = 19
const FIELD_MASK = 0x1f

const hex = (bytes: Uint8Array): string => {
  let s = ""
  for (const b of bytes) s += b.toString(16).padStart(2, "0")
  return s
}

const putU48 = (out: Uint8Array, offset: number, value: number) => {
  let v = value
  for (let i = 5; i >= 0; i--) {
    out[offset + i] = v % 256
    v = Math.floor(v / 256)
  }
}

const getU48 = (bytes: Uint8Array, offset: number): number => {
  let v = 0
  for (let i = 0; i < 6; i++) v = v * 256 + bytes[offset + i]!
  return v
}

/** What a sealed id names. */
interface Sealed {
  readonly kind: number
  readonly a: number
  readonly b: number
  readonly c: number
}

const sealBytes = (ds: Dataset.Dataset, length: 32 | 64, kind: number, a = 0, b = 0, c = 0): Uint8Array => {
  const body = new Uint8Array(BODY)
  body[0] = kind
  putU48(body, 1, a)
  putU48(body, 7, b)
  putU48(body, 13, c)
  const tail = ds.bytes(`compression:seal:${length}:${hex(body)}`, length - BODY)
  const mask = ds.bytes(`compression:mask:${length}:${hex(tail)}`, BODY)
  if (length === 32) mask[0] = mask[0]! & FIELD_MASK
  const out = new Uint8Array(length)
  for (let i = 0; i < BODY; i++) out[i] = body[i]! ^ mask[i]!
  out.set(tail, BODY)
  return out
}

export const seal = (ds: Dataset.Dataset, length: 32 | 64, kind: number, a = 0, b = 0, c = 0): string =>
  Base58.encode(sealBytes(ds, length, kind, a, b, c))

export const unseal = (ds: Dataset.Dataset, length: 32 | 64, id: string): Sealed | undefined => {
  const bytes = Base58.decode(id)
  if (bytes === undefined || bytes.length !== length) return undefined
  const tail = bytes.subarray(BODY)
  const mask = ds.bytes(`compression:mask:${length}:${hex(tail)}`, BODY)
  if (length === 32) mask[0] = mask[0]! & FIELD_MASK
  const body = new Uint8Array(BODY)
  for (let i = 0; i < BODY; i++) body[i] = bytes[i]! ^ mask[i]!
  const expected = ds.bytes(`compression:seal:${length}:${hex(body)}`, length - BODY)
  for (let i = 0; i < expected.length; i++) if (expected[i] !== tail[i]) return undefined
  return { kind: body[0]!, a: getU48(body, 1), b: getU48(body, 7), c: getU48(body, 13) }
}

export const Kind = {
  featuredOwner: 1,
  holderOwner: 2,
  address: 3,
  tokenAccount: 4,
  previousTokenAccount: 5,
  addressAccount: 6,
  addressTx: 7,
  tokenTx: 8,
  mint: 9
} as const

// ---------------------------------------------------------------------------
// The model.

const FEATURED = 4
export const TOKEN_PROGRAM = World.COMPRESSED_TOKEN_PROGRAM
export const STATE_TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
export const ADDRESS_TREE = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
// Below the emulator's first simulated slot (300,000,000 or more), so history is in the past.
const ADDRESS_BASE_SLOT = 299_000_000
const TOKEN_BASE_SLOT = 298_000_000

/**
 * How many compressed token mints are seeded.
 *
 * @since 0.1.0
 * @category data
 */
export const mintCount = (ds: Dataset.Dataset) => Math.max(1, ds.size("compression.mints", 12))
export const addressCount = (ds: Dataset.Dataset) => Math.max(1, ds.size("compression.addresses", 8))

/**
 * The address of mint `k`.
 *
 * @since 0.1.0
 * @category data
 */
export const mintAt = (ds: Dataset.Dataset, k: number): string => seal(ds, 32, Kind.mint, k)

/**
 * Featured owner `j` (0..3): a top holder of every mint, with several token accounts.
 *
 * @since 0.1.0
 * @category data
 */
export const featuredOwner = (ds: Dataset.Dataset, j: number): string => seal(ds, 32, Kind.featuredOwner, j)

/**
 * The address of compressed account `n` (address 0 has the big signature list).
 *
 * @since 0.1.0
 * @category data
 */
export const addressAt = (ds: Dataset.Dataset, n: number): string => seal(ds, 32, Kind.address, n)

/**
 * How many holders mint `k` has.
 *
 * @since 0.1.0
 * @category data
 */
export const holderCount = (ds: Dataset.Dataset, k: number): number =>
  k === 0
    ? Math.max(FEATURED, ds.size("compression.mintHolders", 5_000))
    : FEATURED + ds.int(`compression:holders:${k}`, 60)

/**
 * How many signatures compressed account `n` has.
 *
 * @since 0.1.0
 * @category data
 */
export const signatureCount = (ds: Dataset.Dataset, n: number): number =>
  n === 0
    ? Math.max(1, ds.size("compression.bigAddressSignatures", 1_000_000))
    : 1 + ds.int(`compression:asigs:${n}`, 40)

export const ownerOf = (ds: Dataset.Dataset, k: number, i: number): string =>
  i < FEATURED ? featuredOwner(ds, (i + k) % FEATURED) : seal(ds, 32, Kind.holderOwner, k, i)

/** Strictly decreasing in `i`: (H - i) millions plus less than a million. */
export const balanceOf = (ds: Dataset.Dataset, k: number, i: number): bigint =>
  BigInt(holderCount(ds, k) - i) * 1_000_000n + BigInt(ds.int(`compression:bal:${k}:${i}`, 1_000_000)) +
  (k === 0 && i === 0 ? 2n ** 60n : 0n)

export const accountCount = (ds: Dataset.Dataset, k: number, i: number) => 1 + ds.int(`compression:naccts:${k}:${i}`, 3)

const amountOf = (ds: Dataset.Dataset, k: number, i: number, a: number): bigint => {
  const n = BigInt(accountCount(ds, k, i))
  const total = balanceOf(ds, k, i)
  const share = total / n
  return BigInt(a) === n - 1n ? total - share * (n - 1n) : share
}

/** Where a holder sits: mint `k`, rank `i`. */
interface Position {
  readonly k: number
  readonly i: number
}

export const positionsOf = (ds: Dataset.Dataset, owner: string): ReadonlyArray<Position> => {
  const s = unseal(ds, 32, owner)
  if (s === undefined) return []
  const mints = mintCount(ds)
  if (s.kind === Kind.featuredOwner && s.a < FEATURED && s.b === 0 && s.c === 0) {
    return Array.from({ length: mints }, (_, k) => ({ k, i: (((s.a - k) % FEATURED) + FEATURED) % FEATURED }))
  }
  if (s.kind === Kind.holderOwner && s.a < mints && s.b >= FEATURED && s.b < holderCount(ds, s.a) && s.c === 0) {
    return [{ k: s.a, i: s.b }]
  }
  return []
}

export const mintIndex = (ds: Dataset.Dataset, mint: string): number | undefined => {
  const s = unseal(ds, 32, mint)
  return s !== undefined && s.kind === Kind.mint && s.a < mintCount(ds) && s.b === 0 && s.c === 0 ? s.a : undefined
}

export const addressIndex = (ds: Dataset.Dataset, address: string): number | undefined => {
  const s = unseal(ds, 32, address)
  return s !== undefined && s.kind === Kind.address && s.a < addressCount(ds) && s.b === 0 && s.c === 0
    ? s.a
    : undefined
}

// Slots of token transactions: the mint (account 0) first, then one per later account.
const mintTxSlot = (ds: Dataset.Dataset, k: number, i: number) =>
  TOKEN_BASE_SLOT - 1_000_000 - ds.int(`compression:mintslot:${k}:${i}`, 1_000_000)
export const tokenTxSlot = (ds: Dataset.Dataset, k: number, i: number, a: number) =>
  a === 0 ? mintTxSlot(ds, k, i) : mintTxSlot(ds, k, i) + 1 + ds.int(`compression:txslot:${k}:${i}:${a}`, 900_000)

// Slots of an address's transactions, newest first: strictly decreasing in idx.
export const addressTxSlot = (ds: Dataset.Dataset, n: number, idx: number) =>
  ADDRESS_BASE_SLOT - 2 * idx - ds.int(`compression:aslot:${n}:${idx}`, 2)

// ---------------------------------------------------------------------------
// Wire values (plain JSON; bigints go out as bare numbers).

const leU64 = (value: bigint): Uint8Array => {
  const out = new Uint8Array(8)
  let v = value
  for (let i = 0; i < 8; i++) {
    out[i] = Number(v & 0xffn)
    v >>= 8n
  }
  return out
}

/** A Poseidon-like value: 32 bytes below the BN254 modulus. */
export const hash32 = (ds: Dataset.Dataset, label: string) => Base58.encode(Dataset.fieldElement(ds.bytes(label, 32)))

interface TokenDataWire {
  readonly mint: string
  readonly owner: string
  readonly amount: bigint
  readonly delegate: string | null
  readonly state: "initialized" | "frozen"
  readonly tlv: string | null
}

const tokenDataOf = (ds: Dataset.Dataset, k: number, i: number, a: number): TokenDataWire => {
  const label = `${k}:${i}:${a}`
  return {
    mint: mintAt(ds, k),
    owner: ownerOf(ds, k, i),
    amount: amountOf(ds, k, i, a),
    delegate: ds.int(`compression:delegated:${label}`, 10) === 0 ? ds.address(`compression:delegate:${label}`) : null,
    state: ds.int(`compression:frozen:${label}`, 25) === 0 ? "frozen" : "initialized",
    tlv: null
  }
}

/** The token account layout: mint, owner, amount (u64 LE), delegate option, state, tlv option. */
const tokenAccountData = (t: TokenDataWire): string => {
  const mint = Base58.decode(t.mint)!
  const owner = Base58.decode(t.owner)!
  const delegate = t.delegate === null ? new Uint8Array([0]) : new Uint8Array([1, ...Base58.decode(t.delegate)!])
  const out = new Uint8Array(32 + 32 + 8 + delegate.length + 2)
  out.set(mint, 0)
  out.set(owner, 32)
  out.set(leU64(t.amount), 64)
  out.set(delegate, 72)
  out[72 + delegate.length] = t.state === "frozen" ? 2 : 1
  out[73 + delegate.length] = 0
  return encodeBase64(out)
}

export const tokenAccount = (ds: Dataset.Dataset, k: number, i: number, a: number, previous: boolean) => {
  const tokenData = tokenDataOf(ds, k, i, a)
  const label = `${previous ? "prev" : "cur"}:${k}:${i}:${a}`
  const leafIndex = ds.int(`compression:leaf:${label}`, 2 ** 28)
  const account = {
    hash: seal(ds, 32, previous ? Kind.previousTokenAccount : Kind.tokenAccount, k, i, a),
    address: null,
    data: {
      discriminator: 2,
      data: tokenAccountData(tokenData),
      dataHash: hash32(ds, `compression:datahash:${label}`)
    },
    owner: TOKEN_PROGRAM,
    lamports: 0,
    tree: STATE_TREE,
    leafIndex,
    // One account in 16 sits in a V2 output queue: no sequence number yet.
    seq: ds.int(`compression:queued:${label}`, 16) === 0 ? null : leafIndex + 1,
    slotCreated: previous ? mintTxSlot(ds, k, i) : tokenTxSlot(ds, k, i, a)
  }
  return { account, tokenData }
}

/** A compressed token account the world opened, shaped as the seeded ones. */
export const worldTokenAccount = (ds: Dataset.Dataset, c: World.CompressedTokenAccount) => {
  const tokenData: TokenDataWire = {
    mint: c.mint,
    owner: c.owner,
    amount: c.amount,
    delegate: null,
    state: "initialized",
    tlv: null
  }
  const account = {
    hash: c.hash,
    address: null,
    data: {
      discriminator: 2,
      data: tokenAccountData(tokenData),
      dataHash: hash32(ds, `compression:datahash:world:${c.hash}`)
    },
    owner: TOKEN_PROGRAM,
    lamports: 0,
    tree: STATE_TREE,
    leafIndex: c.leafIndex,
    seq: c.leafIndex + 1 as number | null,
    slotCreated: c.slotCreated
  }
  return { account, tokenData }
}

/** The signature item of a world transaction (its slot and block time are the world's). */
const worldSignatureItem = (world: World.World, signature: string) => {
  const tx = world.transaction(signature)!
  return { signature, slot: tx.slot, blockTime: tx.blockTime }
}

/** Signatures of the world's compressed token accounts (of an owner, or all), newest first. */
export const worldTokenSignatures = (world: World.World, owner?: string) =>
  [...(owner === undefined ? world.compressedTokenAccounts() : world.compressedTokenAccountsOf(owner))]
    .reverse()
    .map((c) => worldSignatureItem(world, c.signature))

/** The holders of a mint the world compressed, by balance (largest first), each the sum of its accounts. */
export const worldHolders = (world: World.World, mint: string) => {
  const balances = new Map<string, bigint>()
  for (const c of world.compressedTokenAccounts()) {
    if (c.mint === mint) balances.set(c.owner, (balances.get(c.owner) ?? 0n) + c.amount)
  }
  return arrayList(
    [...balances].map(([owner, balance]) => ({ owner, balance })).sort((x, y) =>
      x.balance === y.balance ? 0 : x.balance > y.balance ? -1 : 1
    )
  )
}

/** `head` then `tail`, as one lazy list. */
export const concat = <A>(head: ReadonlyArray<A>, tail: Dataset.LazyList<A>): Dataset.LazyList<A> =>
  head.length === 0 ?
    tail :
    Dataset.lazyList(head.length + tail.length, (i) => i < head.length ? head[i]! : tail.get(i - head.length))

export const addressAccount = (ds: Dataset.Dataset, n: number, version: number) => {
  const label = `${n}:${version}`
  const discriminator = ds.bytes(`compression:disc:${n}`, 8)
  let disc = 0n
  for (const b of discriminator) disc = (disc << 8n) | BigInt(b)
  const total = signatureCount(ds, n)
  return {
    hash: seal(ds, 32, Kind.addressAccount, n, version),
    address: addressAt(ds, n),
    data: {
      discriminator: disc,
      data: encodeBase64(ds.bytes(`compression:adata:${label}`, 40)),
      dataHash: hash32(ds, `compression:adatahash:${label}`)
    },
    owner: ds.address("compression:program"),
    // Address 0 holds more lamports than 2^53 (10^16: ten million SOL), to keep u64 handling honest.
    lamports: n === 0 ? 10n ** 16n + BigInt(version) : 1_000_000 + version,
    tree: STATE_TREE,
    leafIndex: ds.int(`compression:aleaf:${label}`, 2 ** 28),
    seq: version,
    slotCreated: addressTxSlot(ds, n, total - version)
  }
}

/** A seeded signature: its slot is in the past, its time the world's one clock's. */
export const signatureItem = (ds: Dataset.Dataset, signature: string, slot: number) => ({
  signature,
  slot,
  blockTime: World.pastBlockTime(ds, slot)
})

export const addressSignatures = (ds: Dataset.Dataset, n: number) =>
  Dataset.lazyList(signatureCount(ds, n), (idx) => {
    const slot = addressTxSlot(ds, n, idx)
    return signatureItem(ds, seal(ds, 64, Kind.addressTx, n, idx), slot)
  })

export const holders = (ds: Dataset.Dataset, k: number) =>
  Dataset.lazyList(holderCount(ds, k), (i) => ({ owner: ownerOf(ds, k, i), balance: balanceOf(ds, k, i) }))

export const arrayList = <A>(items: ReadonlyArray<A>) => Dataset.lazyList(items.length, (i) => items[i]!)

export const ownerAccounts = (ds: Dataset.Dataset, owner: string, mint: number | undefined) =>
  positionsOf(ds, owner)
    .filter((p) => mint === undefined || p.k === mint)
    .flatMap((p) => Array.from({ length: accountCount(ds, p.k, p.i) }, (_, a) => ({ ...p, a })))

// ---------------------------------------------------------------------------
// A minimal legacy transaction in wire format, so `transaction` parses as one (core writes the compact-u16s).

const wireTransaction = (ds: Dataset.Dataset, signature: string, feePayer: string, program: string): string => {
  const data = ds.bytes(`compression:ixdata:${signature}`, 24)
  const bytes = [
    ...Transaction.encodeCompactU16(1),
    ...Base58.decode(signature)!,
    1,
    0,
    1, // header: one signer, no read-only signed, one read-only unsigned (the program)
    ...Transaction.encodeCompactU16(2),
    ...Base58.decode(feePayer)!,
    ...Base58.decode(program)!,
    ...ds.bytes(`compression:blockhash:${signature}`, 32),
    ...Transaction.encodeCompactU16(1),
    1,
    ...Transaction.encodeCompactU16(1),
    0,
    ...Transaction.encodeCompactU16(data.length),
    ...data
  ]
  return encodeBase64(Uint8Array.from(bytes))
}

export const transactionBody = (
  ds: Dataset.Dataset,
  signature: string,
  slot: number,
  feePayer: string,
  program: string
) => ({
  slot,
  blockTime: World.pastBlockTime(ds, slot),
  version: "legacy",
  transaction: [wireTransaction(ds, signature, feePayer, program), "base64"],
  meta: {
    err: null,
    status: { Ok: null },
    fee: 5000,
    preBalances: [1_000_000_000, 1],
    postBalances: [999_995_000, 1],
    innerInstructions: [],
    logMessages: [],
    preTokenBalances: [],
    postTokenBalances: [],
    rewards: []
  }
})

/**
 * The owner of every address account (a program).
 *
 * @since 0.1.0
 * @category data
 */
export const programOwner = (ds: Dataset.Dataset): string => ds.address("compression:program")

/**
 * Raw supply of compressed token mint `mint`: the sum of its holders' balances (computed once per
 * instance), or undefined for an address that is not one of the seeded compressed mints.
 *
 * @since 0.1.0
 * @category data
 */
export const mintSupply = (ds: Dataset.Dataset, mint: string): bigint | undefined => {
  const k = mintIndex(ds, mint)
  if (k === undefined) return undefined
  let known = supplies.get(ds)
  if (known === undefined) supplies.set(ds, known = new Map())
  let sum = known.get(k)
  if (sum === undefined) {
    sum = 0n
    for (let i = 0; i < holderCount(ds, k); i++) sum += balanceOf(ds, k, i)
    known.set(k, sum)
  }
  return sum
}
const supplies = new WeakMap<Dataset.Dataset, Map<number, bigint>>()
