// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const wallet: string
// #region readme
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import * as SolfxConfig from "@solfx/core/Config"
import { Subscriptions } from "@solfx/subscriptions"
import { Console, Effect, Layer, Stream } from "effect"

const watch = Effect.gen(function*() {
  const subscriptions = yield* Subscriptions.Subscriptions
  // The next 10 changes to the wallet; ending (or interrupting) the stream unsubscribes.
  yield* subscriptions.account(wallet).pipe(
    Stream.take(10),
    Stream.runForEach((event) =>
      event._tag === "Gap" // the socket was replaced, or a slow consumer's buffer dropped some
        ? Console.log(`notifications after slot ${event.afterSlot} may be missing (${event.reason})`)
        : Console.log(`slot ${event.slot}: ${event.value.value.lamports} lamports`)
    )
  )
})

// One socket carries every subscription of the layer: opened by the first, closed after the last.
const live = Subscriptions.layerWith({ pingInterval: "30 seconds", pongTimeout: "10 seconds" }).pipe(
  Layer.provide([SolfxConfig.layerConfig, NodeSocket.layerWebSocketConstructor])
)
const program = watch.pipe(Effect.provide(live))
// #endregion readme

export { program }
