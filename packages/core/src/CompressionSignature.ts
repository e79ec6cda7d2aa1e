/**
 * Signature entries of the compression methods (as the service documents).
 *
 * @example
 * const page = yield* compression.getCompressionSignaturesForAddress({ address, limit: 50 })
 * page.value.items.map((s) => `${s.slot} ${s.signature}`)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"
import { Signature } from "./Primitives.js"
import { cursorPage, withContext } from "./SlotContext.js"

/**
 * A signature of a transaction that touched compressed state
 * (getCompressionSignaturesForAddress, getCompressionSignaturesForTokenOwner). Newest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const CompressionSignature = Schema.Struct({
  signature: Signature,
  slot: Count,
  blockTime: Count
}).annotations({ identifier: "CompressionSignature" })

/**
 * A decoded `CompressionSignature`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type CompressionSignature = typeof CompressionSignature.Type

/**
 * An item of getLatestNonVotingSignatures: `error` is the failure of a failed
 * transaction, `null` for a successful one.
 *
 * @since 0.1.0
 * @category schemas
 */
export const NonVotingSignature = Schema.Struct({
  signature: Signature,
  slot: Count,
  blockTime: Count,
  error: nullable(Schema.String)
}).annotations({ identifier: "NonVotingSignature" })

/**
 * A decoded `NonVotingSignature`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type NonVotingSignature = typeof NonVotingSignature.Type

/**
 * The result of getCompressionSignaturesForAddress and getCompressionSignaturesForTokenOwner.
 *
 * @since 0.1.0
 * @category results
 */
export const SignaturesResult = withContext(cursorPage(CompressionSignature)).annotations({
  identifier: "SignaturesResult"
})

/**
 * The result of getLatestNonVotingSignatures. The real service sends no cursor here:
 * the method is not paged.
 *
 * @since 0.1.0
 * @category results
 */
export const NonVotingSignaturesResult = withContext(
  Schema.Struct({ items: Schema.Array(NonVotingSignature) })
).annotations({ identifier: "NonVotingSignaturesResult" })
