// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
import type * as Effect_ from "effect/Effect"
declare const apiKey: string
declare const sendOnce: Effect_.Effect<void>
// #region readme
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { Effect } from "effect"

// One process: plan developer's limits (DAS 10/s, Photon 10/s, ...) and at most 1,000 credits.
const local = RateLimits.layerMemory({ plan: "developer", scope: RateLimits.fingerprint(apiKey), creditBudget: 1_000 })
// Several processes on one project share each bucket and the budget through Redis.
const shared = RateLimitsRedis.layer(
  { plan: "developer", scope: RateLimits.fingerprint(apiKey), creditBudget: 1_000 },
  { host: "127.0.0.1", port: 6379 }
)

const program = Effect.gen(function*() {
  const limits = yield* RateLimits.RateLimits
  // Takes 10 credits (or fails with CreditBudgetExceeded, sending nothing), then waits for a DAS start slot.
  yield* limits.aroundAttempt("das", 10)(sendOnce)
})
// #endregion readme

export { local, program, shared }
