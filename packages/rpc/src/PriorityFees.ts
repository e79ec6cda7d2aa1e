/**
 * The priority fee API as a service, declared from its entry (`Endpoints.priorityFees`, 1 credit):
 * `getPriorityFeeEstimate`, micro-lamports per compute unit to pay for a transaction that locks
 * the given accounts, read from the fees of recent transactions.
 *
 * Give exactly one of `accountKeys` and `transaction`; `options.priorityLevel` picks one level
 * (default `Medium`), `includeAllPriorityFeeLevels` answers every level, `recommended` the
 * service's recommendation (alone: combined with a level, `includeAllPriorityFeeLevels`,
 * `lookbackSlots` or `includeVote` it is refused). Bad input (both or neither of the two,
 * `lookbackSlots` outside 1..150, more than 500 accounts, a transaction that is not base58 or
 * base64 as `transactionEncoding` says) is an `InvalidRequest` naming the field and the rule,
 * with nothing sent.
 *
 * @example
 * const fees = yield* PriorityFees.PriorityFees
 * const { priorityFeeEstimate } = yield* fees.getPriorityFeeEstimate({ accountKeys: [address] })
 * const { priorityFeeLevels } = yield* fees.getPriorityFeeEstimate({
 *   transaction: base64Tx,
 *   options: { transactionEncoding: "Base64", includeAllPriorityFeeLevels: true }
 * })
 * @since 0.1.0
 */
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError, InvalidRequest } from "@solfx/core/Errors"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The failures of a priority fee call: bad input (before any request) or an API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type PriorityFeesError = InvalidRequest | ApiError

/**
 * The priority fee methods, one operation per entry of `Endpoints.priorityFees`.
 *
 * @since 0.1.0
 * @category models
 */
export interface PriorityFeesShape extends Operations.Operations<typeof Endpoints.priorityFees> {}

/**
 * The priority fee service; `layer` builds it over the `HttpTransport`.
 *
 * @since 0.1.0
 * @category tags
 */
export class PriorityFees extends Context.Tag("@solfx/rpc/PriorityFees")<PriorityFees, PriorityFeesShape>() {}

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits` counter
 * (`Credits`), tagged `area=priorityFees` and the method.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<PriorityFeesShape, never, HttpTransport> =>
  Effect.map(HttpTransport, (transport) => Operations.make(transport, Endpoints.priorityFees))

/**
 * The service. Provide `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<PriorityFees, never, HttpTransport> = Layer.effect(PriorityFees, make())
