/**
 * The deterministic dataset: every value is derived from the seed and a label by
 * hashing, so the same seed gives the same data and nothing is stored until an
 * area asks for it. A list of 1,000,000 items is a length and a function.
 *
 * @example
 * const ds = Dataset.make(7)
 * ds.address("wallet:0") // the same valid address for seed 7, every run
 * const items = Dataset.lazyList(ds.size("my.items", 1_000_000), (i) => ds.int(`my.item:${i}`, 100))
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Crypto from "node:crypto"
import * as Base58 from "./internal/Base58.js"

/**
 * A list generated on demand.
 *
 * @since 0.1.0
 * @category models
 */
export interface LazyList<A> {
  readonly length: number
  readonly get: (index: number) => A
}

/**
 * A list of `length` items computed on access, so a million-item list costs nothing up front.
 *
 * @since 0.1.0
 * @category constructors
 */
export const lazyList = <A>(length: number, get: (index: number) => A): LazyList<A> => ({ length, get })

/**
 * Dataset sizes. Tests and benchmarks raise them; defaults keep start-up instant.
 *
 * @since 0.1.0
 * @category models
 */
export interface Sizes {
  /** Per area knobs, e.g. `{ "das.bigAuthorityAssets": 100000 }`. */
  readonly [knob: string]: number
}

/**
 * The emulator's data: every value derived from the seed and a label, on demand.
 *
 * @since 0.1.0
 * @category models
 */
export interface Dataset {
  readonly seed: number
  /** A size knob, or its default. */
  readonly size: (knob: string, fallback: number) => number
  /** 32 deterministic bytes for a label. */
  readonly bytes: (label: string, length?: number) => Uint8Array
  /** A valid base58 address (32 bytes) for a label. */
  readonly address: (label: string) => string
  /** A valid base58 signature (64 bytes) for a label. */
  readonly signature: (label: string) => string
  /** A deterministic integer in [0, max) for a label. */
  readonly int: (label: string, max: number) => number
}

/**
 * Parses size knobs as the command line gives them, `knob=n,knob=n`; the message of the first pair
 * that is not `knob=n` on the left. The emulator's program and `solfx emulator` both read `--sizes`
 * through it.
 *
 * @example
 * Dataset.parseSizes("das.bigAuthorityAssets=100000") // Either.right({ "das.bigAuthorityAssets": 100000 })
 * @since 0.1.0
 * @category constructors
 */
export const parseSizes = (text: string): Either.Either<Sizes, string> => {
  const out: Record<string, number> = {}
  for (const pair of text.split(",").filter((p) => p !== "")) {
    const m = /^([\w.]+)=(\d+)$/.exec(pair)
    if (m === null) return Either.left(`--sizes takes knob=n pairs separated by commas, got ${JSON.stringify(pair)}`)
    out[m[1]!] = Number(m[2])
  }
  return Either.right(out)
}

/**
 * Clears the top three bits of a big-endian 32-byte value in place, so it is below the BN254
 * scalar modulus (whose top byte is 0x30): a valid Poseidon value, as Photon returns.
 *
 * @since 0.1.0
 * @category constructors
 */
export const fieldElement = (bytes: Uint8Array): Uint8Array => {
  bytes[0] = bytes[0]! & 0x1f
  return bytes
}

/**
 * The dataset of a seed, with size knobs overriding the areas' defaults.
 *
 * @example
 * const ds = Dataset.make(7, { "wallet.wallets": 1000 })
 * ds.address("wallet:0") // the same address for seed 7, every time
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (seed: number, sizes: Sizes = {}): Dataset => {
  // Native sha256 (node:crypto): hashing is most of what generating a page costs. Digests come
  // as "binary" (latin1) text, one character a byte: a Buffer from the hash costs twice as much, most of it
  // in allocating and collecting its own memory, and most digests only become an address or a number.
  const digest = (label: string, block = 0): string => Crypto.hash("sha256", `${seed}|${label}|${block}`, "binary")
  const bytes = (label: string, length = 32): Uint8Array => {
    if (length <= 32) return Buffer.from(digest(label), "latin1").subarray(0, length)
    const out = new Uint8Array(length)
    for (let block = 0, off = 0; off < length; block++, off += 32) {
      out.set(Buffer.from(digest(label, block), "latin1").subarray(0, Math.min(32, length - off)), off)
    }
    return out
  }
  return {
    seed,
    size: (knob, fallback) => sizes[knob] ?? fallback,
    bytes,
    address: (label) => Base58.encodeLatin1(digest(`addr:${label}`)),
    signature: (label) => Base58.encode(bytes(`sig:${label}`, 64)),
    int: (label, max) => {
      const d = digest(`int:${label}`)
      // No helper closure here: one per call (and tsx's name wrapper on it) showed in profiles.
      const v = ((d.charCodeAt(0) * 2 ** 24 + d.charCodeAt(1) * 2 ** 16 + d.charCodeAt(2) * 2 ** 8 + d.charCodeAt(3)) *
        2 ** 21) +
        (d.charCodeAt(4) * 2 ** 13 + d.charCodeAt(5) * 2 ** 5 + (d.charCodeAt(6) >> 3))
      return max <= 0 ? 0 : v % max
    }
  }
}
