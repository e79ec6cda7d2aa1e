/**
 * Base58 (Bitcoin alphabet) for the emulator's hot path. Generating a page of 1,000 assets
 * encodes a few thousand 32-byte values; a generic radix converter spent more time there
 * than everything else, so this one works on 24-bit limbs and emits four digits (58^4) per
 * pass. Same output as `@solfx/core/Primitives`' `encodeBase58`, checked in the tests.
 *
 * @internal
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const BASE4 = 58 ** 4
const INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i

const LIMB = 2 ** 24
const limbs = new Float64Array(22) // 24-bit limbs: up to 66 bytes
const digits = new Uint8Array(96)

/** Base58 text of bytes (the first `n` of them): one '1' per leading zero byte, then the digits of the number. */
export const encode = (bytes: Uint8Array, n = bytes.length): string => {
  if (n > 66) return encodeLong(bytes.subarray(0, n))
  let zeros = 0
  while (zeros < n && bytes[zeros] === 0) zeros++
  // 24-bit limbs, most significant first (the first takes the bytes left over by threes).
  // 58^4 times 2^24 stays below 2^53, so each pass divides exactly in doubles.
  const count = Math.ceil(n / 3)
  let at = 0
  let first = n % 3 === 0 ? 3 : n % 3
  for (let i = 0; i < n;) {
    let v = 0
    for (let k = 0; k < first; k++) v = v * 256 + bytes[i++]!
    limbs[at++] = v
    first = 3
  }
  let length = 0
  let start = 0
  while (start < count && limbs[start] === 0) start++
  while (start < count) {
    let rem = 0
    for (let i = start; i < count; i++) {
      const cur = rem * LIMB + limbs[i]!
      const q = Math.floor(cur / BASE4)
      limbs[i] = q
      rem = cur - q * BASE4
    }
    while (start < count && limbs[start] === 0) start++
    for (let k = 0; k < 4; k++) {
      const q = Math.floor(rem / 58)
      digits[length++] = rem - q * 58
      rem = q
    }
  }
  // The last group may carry leading zero digits: they are not part of the number.
  while (length > 0 && digits[length - 1] === 0) length--
  let out = "1".repeat(zeros)
  for (let i = length - 1; i >= 0; i--) out += ALPHABET[digits[i]!]
  return out
}

const scratch = new Uint8Array(66)

/** `encode` of the bytes of latin1 text (one character a byte, as `node:crypto` gives digests), with no allocation. */
export const encodeLatin1 = (text: string): string => {
  if (text.length > 66) return encode(Buffer.from(text, "latin1"))
  for (let i = 0; i < text.length; i++) scratch[i] = text.charCodeAt(i)
  return encode(scratch, text.length)
}

/** Any length, through the decoder's byte-wise arithmetic in reverse (rare: the emulator encodes ≤ 64 bytes). */
const encodeLong = (bytes: Uint8Array): string => {
  let zeros = 0
  while (zeros < bytes.length && bytes[zeros] === 0) zeros++
  const acc: Array<number> = []
  for (let i = zeros; i < bytes.length; i++) {
    let carry = bytes[i]!
    for (let j = 0; j < acc.length; j++) {
      carry += acc[j]! * 256
      acc[j] = carry % 58
      carry = Math.floor(carry / 58)
    }
    while (carry > 0) {
      acc.push(carry % 58)
      carry = Math.floor(carry / 58)
    }
  }
  let out = "1".repeat(zeros)
  for (let i = acc.length - 1; i >= 0; i--) out += ALPHABET[acc[i]!]
  return out
}

/** The bytes of base58 text, or undefined when it is not base58. */
export const decode = (text: string): Uint8Array | undefined => {
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
  // Little-endian bytes of the number, grown as needed.
  const acc: Array<number> = []
  for (let i = zeros; i < text.length; i++) {
    const c = text.charCodeAt(i)
    const d = c < 128 ? INDEX[c]! : -1
    if (d < 0) return undefined
    let carry = d
    for (let j = 0; j < acc.length; j++) {
      carry += acc[j]! * 58
      acc[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      acc.push(carry & 0xff)
      carry >>= 8
    }
  }
  const out = new Uint8Array(zeros + acc.length)
  for (let j = 0; j < acc.length; j++) out[out.length - 1 - j] = acc[j]!
  return out
}
