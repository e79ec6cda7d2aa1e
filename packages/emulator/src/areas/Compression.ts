/**
 * The compression (ZK, Photon) methods the service documents, over seeded compressed state.
 *
 * Data, all derived from the dataset, nothing stored:
 * - `compression.mints` (default 12) token mints. Mint 0 has `compression.mintHolders`
 *   (default 5,000) holders, the others 4..63. Holders are generated in descending
 *   balance order; the top holder of mint 0 holds more than 2^60 (exact as a bigint).
 * - Four featured owners are the top four holders of every mint (in rotation). Every
 *   other holder is an owner of its own. A holder's balance is split over one to three
 *   compressed token accounts, so accounts, balances and holders agree.
 * - `compression.addresses` (default 8) compressed accounts with an address. Address 0
 *   has `compression.bigAddressSignatures` (default 1,000,000) signatures, the others
 *   1..40. Each signature is the transaction that opened one version of the account
 *   and closed the version before.
 * - Token transactions: the first account of a holder was minted together with a
 *   "previous" version of each other account; each later transaction closed one
 *   previous version and opened the current account (same owner, mint and amount).
 *
 * - What the world compressed since start (`World.WorldApi.compress` of tokens): each compressed
 *   token account it opened follows its owner's seeded ones in the account and balance lists, and
 *   its transaction heads the owner's and the token program's signature lists (it is the newest).
 *
 * Ids carry their own coordinates (`seal`): an owner, a mint, an account hash or a
 * signature decodes back to the entry it names in O(1), so a list of a million
 * signatures never needs an index. To a client they look like random base58.
 *
 * Requests are checked as Photon checks them: unknown params, missing or malformed
 * fields and a limit above 1000 answer -32602 with serde-like messages. Cursors are
 * the emulator's opaque base58 (`Paging`). Charged by each method's entry
 * of core's `Endpoints`.
 *
 * @since 0.1.0
 */

import * as Request from "@solfx/core/CompressionRequest"
import * as Endpoints from "@solfx/core/Endpoints"
import { base58ByteLength, encodeBase64 } from "@solfx/core/Primitives"
import * as Transaction from "@solfx/core/Transaction"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, Handler } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as Dataset from "../Dataset.js"
import * as Base58 from "../internal/Base58.js"
import * as Paging from "../Paging.js"
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

const seal = (ds: Dataset.Dataset, length: 32 | 64, kind: number, a = 0, b = 0, c = 0): string =>
  Base58.encode(sealBytes(ds, length, kind, a, b, c))

