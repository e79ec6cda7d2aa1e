// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// #region readme
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Solfx, Subscriptions } from "@solfx/sdk"
import { Console, Effect, Stream } from "effect"

// The same layer holds the WebSocket subscriptions: one socket, opened by the first stream, closed after the last.
const slots = Effect.flatMap(Subscriptions.Subscriptions, (subscriptions) =>
  subscriptions.slot().pipe(
    Stream.take(3),
    Stream.runForEach((event) =>
      event._tag === "Gap"
        ? Console.log(`slots after ${event.afterSlot} may be missing (${event.reason})`)
        : Console.log(`slot ${event.value.slot} (parent ${event.value.parent})`)
    )
  ))
slots.pipe(Effect.provide(Solfx.layerConfig), NodeRuntime.runMain)
// #endregion readme

export { slots }
