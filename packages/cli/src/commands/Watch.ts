/**
 * `solfx watch slot | account <address> | logs <address> | signature <signature>`: live
 * notifications over the service's WebSocket, one line each (`--json`: one JSON line each), until
 * Ctrl-C (exit 130), `--count N` notifications, or, for a signature, its one notification. A reconnection shows as a gap line:
 * notifications between the slot it names and the new subscription may be missing.
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import type * as Notification from "@solfx/core/Notification"
import type { Event } from "@solfx/subscriptions/SubscriptionEvent"
import * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import type * as Stream from "effect/Stream"
import * as StreamM from "effect/Stream"
import { root } from "../Globals.js"
import * as Output from "../Output.js"
import * as Services from "../Services.js"

/**
 * The human line of a gap.
 *
 * @since 0.1.0
 * @category rendering
 */
export const gapLine = (
  gap: { readonly reason: string; readonly afterSlot?: bigint | undefined; readonly dropped?: number | undefined }
): string =>
  gap.reason === "Reconnected"
    ? `-- gap: reconnected${
      gap.afterSlot === undefined ? "" : ` after slot ${gap.afterSlot}`
    }; notifications may be missing`
    : `-- gap: ${gap.dropped ?? "some"} notification(s) dropped (the output fell behind)`

const errOf = (err: unknown) => (err === null || err === undefined ? "ok" : "failed")

/** `--count N`: stop after N notifications (gap lines are not counted), so a script can watch and go on. */
const count = Options.integer("count").pipe(
  Options.filterMap(
    (n) => n >= 1 ? Option.some(n) : Option.none(),
    "--count must be a positive integer (the notifications to print before exiting)"
  ),
  Options.withDescription("Exit 0 after this many notifications (default: until Ctrl-C)"),
  Options.optional
)

/** The events up to and including the `n`th notification; all of them without a count. */
const upTo = <A>(n: Option.Option<number>) => <E>(events: Stream.Stream<Event<A>, E>) =>
  Option.match(n, {
    onNone: () => events,
    onSome: (n) => {
      let seen = 0
      return StreamM.takeUntil(events, (event) => event._tag !== "Gap" && ++seen >= n)
    }
  })

/** Runs a subscription's stream, printing each event; `human` gives a notification's line. */
const watch = <A>(
  stream: (s: Subscriptions.Service) => Stream.Stream<Event<A>, Subscriptions.SubscriptionError>,
  human: (a: A, slot: bigint) => string,
  limit: Option.Option<number> = Option.none()
) =>
  Effect.gen(function*() {
    const globals = yield* root
    const config = globals.emulator
      ? Services.emulatorLayer({ apiKey: Option.getOrUndefined(Option.map(globals.apiKey, Redacted.value)) })
      : Services.configLayer(globals)
    const live = Subscriptions.layerWith({ pingInterval: "30 seconds" }).pipe(
      Layer.provide(NodeSocket.layerWebSocketConstructor),
      Layer.provide(config)
    )
    const output = Output.layer({
      json: globals.json,
      secrets: Option.toArray(Option.map(globals.apiKey, Redacted.value))
    })
    return yield* Effect.gen(function*() {
      const out = yield* Output.Output
      const subscriptions = yield* Subscriptions.Subscriptions
      yield* StreamM.runForEach(upTo<A>(limit)(stream(subscriptions)), (event) =>
        event._tag === "Gap"
          ? out.value(
            { type: "gap", reason: event.reason, afterSlot: event.afterSlot, dropped: event.dropped },
            () => gapLine(event)
          )
          : out.value(
            { type: "notification", slot: event.slot, value: event.value },
            () => human(event.value, event.slot)
          ))
    }).pipe(Effect.provide(output), Effect.provide(live))
  })

const address = Args.text({ name: "address" }).pipe(Args.withDescription("Account address (base58)"))

const slot = Command.make("slot", { count }, (o) =>
  watch<Notification.Slot>(
    (s) => s.slot(),
    (n) => `slot ${n.slot}  parent ${n.parent}  root ${n.root}`,
    o.count
  )).pipe(Command.withDescription("Every slot as it is processed"))

const account = Command.make("account", { address, count }, (o) =>
  watch<Notification.Account>(
    (s) => s.account(o.address),
    (n, at) => `slot ${at}  lamports ${n.value.lamports}  owner ${n.value.owner}`,
    o.count
  )).pipe(Command.withDescription("An account's changes"))

const logs = Command.make("logs", { address, count }, (o) =>
  watch<Notification.Logs>(
    (s) => s.logs({ mentions: [o.address] }),
    (n, at) => `slot ${at}  ${n.value.signature}  ${errOf(n.value.err)}  ${n.value.logs.length} log line(s)`,
    o.count
  )).pipe(Command.withDescription("Logs of transactions that mention an address"))

const signature = Command.make(
  "signature",
  { signature: Args.text({ name: "signature" }).pipe(Args.withDescription("Transaction signature (base58)")) },
  (o) =>
    watch<Notification.SignatureStatus>(
      (s) => s.signature(o.signature),
      (n, at) =>
        n.value === "receivedSignature"
          ? `slot ${at}  received`
          : `slot ${at}  ${o.signature}  ${errOf(n.value.err)}`
    )
).pipe(Command.withDescription("A transaction's status, once it lands (then exits)"))

/**
 * `solfx watch`.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("watch").pipe(
  Command.withDescription(
    "Live notifications, one line each, until Ctrl-C or --count N; a reconnection shows as a gap line"
  ),
  Command.withSubcommands([slot, account, logs, signature])
)
