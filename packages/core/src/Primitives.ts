/**
 * Branded primitives that validate on decode. Each one checks the bytes, not only
 * the alphabet: the documented address regex admits 44-character strings that
 * decode to 33 bytes.
 *
 * @example
 * const address = yield* Schema.decodeUnknown(Primitives.Address)("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY")
 * const amount = yield* Schema.decodeUnknown(Primitives.U64)("18446744073709551615") // 18446744073709551615n
 * @since 0.1.0
 */

import { base58, base64 } from "@scure/base"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { BAIL, PredicateId } from "./internal/fastDecoder.js"
import { plainTransform } from "./internal/schema.js"

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/
const NOT_BASE58 = /[^1-9A-HJ-NP-Za-km-z]/

const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const DIGITS = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) DIGITS[ALPHABET.charCodeAt(i)] = i
// Scratch limbs, base 2^29, little-endian, for strings up to 128 characters (750 bits).
// Four digits at a time: limb * 58^4 + carry stays below 2^53, exact in a double.
const LIMB = 2 ** 29
const INV_LIMB = 2 ** -29
const LIMBS = new Float64Array(27)
const POW58 = [1, 58, 58 ** 2, 58 ** 3, 58 ** 4]

/**
 * The byte length of a base58 string, or -1 when it is not base58.
 *
 * Every address and signature of a response goes through here, so it counts
 * without allocating: leading `1`s are zero bytes, the rest is one number
 * whose byte length is the remainder (as `base58.decode(s).length`).
 *
 * @since 0.1.0
 * @category base58
 */
export const base58ByteLength = (s: string): number => {
  const n = s.length
  if (n === 0) return -1
  if (n > 128) return slowBase58ByteLength(s)
  let zeros = 0
  while (zeros < n && s.charCodeAt(zeros) === 49) zeros++
  let used = 0
  for (let i = zeros; i < n; i += 4) {
    const end = i + 4 < n ? i + 4 : n
    let group = 0
    for (let k = i; k < end; k++) {
      const c = s.charCodeAt(k)
      const d = c < 128 ? DIGITS[c]! : -1
      if (d < 0) return -1
      group = group * 58 + d
    }
    const mul = POW58[end - i]!
    let carry = group
    for (let j = 0; j < used; j++) {
      const x = LIMBS[j]! * mul + carry
      carry = Math.floor(x * INV_LIMB)
      LIMBS[j] = x - carry * LIMB
    }
    while (carry > 0) {
      const next = Math.floor(carry * INV_LIMB)
      LIMBS[used++] = carry - next * LIMB
      carry = next
    }
  }
  if (used === 0) return zeros
  let bits = (used - 1) * 29
  bits += 32 - Math.clz32(LIMBS[used - 1]!)
  return zeros + Math.ceil(bits / 8)
}

const bounds = new Map<number, ReadonlyArray<readonly [string, string]>>()

/** For k significant bytes: the base58 of the smallest and the largest k-byte number (no leading 1s). */
const boundsFor = (n: number): ReadonlyArray<readonly [string, string]> => {
  let b = bounds.get(n)
  if (b === undefined) {
    const list: Array<readonly [string, string]> = [["", ""]]
    for (let k = 1; k <= n; k++) {
      const lo = new Uint8Array(k)
      lo[0] = 1
      list.push([base58.encode(lo), base58.encode(new Uint8Array(k).fill(255))])
    }
    bounds.set(n, b = list)
  }
  return b
}

/**
 * Whether a string is base58 that decodes to exactly `n` bytes, as
 * `base58ByteLength(s) === n` but without decoding: the alphabet is in ASCII
 * order, so same-length base58 numbers compare as strings, and the value is
 * checked against the smallest and largest number of its byte length.
 *
 * @since 0.1.0
 * @category base58
 */
export const isBase58OfLength = (s: string, n: number): boolean => base58OfLength(n)(s)

const checks = new Map<number, (s: string) => boolean>()

