// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const apiKey: string
declare const authorityAddress: string
// #region readme
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import { Effect, Stream } from "effect"

// Every call paced by plan developer's limits (DAS 10/s, Photon 10/s, ...), and at most 1,000 credits.
const local = Solfx.layer({ apiKey, rateLimits: { plan: "developer", creditBudget: 1_000 } })
// Several processes on one project share each bucket and the budget through Redis.
const shared = Solfx.layer({
  apiKey,
  rateLimits: {
    plan: "developer",
    creditBudget: 1_000,
    store: RateLimitsRedis.layerStore({ host: "127.0.0.1", port: 6379 })
  }
})

const program = Effect.gen(function*() {
  const das = yield* DigitalAssets.DigitalAssets
  return yield* das.getAssetsByAuthorityStream({ authorityAddress }, { concurrency: 16 }).pipe(Stream.runCount)
}).pipe(
  // Nothing was sent past the budget.
  Effect.catchTag("CreditBudgetExceeded", (e) => Effect.succeed(`stopped at the budget of ${e.budget} credits`))
)
// #endregion readme

export { local, program, shared }