const unseal = (ds: Dataset.Dataset, length: 32 | 64, id: string): Sealed | undefined => {
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

const Kind = {
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
const TOKEN_PROGRAM = World.COMPRESSED_TOKEN_PROGRAM
const STATE_TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"
const ADDRESS_TREE = "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
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
const addressCount = (ds: Dataset.Dataset) => Math.max(1, ds.size("compression.addresses", 8))

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

const ownerOf = (ds: Dataset.Dataset, k: number, i: number): string =>
  i < FEATURED ? featuredOwner(ds, (i + k) % FEATURED) : seal(ds, 32, Kind.holderOwner, k, i)

/** Strictly decreasing in `i`: (H - i) millions plus less than a million. */
const balanceOf = (ds: Dataset.Dataset, k: number, i: number): bigint =>
  BigInt(holderCount(ds, k) - i) * 1_000_000n + BigInt(ds.int(`compression:bal:${k}:${i}`, 1_000_000)) +
  (k === 0 && i === 0 ? 2n ** 60n : 0n)

const accountCount = (ds: Dataset.Dataset, k: number, i: number) => 1 + ds.int(`compression:naccts:${k}:${i}`, 3)

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

const positionsOf = (ds: Dataset.Dataset, owner: string): ReadonlyArray<Position> => {
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

const mintIndex = (ds: Dataset.Dataset, mint: string): number | undefined => {
  const s = unseal(ds, 32, mint)
  return s !== undefined && s.kind === Kind.mint && s.a < mintCount(ds) && s.b === 0 && s.c === 0 ? s.a : undefined
}

const addressIndex = (ds: Dataset.Dataset, address: string): number | undefined => {
  const s = unseal(ds, 32, address)
  return s !== undefined && s.kind === Kind.address && s.a < addressCount(ds) && s.b === 0 && s.c === 0
    ? s.a
    : undefined
}

// Slots of token transactions: the mint (account 0) first, then one per later account.
const mintTxSlot = (ds: Dataset.Dataset, k: number, i: number) =>
  TOKEN_BASE_SLOT - 1_000_000 - ds.int(`compression:mintslot:${k}:${i}`, 1_000_000)
const tokenTxSlot = (ds: Dataset.Dataset, k: number, i: number, a: number) =>
  a === 0 ? mintTxSlot(ds, k, i) : mintTxSlot(ds, k, i) + 1 + ds.int(`compression:txslot:${k}:${i}:${a}`, 900_000)

// Slots of an address's transactions, newest first: strictly decreasing in idx.
const addressTxSlot = (ds: Dataset.Dataset, n: number, idx: number) =>
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
const hash32 = (ds: Dataset.Dataset, label: string) => Base58.encode(Dataset.fieldElement(ds.bytes(label, 32)))

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

const tokenAccount = (ds: Dataset.Dataset, k: number, i: number, a: number, previous: boolean) => {
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
const worldTokenAccount = (ds: Dataset.Dataset, c: World.CompressedTokenAccount) => {
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
const worldTokenSignatures = (world: World.World, owner?: string) =>
  [...(owner === undefined ? world.compressedTokenAccounts() : world.compressedTokenAccountsOf(owner))]
    .reverse()
    .map((c) => worldSignatureItem(world, c.signature))

/** The holders of a mint the world compressed, by balance (largest first), each the sum of its accounts. */
const worldHolders = (world: World.World, mint: string) => {
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
const concat = <A>(head: ReadonlyArray<A>, tail: Dataset.LazyList<A>): Dataset.LazyList<A> =>
  head.length === 0 ?
    tail :
    Dataset.lazyList(head.length + tail.length, (i) => i < head.length ? head[i]! : tail.get(i - head.length))

const addressAccount = (ds: Dataset.Dataset, n: number, version: number) => {
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
const signatureItem = (ds: Dataset.Dataset, signature: string, slot: number) => ({
  signature,
  slot,
  blockTime: World.pastBlockTime(ds, slot)
})

const addressSignatures = (ds: Dataset.Dataset, n: number) =>
  Dataset.lazyList(signatureCount(ds, n), (idx) => {
    const slot = addressTxSlot(ds, n, idx)
    return signatureItem(ds, seal(ds, 64, Kind.addressTx, n, idx), slot)
  })

const holders = (ds: Dataset.Dataset, k: number) =>
  Dataset.lazyList(holderCount(ds, k), (i) => ({ owner: ownerOf(ds, k, i), balance: balanceOf(ds, k, i) }))

const arrayList = <A>(items: ReadonlyArray<A>) => Dataset.lazyList(items.length, (i) => items[i]!)

const ownerAccounts = (ds: Dataset.Dataset, owner: string, mint: number | undefined) =>
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

const transactionBody = (ds: Dataset.Dataset, signature: string, slot: number, feePayer: string, program: string) => ({
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

// ---------------------------------------------------------------------------
// Params, checked the way Photon's serde structs check them.

type Params = Record<string, unknown>

const invalid = (message: string) => new RpcFailure(-32602, `Invalid params: ${message}`)

const shown = (v: unknown): string =>
  typeof v === "string" ? `string ${JSON.stringify(v)}` : v === null ? "null" : `${typeof v} \`${String(v)}\``

const paramsOf = (
  raw: unknown,
  fields: { readonly required: ReadonlyArray<string>; readonly optional: ReadonlyArray<string> }
): Effect.Effect<Params, RpcFailure> =>
  Effect.suspend(() => {
    const all = [...fields.required, ...fields.optional]
    if (raw === undefined || raw === null) {
      return fields.required.length === 0
        ? Effect.succeed({})
        : Effect.fail(invalid(`missing field \`${fields.required[0]}\``))
    }
    if (typeof raw !== "object" || Array.isArray(raw)) {
      return Effect.fail(invalid(`invalid type: ${Array.isArray(raw) ? "sequence" : shown(raw)}, expected a map`))
    }
    const params = raw as Params
    for (const key of Object.keys(params)) {
      if (!all.includes(key)) {
        return Effect.fail(
          invalid(`unknown field \`${key}\`, expected one of ${all.map((f) => `\`${f}\``).join(", ")}`)
        )
      }
    }
    for (const key of fields.required) {
      if (params[key] === undefined || params[key] === null) return Effect.fail(invalid(`missing field \`${key}\``))
    }
    return Effect.succeed(params)
  })

const pubkey = (params: Params, key: string): Effect.Effect<string | undefined, RpcFailure> => {
  const v = params[key]
  if (v === undefined || v === null) return Effect.succeed(undefined)
  return typeof v === "string" && base58ByteLength(v) === 32
    ? Effect.succeed(v)
    : Effect.fail(
      invalid(`invalid value: ${shown(v)}, expected a base58-encoded 32-byte public key (field \`${key}\`)`)
    )
}

const requiredPubkey = (params: Params, key: string): Effect.Effect<string, RpcFailure> =>
  Effect.flatMap(
    pubkey(params, key),
    (v) => v === undefined ? Effect.fail(invalid(`missing field \`${key}\``)) : Effect.succeed(v)
  )

const limitOf = (params: Params): Effect.Effect<number, RpcFailure> => {
  const v = params["limit"]
  if (v === undefined || v === null) return Effect.succeed(Request.MAX_LIMIT)
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    return Effect.fail(invalid(`invalid type: ${shown(v)}, expected u64`))
  }
  if (v > Request.MAX_LIMIT) {
    return Effect.fail(
      invalid(`invalid value: integer \`${v}\`, expected a value less than or equal to ${Request.MAX_LIMIT}`)
    )
  }
  if (v === 0) {
    return Effect.fail(invalid(`invalid value: integer \`0\`, expected a value from 1 to ${Request.MAX_LIMIT}`))
  }
  return Effect.succeed(v)
}

const cursorOf = (params: Params): Effect.Effect<string | undefined, RpcFailure> => {
  const v = params["cursor"]
  if (v === undefined || v === null) return Effect.succeed(undefined)
  return typeof v === "string"
    ? Effect.succeed(v)
    : Effect.fail(invalid(`invalid type: ${shown(v)}, expected a string`))
}

const paging = { optional: ["cursor", "limit"] } as const

/**
 * One page of `list` in the `{ context, value: { items, cursor } }` wrapper. Its cursors are
 * bound to `scope`: the method and the filters of the query, so another query's cursor is refused.
 */
const page = <A>(ctx: AreaContext, params: Params, list: Dataset.LazyList<A>, scope: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const limit = yield* limitOf(params)
    const cursor = yield* cursorOf(params)
    const value = yield* Paging.slice(list, cursor, limit, Request.MAX_LIMIT, scope.join("|"))
    return { context: { slot: ctx.slot() }, value }
  })

/** A method's handler: `area.rpc` below pairs each with its entry of `Endpoints.compression`. */
type Handle = Handler["handle"]

const notFound = (what: string) => new RpcFailure(-32000, `Record Not Found: ${what}`)

// ---------------------------------------------------------------------------
// The methods.

const getCompressionSignaturesForAddress: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["address"], ...paging })
    const address = yield* requiredPubkey(params, "address")
    const n = addressIndex(ctx.dataset, address)
    return yield* page(ctx, params, n === undefined ? arrayList([]) : addressSignatures(ctx.dataset, n), [
      "getCompressionSignaturesForAddress",
      address
    ])
  })

const getCompressedMintTokenHolders: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["mint"], ...paging })
    const mint = yield* requiredPubkey(params, "mint")
    const k = mintIndex(ctx.dataset, mint)
    return yield* page(
      ctx,
      params,
      k === undefined ? worldHolders(World.of(ctx.state), mint) : holders(ctx.dataset, k),
      [
        "getCompressedMintTokenHolders",
        mint
      ]
    )
  })

