/**
 * Small Schema helpers shared by the resource modules of core.
 *
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

/**
 * A field the wire sends as `null` (or omits): decodes to `A | null`, always present on the type.
 *
 * @since 0.1.0
 */
export const nullable = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/**
 * Slots, indices, counts and timestamps: non-negative integers within 2^53.
 *
 * @since 0.1.0
 */
export const Count = Schema.Number.pipe(
  Schema.int({ message: () => "a non-negative integer" }),
  Schema.nonNegative({ message: () => "a non-negative integer" })
)
