/**
 * `solfx webhooks` (the key's webhooks) and `solfx webhooks
 * create|get|edit|toggle|delete`: webhook management. Auth headers are taken with
 * `--auth-header` as a secret and never printed (they show as `<redacted>`).
 *
 * @example
 * // solfx webhooks create --webhook-url https://example.com/hook --type enhanced --address <addr> --transaction-type TRANSFER
 * // solfx webhooks edit <id> --add-address <addr>
 * // solfx webhooks toggle <id> off
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import { Webhooks } from "@solfx/admin/Webhooks"
import * as Endpoints from "@solfx/core/Endpoints"
import type { KnownTransactionType, TxnStatus, Webhook, WebhookChangeInput, WebhookType } from "@solfx/core/Webhook"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { opt, withServices } from "../Handler.js"
import { Output } from "../Output.js"
import { webhookColumns } from "./Admin.js"

const KINDS = ["enhanced", "raw", "discord", "enhancedDevnet", "rawDevnet", "discordDevnet"] as const
const STATUSES = ["all", "success", "failed"] as const

const id = Args.text({ name: "webhookID" }).pipe(Args.withDescription("The webhook's id"))

const url = Options.text("webhook-url").pipe(Options.withDescription("The URL deliveries are POSTed to"))
const kind = Options.choice("type", KINDS).pipe(Options.withDescription("The kind of webhook"))
// A repeated option may be absent: withDefault([]) says so in the usage (`[--address text...]`).
const addresses = (name: string, description: string) =>
  Options.text(name).pipe(Options.repeated, Options.withDescription(description), Options.withDefault([]))
const types = Options.text("transaction-type").pipe(
  Options.repeated,
  Options.withDescription("A transaction type that triggers it (repeat; default ANY; enhanced kinds only)"),
  Options.withDefault([])
)
const authHeader = Options.redacted("auth-header").pipe(
  Options.withDescription("The Authorization value sent with each delivery (a secret: never printed)"),
  Options.optional
)
const txnStatus = Options.choice("txn-status", STATUSES).pipe(
  Options.withDescription("Which outcomes are delivered"),
  Options.optional
)

/**
 * A webhook as lines (the auth header only says whether there is one).
 *
 * @since 0.1.0
 * @category rendering
 */
export const webhookLines = (w: Webhook): ReadonlyArray<string> =>
  Format.fields([
    ["id", w.webhookID],
    ["type", w.webhookType],
    ["active", w.active ? "yes" : "no"],
    ["url", w.webhookURL],
    ["transaction types", w.transactionTypes.join(", ") || "-"],
    ["accounts", w.accountAddresses.join(", ") || "-"],
    ["auth header", w.authHeader === undefined ? "none" : "set (redacted)"],
    ...(w.txnStatus === undefined ? [] : [["txn status", w.txnStatus] as const])
  ])

const show = (w: Webhook) => Effect.flatMap(Output, (out) => out.value(w, webhookLines))

const listAll = withServices(Effect.gen(function*() {
  const hooks = yield* (yield* Webhooks).list()
  yield* (yield* Output).rows(Stream.fromIterable(hooks), { columns: webhookColumns })
}))

const list = Command.make("list", {}, () => listAll).pipe(
  Command.withDescription("The webhooks of the API key (auth headers stay redacted)")
)

const create = Command.make("create", {
  url,
  kind,
  addresses: Options.text("address").pipe(
    Options.repeated,
    Options.withDescription("An account to watch (repeat; 1 to 100,000)")
  ),
  types,
  authHeader,
  txnStatus
}, (o) =>
  withServices(Effect.gen(function*() {
    const hook = yield* (yield* Webhooks).create({
      webhookURL: o.url,
      webhookType: o.kind,
      accountAddresses: o.addresses,
      ...(o.types.length === 0 ? {} : { transactionTypes: o.types as ReadonlyArray<KnownTransactionType> }),
      authHeader: opt(o.authHeader),
      txnStatus: opt(o.txnStatus)
    })
    yield* show(hook)
  }))).pipe(Command.withDescription(`Creates a webhook (${Endpoints.webhooks.create.cost.credits} credits)`))

