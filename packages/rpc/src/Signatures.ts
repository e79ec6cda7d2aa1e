/**
 * The standard Solana RPC's signature methods as a service, declared from their entries
 * (`Endpoints.signatures`, 1 credit each): `getSignaturesForAddress`, the signatures of the
 * transactions that touched an address, newest first, with `.pages` and `.stream` (a walk goes
 * on from each page's last signature, `before`, and resumes with `{ start: next }` like every
 * paged method); and `getSignatureStatuses`, the status of up to 256 signatures, in order,
 * `null` for one not found (pass `searchTransactionHistory: true` for transactions older than
 * the recent status cache).
 *
 * Both take one object of named fields (the standard RPC's positional `[address, config]` is
 * built from it). Slots are exact `bigint`s. Bad input (an address, a signature, a limit out of
 * 1..1000, more than 256 signatures) is an `InvalidRequest` naming the field, with nothing sent.
 *
 * @example
 * const signatures = yield* Signatures.Signatures
 * const latest = yield* signatures.getSignaturesForAddress({ address, limit: 10 })
 * const all = yield* signatures.getSignaturesForAddress.stream({ address }).pipe(Stream.runCollect)
 * const { value } = yield* signatures.getSignatureStatuses({ signatures: [latest[0]!.signature] })
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
 * The failures of a signatures call: bad input (before any request) or an API failure.
 *
 * @since 0.1.0
 * @category errors
 */
export type SignaturesError = InvalidRequest | ApiError

/**
 * The signature methods, one operation per entry of `Endpoints.signatures`.
 *
 * @since 0.1.0
 * @category models
 */
export interface SignaturesShape extends Operations.Operations<typeof Endpoints.signatures, string> {}

/**
 * The signatures service; `layer` builds it over the `HttpTransport`.
 *
 * @since 0.1.0
 * @category tags
 */
export class Signatures extends Context.Tag("@solfx/rpc/Signatures")<Signatures, SignaturesShape>() {}

/**
 * Builds the service. Every request sent adds its cost to the `solfx.credits` counter
 * (`Credits`), tagged `area=signatures` and the method.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<SignaturesShape, never, HttpTransport> =>
  Effect.map(
    HttpTransport,
    (transport) => Operations.make<typeof Endpoints.signatures, string>(transport, Endpoints.signatures)
  )

/**
 * The service. Provide `HttpTransport`.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Signatures, never, HttpTransport> = Layer.effect(Signatures, make())
