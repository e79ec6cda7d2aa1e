/**
 * keccak256 (Keccak's original padding, as Solana's account compression uses it) for the
 * Merkle trees of compressed NFTs. Written here rather than taken from `@noble/hashes`:
 * the emulator hashes a Bubblegum leaf for every compressed asset it serves (250 in a page
 * of 1,000), and noble's generic permutation (state in typed arrays, loops per lane) cost
 * about 1.1 times a `JSON.stringify` of the whole page. This one is the same permutation
 * unrolled, its 50 lane halves in locals (generated, then formatted). Checked against
 * `@noble/hashes` on inputs of every length across three blocks.
 *
 * @internal
 */

const RATE = 136 // bytes: 1600 bits − 2 × 256

// Round constants as (low, high) 32-bit halves.
const RC = Int32Array.of(
  0x00000001,
  0,
  0x00008082,
  0,
  0x0000808a,
  0x80000000,
  0x80008000,
  0x80000000,
  0x0000808b,
  0,
  0x80000001,
  0,
  0x80008081,
  0x80000000,
  0x00008009,
  0x80000000,
  0x0000008a,
  0,
  0x00000088,
  0,
  0x80008009,
  0,
  0x8000000a,
  0,
  0x8000808b,
  0,
  0x0000008b,
  0x80000000,
  0x00008089,
  0x80000000,
  0x00008003,
  0x80000000,
  0x00008002,
  0x80000000,
  0x00000080,
  0x80000000,
  0x0000800a,
  0,
  0x8000000a,
  0x80000000,
  0x80008081,
  0x80000000,
  0x00008080,
  0x80000000,
  0x80000001,
  0,
  0x80008008,
  0x80000000
)