const NON_VOTING_PER_SLOT = 4

const getLatestNonVotingSignatures: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], ...paging })
    const limit = yield* limitOf(params)
    const cursor = yield* cursorOf(params)
    const ds = ctx.dataset
    const now = ctx.slot()
    // Recent slots, since the world started or before: the world's clock dates them.
    const clock = World.of(ctx.state).blockTimeOf
    const list = Dataset.lazyList(100_000, (i) => {
      const slot = now - Math.floor(i / NON_VOTING_PER_SLOT)
      const label = `${slot}:${i % NON_VOTING_PER_SLOT}`
      return {
        signature: ds.signature(`compression:nonvoting:${label}`),
        slot,
        blockTime: clock(slot),
        error: ds.int(`compression:nonvoting:failed:${label}`, 8) === 0
          ? "{\"InstructionError\":[0,{\"Custom\":6001}]}"
          : null
      }
    })
    const slice = yield* Paging.slice(list, cursor, limit, Request.MAX_LIMIT, "getLatestNonVotingSignatures")
    // Photon sends no cursor for this method.
    return { context: { slot: now }, value: { items: slice.items } }
  })

/** The token accounts of an owner, V1 or V2 shaped: the same accounts in the same order. */
const tokenAccountsByOwner = (shape: (entry: ReturnType<typeof tokenAccount>) => unknown): Handle => (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], optional: ["mint", "cursor", "limit"] })
    const owner = yield* requiredPubkey(params, "owner")
    const mint = yield* pubkey(params, "mint")
    const ds = ctx.dataset
    const k = mint === undefined ? undefined : mintIndex(ds, mint)
    const refs = mint !== undefined && k === undefined ? [] : ownerAccounts(ds, owner, k)
    // After the seeded accounts, the ones the world opened (oldest first).
    const recent = World.of(ctx.state).compressedTokenAccountsOf(owner).filter((c) =>
      mint === undefined || c.mint === mint
    )
    return yield* page(
      ctx,
      params,
      Dataset.lazyList(refs.length + recent.length, (x) => {
        if (x >= refs.length) return shape(worldTokenAccount(ds, recent[x - refs.length]!))
        const r = refs[x]!
        return shape(tokenAccount(ds, r.k, r.i, r.a, false))
      }),
      // Both names share one scope: a cursor of either pages the other.
      ["getCompressedTokenAccountsByOwner", owner, mint ?? ""]
    )
  })