/** `isBase58OfLength` for one length, with its bounds looked up once. */
const base58OfLength = (n: number): (s: string) => boolean => {
  let check = checks.get(n)
  if (check !== undefined) return check
  const bounds = boundsFor(n)
  // The last string accepted: a transformation's type side checks the same string again
  // (`AssetSignature`'s tuple, then its struct), and the regex pass is the cost of the check.
  let accepted: string | undefined
  check = (s) => {
    if (s === accepted) return true
    const len = s.length
    // Searching for a character outside the alphabet is a little faster than matching the whole string.
    if (len === 0 || len > 2 * n + 2 || NOT_BASE58.test(s)) return false
    let zeros = 0
    while (zeros < len && s.charCodeAt(zeros) === 49) zeros++
    if (zeros > n) return false
    const k = n - zeros
    const rest = len - zeros
    if (k === 0) return rest === 0
    const [lo, hi] = bounds[k]!
    if (rest < lo.length || rest > hi.length) return false
    if ((rest > lo.length || atLeast(s, zeros, lo)) && (rest < hi.length || !atLeast(s, zeros, hi, 1))) {
      accepted = s
      return true
    }
    return false
  }
  checks.set(n, check)
  return check
}

/**
 * Whether `s` from `from` is at least `bound` (`more`: greater than it), both the same length: the
 * alphabet is in ASCII order. The first character decides almost always, without a string compare.
 */
const atLeast = (s: string, from: number, bound: string, more = 0): boolean => {
  const d = s.charCodeAt(from) - bound.charCodeAt(0)
  if (d !== 0) return d > 0
  const r = s.slice(from)
  return more === 0 ? r >= bound : r > bound
}

const slowBase58ByteLength = (s: string): number => {
  if (!BASE58_RE.test(s)) return -1
  try {
    return base58.decode(s).length
  } catch {
    return -1
  }
}

/**
 * Decodes base58, or returns undefined.
 *
 * @since 0.1.0
 * @category base58
 */
export const decodeBase58 = (s: string): Uint8Array | undefined => {
  if (!BASE58_RE.test(s)) return undefined
  try {
    return base58.decode(s)
  } catch {
    return undefined
  }
}

/**
 * Bytes to a base58 string (Bitcoin alphabet, as Solana uses).
 *
 * @since 0.1.0
 * @category base58
 */
export const encodeBase58 = (bytes: Uint8Array): string => base58.encode(bytes)

/**
 * Decodes strict base64, or returns undefined.
 *
 * @since 0.1.0
 * @category base64
 */
export const decodeBase64 = (s: string): Uint8Array | undefined => {
  try {
    return base64.decode(s)
  } catch {
    return undefined
  }
}

/**
 * Strict, padded base64 whose padding bits are zero: what `decodeBase64` accepts.
 * The character before `==` holds 4 padding bits and the one before `=` holds 2.
 */
const BASE64_RE = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/][AQgw]==|[A-Za-z0-9+/]{2}[AEIMQUYcgkosw048]=)?$/

/**
 * Whether `decodeBase64` accepts a string, without decoding it.
 *
 * @since 0.1.0
 * @category base64
 */
export const isBase64 = (s: string): boolean => BASE64_RE.test(s)

/**
 * Bytes to a standard, padded base64 string.
 *
 * @since 0.1.0
 * @category base64
 */
export const encodeBase64 = (bytes: Uint8Array): string => base64.encode(bytes)

const base58Bytes = (n: number, name: string) => {
  const check = base58OfLength(n)
  return Schema.String.pipe(
    Schema.filter(check, {
      message: () => `base58 that decodes to exactly ${n} bytes`,
      // The response decoder's compiled path calls the check directly.
      [PredicateId]: check
    }),
    Schema.annotations({ identifier: name, description: `base58 string of ${n} bytes` })
  )
}

