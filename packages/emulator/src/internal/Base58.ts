/**
 * Base58 (Bitcoin alphabet) for the emulator's hot path. Generating a page of 1,000 assets
 * encodes a few thousand 32-byte values; a generic radix converter spent more time there
 * than everything else, so this one works on 16-bit limbs and emits four digits (58^4) per
 * pass. Same output as `@solfx/core/Primitives`' `encodeBase58`, checked in the tests.
 *
 * @internal
 */
const ALPHABET = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const BASE4 = 58 ** 4
const INDEX = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) INDEX[ALPHABET.charCodeAt(i)] = i

/** Base58 text of bytes: one '1' per leading zero byte, then the digits of the number. */
export const encode = (bytes: Uint8Array): string => {
  const n = bytes.length
  let zeros = 0
  while (zeros < n && bytes[zeros] === 0) zeros++
  // 16-bit limbs, most significant first (an odd length puts one byte in the first limb).
  const count = (n + 1) >> 1
  const limbs = new Array<number>(count)
  let at = 0
  if (n % 2 === 1) limbs[at++] = bytes[0]!
  for (let i = n % 2; i < n; i += 2) limbs[at++] = (bytes[i]! << 8) | bytes[i + 1]!
  const digits: Array<number> = []
  let start = 0
  while (start < count && limbs[start] === 0) start++
  while (start < count) {
    let rem = 0
    for (let i = start; i < count; i++) {
      const cur = rem * 65536 + limbs[i]!
      const q = Math.floor(cur / BASE4)
      limbs[i] = q
      rem = cur - q * BASE4
    }
    while (start < count && limbs[start] === 0) start++
    for (let k = 0; k < 4; k++) {
      digits.push(rem % 58)
      rem = Math.floor(rem / 58)
    }
  }
  // The last group may carry leading zero digits: they are not part of the number.
  while (digits.length > 0 && digits[digits.length - 1] === 0) digits.pop()
  let out = "1".repeat(zeros)
  for (let i = digits.length - 1; i >= 0; i--) out += ALPHABET[digits[i]!]
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
