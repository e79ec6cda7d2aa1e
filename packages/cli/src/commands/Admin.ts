/**
 * `solfx usage [projectId]`, and the webhook table `solfx webhooks` shows (`Webhooks.ts`).
 *
 * @since 0.1.0
 */

import * as Args from "@effect/cli/Args"
import * as Command from "@effect/cli/Command"
import { Admin } from "@solfx/admin/Admin"
import type { ProjectUsage } from "@solfx/core/ProjectUsage"
import type { Webhook } from "@solfx/core/Webhook"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { UsageError } from "../Failure.js"
import * as Format from "../Format.js"
import { withServices } from "../Handler.js"
import { Output } from "../Output.js"
import { embeddedEmulator } from "../Services.js"

/**
 * A usage record as lines: credits, plan and cycle, then the request counts.
 *
 * @since 0.1.0
 * @category rendering
 */
export const usageLines = (u: ProjectUsage, indent = ""): ReadonlyArray<string> => {
  const counts = u.usage === undefined
    ? Object.entries(u.requests ?? {})
    : Object.entries(u.usage)
  return [
    ...Format.fields([
      ["plan", u.subscriptionDetails.plan],
      ["billing cycle", `${u.subscriptionDetails.billingCycle.start} .. ${u.subscriptionDetails.billingCycle.end}`],
      ["credits limit", Format.integer(u.subscriptionDetails.creditsLimit)],
      ["credits used", Format.integer(u.creditsUsed)],
      ["credits remaining", Format.integer(u.creditsRemaining)],
      ["prepaid used", Format.integer(u.prepaidCreditsUsed)],
      ["prepaid remaining", Format.integer(u.prepaidCreditsRemaining)]
    ], indent),
    `${indent}requests:`,
    ...Format.table(
      [
        { header: "service", cell: ([k]: readonly [string, unknown]) => k },
        {
          header: "requests",
          cell: ([, v]: readonly [string, unknown]) => Format.integer(Number(v)),
          align: "right" as const
        }
      ],
      counts.filter(([, v]) => typeof v === "number")
    ).map((l) => `${indent}  ${l}`)
  ]
}

const usage = Command.make(
  "usage",
  {
    projectId: Args.text({ name: "projectId" }).pipe(
      Args.withDescription("The project (UUID); with --emulator, defaults to the embedded emulator's"),
      Args.optional
    )
  },
  ({ projectId }) =>
    withServices(Effect.gen(function*() {
      const emulator = yield* embeddedEmulator
      const id = Option.orElse(projectId, () => Option.map(emulator, (e) => e.projectId))
      if (Option.isNone(id)) return yield* new UsageError({ message: "usage needs a projectId (a UUID)" })
      const record = yield* (yield* Admin).getProjectUsage(id.value)
      yield* (yield* Output).value(record, (u) => [`project ${id.value}`, ...usageLines(u)])
    }))
).pipe(Command.withDescription("The project's credits and request counts for the current billing cycle"))

/**
 * The webhook table's columns (the `authHeader` is never shown).
 *
 * @since 0.1.0
 * @category columns
 */
export const webhookColumns: ReadonlyArray<Format.Column<Webhook>> = [
  { header: "id", cell: (w) => w.webhookID },
  { header: "type", cell: (w) => w.webhookType },
  { header: "active", cell: (w) => w.active ? "yes" : "no" },
  { header: "accounts", cell: (w) => String(w.accountAddresses.length), align: "right" },
  { header: "types", cell: (w) => w.transactionTypes.join(",") || "-" },
  { header: "url", cell: (w) => w.webhookURL }
]

/**
 * @since 0.1.0
 * @category commands
 */
export const commands = [usage] as const
