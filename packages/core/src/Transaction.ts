/**
 * A reader of Solana wire transactions (legacy and v0), pure and offline. It tells
 * the signatures, whether the transaction is fully signed (optionally verifying the
 * Ed25519 signatures), the static keys, the top-level instructions with their
 * program ids, the System transfers, and which account indices point into
 * address lookup tables (those cannot be resolved without the chain).
 *
 * Input is read strictly: at most 1232 bytes, no trailing bytes, minimal compact-u16
 * lengths, and only the legacy and v0 formats (a 0x81 prefix, v1, is refused rather
 * than misread). Every failure is a `MalformedTransaction` naming the reason and the
 * byte (or character) where reading stopped; the reader never throws.
 *
 * @example
 * const tx = yield* Transaction.parse(wire, "base64") // fails with MalformedTransaction
 * tx.signatures[0] // the transaction's id
 * Transaction.isFullySigned(tx, { verify: true })
 * tx.transfers // every top-level System transfer: from, to, lamports
 * @since 0.1.0
 */

import { ed25519 } from "@noble/curves/ed25519.js"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { MalformedTransaction } from "./Errors.js"
import type { Address, Signature } from "./Primitives.js"
import { decodeBase58, decodeBase64, encodeBase58 } from "./Primitives.js"

/**
 * The largest serialized transaction: PACKET_DATA_SIZE = 1280 − 40 (IPv6) − 8 (UDP).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_TRANSACTION_SIZE = 1232

/**
 * The System Program id.
 *
 * @since 0.1.0
 * @category constants
 */
export const SYSTEM_PROGRAM = "11111111111111111111111111111111" as Address

/**
 * The text encodings `sendBundle` accepts.
 *
 * @since 0.1.0
 * @category models
 */
export type Encoding = "base64" | "base58"

/**
 * The three counts at the start of a message that give each static account its role.
 *
 * @since 0.1.0
 * @category models
 */
export interface MessageHeader {
  readonly numRequiredSignatures: number
  readonly numReadonlySigned: number
  readonly numReadonlyUnsigned: number
}

/**
 * A v0 address-table lookup: the table and the indices it loads.
 *
 * @since 0.1.0
 * @category models
 */
export interface AddressTableLookup {
  readonly table: Address
  readonly writableIndexes: ReadonlyArray<number>
  readonly readonlyIndexes: ReadonlyArray<number>
}

/**
 * An account an instruction names by a static key of the message.
 *
 * @since 0.1.0
 * @category models
 */
export interface StaticAccount {
  readonly _tag: "Static"
  /** Index in the message's account list. */
  readonly index: number
  readonly address: Address
  readonly signer: boolean
  readonly writable: boolean
}

/**
 * An account loaded from an address lookup table: its address is on chain, not in the transaction.
 *
 * @since 0.1.0
 * @category models
 */
export interface LookupAccount {
  readonly _tag: "Lookup"
  /** Index in the message's account list (≥ the number of static keys). */
  readonly index: number
  readonly table: Address
  /** Index inside the lookup table. */
  readonly tableIndex: number
  readonly writable: boolean
}

/**
 * An account an instruction refers to: a static key, or an entry of a lookup table.
 *
 * @since 0.1.0
 * @category models
 */
export type AccountRef = StaticAccount | LookupAccount

/**
 * A top-level instruction. Program ids are always static keys.
 *
 * @since 0.1.0
 * @category models
 */
export interface Instruction {
  readonly programIdIndex: number
  readonly programId: Address
  readonly accounts: ReadonlyArray<AccountRef>
  readonly data: Uint8Array
}

/**
 * A top-level System Program transfer (instruction 2). Transfers made by other
 * programs through CPI are not visible offline.
 *
 * @since 0.1.0
 * @category models
 */
export interface SystemTransfer {
  /** Index of the instruction in the message. */
  readonly instruction: number
  readonly from: AccountRef
  readonly to: AccountRef
  readonly lamports: bigint
}

/**
 * An account index that points into a lookup table, so its address cannot be known offline.
 *
 * @since 0.1.0
 * @category models
 */
export interface UnresolvedIndex {
  readonly instruction: number
  /** Position among the instruction's accounts. */
  readonly position: number
  readonly account: LookupAccount
}

