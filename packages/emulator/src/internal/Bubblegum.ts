/**
 * The Bubblegum asset id of a compressed NFT: the program-derived address of
 * `["asset", tree, leaf index (u64 LE)]` under the Bubblegum program, as mpl-bubblegum's
 * `findLeafAssetIdPda` derives it. A derivation hashes with Node's native sha256 and
 * tests candidates for being off the ed25519 curve with a Legendre symbol.
 *
 * @internal
 */

import * as Crypto from "node:crypto"
import * as Base58 from "./Base58.js"

const BUBBLEGUM = Base58.decode("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY")!
const MARKER = Buffer.from("ProgramDerivedAddress")
const P = 2n ** 255n - 19n
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n

/** The Jacobi symbol (a/n) for odd n; for the prime P it is the Legendre symbol. */
const jacobi = (a0: bigint, n0: bigint): number => {
  let a = a0 % n0
  let n = n0
  let t = 1
  while (a !== 0n) {
    while ((a & 1n) === 0n) {
      a >>= 1n
      const r = n & 7n
      if (r === 3n || r === 5n) t = -t
    }
    const swap = a
    a = n
    n = swap
    if ((a & 3n) === 3n && (n & 3n) === 3n) t = -t
    a %= n
  }
  return n === 1n ? t : 0
}

/**
 * Whether 32 bytes decompress to an ed25519 point, as curve25519-dalek decides it for
 * Solana's `is_on_curve`: y (the low 255 bits, reduced) is on the curve when
 * (y² − 1)/(d·y² + 1) is a square. One Legendre symbol instead of a square root: about
 * five times cheaper than a full point decompression, which is what matters here.
 */
export const isOnCurve = (bytes: Uint8Array): boolean => {
  let y = 0n
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? bytes[i]! & 0x7f : bytes[i]!)
  const yy = (y * y) % P
  const u = (yy - 1n + P) % P
  const v = (D * yy + 1n) % P
  return jacobi((u * v) % P, P) !== -1
}

/**
 * The asset id of leaf `leafIndex` of Merkle tree `tree` (both as Bubblegum knows them).
 */
export const assetId = (tree: string, leafIndex: number): string => {
  const treeBytes = Base58.decode(tree)!
  const leaf = Buffer.alloc(8)
  leaf.writeBigUInt64LE(BigInt(leafIndex))
  for (let bump = 255; bump >= 0; bump--) {
    const candidate = Crypto.createHash("sha256")
      .update("asset")
      .update(treeBytes)
      .update(leaf)
      .update(Uint8Array.of(bump))
      .update(BUBBLEGUM)
      .update(MARKER)
      .digest()
    if (!isOnCurve(candidate)) return Base58.encode(candidate)
  }
  // Unreachable in practice (each bump is off the curve with probability 1/2).
  throw new Error(`emulator: no Bubblegum asset address for ${tree}/${leafIndex}`)
}