/**
 * A Solana public key: base58 that decodes to exactly 32 bytes.
 *
 * @example
 * Schema.decodeUnknownSync(Address)("11111111111111111111111111111111")
 * @since 0.1.0
 * @category primitives
 */
export const Address = base58Bytes(32, "Address").pipe(Schema.brand("Address"))
/** A decoded `Address`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type Address = typeof Address.Type

/**
 * A transaction signature: base58 that decodes to exactly 64 bytes.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Signature = base58Bytes(64, "Signature").pipe(Schema.brand("Signature"))
/** A decoded `Signature`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type Signature = typeof Signature.Type

/**
 * A 32-byte hash in base58 (Merkle roots, leaves, account hashes).
 *
 * @since 0.1.0
 * @category primitives
 */
export const Hash32 = base58Bytes(32, "Hash32").pipe(Schema.brand("Hash32"))
/** A decoded `Hash32`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type Hash32 = typeof Hash32.Type

/**
 * The order of the BN254 scalar field, the field of ZK compression's Poseidon
 * hashes (Light's `FIELD_SIZE`).
 *
 * @since 0.1.0
 * @category primitives
 */
export const BN254_MODULUS = 21888242871839275222246405745257275088548364400416034343698204186575808495617n

const belowModulus = (u: unknown): boolean => {
  const bytes = typeof u === "string" ? decodeBase58(u) : undefined
  if (bytes === undefined) return false
  let n = 0n
  for (const b of bytes) n = (n << 8n) | BigInt(b)
  return n < BN254_MODULUS
}

/** The base58 of the modulus as 32 bytes (its top byte is not zero, so no leading `1`). */
const MODULUS_58 = (() => {
  const bytes = new Uint8Array(32)
  let n = BN254_MODULUS
  for (let i = 31; i >= 0; i--) {
    bytes[i] = Number(n & 0xffn)
    n >>= 8n
  }
  return base58.encode(bytes)
})()

/**
 * `belowModulus` for a string already known to be base58 of exactly 32 bytes, without
 * decoding: leading `1`s are zero bytes, and the alphabet is in ASCII order, so the
 * rest compares with the modulus's base58 by length, then as a string.
 *
 * @since 0.1.0
 * @category primitives
 */
export const isBelowModulus58 = (s: string): boolean => {
  let zeros = 0
  while (zeros < s.length && s.charCodeAt(zeros) === 49) zeros++
  const rest = s.length - zeros
  if (rest !== MODULUS_58.length) return rest < MODULUS_58.length
  return (zeros === 0 ? s : s.slice(zeros)) < MODULUS_58
}

/**
 * A compressed-state hash (account hash, Merkle root, nullifier): 32 bytes in base58
 * whose big-endian value is a BN254 field element. stateless.js refuses any other
 * value (`Value is too large`), and Photon never sends one.
 *
 * @since 0.1.0
 * @category primitives
 */
export const FieldHash = Hash32.pipe(
  Schema.filter(belowModulus, {
    message: () => "a BN254 field element (32 bytes, big-endian, below the field modulus)",
    // Called after Hash32's own check, so on 32-byte base58 only (see FastDecoder.PredicateId).
    [PredicateId]: (u: unknown) => typeof u === "string" && isBelowModulus58(u)
  }),
  Schema.annotations({ identifier: "FieldHash" })
)
/** A decoded `FieldHash`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type FieldHash = typeof FieldHash.Type

/**
 * The wallet path rule the service documents: `^[1-9A-HJ-NP-Za-km-z]{32,44}$`, and 32 bytes once decoded.
 *
 * @since 0.1.0
 * @category primitives
 */
export const WALLET_REGEX = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/**
 * A name-service domain accepted by the wallet identity endpoints (`name.sol`, ANS domains).
 *
 * @since 0.1.0
 * @category primitives
 */
export const DOMAIN_REGEX =
  /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i

/**
 * A wallet path parameter: the documented regex, then 32 bytes once decoded.
 *
 * @since 0.1.0
 * @category primitives
 */
