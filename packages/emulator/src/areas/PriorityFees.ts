/**
 * getPriorityFeeEstimate, from the recent fees of the world (`RecentFees`: the ledger's
 * transactions and the cluster's seeded traffic, percentiles 0, 25, 50, 75, 95, 100). The same
 * fees answer getRecentPrioritizationFees. Params are checked with core's schema of the request,
 * so the emulator refuses what the SDK refuses, with the field and the rule (-32602).
 *
 * @since 0.1.0
 */

import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import * as PriorityFeeEstimate from "@solfx/core/PriorityFeeEstimate"
import * as Transaction from "@solfx/core/Transaction"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as RecentFees from "../RecentFees.js"
import * as World from "../World.js"

const invalid = (message: string) => new RpcFailure(-32602, `Invalid params: ${message}`)

const validate = validateInput(PriorityFeeEstimate.PriorityFeeRequest)

/**
 * The fees source of a request: the seed, the world's slot and its ledger.
 *
 * @since 0.1.0
 * @category data
 */
export const sourceOf = (ctx: AreaContext): RecentFees.Source => {
  const world = World.of(ctx.state)
  return { dataset: ctx.dataset, slot: ctx.slot(), transactions: world.transactions }
}

const getPriorityFeeEstimate = (params: unknown, ctx: AreaContext) =>
  Effect.gen(function*() {
    if (!Array.isArray(params) || params.length !== 1) {
      return yield* Effect.fail(invalid("params must be an array of one request object"))
    }
    const request = yield* Effect.mapError(
      validate(params[0]),
      (e) => invalid(`${e.field === "" ? "request" : e.field}: ${e.rule}`)
    )
    let accounts: ReadonlyArray<string> = request.accountKeys ?? []
    if (request.transaction !== undefined) {
      const encoding = request.options?.transactionEncoding === "Base64" ? "base64" : "base58"
      const parsed = Either.flatMap(Transaction.decodeText(request.transaction, encoding), Transaction.parseBytes)
      if (Either.isLeft(parsed)) {
        return yield* Effect.fail(invalid(`transaction: not a transaction (${parsed.left.reason})`))
      }
      accounts = parsed.right.staticKeys
    }
    return RecentFees.estimate(sourceOf(ctx), { accounts, options: request.options })
  })

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "priorityFees",
  rpc: rpcOf(Endpoints.priorityFees, { getPriorityFeeEstimate: { handle: getPriorityFeeEstimate } }),
  samples: (dataset) => ({ feeAccount: RecentFees.hotAccounts(dataset)[0]! })
}