const getCompressedTokenAccountsByOwner = tokenAccountsByOwner((e) => e)

const getCompressedTokenBalancesByOwnerV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], optional: ["mint", "cursor", "limit"] })
    const owner = yield* requiredPubkey(params, "owner")
    const mint = yield* pubkey(params, "mint")
    const ds = ctx.dataset
    const k = mint === undefined ? undefined : mintIndex(ds, mint)
    const positions = mint !== undefined && k === undefined
      ? []
      : positionsOf(ds, owner).filter((p) => k === undefined || p.k === k)
    // After the seeded mints, the world's (one a mint, the sum of its accounts; no seeded mint is one).
    const recent = new Map<string, bigint>()
    for (const c of World.of(ctx.state).compressedTokenAccountsOf(owner)) {
      if (mint === undefined || c.mint === mint) recent.set(c.mint, (recent.get(c.mint) ?? 0n) + c.amount)
    }
    const worldBalances = [...recent].map(([m, balance]) => ({ mint: m, balance }))
    return yield* page(
      ctx,
      params,
      Dataset.lazyList(positions.length + worldBalances.length, (x) => {
        if (x >= positions.length) return worldBalances[x - positions.length]!
        const p = positions[x]!
        return { mint: mintAt(ds, p.k), balance: balanceOf(ds, p.k, p.i) }
      }),
      ["getCompressedTokenBalancesByOwnerV2", owner, mint ?? ""]
    )
  })

const getCompressionSignaturesForTokenOwner: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    const ds = ctx.dataset
    const items = ownerAccounts(ds, owner, undefined)
      .map((r) => signatureItem(ds, seal(ds, 64, Kind.tokenTx, r.k, r.i, r.a), tokenTxSlot(ds, r.k, r.i, r.a)))
      .sort((x, y) => y.slot - x.slot || (x.signature < y.signature ? -1 : 1))
    // The world's transactions are newer than every seeded one: they come first.
    const recent = worldTokenSignatures(World.of(ctx.state), owner)
    return yield* page(ctx, params, arrayList([...recent, ...items]), [
      "getCompressionSignaturesForTokenOwner",
      owner
    ])
  })

interface ProofInput {
  readonly hash: string
  readonly tree: string
  readonly leafIndex: number
}

/** The current account a hash names, or why it cannot be proven. */
const provable = (ctx: AreaContext, hash: string): Effect.Effect<ProofInput, RpcFailure> => {
  const ds = ctx.dataset
  const opened = World.of(ctx.state).compressedTokenAccount(hash)
  if (opened !== undefined && opened.hash === hash) {
    return Effect.succeed({ hash, tree: STATE_TREE, leafIndex: opened.leafIndex })
  }
  const s = unseal(ds, 32, hash)
  if (s !== undefined && s.kind === Kind.tokenAccount && s.a < mintCount(ds) && s.b < holderCount(ds, s.a)) {
    if (s.c < accountCount(ds, s.a, s.b)) {
      const { account } = tokenAccount(ds, s.a, s.b, s.c, false)
      return Effect.succeed({ hash, tree: account.tree, leafIndex: account.leafIndex })
    }
  }
  if (s !== undefined && s.kind === Kind.addressAccount && s.a < addressCount(ds)) {
    const current = signatureCount(ds, s.a)
    if (s.b === current) {
      const account = addressAccount(ds, s.a, s.b)
      return Effect.succeed({ hash, tree: account.tree, leafIndex: account.leafIndex })
    }
    if (s.b >= 1 && s.b < current) {
      return Effect.fail(new RpcFailure(-32000, `Validation Error: account ${hash} is spent`))
    }
  }
  if (s !== undefined && s.kind === Kind.previousTokenAccount) {
    return Effect.fail(new RpcFailure(-32000, `Validation Error: account ${hash} is spent`))
  }
  return Effect.fail(notFound(`account ${hash} not found`))
}