/** Keccak-f[1600] in place: lane i is s[2i] (low half) and s[2i + 1] (high half). */
const permute = (s: Int32Array): void => {
  let a0l = s[0]!, a0h = s[1]!
  let a1l = s[2]!, a1h = s[3]!
  let a2l = s[4]!, a2h = s[5]!
  let a3l = s[6]!, a3h = s[7]!
  let a4l = s[8]!, a4h = s[9]!
  let a5l = s[10]!, a5h = s[11]!
  let a6l = s[12]!, a6h = s[13]!
  let a7l = s[14]!, a7h = s[15]!
  let a8l = s[16]!, a8h = s[17]!
  let a9l = s[18]!, a9h = s[19]!
  let a10l = s[20]!, a10h = s[21]!
  let a11l = s[22]!, a11h = s[23]!
  let a12l = s[24]!, a12h = s[25]!
  let a13l = s[26]!, a13h = s[27]!
  let a14l = s[28]!, a14h = s[29]!
  let a15l = s[30]!, a15h = s[31]!
  let a16l = s[32]!, a16h = s[33]!
  let a17l = s[34]!, a17h = s[35]!
  let a18l = s[36]!, a18h = s[37]!
  let a19l = s[38]!, a19h = s[39]!
  let a20l = s[40]!, a20h = s[41]!
  let a21l = s[42]!, a21h = s[43]!
  let a22l = s[44]!, a22h = s[45]!
  let a23l = s[46]!, a23h = s[47]!
  let a24l = s[48]!, a24h = s[49]!
  for (let r = 0; r < 48; r += 2) {
    const c0l = a0l ^ a5l ^ a10l ^ a15l ^ a20l
    const c0h = a0h ^ a5h ^ a10h ^ a15h ^ a20h
    const c1l = a1l ^ a6l ^ a11l ^ a16l ^ a21l
    const c1h = a1h ^ a6h ^ a11h ^ a16h ^ a21h
    const c2l = a2l ^ a7l ^ a12l ^ a17l ^ a22l
    const c2h = a2h ^ a7h ^ a12h ^ a17h ^ a22h
    const c3l = a3l ^ a8l ^ a13l ^ a18l ^ a23l
    const c3h = a3h ^ a8h ^ a13h ^ a18h ^ a23h
    const c4l = a4l ^ a9l ^ a14l ^ a19l ^ a24l
    const c4h = a4h ^ a9h ^ a14h ^ a19h ^ a24h
    const d0l = c4l ^ ((c1l << 1) | (c1h >>> 31))
    const d0h = c4h ^ ((c1h << 1) | (c1l >>> 31))
    const d1l = c0l ^ ((c2l << 1) | (c2h >>> 31))
    const d1h = c0h ^ ((c2h << 1) | (c2l >>> 31))
    const d2l = c1l ^ ((c3l << 1) | (c3h >>> 31))
    const d2h = c1h ^ ((c3h << 1) | (c3l >>> 31))
    const d3l = c2l ^ ((c4l << 1) | (c4h >>> 31))
    const d3h = c2h ^ ((c4h << 1) | (c4l >>> 31))
    const d4l = c3l ^ ((c0l << 1) | (c0h >>> 31))
    const d4h = c3h ^ ((c0h << 1) | (c0l >>> 31))
    const b0l = a0l ^ d0l, b0h = a0h ^ d0h
    const t1l = a1l ^ d1l, t1h = a1h ^ d1h
    const b10l = (t1l << 1) | (t1h >>> 31), b10h = (t1h << 1) | (t1l >>> 31)
    const t2l = a2l ^ d2l, t2h = a2h ^ d2h
    const b20l = (t2h << 30) | (t2l >>> 2), b20h = (t2l << 30) | (t2h >>> 2)
    const t3l = a3l ^ d3l, t3h = a3h ^ d3h
    const b5l = (t3l << 28) | (t3h >>> 4), b5h = (t3h << 28) | (t3l >>> 4)
    const t4l = a4l ^ d4l, t4h = a4h ^ d4h
    const b15l = (t4l << 27) | (t4h >>> 5), b15h = (t4h << 27) | (t4l >>> 5)
    const t5l = a5l ^ d0l, t5h = a5h ^ d0h
    const b16l = (t5h << 4) | (t5l >>> 28), b16h = (t5l << 4) | (t5h >>> 28)
    const t6l = a6l ^ d1l, t6h = a6h ^ d1h
    const b1l = (t6h << 12) | (t6l >>> 20), b1h = (t6l << 12) | (t6h >>> 20)
    const t7l = a7l ^ d2l, t7h = a7h ^ d2h
    const b11l = (t7l << 6) | (t7h >>> 26), b11h = (t7h << 6) | (t7l >>> 26)
    const t8l = a8l ^ d3l, t8h = a8h ^ d3h
    const b21l = (t8h << 23) | (t8l >>> 9), b21h = (t8l << 23) | (t8h >>> 9)
    const t9l = a9l ^ d4l, t9h = a9h ^ d4h
    const b6l = (t9l << 20) | (t9h >>> 12), b6h = (t9h << 20) | (t9l >>> 12)
    const t10l = a10l ^ d0l, t10h = a10h ^ d0h
    const b7l = (t10l << 3) | (t10h >>> 29), b7h = (t10h << 3) | (t10l >>> 29)
    const t11l = a11l ^ d1l, t11h = a11h ^ d1h
    const b17l = (t11l << 10) | (t11h >>> 22), b17h = (t11h << 10) | (t11l >>> 22)
    const t12l = a12l ^ d2l, t12h = a12h ^ d2h
    const b2l = (t12h << 11) | (t12l >>> 21), b2h = (t12l << 11) | (t12h >>> 21)
    const t13l = a13l ^ d3l, t13h = a13h ^ d3h
    const b12l = (t13l << 25) | (t13h >>> 7), b12h = (t13h << 25) | (t13l >>> 7)
    const t14l = a14l ^ d4l, t14h = a14h ^ d4h
    const b22l = (t14h << 7) | (t14l >>> 25), b22h = (t14l << 7) | (t14h >>> 25)
    const t15l = a15l ^ d0l, t15h = a15h ^ d0h
    const b23l = (t15h << 9) | (t15l >>> 23), b23h = (t15l << 9) | (t15h >>> 23)
    const t16l = a16l ^ d1l, t16h = a16h ^ d1h
    const b8l = (t16h << 13) | (t16l >>> 19), b8h = (t16l << 13) | (t16h >>> 19)
    const t17l = a17l ^ d2l, t17h = a17h ^ d2h
    const b18l = (t17l << 15) | (t17h >>> 17), b18h = (t17h << 15) | (t17l >>> 17)
    const t18l = a18l ^ d3l, t18h = a18h ^ d3h
    const b3l = (t18l << 21) | (t18h >>> 11), b3h = (t18h << 21) | (t18l >>> 11)
    const t19l = a19l ^ d4l, t19h = a19h ^ d4h
    const b13l = (t19l << 8) | (t19h >>> 24), b13h = (t19h << 8) | (t19l >>> 24)
    const t20l = a20l ^ d0l, t20h = a20h ^ d0h
    const b14l = (t20l << 18) | (t20h >>> 14), b14h = (t20h << 18) | (t20l >>> 14)
    const t21l = a21l ^ d1l, t21h = a21h ^ d1h
    const b24l = (t21l << 2) | (t21h >>> 30), b24h = (t21h << 2) | (t21l >>> 30)
    const t22l = a22l ^ d2l, t22h = a22h ^ d2h
    const b9l = (t22h << 29) | (t22l >>> 3), b9h = (t22l << 29) | (t22h >>> 3)
    const t23l = a23l ^ d3l, t23h = a23h ^ d3h
    const b19l = (t23h << 24) | (t23l >>> 8), b19h = (t23l << 24) | (t23h >>> 8)
    const t24l = a24l ^ d4l, t24h = a24h ^ d4h
    const b4l = (t24l << 14) | (t24h >>> 18), b4h = (t24h << 14) | (t24l >>> 18)
    a0l = b0l ^ (~b1l & b2l)
    a0h = b0h ^ (~b1h & b2h)
    a1l = b1l ^ (~b2l & b3l)
    a1h = b1h ^ (~b2h & b3h)
    a2l = b2l ^ (~b3l & b4l)
    a2h = b2h ^ (~b3h & b4h)
    a3l = b3l ^ (~b4l & b0l)
    a3h = b3h ^ (~b4h & b0h)
    a4l = b4l ^ (~b0l & b1l)
    a4h = b4h ^ (~b0h & b1h)
    a5l = b5l ^ (~b6l & b7l)
    a5h = b5h ^ (~b6h & b7h)
    a6l = b6l ^ (~b7l & b8l)
    a6h = b6h ^ (~b7h & b8h)
    a7l = b7l ^ (~b8l & b9l)
    a7h = b7h ^ (~b8h & b9h)
    a8l = b8l ^ (~b9l & b5l)
    a8h = b8h ^ (~b9h & b5h)
    a9l = b9l ^ (~b5l & b6l)
    a9h = b9h ^ (~b5h & b6h)
    a10l = b10l ^ (~b11l & b12l)
    a10h = b10h ^ (~b11h & b12h)
    a11l = b11l ^ (~b12l & b13l)
    a11h = b11h ^ (~b12h & b13h)
    a12l = b12l ^ (~b13l & b14l)
    a12h = b12h ^ (~b13h & b14h)
    a13l = b13l ^ (~b14l & b10l)
    a13h = b13h ^ (~b14h & b10h)
    a14l = b14l ^ (~b10l & b11l)
    a14h = b14h ^ (~b10h & b11h)
    a15l = b15l ^ (~b16l & b17l)
    a15h = b15h ^ (~b16h & b17h)
    a16l = b16l ^ (~b17l & b18l)
    a16h = b16h ^ (~b17h & b18h)
    a17l = b17l ^ (~b18l & b19l)
    a17h = b17h ^ (~b18h & b19h)
    a18l = b18l ^ (~b19l & b15l)
    a18h = b18h ^ (~b19h & b15h)
    a19l = b19l ^ (~b15l & b16l)
    a19h = b19h ^ (~b15h & b16h)
    a20l = b20l ^ (~b21l & b22l)
    a20h = b20h ^ (~b21h & b22h)
    a21l = b21l ^ (~b22l & b23l)
    a21h = b21h ^ (~b22h & b23h)
    a22l = b22l ^ (~b23l & b24l)
    a22h = b22h ^ (~b23h & b24h)
    a23l = b23l ^ (~b24l & b20l)
    a23h = b23h ^ (~b24h & b20h)
    a24l = b24l ^ (~b20l & b21l)
    a24h = b24h ^ (~b20h & b21h)
    a0l ^= RC[r]!
    a0h ^= RC[r + 1]!
  }
  s[0] = a0l
  s[1] = a0h
  s[2] = a1l
  s[3] = a1h
  s[4] = a2l
  s[5] = a2h
  s[6] = a3l
  s[7] = a3h
  s[8] = a4l
  s[9] = a4h
  s[10] = a5l
  s[11] = a5h
  s[12] = a6l
  s[13] = a6h
  s[14] = a7l
  s[15] = a7h
  s[16] = a8l
  s[17] = a8h
  s[18] = a9l
  s[19] = a9h
  s[20] = a10l
  s[21] = a10h
  s[22] = a11l
  s[23] = a11h
  s[24] = a12l
  s[25] = a12h
  s[26] = a13l
  s[27] = a13h
  s[28] = a14l
  s[29] = a14h
  s[30] = a15l
  s[31] = a15h
  s[32] = a16l
  s[33] = a16h
  s[34] = a17l
  s[35] = a17h
  s[36] = a18l
  s[37] = a18h
  s[38] = a19l
  s[39] = a19h
  s[40] = a20l
  s[41] = a20h
  s[42] = a21l
  s[43] = a21h
  s[44] = a22l
  s[45] = a22h
  s[46] = a23l
  s[47] = a23h
  s[48] = a24l
  s[49] = a24h
}

// One state, reused: hashing is synchronous.
const state = new Int32Array(50)

/** XORs byte `k` of the rate into the state (lanes are little-endian u64s). */
const absorbByte = (k: number, byte: number) => {
  state[k >>> 2] ^= byte << ((k & 3) * 8)
}

/**
 * keccak256 of `data`: 32 bytes.
 */
export const keccak256 = (data: Uint8Array): Uint8Array => {
  state.fill(0)
  let at = 0
  for (; at + RATE <= data.length; at += RATE) {
    for (let k = 0; k < RATE; k += 4) {
      state[k >>> 2] ^= data[at + k]! | (data[at + k + 1]! << 8) | (data[at + k + 2]! << 16) |
        (data[at + k + 3]! << 24)
    }
    permute(state)
  }
  // The last, partial block, with Keccak's 0x01 … 0x80 padding.
  const rest = data.length - at
  for (let k = 0; k < rest; k++) absorbByte(k, data[at + k]!)
  absorbByte(rest, 0x01)
  absorbByte(RATE - 1, 0x80)
  permute(state)
  const out = new Uint8Array(32)
  for (let k = 0; k < 32; k++) out[k] = state[k >>> 2]! >>> ((k & 3) * 8)
  return out
}
