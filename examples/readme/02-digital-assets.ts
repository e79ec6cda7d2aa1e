// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const authorityAddress: string
declare const owner: string
// #region readme
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import { Effect, Stream } from "effect"

const program = Effect.gen(function*() {
  const das = yield* DigitalAssets.DigitalAssets
  // Page 1 gives the total; the other pages are fetched 8 at a time, items stay in order.
  const assets = yield* das.getAssetsByAuthorityStream({ authorityAddress }, { concurrency: 8 }).pipe(Stream.runCollect)
  const compressed = [...assets].filter((a) => a.compression.compressed).map((a) => a.id)
  // Batched by 1,000 ids; fails with InvalidProof (naming the asset) if a proof does not hash to its root.
  const proofs = yield* das.getAssetProofBatchVerified(compressed)
  const accounts = yield* das.getTokenAccounts({ owner, limit: 100 }) // one page; amounts are bigint
  console.log(assets.length, proofs.size, accounts.token_accounts[0]?.amount)
})
// #endregion readme

export { program }