/** What a validity proof request asks for, checked as Photon checks it, and the proof's values. */
const proofInputs = (raw: unknown, ctx: AreaContext, optional: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], optional })
    const ds = ctx.dataset
    const hashesRaw = params["hashes"] ?? []
    const newRaw = params["newAddressesWithTrees"] ?? []
    const legacyRaw = params["newAddresses"] ?? []
    if (!Array.isArray(hashesRaw) || !Array.isArray(newRaw) || !Array.isArray(legacyRaw)) {
      return yield* Effect.fail(invalid("invalid type: expected a sequence"))
    }
    const hashes: Array<string> = []
    for (const h of hashesRaw) {
      if (typeof h !== "string" || base58ByteLength(h) !== 32) {
        return yield* Effect.fail(invalid(`invalid value: ${shown(h)}, expected a base58-encoded 32-byte hash`))
      }
      hashes.push(h)
    }
    const addresses: Array<{ address: string; tree: string }> = []
    for (const entry of newRaw) {
      const e = typeof entry === "object" && entry !== null ? entry as Params : {}
      const address = yield* requiredPubkey(e, "address")
      const tree = yield* requiredPubkey(e, "tree")
      addresses.push({ address, tree })
    }
    for (const address of legacyRaw) {
      const a = yield* requiredPubkey({ address }, "address")
      addresses.push({ address: a, tree: ADDRESS_TREE })
    }
    if (hashes.length + addresses.length === 0) {
      return yield* Effect.fail(invalid("no hashes or new addresses to prove"))
    }
    if (hashes.length > Request.MAX_PROOF_INPUTS || addresses.length > Request.MAX_PROOF_INPUTS) {
      return yield* Effect.fail(
        new RpcFailure(
          -32000,
          `Validation Error: at most ${Request.MAX_PROOF_INPUTS} hashes and ${Request.MAX_PROOF_INPUTS} new addresses`
        )
      )
    }
    const accounts = yield* Effect.forEach(hashes, (h) => provable(ctx, h))
    for (const { address } of addresses) {
      if (addressIndex(ds, address) !== undefined) {
        return yield* Effect.fail(new RpcFailure(-32000, `Validation Error: address ${address} already exists`))
      }
    }
    const proof = ds.bytes(`compression:proof:${hashes.join(",")}|${addresses.map((a) => a.address).join(",")}`, 128)
    return {
      accounts,
      addresses,
      compressedProof: {
        a: Array.from(proof.subarray(0, 32)),
        b: Array.from(proof.subarray(32, 96)),
        c: Array.from(proof.subarray(96, 128))
      },
      rootOf: (tree: string) => hash32(ds, `compression:root:${tree}`),
      rootIndexOf: (tree: string) => ds.int(`compression:rootindex:${tree}`, 2400)
    }
  })

const getValidityProof: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const { accounts, addresses, compressedProof, rootIndexOf, rootOf } = yield* proofInputs(raw, ctx, [
      "hashes",
      "newAddressesWithTrees",
      "newAddresses"
    ])
    const ds = ctx.dataset
    return {
      context: { slot: ctx.slot() },
      value: {
        compressedProof,
        roots: [...accounts.map((a) => rootOf(a.tree)), ...addresses.map((a) => rootOf(a.tree))],
        rootIndices: [...accounts.map((a) => rootIndexOf(a.tree)), ...addresses.map((a) => rootIndexOf(a.tree))],
        leafIndices: [
          ...accounts.map((a) => a.leafIndex),
          ...addresses.map((a) => ds.int(`compression:lowleaf:${a.tree}:${a.address}`, 2 ** 28))
        ],
        leaves: [
          ...accounts.map((a) => a.hash),
          ...addresses.map((a) => hash32(ds, `compression:lowelement:${a.tree}:${a.address}`))
        ],
        merkleTrees: [...accounts.map((a) => a.tree), ...addresses.map((a) => a.tree)]
      }
    }
  })

const withTokenData = (entry: ReturnType<typeof tokenAccount>) => ({
  account: entry.account,
  optionalTokenData: entry.tokenData
})

/** The accounts a signature closed and opened, and its transaction; undefined for an unknown signature. */
const compressionInfoOf = (ds: Dataset.Dataset, signature: string) => {
  const s = unseal(ds, 64, signature)
  if (s !== undefined && s.kind === Kind.addressTx && s.a < addressCount(ds) && s.b < signatureCount(ds, s.a)) {
    const version = signatureCount(ds, s.a) - s.b
    const opened = addressAccount(ds, s.a, version)
    return {
      closedAccounts: version > 1 ? [{ account: addressAccount(ds, s.a, version - 1), optionalTokenData: null }] : [],
      openedAccounts: [{ account: opened, optionalTokenData: null }],
      transaction: transactionBody(
        ds,
        signature,
        addressTxSlot(ds, s.a, s.b),
        ds.address(`compression:payer:${s.a}`),
        opened.owner
      )
    }
  }
  if (
    s !== undefined && s.kind === Kind.tokenTx && s.a < mintCount(ds) && s.b < holderCount(ds, s.a) &&
    s.c < accountCount(ds, s.a, s.b)
  ) {
    const { a: k, b: i, c: a } = s
    const current = tokenAccount(ds, k, i, a, false)
    const opened = a === 0
      ? [
        withTokenData(current),
        ...Array.from(
          { length: accountCount(ds, k, i) - 1 },
          (_, x) => withTokenData(tokenAccount(ds, k, i, x + 1, true))
        )
      ]
      : [withTokenData(current)]
    return {
      closedAccounts: a === 0 ? [] : [withTokenData(tokenAccount(ds, k, i, a, true))],
      openedAccounts: opened,
      transaction: transactionBody(ds, signature, tokenTxSlot(ds, k, i, a), ownerOf(ds, k, i), TOKEN_PROGRAM)
    }
  }
  return undefined
}