/**
 * A transaction read from the wire.
 *
 * @since 0.1.0
 * @category models
 */
export interface ParsedTransaction {
  readonly version: "legacy" | 0
  /** The whole serialized transaction. */
  readonly bytes: Uint8Array
  /** The signed bytes (everything after the signatures). */
  readonly messageBytes: Uint8Array
  /** Base58 signatures in order; `signatures[0]` is the fee payer's, the transaction id. */
  readonly signatures: ReadonlyArray<Signature>
  readonly signatureBytes: ReadonlyArray<Uint8Array>
  readonly header: MessageHeader
  readonly staticKeys: ReadonlyArray<Address>
  readonly recentBlockhash: string
  readonly instructions: ReadonlyArray<Instruction>
  /** v0 only; empty for legacy. */
  readonly lookups: ReadonlyArray<AddressTableLookup>
  readonly transfers: ReadonlyArray<SystemTransfer>
  readonly unresolved: ReadonlyArray<UnresolvedIndex>
  /** As many signatures as the header requires, none of them all zeros. Not verified: see `verifySignatures`. */
  readonly fullySigned: boolean
}

// -- compact-u16 -------------------------------------------------------------

/** Thrown inside the reader only, and always caught by `parseBytes`. */
class Stop {
  constructor(readonly offset: number, readonly reason: string) {}
}

/**
 * Encodes a compact-u16 (shortvec): 7 bits per byte, low bits first, 0x80 = more follows.
 *
 * @example
 * encodeCompactU16(0x80) // Uint8Array [0x80, 0x01]
 * @since 0.1.0
 * @category compact-u16
 */
export const encodeCompactU16 = (value: number): Uint8Array => {
  if (!Number.isInteger(value) || value < 0 || value > 0xffff) {
    throw new RangeError(`compact-u16 holds 0..65535, got ${value}`)
  }
  const out: Array<number> = []
  let rest = value
  for (;;) {
    const low = rest & 0x7f
    rest >>= 7
    if (rest === 0) {
      out.push(low)
      return Uint8Array.from(out)
    }
    out.push(low | 0x80)
  }
}

const readCompactU16 = (bytes: Uint8Array, offset: number, what: string): { value: number; next: number } => {
  let value = 0
  for (let i = 0; i < 3; i++) {
    const at = offset + i
    if (at >= bytes.length) {
      throw new Stop(at, `truncated compact-u16 (${what}): the input ends`)
    }
    const byte = bytes[at]!
    if (i === 2) {
      if (byte > 0x03) throw new Stop(at, `compact-u16 (${what}) overflows 16 bits`)
      if (byte === 0) throw new Stop(at, `non-minimal compact-u16 (${what})`)
      return { value: value | (byte << 14), next: at + 1 }
    }
    value |= (byte & 0x7f) << (7 * i)
    if ((byte & 0x80) === 0) {
      if (i > 0 && byte === 0) throw new Stop(at, `non-minimal compact-u16 (${what})`)
      return { value, next: at + 1 }
    }
  }
  /* c8 ignore next */
  throw new Stop(offset, `invalid compact-u16 (${what})`)
}

/**
 * Decodes a compact-u16 at `offset`, requiring the minimal encoding (as the runtime does).
 *
 * @example
 * decodeCompactU16(Uint8Array.of(0xff, 0xff, 0x03)) // Right({ value: 65535, next: 3 })
 * @since 0.1.0
 * @category compact-u16
 */
export const decodeCompactU16 = (
  bytes: Uint8Array,
  offset = 0
): Either.Either<{ readonly value: number; readonly next: number }, MalformedTransaction> => {
  try {
    return Either.right(readCompactU16(bytes, offset, "value"))
  } catch (e) {
    if (e instanceof Stop) return Either.left(malformed(e.offset, e.reason, "byte"))
    throw e
  }
}

const malformed = (offset: number, reason: string, unit: "byte" | "character") =>
  new MalformedTransaction({ offset, reason, unit })

// -- text decoding ------------------------------------------------------------

