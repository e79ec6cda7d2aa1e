// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const wallet: string
declare const otherWallet: string
// #region readme
import * as Webhooks from "@solfx/admin/Webhooks"
import { WebhookReceiver } from "@solfx/webhooks"
import { Effect, Redacted } from "effect"

const secret = Redacted.make("Bearer my-webhook-secret") // sent back in every delivery's Authorization header

const manage = Effect.gen(function*() {
  const webhooks = yield* Webhooks.Webhooks
  // Checked before anything is sent: an unknown type, a bad address, more than 100,000 addresses or a
  // URL that is not http(s) is an InvalidRequest naming the field. 100 credits a call.
  const hook = yield* webhooks.create({
    webhookURL: "https://example.com/solana-hook",
    webhookType: "enhanced",
    accountAddresses: [wallet],
    transactionTypes: ["TRANSFER", "NFT_SALE"], // the service's vocabulary, typed; default ["ANY"]
    authHeader: secret
  })
  // The service replaces a webhook with the whole body of its PUT, so edit reads the webhook,
  // applies the change and sends all of it (two calls). The change may be a function of the webhook.
  yield* webhooks.edit(hook.webhookID, (current) => ({ accountAddresses: [...current.accountAddresses, otherWallet] }))
  yield* webhooks.toggle(hook.webhookID, false) // pause deliveries; true resumes them
  yield* webhooks.delete(hook.webhookID)
  return yield* webhooks.get(hook.webhookID).pipe(
    Effect.as("still there"),
    Effect.catchTag("WebhookNotFound", (e) => Effect.succeed(`${e.webhookID} is gone`))
  )
})

// The receiving end, to mount in any Effect HTTP server: checks the Authorization header,
// de-duplicates the service's retries by signature, hands each batch over in order.
const receive = WebhookReceiver.make({
  authHeader: secret,
  onEvents: (events) => Effect.log(`${events.length} new transactions`)
})
// #endregion readme

export { manage, receive }