export const WalletAddress = Schema.String.pipe(
  Schema.filter((s) => WALLET_REGEX.test(s), {
    message: () => "a base58 string matching ^[1-9A-HJ-NP-Za-km-z]{32,44}$"
  }),
  Schema.filter((s) => isBase58OfLength(s, 32), { message: () => "base58 that decodes to exactly 32 bytes" }),
  Schema.brand("Address"),
  Schema.annotations({ identifier: "WalletAddress" })
)

/**
 * A wallet address or a name-service domain (identity endpoints only).
 *
 * @since 0.1.0
 * @category primitives
 */
export const WalletOrDomain = Schema.Union(
  WalletAddress,
  Schema.String.pipe(
    Schema.filter((s) => s.includes(".") && DOMAIN_REGEX.test(s), {
      message: () => "a name-service domain such as name.sol"
    }),
    Schema.brand("Domain")
  )
).annotations({ identifier: "WalletOrDomain" })
/** A decoded `WalletOrDomain`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type WalletOrDomain = typeof WalletOrDomain.Type

/**
 * A project id: a UUID.
 *
 * @since 0.1.0
 * @category primitives
 */
export const ProjectId = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, {
    message: () => "a UUID such as 123e4567-e89b-12d3-a456-426614174000"
  }),
  Schema.brand("ProjectId"),
  Schema.annotations({ identifier: "ProjectId" })
)
/** A decoded `ProjectId`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type ProjectId = typeof ProjectId.Type

/**
 * A bundle id: 64 lowercase hex characters (SHA-256).
 *
 * @since 0.1.0
 * @category primitives
 */
export const BundleId = Schema.String.pipe(
  Schema.pattern(/^[0-9a-f]{64}$/, { message: () => "64 lowercase hex characters" }),
  Schema.brand("BundleId"),
  Schema.annotations({ identifier: "BundleId" })
)
/** A decoded `BundleId`: the type of the schema of the same name. @since 0.1.0 @category primitives */
export type BundleId = typeof BundleId.Type

/**
 * A base64 string (a wire transaction, account data).
 *
 * @since 0.1.0
 * @category primitives
 */
export const Base64String = Schema.String.pipe(
  Schema.filter((s) => decodeBase64(s) !== undefined, {
    message: () => "valid base64",
    // The same answer without decoding (see `isBase64`): pages carry account data.
    [PredicateId]: (s: unknown) => typeof s === "string" && isBase64(s)
  }),
  Schema.brand("Base64"),
  Schema.annotations({ identifier: "Base64String" })
)

/**
 * A base58 string of any length.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Base58String = Schema.String.pipe(
  Schema.filter((s) => decodeBase58(s) !== undefined, { message: () => "valid base58" }),
  Schema.brand("Base58"),
  Schema.annotations({ identifier: "Base58String" })
)

const U64_DIGITS = /^(0|[1-9][0-9]{0,19})$/

/**
 * An unsigned 64-bit integer (amounts, balances, lamports, supply). On the wire it
 * is a JSON number, or a decimal string when the lossless parser kept digits that
 * a double would round. It always decodes to an exact `bigint`; it never rounds.
 *
 * @since 0.1.0
 * @category primitives
 */
export const U64 = plainTransform(
  Schema.Union(Schema.Number, Schema.String).annotations({ identifier: "U64Wire" }),
  Schema.BigIntFromSelf,
  {
    identifier: "U64",
    decode: (wire) =>
      typeof wire === "number"
        ? Number.isSafeInteger(wire) && wire >= 0 ? BigInt(wire) : BAIL
        : U64_DIGITS.test(wire) && BigInt(wire) <= 0xffffffffffffffffn
        ? BigInt(wire)
        : BAIL,
    refused: (wire) =>
      typeof wire === "number"
        ? "a non-negative integer within 2^53, or a decimal string"
        : "an unsigned 64-bit decimal integer",
    encode: (n) => ParseResult.succeed(n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString())
  }
)
