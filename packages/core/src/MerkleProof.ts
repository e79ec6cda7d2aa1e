/**
 * Compressed-NFT Merkle proofs (the SPL concurrent Merkle tree): keccak256 of the
 * concatenated children, ordered by position. Verification needs no I/O, so the
 * SDK checks proofs locally and the emulator builds real trees with the same code.
 *
 * A local check shows that a proof is internally consistent with its root; it
 * cannot tell whether that root is still current on chain.
 *
 * @example
 * const tree = MerkleProof.buildTree(leaves, 14)
 * const proof = MerkleProof.proofFor(tree, 3)
 * MerkleProof.verify(assetProof) // { valid: true } or the reason it is not
 * @since 0.1.0
 */

import { keccak256 } from "./internal/keccak.js"
import { decodeBase58, encodeBase58 } from "./Primitives.js"

/**
 * keccak256(left ‖ right): the parent of two nodes.
 *
 * @since 0.1.0
 * @category hashing
 */
export const hashPair = (left: Uint8Array, right: Uint8Array): Uint8Array => {
  const buf = new Uint8Array(left.length + right.length)
  buf.set(left, 0)
  buf.set(right, left.length)
  return keccak256(buf)
}

const emptyCache: Array<Uint8Array> = [new Uint8Array(32)]

/**
 * The empty-subtree hash at `level`: E0 is 32 zero bytes, E(i) = keccak(E(i-1) ‖ E(i-1)).
 *
 * @since 0.1.0
 * @category hashing
 */
export const emptyNode = (level: number): Uint8Array => {
  while (emptyCache.length <= level) {
    const prev = emptyCache[emptyCache.length - 1]!
    emptyCache.push(hashPair(prev, prev))
  }
  return emptyCache[level]!
}

/**
 * E0..E(depth), one per level.
 *
 * @since 0.1.0
 * @category hashing
 */
export const emptyNodes = (depth: number): ReadonlyArray<Uint8Array> =>
  Array.from({ length: depth + 1 }, (_, level) => emptyNode(level))

/**
 * A tree of fixed `depth` whose first `leaves` are set; every other leaf is empty.
 * Only the nodes above set leaves are stored, so a sparse tree costs what it holds.
 *
 * @since 0.1.0
 * @category models
 */
export interface MerkleTree {
  readonly depth: number
  /** levels[0] are the set leaves; levels[depth] holds the root. */
  readonly levels: ReadonlyArray<ReadonlyArray<Uint8Array>>
}

/**
 * Builds a tree of `depth` from its leading leaves (32 bytes each).
 *
 * @example
 * const tree = buildTree([leafA, leafB], 14)
 * const path = proofFor(tree, 1) // 14 siblings
 * @since 0.1.0
 * @category constructors
 */
export const buildTree = (leaves: ReadonlyArray<Uint8Array>, depth: number): MerkleTree => {
  if (!Number.isInteger(depth) || depth < 0 || depth > 48) throw new RangeError(`tree depth ${depth} is not in 0..48`)
  if (leaves.length > 2 ** depth) throw new RangeError(`${leaves.length} leaves do not fit a tree of depth ${depth}`)
  const levels: Array<ReadonlyArray<Uint8Array>> = [leaves.slice()]
  for (let level = 0; level < depth; level++) {
    const below = levels[level]!
    const above: Array<Uint8Array> = []
    for (let i = 0; i < below.length; i += 2) {
      above.push(hashPair(below[i]!, below[i + 1] ?? emptyNode(level)))
    }
    levels.push(above)
  }
  return { depth, levels }
}

/**
 * The root of a tree (E(depth) when it has no leaves).
 *
 * @since 0.1.0
 * @category accessors
 */
export const rootOf = (tree: MerkleTree): Uint8Array => tree.levels[tree.depth]![0] ?? emptyNode(tree.depth)

/**
 * The leaf at `index` (the empty node when unset).
 *
 * @since 0.1.0
 * @category accessors
 */
export const leafAt = (tree: MerkleTree, index: number): Uint8Array => tree.levels[0]![index] ?? emptyNode(0)

/**
 * The sibling path of leaf `index`, from the leaf level up (`depth` nodes).
 *
 * @since 0.1.0
 * @category accessors
 */
export const proofFor = (tree: MerkleTree, index: number): ReadonlyArray<Uint8Array> => {
  if (!Number.isInteger(index) || index < 0 || index >= 2 ** tree.depth) {
    throw new RangeError(`leaf index ${index} is outside a tree of depth ${tree.depth}`)
  }
  const path: Array<Uint8Array> = []
  let position = index
  for (let level = 0; level < tree.depth; level++) {
    const sibling = position % 2 === 0 ? position + 1 : position - 1
    path.push(tree.levels[level]![sibling] ?? emptyNode(level))
    position = Math.floor(position / 2)
  }
  return path
}

/**
 * The `node_index` of a leaf in the wire format: 2^depth + leaf index.
 *
 * @since 0.1.0
 * @category accessors
 */
export const nodeIndexOf = (depth: number, leafIndex: number): number => 2 ** depth + leafIndex

/**
 * Walks a proof up from `leaf`: at level i the node is the left child when bit i
 * of `leafIndex` is 0. Returns the computed root.
 *
 * @since 0.1.0
 * @category hashing
 */