/** The compress transaction of the world with this signature: it opened one account, closed none. */
const worldCompressionInfo = (ctx: AreaContext, signature: string) => {
  const world = World.of(ctx.state)
  const opened = world.compressedTokenAccount(signature)
  if (opened === undefined || opened.signature !== signature) return undefined
  const tx = world.transaction(signature)!
  return {
    closedAccounts: [],
    openedAccounts: [withTokenData(worldTokenAccount(ctx.dataset, opened))],
    transaction: {
      ...transactionBody(ctx.dataset, signature, tx.slot, tx.feePayer, TOKEN_PROGRAM),
      blockTime: tx.blockTime
    }
  }
}

/** A transaction with compression info, V1 or V2 shaped: the same accounts. */
const transactionWithCompressionInfo = (
  shape: (info: NonNullable<ReturnType<typeof compressionInfoOf>>, ds: Dataset.Dataset, signature: string) => unknown
): Handle =>
(raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["signature"], optional: [] })
    const signature = params["signature"]
    if (typeof signature !== "string" || base58ByteLength(signature) !== 64) {
      return yield* Effect.fail(
        invalid(`invalid value: ${shown(signature)}, expected a base58-encoded 64-byte signature`)
      )
    }
    const info = worldCompressionInfo(ctx, signature) ?? compressionInfoOf(ctx.dataset, signature)
    return info === undefined
      ? yield* Effect.fail(notFound(`transaction ${signature} not found`))
      : shape(info, ctx.dataset, signature)
  })

const getTransactionWithCompressionInfo = transactionWithCompressionInfo((
  { transaction, ...compressionInfo }
) => ({ compressionInfo, transaction }))

// ---------------------------------------------------------------------------
// Photon's V2 methods (what stateless.js 0.23 calls by default): the V1 accounts, each with its
// Merkle context in place of `tree`. Every account sits in the local V1 trees stateless.js knows.

const STATE_QUEUE = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148"
const ADDRESS_QUEUE = "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F"
// The batched (V2) address tree: its queue is the tree account itself.
const ADDRESS_TREE_V2 = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx"
const TreeType = { stateV1: 1, addressV1: 2, addressV2: 4 } as const

const contextOf = (treeType: number, tree: string, queue: string) => ({
  treeType,
  tree,
  queue,
  cpiContext: null,
  nextTreeContext: null
})

const addressContext = (tree: string) =>
  tree === ADDRESS_TREE_V2
    ? contextOf(TreeType.addressV2, tree, tree)
    : contextOf(TreeType.addressV1, tree, ADDRESS_QUEUE)

const accountV2 = <A extends { readonly tree: string }>({ tree, ...account }: A) => ({
  ...account,
  proveByIndex: false,
  merkleContext: contextOf(TreeType.stateV1, tree, STATE_QUEUE)
})

const getCompressedTokenAccountsByOwnerV2 = tokenAccountsByOwner(({ account, tokenData }) => ({
  account: accountV2(account),
  tokenData
}))

/** The owner's current accounts: only the program owning the address accounts has compressed accounts of its own. */
const getCompressedAccountsByOwnerV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    const ds = ctx.dataset
    const list = owner === programOwner(ds)
      ? Dataset.lazyList(addressCount(ds), (n) => accountV2(addressAccount(ds, n, signatureCount(ds, n))))
      : arrayList([])
    return yield* page(ctx, params, list, ["getCompressedAccountsByOwnerV2", owner])
  })

/** The current (unspent) account of a hash or an address, as getMultipleCompressedAccounts finds it. */
const currentAccount = (ctx: AreaContext, key: string, by: "hash" | "address") => {
  const ds = ctx.dataset
  const opened = by === "hash" ? World.of(ctx.state).compressedTokenAccount(key) : undefined
  if (opened !== undefined && opened.hash === key) return worldTokenAccount(ds, opened).account
  if (by === "address") {
    const n = addressIndex(ds, key)
    return n === undefined ? undefined : addressAccount(ds, n, signatureCount(ds, n))
  }
  const s = unseal(ds, 32, key)
  if (s === undefined) return undefined
  if (s.kind === Kind.tokenAccount && s.a < mintCount(ds) && s.b < holderCount(ds, s.a)) {
    return s.c < accountCount(ds, s.a, s.b) ? tokenAccount(ds, s.a, s.b, s.c, false).account : undefined
  }
  if (s.kind === Kind.addressAccount && s.a < addressCount(ds) && s.b === signatureCount(ds, s.a)) {
    return addressAccount(ds, s.a, s.b)
  }
  return undefined
}

