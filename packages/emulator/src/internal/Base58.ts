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
const INV_LIMB = 2 ** -24 // exact: multiplying by it divides by 2^24 without a division
const limbs = new Float64Array(22) // 24-bit limbs: up to 66 bytes
const text = Buffer.alloc(96 + 66)
const CODES = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0))
// The two characters of every number below 58^2, so a pass's four digits take one division, not four.
const PAIRS = new Uint16Array(58 * 58)
for (let v = 0; v < 58 * 58; v++) PAIRS[v] = (CODES[Math.floor(v / 58)]! << 8) | CODES[v % 58]!

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
  // Digits are written from the end of `text` backwards, least significant first.
  let end = text.length
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
    const hi = Math.floor(rem / 3364)
    const lo = PAIRS[rem - hi * 3364]!
    const up = PAIRS[hi]!
    text[--end] = lo & 0xff
    text[--end] = lo >> 8
    text[--end] = up & 0xff
    text[--end] = up >> 8
  }
  // The last group may carry leading zero digits ("1"): they are not part of the number.
  while (end < text.length && text[end] === 49) end++
  for (let z = 0; z < zeros; z++) text[--end] = 49 // "1"
  // Read out of a buffer in one go: a string grown a character at a time is a chain of 44
  // pieces that every later use (a Map key, a template) has to flatten first.
  return text.toString("latin1", end, text.length)
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
  if (text.length > 88) return decodeLong(text)
  let zeros = 0
  while (zeros < text.length && text.charCodeAt(zeros) === 49) zeros++
  // The number in 24-bit limbs, least significant first, taking four digits (58^4) at a time:
  // a limb times 58^4 plus a carry stays below 2^53.
  let used = 0
  const rest = (text.length - zeros) % 4
  for (let i = zeros; i < text.length;) {
    const take = i === zeros && rest !== 0 ? rest : 4
    let v = 0
    let scale = 1
    for (let k = 0; k < take; k++, i++) {
      const c = text.charCodeAt(i)
      const d = c < 128 ? INDEX[c]! : -1
      if (d < 0) return undefined
      v = v * 58 + d
      scale *= 58
    }
    let carry = v
    for (let j = 0; j < used; j++) {
      const cur = limbs[j]! * scale + carry
      carry = Math.floor(cur * INV_LIMB)
      limbs[j] = cur - carry * LIMB
    }
    while (carry > 0) {
      if (used === limbs.length) return decodeLong(text)
      const q = Math.floor(carry * INV_LIMB)
      limbs[used++] = carry - q * LIMB
      carry = q
    }
  }
  let bytes = used * 3
  // The top limb may hold fewer than three bytes.
  if (used > 0) {
    const top = limbs[used - 1]!
    bytes -= top < 256 ? 2 : top < 65536 ? 1 : 0
  }
  const out = new Uint8Array(zeros + bytes)
  for (let j = 0, o = out.length - 1; j < used; j++) {
    let v = limbs[j]!
    for (let k = 0; k < 3 && o >= zeros; k++, o--) {
      out[o] = v & 0xff
      v = (v - (v & 0xff)) / 256
    }
  }
  return out
}

/** Any length, byte-wise (rare: the emulator decodes addresses and signatures). */
const decodeLong = (text: string): Uint8Array | undefined => {
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
