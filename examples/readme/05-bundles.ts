// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const signedTransactions: ReadonlyArray<string>
// #region readme
import * as Transaction from "@solfx/core/Transaction"
import * as Bundles from "@solfx/rpc/Bundles"
import { Effect } from "effect"

const program = Effect.gen(function*() {
  const bundles = yield* Bundles.Bundles
  const tx = yield* Transaction.parse(signedTransactions[0], "base64") // offline: signatures, transfers, tips
  // Pre-flight before any I/O: 1 to 5 signed transactions, no duplicate, a tip of at least 1,000 lamports.
  const id = yield* bundles.sendBundle(signedTransactions, { encoding: "base64", region: "fra" })
  const outcome = yield* bundles.awaitBundle(id, { commitment: "finalized", timeout: "60 seconds" })
  console.log(tx.signatures[0], id, outcome._tag) // Landed | Failed | TimedOut
})
// #endregion readme

export { program }