const get = Command.make(
  "get",
  { id },
  ({ id }) => withServices(Effect.flatMap(Effect.flatMap(Webhooks, (w) => w.get(id)), show))
).pipe(
  Command.withDescription("One webhook")
)

const edit = Command.make("edit", {
  id,
  url: Options.optional(url),
  kind: Options.optional(kind),
  addresses: addresses("address", "Watch exactly these accounts (repeat)"),
  add: addresses("add-address", "Also watch this account (repeat)"),
  remove: addresses("remove-address", "Stop watching this account (repeat)"),
  types,
  authHeader,
  noAuthHeader: Options.boolean("no-auth-header").pipe(Options.withDescription("Send deliveries without one")),
  txnStatus
}, (o) =>
  withServices(Effect.gen(function*() {
    const hook = yield* (yield* Webhooks).edit(o.id, (current): WebhookChangeInput => {
      const changesAddresses = o.addresses.length > 0 || o.add.length > 0 || o.remove.length > 0
      const base = o.addresses.length > 0 ? o.addresses : current.accountAddresses
      const removed = new Set(o.remove)
      const accounts = [...new Set([...base, ...o.add])].filter((a) => !removed.has(a))
      return {
        ...Option.match(o.url, { onNone: () => ({}), onSome: (webhookURL) => ({ webhookURL }) }),
        ...Option.match(o.kind, { onNone: () => ({}), onSome: (webhookType: WebhookType) => ({ webhookType }) }),
        ...(changesAddresses ? { accountAddresses: accounts } : {}),
        ...(o.types.length === 0 ? {} : { transactionTypes: o.types as ReadonlyArray<KnownTransactionType> }),
        ...(o.noAuthHeader ? { authHeader: null } : Option.match(o.authHeader, {
          onNone: () => ({}),
          onSome: (authHeader) => ({ authHeader })
        })),
        ...Option.match(o.txnStatus, { onNone: () => ({}), onSome: (txnStatus: TxnStatus) => ({ txnStatus }) })
      }
    })
    yield* show(hook)
  }))).pipe(
    Command.withDescription(
      `Changes a webhook: reads it and sends it whole with the change, as the service requires (${
        Endpoints.webhooks.get.cost.credits + Endpoints.webhooks.edit.cost.credits
      } credits)`
    )
  )

const toggle = Command.make("toggle", {
  id,
  // A text checked by hand: Args.choice prints its name and then its choices (`<on|off> on | off`).
  state: Args.text({ name: "on|off" }).pipe(
    Args.withDescription("on resumes deliveries, off pauses them"),
    Args.mapEffect((s) =>
      s === "on" || s === "off"
        ? Effect.succeed(s === "on")
        : Effect.fail(HelpDoc.p(`expected on or off, got ${s.length > 12 ? `${s.slice(0, 12)}…` : s}`))
    )
  )
}, ({ id, state }) => withServices(Effect.flatMap(Effect.flatMap(Webhooks, (w) => w.toggle(id, state)), show))).pipe(
  Command.withDescription("Resumes (on) or pauses (off) a webhook's deliveries")
)

const remove = Command.make("delete", { id }, ({ id }) =>
  withServices(Effect.gen(function*() {
    yield* (yield* Webhooks).delete(id)
    yield* (yield* Output).value({ webhookID: id, deleted: true }, () => `deleted ${id}`)
  }))).pipe(Command.withDescription("Deletes a webhook"))

/**
 * `solfx webhooks`: the list on its own, or one of its subcommands.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make("webhooks", {}, () => listAll).pipe(
  Command.withDescription("The webhooks of the API key; create, get, edit, toggle or delete one"),
  Command.withSubcommands([list, create, get, edit, toggle, remove])
)