// Text longer than this is refused before decoding (base58 decoding is quadratic). Shorter
// text is decoded, so a moderately oversized transaction is reported with its byte count.
// 58^1683 needs 1233 bytes and ceil(1232 / 3) × 4 = 1644, so both bounds are far above any transaction.
const MAX_BASE58_CHARS = 2 * 1683
const MAX_BASE64_CHARS = 8 * 1644
const BASE58_ALPHABET = /[^1-9A-HJ-NP-Za-km-z]/
const BASE64_ALPHABET = /[^A-Za-z0-9+/=]/

const show = (ch: string) => JSON.stringify(ch)

/**
 * The bytes of a transaction written in `encoding`, or why they are not.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeText = (input: string, encoding: Encoding): Either.Either<Uint8Array, MalformedTransaction> => {
  if (typeof input !== "string") return Either.left(malformed(0, "expected a string", "character"))
  if (input.length === 0) return Either.left(malformed(0, "empty text", "character"))
  if (encoding === "base58") {
    const bad = BASE58_ALPHABET.exec(input)
    if (bad) {
      const hint = /[+/=]/.test(bad[0]) ? " (this looks like base64)" : ""
      return Either.left(
        malformed(bad.index, `invalid base58 character ${show(bad[0])}${hint}`, "character")
      )
    }
    if (input.length > MAX_BASE58_CHARS) {
      return Either.left(
        malformed(
          MAX_BASE58_CHARS,
          `oversized: ${input.length} base58 characters encode more than ${MAX_TRANSACTION_SIZE} bytes`,
          "character"
        )
      )
    }
    const bytes = decodeBase58(input)
    return bytes ? Either.right(bytes) : Either.left(malformed(0, "invalid base58", "character"))
  }
  const bad = BASE64_ALPHABET.exec(input)
  if (bad) {
    return Either.left(malformed(bad.index, `invalid base64 character ${show(bad[0])}`, "character"))
  }
  if (input.length > MAX_BASE64_CHARS) {
    return Either.left(
      malformed(
        MAX_BASE64_CHARS,
        `oversized: ${input.length} base64 characters encode more than ${MAX_TRANSACTION_SIZE} bytes`,
        "character"
      )
    )
  }
  const pad = input.indexOf("=")
  if (pad !== -1 && !/^={1,2}$/.test(input.slice(pad))) {
    return Either.left(malformed(pad, "base64 padding '=' in the middle of the text", "character"))
  }
  if (input.length % 4 !== 0) {
    return Either.left(
      malformed(input.length, `base64 length ${input.length} is not a multiple of 4 (missing padding?)`, "character")
    )
  }
  const bytes = decodeBase64(input)
  return bytes
    ? Either.right(bytes)
    : Either.left(
      malformed(pad === -1 ? input.length : pad - 1, "non-canonical base64 (non-zero padding bits)", "character")
    )
}

// -- the reader -----------------------------------------------------------------

class Reader {
  offset = 0
  constructor(readonly bytes: Uint8Array) {}
  u8(what: string): number {
    if (this.offset >= this.bytes.length) throw new Stop(this.offset, `truncated: expected ${what}, the input ends`)
    return this.bytes[this.offset++]!
  }
  take(n: number, what: string): Uint8Array {
    if (this.offset + n > this.bytes.length) {
      throw new Stop(
        this.offset,
        `truncated: expected ${what} (${n} bytes), only ${this.bytes.length - this.offset} left`
      )
    }
    const out = this.bytes.subarray(this.offset, this.offset + n)
    this.offset += n
    return out
  }
  shortvec(what: string): number {
    const { next, value } = readCompactU16(this.bytes, this.offset, what)
    this.offset = next
    return value
  }
}

interface RawInstruction {
  readonly at: number
  readonly programIdIndex: number
  readonly accountsAt: number
  readonly accountIndexes: Uint8Array
  readonly data: Uint8Array
}

const isAllZero = (bytes: Uint8Array) => bytes.every((b) => b === 0)

const read = (bytes: Uint8Array): ParsedTransaction => {
  if (bytes.length > MAX_TRANSACTION_SIZE) {
    throw new Stop(
      MAX_TRANSACTION_SIZE,
      `oversized: ${bytes.length} bytes, the maximum is ${MAX_TRANSACTION_SIZE}`
    )
  }
  // A v1 transaction (SIMD-0385) starts with its message, version byte 0x81. Read as a
  // compact-u16 it would claim 129+ signatures, so it is refused here, not misread.
  if (bytes[0] === 0x81) {
    throw new Stop(0, "version prefix 0x81 (v1 transaction, SIMD-0385) is not supported")
  }
  const r = new Reader(bytes)
  const signatureCount = r.shortvec("signature count")
  const signatureBytes: Array<Uint8Array> = []
  for (let i = 0; i < signatureCount; i++) signatureBytes.push(r.take(64, `signature ${i}`))
  const messageStart = r.offset

  let version: "legacy" | 0 = "legacy"
  const first = r.u8("the message header")
  if (first & 0x80) {
    const v = first & 0x7f
    if (v === 1) {
      throw new Stop(messageStart, "version prefix 0x81 (v1 message, SIMD-0385) is not supported")
    }
    if (v !== 0) throw new Stop(messageStart, `unsupported message version ${v} (prefix 0x${first.toString(16)})`)
    version = 0
  } else {
    r.offset--
  }
  const headerAt = r.offset
  const header: MessageHeader = {
    numRequiredSignatures: r.u8("numRequiredSignatures"),
    numReadonlySigned: r.u8("numReadonlySignedAccounts"),
    numReadonlyUnsigned: r.u8("numReadonlyUnsignedAccounts")
  }
  const keyCount = r.shortvec("account key count")
  const keysAt = r.offset
  const keyBytes: Array<Uint8Array> = []
  for (let i = 0; i < keyCount; i++) keyBytes.push(r.take(32, `account key ${i}`))
  const blockhash = r.take(32, "the recent blockhash")

  const instructionCount = r.shortvec("instruction count")
  const raw: Array<RawInstruction> = []
  for (let i = 0; i < instructionCount; i++) {
    const at = r.offset
    const programIdIndex = r.u8(`instruction ${i} program id index`)
    const n = r.shortvec(`instruction ${i} account count`)
    const accountsAt = r.offset
    const accountIndexes = r.take(n, `instruction ${i} account indices`)
    const dataLength = r.shortvec(`instruction ${i} data length`)
    const data = r.take(dataLength, `instruction ${i} data`)
    raw.push({ at, programIdIndex, accountsAt, accountIndexes, data })
  }

  const lookups: Array<AddressTableLookup & { readonly at: number }> = []
  if (version === 0) {
    const lookupCount = r.shortvec("address table lookup count")
    for (let i = 0; i < lookupCount; i++) {
      const at = r.offset
      const table = encodeBase58(r.take(32, `lookup ${i} table address`)) as Address
      const w = r.shortvec(`lookup ${i} writable index count`)
      const writableIndexes = Array.from(r.take(w, `lookup ${i} writable indices`))
      const ro = r.shortvec(`lookup ${i} readonly index count`)
      const readonlyIndexes = Array.from(r.take(ro, `lookup ${i} readonly indices`))
      if (writableIndexes.length + readonlyIndexes.length === 0) {
        throw new Stop(at, `lookup ${i} loads no account`)
      }
      lookups.push({ at, table, writableIndexes, readonlyIndexes })
    }
  }
  if (r.offset !== bytes.length) {
    throw new Stop(r.offset, `${bytes.length - r.offset} trailing byte(s) after the message`)
  }

  // The runtime's sanitize rules, so a parsed transaction is one the cluster could accept.
  if (header.numRequiredSignatures + header.numReadonlyUnsigned > keyCount) {
    throw new Stop(
      headerAt,
      `header needs ${header.numRequiredSignatures} signer(s) + ${header.numReadonlyUnsigned} readonly unsigned key(s), ` +
        `but the message has ${keyCount} key(s)`
    )
  }
  if (header.numReadonlySigned >= header.numRequiredSignatures) {
    throw new Stop(
      headerAt + 1,
      `the fee payer must be a writable signer: numReadonlySigned ${header.numReadonlySigned} ` +
        `≥ numRequiredSignatures ${header.numRequiredSignatures}`
    )
  }
  const writableLoaded = lookups.reduce((n, l) => n + l.writableIndexes.length, 0)
  const readonlyLoaded = lookups.reduce((n, l) => n + l.readonlyIndexes.length, 0)
  const total = keyCount + writableLoaded + readonlyLoaded
  if (total > 256) throw new Stop(keysAt, `the message names ${total} accounts, the maximum is 256`)

  const staticKeys = keyBytes.map((k) => encodeBase58(k) as Address)
  const numSigners = header.numRequiredSignatures
  const staticAccount = (index: number): StaticAccount => {
    const signer = index < numSigners
    const writable = signer
      ? index < numSigners - header.numReadonlySigned
      : index < keyCount - header.numReadonlyUnsigned
    return { _tag: "Static", index, address: staticKeys[index]!, signer, writable }
  }
  // Loaded accounts follow the static keys: every table's writable ones, then every table's readonly ones.
  const loaded: Array<LookupAccount> = []
  for (const l of lookups) {
    for (const tableIndex of l.writableIndexes) {
      loaded.push({ _tag: "Lookup", index: keyCount + loaded.length, table: l.table, tableIndex, writable: true })
    }
  }
  for (const l of lookups) {
    for (const tableIndex of l.readonlyIndexes) {
      loaded.push({ _tag: "Lookup", index: keyCount + loaded.length, table: l.table, tableIndex, writable: false })
    }
  }
  const account = (index: number): AccountRef => index < keyCount ? staticAccount(index) : loaded[index - keyCount]!

  const instructions: Array<Instruction> = []
  const unresolved: Array<UnresolvedIndex> = []
  raw.forEach((ix, i) => {
    if (ix.programIdIndex >= keyCount) {
      throw new Stop(
        ix.at,
        `instruction ${i} program id index ${ix.programIdIndex} is not a static key (${keyCount} static keys)`
      )
    }
    if (ix.programIdIndex === 0) throw new Stop(ix.at, `instruction ${i} uses the fee payer as its program`)
    const accounts: Array<AccountRef> = []
    ix.accountIndexes.forEach((index, position) => {
      if (index >= total) {
        throw new Stop(
          ix.accountsAt + position,
          `instruction ${i} account index ${index} is out of range (${total} accounts)`
        )
      }
      const ref = account(index)
      if (ref._tag === "Lookup") unresolved.push({ instruction: i, position, account: ref })
      accounts.push(ref)
    })
    instructions.push({
      programIdIndex: ix.programIdIndex,
      programId: staticKeys[ix.programIdIndex]!,
      accounts,
      data: ix.data
    })
  })

  const transfers: Array<SystemTransfer> = []
  instructions.forEach((ix, i) => {
    const transfer = systemTransfer(ix)
    if (transfer) transfers.push({ instruction: i, ...transfer })
  })

  const fullySigned = signatureCount === header.numRequiredSignatures &&
    signatureBytes.every((s) => !isAllZero(s))

  return {
    version,
    bytes,
    messageBytes: bytes.subarray(messageStart),
    signatures: signatureBytes.map((s) => encodeBase58(s) as Signature),
    signatureBytes,
    header,
    staticKeys,
    recentBlockhash: encodeBase58(blockhash),
    instructions,
    lookups: lookups.map(({ readonlyIndexes, table, writableIndexes }) => ({
      table,
      writableIndexes,
      readonlyIndexes
    })),
    transfers,
    unresolved,
    fullySigned
  }
}

/**
 * The System transfer an instruction makes, if it is one: data `u32 LE 2 ‖ u64 LE
 * lamports` (the runtime ignores trailing data bytes), accounts `[from, to]`.
 *
 * @since 0.1.0
 * @category instructions
 */
