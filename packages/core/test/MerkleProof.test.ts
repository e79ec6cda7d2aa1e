/**
 * Merkle proof verification: the service's public worked example of a proof verifies
 * in both proof shapes, tampering breaks it, and every proof of a built tree verifies.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import { keccak_256 } from "@noble/hashes/sha3.js"
import * as MerkleProof from "@solfx/core/MerkleProof"
import { decodeBase58, encodeBase58 } from "@solfx/core/Primitives"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as fc from "fast-check"
import { randomBytes } from "node:crypto"
import { readFileSync } from "node:fs"
import { keccak256 } from "../src/internal/keccak.js"

const FIXTURE = RealFixtures.path("getAssetProof", "helius-docs-openapi-1.json")
const present = RealFixtures.present("getAssetProof", "helius-docs-openapi-1.json")

/** Flip one base58 character to another valid one, keeping 32 bytes. */
const tamper = (hash: string): string => {
  const bytes = decodeBase58(hash)!.slice()
  bytes[7] = bytes[7]! ^ 0x01
  return encodeBase58(bytes)
}

describe("keccak256 (core's own, unrolled)", () => {
  it("equals @noble/hashes' keccak_256 on every length across three blocks", () => {
    for (let n = 0; n <= 3 * 136 + 8; n++) {
      for (let k = 0; k < 2; k++) {
        const data = randomBytes(n)
        expect(Buffer.from(keccak256(data)).toString("hex")).toBe(Buffer.from(keccak_256(data)).toString("hex"))
      }
    }
  })
})

describe("the worked example of a proof the service publishes", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  const example = present ? JSON.parse(readFileSync(FIXTURE, "utf8")) : undefined

  it("verifies as published (proof nested one level too deep)", () => {
    expect(Array.isArray(example.proof[0])).toBe(true)
    expect(MerkleProof.verify(example)).toEqual({ valid: true })
  })

  it("verifies with the flat proof shape, depth 14 and leaf index 0", () => {
    const flat = MerkleProof.flattenProof(example.proof)
    expect(flat.length).toBe(14)
    expect(example.node_index - 2 ** flat.length).toBe(0)
    expect(MerkleProof.verify({ ...example, proof: flat })).toEqual({ valid: true })
  })

  it("fails when any proof node, the leaf, the root or the index is tampered with", () => {
    const flat = [...MerkleProof.flattenProof(example.proof)]
    for (let i = 0; i < flat.length; i++) {
      const proof = flat.map((p, j) => (j === i ? tamper(p) : p))
      expect(MerkleProof.isValid({ ...example, proof })).toBe(false)
    }
    expect(MerkleProof.isValid({ ...example, leaf: tamper(example.leaf) })).toBe(false)
    expect(MerkleProof.isValid({ ...example, root: tamper(example.root) })).toBe(false)
    expect(MerkleProof.isValid({ ...example, node_index: example.node_index + 1 })).toBe(false)
    expect(MerkleProof.isValid({ ...example, proof: [...flat].reverse() })).toBe(false)
  })

  it("explains a proof cut short (canopy) instead of hashing garbage", () => {
    const result = MerkleProof.verify({ ...example, proof: MerkleProof.flattenProof(example.proof).slice(0, 2) })
    expect(result.valid).toBe(false)
    expect(result.valid ? "" : result.reason).toMatch(/canopy/)
  })
})

describe("MerkleProof", () => {
  it("empty nodes chain keccak(E ‖ E) from 32 zero bytes", () => {
    const e = MerkleProof.emptyNodes(3)
    expect(e[0]).toEqual(new Uint8Array(32))
    const concat = new Uint8Array(64)
    concat.set(e[1]!, 0)
    concat.set(e[1]!, 32)
    expect(e[2]).toEqual(keccak_256(concat))
    expect(MerkleProof.rootOf(MerkleProof.buildTree([], 3))).toEqual(e[3])
  })

  it("a tree of zero leaves has the empty root, and parents hash left ‖ right", () => {
    const zero = new Uint8Array(32)
    expect(MerkleProof.rootOf(MerkleProof.buildTree([zero, zero], 5))).toEqual(MerkleProof.emptyNode(5))
    const a = keccak_256(new Uint8Array([1]))
    const b = keccak_256(new Uint8Array([2]))
    const tree = MerkleProof.buildTree([a, b], 1)
    expect(MerkleProof.rootOf(tree)).toEqual(MerkleProof.hashPair(a, b))
    expect(MerkleProof.rootOf(tree)).not.toEqual(MerkleProof.hashPair(b, a))
  })

  it("leafHashV1 hashes the Bubblegum V1 layout", () => {
    const part = (n: number) => new Uint8Array(32).fill(n)
    const leaf = {
      assetId: part(1),
      owner: part(2),
      delegate: part(3),
      nonce: 258n,
      dataHash: part(4),
      creatorHash: part(5)
    }
    const expected = keccak_256(
      new Uint8Array([
        1,
        ...part(1),
        ...part(2),
        ...part(3),
        2,
        1,
        0,
        0,
        0,
        0,
        0,
        0,
        ...part(4),
        ...part(5)
      ])
    )
    expect(MerkleProof.leafHashV1(leaf)).toEqual(expected)
    expect(MerkleProof.leafHashV1({ ...leaf, nonce: 259n })).not.toEqual(expected)
  })

  it("property: every proof of a built tree verifies, and a flipped byte breaks it", () => {
    const hash = fc.uint8Array({ minLength: 32, maxLength: 32 })
    fc.assert(
      fc.property(
        fc.array(hash, { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 0, max: 4 }),
        fc.nat(),
        fc.nat(),
        (leaves, extraDepth, pick, flip) => {
          const depth = Math.ceil(Math.log2(leaves.length)) + extraDepth
          const tree = MerkleProof.buildTree(leaves, depth)
          const index = pick % 2 ** depth // set and empty leaves alike
          const record = MerkleProof.proofRecord(tree, index)
          expect(record.proof.length).toBe(depth)
          expect(MerkleProof.verify(record)).toEqual({ valid: true })
          expect(MerkleProof.verify({ ...record, proof: [record.proof] })).toEqual({ valid: true })
          if (depth > 0) {
            const at = flip % depth
            const proof = record.proof.map((p, i) => (i === at ? tamper(p) : p))
            expect(MerkleProof.isValid({ ...record, proof })).toBe(false)
          }
        }
      ),
      { numRuns: 150 }
    )
  })
})
