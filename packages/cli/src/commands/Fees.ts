/**
 * `solfx fees <address...>`: the priority fee levels (micro-lamports per compute unit) of a
 * transaction that locks these accounts, from getPriorityFeeEstimate, as a table (`--json`: one
 * line a level).
 *
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import { PRIORITY_LEVELS } from "@solfx/core/PriorityFeeEstimate"
import { PriorityFees } from "@solfx/rpc/PriorityFees"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Format from "../Format.js"
import { opt, values, withServices } from "../Handler.js"
import { Output } from "../Output.js"

const KEYS = ["min", "low", "medium", "high", "veryHigh", "unsafeMax"] as const

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "fees",
  {
    addresses: values("address", "Accounts the transaction locks (base58)", 1),
    lookback: Options.integer("lookback-slots").pipe(
      Options.withDescription("Slots to look back over, 1 to 150 (default 150)"),
      Options.optional
    )
  },
  (o) =>
    withServices(Effect.gen(function*() {
      const fees = yield* PriorityFees
      const answer = yield* fees.getPriorityFeeEstimate({
        accountKeys: o.addresses,
        options: { includeAllPriorityFeeLevels: true, lookbackSlots: opt(o.lookback) }
      })
      const levels = answer.priorityFeeLevels
      const rows = KEYS.map((key, i) => ({ level: PRIORITY_LEVELS[i]!, fee: levels?.[key] ?? 0 }))
      yield* (yield* Output).rows(Stream.fromIterable(rows), {
        json: (r) => ({ level: r.level, microLamportsPerComputeUnit: r.fee }),
        columns: [
          { header: "level", cell: (r) => r.level },
          { header: "micro-lamports/CU", cell: (r) => Format.integer(Math.round(r.fee)), align: "right" }
        ],
        footer: () => `priority fee levels of ${o.addresses.length} account(s), from the recent fees`
      })
    }))
).pipe(Command.withDescription("Priority fee levels for a transaction locking these accounts"))