const getMultipleCompressedAccountsV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], optional: ["hashes", "addresses"] })
    const hashes = params["hashes"] ?? undefined
    const addresses = params["addresses"] ?? undefined
    if ((hashes === undefined) === (addresses === undefined)) {
      return yield* Effect.fail(new RpcFailure(-32000, "Validation Error: exactly one of hashes or addresses"))
    }
    const by = hashes === undefined ? "address" : "hash"
    const keys = hashes ?? addresses
    if (!Array.isArray(keys)) return yield* Effect.fail(invalid("invalid type: expected a sequence"))
    if (keys.length > Request.MAX_LIMIT) {
      return yield* Effect.fail(
        new RpcFailure(
          -32000,
          `Validation Error: at most ${Request.MAX_LIMIT} ${by === "hash" ? "hashes" : "addresses"}`
        )
      )
    }
    const checked = yield* Effect.forEach(keys, (key) => requiredPubkey({ [by]: key }, by))
    // Photon answers null for a hash it does not hold (or one spent): stateless.js refuses such a
    // list, but that is the service's answer.
    const items = checked.map((key) => {
      const account = currentAccount(ctx, key, by)
      return account === undefined ? null : accountV2(account)
    })
    return { context: { slot: ctx.slot() }, value: { items } }
  })

const getValidityProofV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const { accounts, addresses, compressedProof, rootIndexOf, rootOf } = yield* proofInputs(raw, ctx, [
      "hashes",
      "newAddressesWithTrees"
    ])
    return {
      context: { slot: ctx.slot() },
      value: {
        compressedProof,
        accounts: accounts.map((a) => ({
          hash: a.hash,
          root: rootOf(a.tree),
          rootIndex: { rootIndex: rootIndexOf(a.tree), proveByIndex: false },
          leafIndex: a.leafIndex,
          merkleContext: contextOf(TreeType.stateV1, a.tree, STATE_QUEUE)
        })),
        addresses: addresses.map((a) => ({
          address: a.address,
          root: rootOf(a.tree),
          rootIndex: rootIndexOf(a.tree),
          merkleContext: addressContext(a.tree)
        }))
      }
    }
  })

const getTransactionWithCompressionInfoV2 = transactionWithCompressionInfo((
  { closedAccounts, openedAccounts, transaction },
  ds,
  signature
) => ({
  compressionInfo: {
    closedAccounts: closedAccounts.map(({ account, optionalTokenData }) => ({
      account: {
        account: accountV2(account),
        nullifier: hash32(ds, `compression:nullifier:${account.hash}`),
        txHash: hash32(ds, `compression:txhash:${signature}`)
      },
      optionalTokenData
    })),
    openedAccounts: openedAccounts.map(({ account, optionalTokenData }) => ({
      account: accountV2(account),
      optionalTokenData
    }))
  },
  transaction
}))

/**
 * The owner of every address account (a program).
 *
 * @since 0.1.0
 * @category data
 */
export const programOwner = (ds: Dataset.Dataset): string => ds.address("compression:program")

/**
 * Every token transaction (one per token account of every holder of every mint, about 11,000 by
 * default), newest first: the history of the token program that owns the accounts. Positions and
 * slots are sorted once per instance; signatures are sealed only for the page served.
 */
const tokenProgramSignatures = (ctx: AreaContext) => {
  const ds = ctx.dataset
  const rows = ctx.state("compression:token-program-signatures", () => {
    const out: Array<{ readonly k: number; readonly i: number; readonly a: number; readonly slot: number }> = []
    for (let k = 0; k < mintCount(ds); k++) {
      for (let i = 0; i < holderCount(ds, k); i++) {
        for (let a = 0; a < accountCount(ds, k, i); a++) out.push({ k, i, a, slot: tokenTxSlot(ds, k, i, a) })
      }
    }
    return out.sort((x, y) => y.slot - x.slot || x.k - y.k || x.i - y.i || x.a - y.a)
  })
  return Dataset.lazyList(rows.length, (x) => {
    const r = rows[x]!
    return signatureItem(ds, seal(ds, 64, Kind.tokenTx, r.k, r.i, r.a), r.slot)
  })
}

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

/**
 * The signatures of every address account, newest first: the history of their owner, the program.
 * Address 0's list is long (1,000,000 by default) and the others short (at most 40 each): the short
 * ones are merged with the head of address 0's down to their oldest slot; past it, address 0's own.
 */
