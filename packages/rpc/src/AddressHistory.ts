/**
 * The service's address history call as a service, declared from its entry
 * (`Endpoints.addressHistory`, 100 credits): `getTransactionsForAddress`, an address's transactions,
 * as signatures (up to 1,000 a page) or whole (`transactionDetails: "full"`, up to 100), newest
 * first or oldest first (`sortOrder`), narrowed by `filters`, with `.pages` and `.stream` that
 * follow `paginationToken` and resume with `{ start: next }` like every paged method. A walk asks
 * for the largest page its detail allows unless `limit` says otherwise.
 *
 * Bad input (an address, a limit beyond its detail's bound, `commitment: "processed"`, a token not
 * `"slot:position"`, a filter of the wrong kind) is an `InvalidRequest` naming the field and the
 * rule, with nothing sent.
 *
 * @example
 * const history = yield* AddressHistory.AddressHistory
 * const page = yield* history.getTransactionsForAddress({ address, limit: 10, sortOrder: "asc" })
 * const failed = yield* history.getTransactionsForAddress.stream({ address, filters: { status: "failed" } })
 *   .pipe(Stream.take(50), Stream.runCollect)
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
 * The failures of a history call: bad input (before any request) or an API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type AddressHistoryError = InvalidRequest | ApiError

/**
 * The history methods, one operation per entry of `Endpoints.addressHistory`; positions are
 * pagination tokens.
 *
 * @since 0.1.0
 * @category models
 */
export interface AddressHistoryShape extends Operations.Operations<typeof Endpoints.addressHistory, string> {}

/**
 * The address history service; `layer` builds it over the `HttpTransport`.
 *
 * @since 0.1.0
 * @category tags
 */
export class AddressHistory extends Context.Tag("@solfx/rpc/AddressHistory")<AddressHistory, AddressHistoryShape>() {}

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits` counter
 * (`Credits`), tagged `area=addressHistory` and the method.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<AddressHistoryShape, never, HttpTransport> =>
  Effect.map(
    HttpTransport,
    (transport) => Operations.make<typeof Endpoints.addressHistory, string>(transport, Endpoints.addressHistory)
  )

/**
 * The service. Provide `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<AddressHistory, never, HttpTransport> = Layer.effect(AddressHistory, make())