export const systemTransfer = (
  instruction: Instruction
): { readonly from: AccountRef; readonly to: AccountRef; readonly lamports: bigint } | undefined => {
  const { accounts, data, programId } = instruction
  if (programId !== SYSTEM_PROGRAM || data.length < 12 || accounts.length < 2) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  if (view.getUint32(0, true) !== 2) return undefined
  return { from: accounts[0]!, to: accounts[1]!, lamports: view.getBigUint64(4, true) }
}

/**
 * Reads a serialized transaction.
 *
 * @since 0.1.0
 * @category decoding
 */
export const parseBytes = (bytes: Uint8Array): Either.Either<ParsedTransaction, MalformedTransaction> => {
  try {
    return Either.right(read(bytes))
  } catch (e) {
    if (e instanceof Stop) return Either.left(malformed(e.offset, e.reason, "byte"))
    throw e
  }
}

/**
 * Reads a transaction written in base64 or base58.
 *
 * @example
 * const tx = Either.getOrThrow(Transaction.parseEither(wire, "base64"))
 * tx.signatures[0] // the transaction id
 * @since 0.1.0
 * @category decoding
 */
export const parseEither = (
  input: string,
  encoding: Encoding
): Either.Either<ParsedTransaction, MalformedTransaction> => Either.flatMap(decodeText(input, encoding), parseBytes)

