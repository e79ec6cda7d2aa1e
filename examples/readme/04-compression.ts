// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const mint: string
declare const accountHash: string
// #region readme
import * as Compression from "@solfx/rpc/Compression"
import { Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const zk = yield* Compression.Compression
  // Follows the cursor until it is null; Stream.take stops fetching.
  const holders = yield* zk.getCompressedMintTokenHoldersStream({ mint, limit: 1000 }).pipe(Stream.runCollect)
  const top = [...holders][0] // descending balance order; balance is an exact bigint
  const proof = yield* zk.getValidityProof({ hashes: [accountHash] })
  console.log(top?.owner, top?.balance, proof.context.slot, proof.value.roots)
})
// #endregion readme

export { program }
