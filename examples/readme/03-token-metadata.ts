// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const mints: ReadonlyArray<string>
// #region readme
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import { Effect, Either } from "effect"

const program = Effect.gen(function*() {
  const service = yield* TokenMetadata.TokenMetadata
  // Any number of mints, 100 per request, results in input order.
  const records = yield* service.getTokenMetadata({ mintAccounts: mints, includeOffChain: true })
  for (const r of records) {
    // A part the service could not resolve is a value (MetadataPartError), never a failed batch.
    console.log(
      r.account,
      Either.match(r.onChainMetadata, { onLeft: (e) => e.message, onRight: (m) => m.metadata.data.name })
    )
  }
})
// #endregion readme

export { program }
