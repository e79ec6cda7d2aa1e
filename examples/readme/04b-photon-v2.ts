// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const owner: string
declare const accountHash: string
// #region readme
import * as Compression from "@solfx/rpc/Compression"
import { Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const zk = yield* Compression.Compression
  // V2 accounts carry merkleContext (tree, queue, treeType) and proveByIndex instead of V1's tree.
  const accounts = yield* zk.getCompressedTokenAccountsByOwnerV2Stream({ owner }).pipe(Stream.runCollect)
  const [account] = (yield* zk.getMultipleCompressedAccountsV2({ hashes: [accountHash] })).value.items
  const proof = yield* zk.getValidityProofV2({ hashes: [accountHash] }) // 100 credits, like V1
  const slot = yield* zk.getIndexerSlot()
  console.log(accounts.length, account?.merkleContext.tree, proof.value.accounts[0]?.rootIndex, slot)
})
// #endregion readme

export { program }
