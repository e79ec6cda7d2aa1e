/**
 * A compressed-NFT proof check (the service's documented verification), written out here so it shares no code with
 * the emulator or the SDK: keccak over the proof path, from the leaf up to the root.
 */
import { keccak_256 } from "@noble/hashes/sha3.js"
import { decodeBase58 } from "@solfx/core/Primitives"

export const verifies = (p: { root: string; leaf: string; node_index: number; proof: ReadonlyArray<string> }) => {
  let node = decodeBase58(p.leaf)!
  let index = p.node_index - 2 ** p.proof.length
  for (const sibling of p.proof.map((s) => decodeBase58(s)!)) {
    const pair = new Uint8Array(64)
    pair.set(index % 2 === 0 ? node : sibling, 0)
    pair.set(index % 2 === 0 ? sibling : node, 32)
    node = keccak_256(pair)
    index = Math.floor(index / 2)
  }
  return Buffer.from(node).equals(Buffer.from(decodeBase58(p.root)!))
}
