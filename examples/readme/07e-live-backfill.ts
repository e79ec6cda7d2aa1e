// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
import type { Signatures as SignaturesService } from "@solfx/sdk"
import type { Subscriptions as SubscriptionsService } from "@solfx/subscriptions"
import type * as Layer from "effect/Layer"
declare const signature: string
declare const wallet: string
declare const services: Layer.Layer<SubscriptionsService.Subscriptions | SignaturesService.Signatures>
// #region readme
import { Signatures } from "@solfx/sdk"
import { Subscriptions } from "@solfx/subscriptions"
import { Console, Effect, Stream } from "effect"

const confirmed = Effect.gen(function*() {
  const subscriptions = yield* Subscriptions.Subscriptions
  const signatures = yield* Signatures.Signatures
  // After a reconnection, the signature's status is looked up (getSignatureStatuses, 1 credit): a
  // transaction that landed while the socket was down is delivered then, marked `backfilled`.
  yield* subscriptions.signature(signature, { commitment: "confirmed", backfill: signatures }).pipe(
    Stream.runForEach((event) =>
      event._tag === "Gap"
        ? Console.log("reconnected: looking the signature up")
        : Console.log(`landed in slot ${event.slot}${event.backfilled ? " (found after a reconnection)" : ""}`)
    )
  )
  // What a wallet did, newest first, by `before` (1 credit a page of up to 1,000).
  const latest = yield* signatures.getSignaturesForAddress({ address: wallet, limit: 10 })
  yield* Console.log(latest.map((s) => `${s.slot} ${s.signature} ${s.err === null ? "ok" : "failed"}`))
})
const program = confirmed.pipe(Effect.provide(services))
// #endregion readme

export { program }
