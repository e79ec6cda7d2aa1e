/**
 * Branded primitives that validate on decode. Each one checks the bytes, not only
 * the alphabet: the address regex of the spec admits 44-character strings that
 * decode to 33 bytes.
 *
 * @since 0.1.0
 */
import { base58, base64 } from "@scure/base"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

const BASE58_RE = /^[1-9A-HJ-NP-Za-km-z]+$/

/**
 * The byte length of a base58 string, or -1 when it is not base58.
 *
 * @since 0.1.0
 * @category base58
 */
export const base58ByteLength = (s: string): number => {
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
 * @since 0.1.0
 * @category base64
 */
export const encodeBase64 = (bytes: Uint8Array): string => base64.encode(bytes)

const base58Bytes = (n: number, name: string) =>
  Schema.String.pipe(
    Schema.filter((s) => base58ByteLength(s) === n, {
      message: () => `base58 that decodes to exactly ${n} bytes`
    }),
    Schema.annotations({ identifier: name, description: `base58 string of ${n} bytes` })
  )

/**
 * A Solana public key: base58 that decodes to exactly 32 bytes.
 *
 * @example
 * Schema.decodeUnknownSync(Address)("11111111111111111111111111111111")
 * @since 0.1.0
 * @category primitives
 */
export const Address = base58Bytes(32, "Address").pipe(Schema.brand("Address"))
/** @since 0.1.0 @category primitives */
export type Address = typeof Address.Type

/**
 * A transaction signature: base58 that decodes to exactly 64 bytes.
 *
 * @since 0.1.0
 * @category primitives
 */
export const Signature = base58Bytes(64, "Signature").pipe(Schema.brand("Signature"))
/** @since 0.1.0 @category primitives */
export type Signature = typeof Signature.Type

/**
 * A 32-byte hash in base58 (Merkle roots, leaves, account hashes).
 *
 * @since 0.1.0
 * @category primitives
 */
export const Hash32 = base58Bytes(32, "Hash32").pipe(Schema.brand("Hash32"))
/** @since 0.1.0 @category primitives */
export type Hash32 = typeof Hash32.Type

/**
 * The wallet path rule of spec §4.5: `^[1-9A-HJ-NP-Za-km-z]{32,44}$`, and 32 bytes once decoded.
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
export const DOMAIN_REGEX = /^(?=.{3,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)+$/i

/**
 * A wallet path parameter: the spec's regex, then 32 bytes once decoded.
 *
 * @since 0.1.0
 * @category primitives
 */
export const WalletAddress = Schema.String.pipe(
  Schema.filter((s) => WALLET_REGEX.test(s), {
    message: () => "a base58 string matching ^[1-9A-HJ-NP-Za-km-z]{32,44}$"
  }),
  Schema.filter((s) => base58ByteLength(s) === 32, { message: () => "base58 that decodes to exactly 32 bytes" }),
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
/** @since 0.1.0 @category primitives */
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
/** @since 0.1.0 @category primitives */
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
/** @since 0.1.0 @category primitives */
export type BundleId = typeof BundleId.Type

/**
 * A base64 string (a wire transaction, account data).
 *
 * @since 0.1.0
 * @category primitives
 */
export const Base64String = Schema.String.pipe(
  Schema.filter((s) => decodeBase64(s) !== undefined, { message: () => "valid base64" }),
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

/**
 * An unsigned 64-bit integer (amounts, balances, lamports, supply). On the wire it
 * is a JSON number, or a decimal string when the lossless parser kept digits that
 * a double would round. It always decodes to an exact `bigint`; it never rounds.
 *
 * @since 0.1.0
 * @category primitives
 */
export const U64 = Schema.transformOrFail(
  Schema.Union(Schema.Number, Schema.String).annotations({ identifier: "U64Wire" }),
  Schema.BigIntFromSelf,
  {
    strict: true,
    decode: (wire, _, ast) => {
      if (typeof wire === "number") {
        return Number.isSafeInteger(wire) && wire >= 0
          ? ParseResult.succeed(BigInt(wire))
          : ParseResult.fail(new ParseResult.Type(ast, wire, "a non-negative integer within 2^53, or a decimal string"))
      }
      return /^(0|[1-9][0-9]{0,19})$/.test(wire) && BigInt(wire) <= 0xffffffffffffffffn
        ? ParseResult.succeed(BigInt(wire))
        : ParseResult.fail(new ParseResult.Type(ast, wire, "an unsigned 64-bit decimal integer"))
    },
    encode: (n) => ParseResult.succeed(n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n.toString())
  }
).annotations({ identifier: "U64" })