/**
 * `parseEither` as an Effect.
 *
 * @example
 * Transaction.parse(wire, "base64").pipe(Effect.map((tx) => tx.transfers))
 * @since 0.1.0
 * @category decoding
 */
export const parse = (input: string, encoding: Encoding): Effect.Effect<ParsedTransaction, MalformedTransaction> =>
  Effect.suspend(() => parseEither(input, encoding))

/**
 * The indices of the signatures that are missing, all zeros or do not verify
 * (Ed25519 over the message bytes with the matching static key). Empty means fully
 * signed and verified.
 *
 * @since 0.1.0
 * @category signatures
 */
export const invalidSignatures = (tx: ParsedTransaction): ReadonlyArray<number> => {
  const bad: Array<number> = []
  for (let i = 0; i < tx.header.numRequiredSignatures; i++) {
    const sig = tx.signatureBytes[i]
    const key = tx.staticKeys[i]
    if (sig === undefined || key === undefined || isAllZero(sig) || !verifyOne(sig, tx.messageBytes, key)) bad.push(i)
  }
  for (let i = tx.header.numRequiredSignatures; i < tx.signatureBytes.length; i++) bad.push(i)
  return bad
}

const verifyOne = (signature: Uint8Array, message: Uint8Array, key: Address): boolean => {
  const pk = decodeBase58(key)
  if (!pk) return false
  try {
    return ed25519.verify(signature, message, pk)
  } catch {
    return false
  }
}