const programSignatures = (ds: Dataset.Dataset) => {
  const head: Array<{ readonly n: number; readonly idx: number; readonly slot: number }> = []
  let oldest = Number.POSITIVE_INFINITY
  for (let n = 1; n < addressCount(ds); n++) {
    for (let idx = 0; idx < signatureCount(ds, n); idx++) {
      const slot = addressTxSlot(ds, n, idx)
      head.push({ n, idx, slot })
      oldest = Math.min(oldest, slot)
    }
  }
  const bigCount = signatureCount(ds, 0)
  let taken = 0
  while (taken < bigCount && addressTxSlot(ds, 0, taken) >= oldest) {
    head.push({ n: 0, idx: taken, slot: addressTxSlot(ds, 0, taken) })
    taken++
  }
  head.sort((x, y) => y.slot - x.slot || x.n - y.n || x.idx - y.idx)
  const total = head.length + bigCount - taken
  const item = (n: number, idx: number) =>
    signatureItem(ds, seal(ds, 64, Kind.addressTx, n, idx), addressTxSlot(ds, n, idx))
  return Dataset.lazyList(total, (x) => {
    if (x < head.length) return item(head[x]!.n, head[x]!.idx)
    return item(0, taken + x - head.length)
  })
}

const getCompressionSignaturesForOwner: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    // Token accounts belong to the token program (their holders are `tokenData.owner`): its history is
    // every token transaction; the address accounts belong to their program.
    const list = owner === programOwner(ctx.dataset)
      ? programSignatures(ctx.dataset)
      : owner === TOKEN_PROGRAM
      ? concat(worldTokenSignatures(World.of(ctx.state)), tokenProgramSignatures(ctx))
      : arrayList([])
    return yield* page(ctx, params, list, ["getCompressionSignaturesForOwner", owner])
  })

/** Photon's status methods take no params: stateless.js sends `[]`. */
const noParams = (raw: unknown): Effect.Effect<void, RpcFailure> =>
  raw === undefined || raw === null || (Array.isArray(raw) && raw.length === 0) ||
    (typeof raw === "object" && !Array.isArray(raw) && Object.keys(raw).length === 0)
    ? Effect.void
    : Effect.fail(invalid("this method takes no params"))

const getIndexerSlot: Handle = (raw, ctx) => Effect.as(noParams(raw), ctx.slot())

const getIndexerHealth: Handle = (raw) => Effect.as(noParams(raw), "ok")

/**
 * The compression area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "compression",
  // Typed by the table: a method of `Endpoints.compression` without a handler does not compile.
  rpc: rpcOf(Endpoints.compression, {
    getCompressionSignaturesForAddress: { handle: getCompressionSignaturesForAddress },
    getCompressedMintTokenHolders: { handle: getCompressedMintTokenHolders },
    getLatestNonVotingSignatures: { handle: getLatestNonVotingSignatures },
    getCompressedTokenAccountsByOwner: { handle: getCompressedTokenAccountsByOwner },
    getValidityProof: { handle: getValidityProof },
    getCompressedTokenBalancesByOwnerV2: { handle: getCompressedTokenBalancesByOwnerV2 },
    getCompressionSignaturesForTokenOwner: { handle: getCompressionSignaturesForTokenOwner },
    getTransactionWithCompressionInfo: { handle: getTransactionWithCompressionInfo },
    getCompressionSignaturesForOwner: { handle: getCompressionSignaturesForOwner },
    getCompressedTokenAccountsByOwnerV2: { handle: getCompressedTokenAccountsByOwnerV2 },
    getCompressedAccountsByOwnerV2: { handle: getCompressedAccountsByOwnerV2 },
    getMultipleCompressedAccountsV2: { handle: getMultipleCompressedAccountsV2 },
    getValidityProofV2: { handle: getValidityProofV2 },
    getTransactionWithCompressionInfoV2: { handle: getTransactionWithCompressionInfoV2 },
    getIndexerSlot: { handle: getIndexerSlot },
    getIndexerHealth: { handle: getIndexerHealth }
  }),
  samples: (ds) => {
    const owner = featuredOwner(ds, 0)
    // Featured owner 0 is the top holder of mint 0; its last account there was opened by a transfer.
    const last = accountCount(ds, 0, 0) - 1
    return {
      // 5,000 holders by default, the top one above 2^53.
      compressedMint: mintAt(ds, 0),
      // Token accounts in every mint, balances, token signatures.
      compressedTokenOwner: owner,
      // 1,000,000 signatures by default.
      compressionAddress: addressAt(ds, 0),
      compressionSignature: seal(ds, 64, Kind.tokenTx, 0, 0, last),
      compressedAccountHash: seal(ds, 32, Kind.tokenAccount, 0, 0, 0),
      // Owns every address account: its signatures (getCompressionSignaturesForOwner) are all of theirs.
      compressionProgram: programOwner(ds)
    }
  }
}
