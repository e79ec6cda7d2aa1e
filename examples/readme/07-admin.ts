// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const projectId: string
// #region readme
import * as Admin from "@solfx/admin/Admin"
import * as Webhooks from "@solfx/admin/Webhooks"
import { Effect } from "effect"

const program = Effect.gen(function*() {
  // At most 5 requests per second per project, shared by every fiber; 429 honours Retry-After.
  const usage = yield* (yield* Admin.Admin).getProjectUsage(projectId).pipe(
    Effect.catchTag("ProjectMismatch", (e) => Effect.dieMessage(`the key is not of project ${e.projectId}`))
  )
  const hooks = yield* (yield* Webhooks.Webhooks).list() // authHeader stays Redacted
  console.log(usage.creditsUsed, usage.creditsRemaining, hooks.map((h) => h.webhookURL))
})
// #endregion readme

export { program }