export const computeRoot = (leaf: Uint8Array, leafIndex: number, proof: ReadonlyArray<Uint8Array>): Uint8Array => {
  let node = leaf
  let position = leafIndex
  for (const sibling of proof) {
    node = position % 2 === 0 ? hashPair(node, sibling) : hashPair(sibling, node)
    position = Math.floor(position / 2)
  }
  return node
}

/**
 * The proof nodes in either shape seen in the wild: a flat array of base58
 * strings, or (the docs' example) that array nested one level too deep.
 *
 * @since 0.1.0
 * @category models
 */
export type ProofNodes = ReadonlyArray<string> | ReadonlyArray<ReadonlyArray<string>>

/**
 * The flat array of a proof in either shape.
 *
 * @since 0.1.0
 * @category verification
 */
export const flattenProof = (proof: ProofNodes): ReadonlyArray<string> =>
  (proof as ReadonlyArray<string | ReadonlyArray<string>>).flatMap((p) => (typeof p === "string" ? [p] : p))

/**
 * What a proof record carries (the wire field names of getAssetProof and getAssetProofBatch).
 *
 * @since 0.1.0
 * @category models
 */
export interface ProofInput {
  readonly root: string
  readonly leaf: string
  readonly node_index: number
  readonly proof: ProofNodes
}

/**
 * The outcome of a verification: `valid`, or the reason it is not.
 *
 * @since 0.1.0
 * @category models
 */
export type Verification = { readonly valid: true } | { readonly valid: false; readonly reason: string }

const bytes32 = (value: unknown): Uint8Array | undefined => {
  if (typeof value !== "string") return undefined
  const b = decodeBase58(value)
  return b !== undefined && b.length === 32 ? b : undefined
}

/**
 * Verifies a proof record per the concurrent Merkle tree: depth = proof length,
 * leaf index = node_index - 2^depth, hash up, compare with the root.
 *
 * @example
 * verify({ root, leaf, node_index: 16384, proof }) // { valid: true }
 * @since 0.1.0
 * @category verification
 */
export const verify = (input: ProofInput): Verification => {
  const nodes = flattenProof(input.proof)
  const depth = nodes.length
  const root = bytes32(input.root)
  if (root === undefined) return { valid: false, reason: "root is not a 32-byte base58 hash" }
  const leaf = bytes32(input.leaf)
  if (leaf === undefined) return { valid: false, reason: "leaf is not a 32-byte base58 hash" }
  const siblings: Array<Uint8Array> = []
  for (let i = 0; i < nodes.length; i++) {
    const b = bytes32(nodes[i])
    if (b === undefined) return { valid: false, reason: `proof[${i}] is not a 32-byte base58 hash` }
    siblings.push(b)
  }
  if (!Number.isSafeInteger(input.node_index) || input.node_index < 2 ** depth) {
    return { valid: false, reason: `node_index ${input.node_index} is below 2^${depth} for a ${depth}-node proof` }
  }
  const leafIndex = input.node_index - 2 ** depth
  if (leafIndex >= 2 ** depth) {
    const implied = Math.floor(Math.log2(input.node_index))
    return {
      valid: false,
      reason: `node_index ${input.node_index} implies depth ${implied} but the proof has ${depth} nodes ` +
        "(a canopy-truncated proof cannot be checked offline)"
    }
  }
  return equalBytes(computeRoot(leaf, leafIndex, siblings), root)
    ? { valid: true }
    : { valid: false, reason: "the proof does not hash to the root" }
}

/**
 * Whether a proof record verifies.
 *
 * @since 0.1.0
 * @category verification
 */
export const isValid = (input: ProofInput): boolean => verify(input).valid

const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/**
 * The fields of a Bubblegum V1 leaf.
 *
 * @since 0.1.0
 * @category models
 */
export interface LeafSchemaV1 {
  readonly assetId: Uint8Array
  readonly owner: Uint8Array
  /** The owner when there is no delegate. */
  readonly delegate: Uint8Array
  readonly nonce: bigint | number
  readonly dataHash: Uint8Array
  readonly creatorHash: Uint8Array
}

/**
 * The Bubblegum V1 leaf hash: keccak(u8 1 ‖ assetId ‖ owner ‖ delegate ‖ u64le nonce ‖ data_hash ‖ creator_hash).
 *
 * @since 0.1.0
 * @category hashing
 */
export const leafHashV1 = (leaf: LeafSchemaV1): Uint8Array => {
  const buf = new Uint8Array(1 + 32 * 3 + 8 + 32 * 2)
  buf[0] = 1
  buf.set(leaf.assetId, 1)
  buf.set(leaf.owner, 33)
  buf.set(leaf.delegate, 65)
  new DataView(buf.buffer).setBigUint64(97, BigInt(leaf.nonce), true)
  buf.set(leaf.dataHash, 105)
  buf.set(leaf.creatorHash, 137)
  return keccak256(buf)
}

/**
 * A wire proof record (base58 strings) for leaf `index` of `tree`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const proofRecord = (tree: MerkleTree, index: number): {
  readonly root: string
  readonly leaf: string
  readonly node_index: number
  readonly proof: ReadonlyArray<string>
} => ({
  root: encodeBase58(rootOf(tree)),
  leaf: encodeBase58(leafAt(tree, index)),
  node_index: nodeIndexOf(tree.depth, index),
  proof: proofFor(tree, index).map(encodeBase58)
})