/**
 * Whether the transaction carries every required signature; with `verify`, also
 * whether each one is a valid Ed25519 signature of the message.
 *
 * @since 0.1.0
 * @category signatures
 */
export const isFullySigned = (tx: ParsedTransaction, options?: { readonly verify?: boolean | undefined }): boolean =>
  tx.fullySigned && (options?.verify !== true || invalidSignatures(tx).length === 0)

/**
 * The address of an account when it is known offline (a static key).
 *
 * @since 0.1.0
 * @category accounts
 */
export const addressOf = (ref: AccountRef): Address | undefined => ref._tag === "Static" ? ref.address : undefined

/**
 * The SPL Token program (and Token-2022, which shares its first instructions).
 *
 * @since 0.1.0
 * @category constants
 */
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA" as Address

/**
 * The Token-2022 program id, whose transfers are read like the Token program's.
 *
 * @since 0.1.0
 * @category constants
 */
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb" as Address

/**
 * The SPL token transfer an instruction makes, if it is one: `Transfer` (tag 3, `u64 LE amount`,
 * accounts `[source, destination, owner]`) or `TransferChecked` (tag 12, `u64 LE amount ‖ u8 decimals`,
 * accounts `[source, mint, destination, owner]`), of the Token or Token-2022 program.
 *
 * @example
 * tx.instructions.flatMap((ix) => Transaction.tokenTransfer(ix) ?? [])
 * @since 0.1.0
 * @category instructions
 */
export const tokenTransfer = (instruction: Instruction): {
  readonly source: AccountRef
  readonly destination: AccountRef
  readonly owner: AccountRef
  readonly amount: bigint
  /** TransferChecked only. */
  readonly mint?: AccountRef | undefined
  readonly decimals?: number | undefined
} | undefined => {
  const { accounts, data, programId } = instruction
  if (programId !== TOKEN_PROGRAM && programId !== TOKEN_2022_PROGRAM) return undefined
  if (data.length < 9) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  const amount = view.getBigUint64(1, true)
  if (data[0] === 3 && accounts.length >= 3) {
    return { source: accounts[0]!, destination: accounts[1]!, owner: accounts[2]!, amount }
  }
  if (data[0] === 12 && data.length >= 10 && accounts.length >= 4) {
    return {
      source: accounts[0]!,
      mint: accounts[1]!,
      destination: accounts[2]!,
      owner: accounts[3]!,
      amount,
      decimals: data[9]!
    }
  }
  return undefined
}
