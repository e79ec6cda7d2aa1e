/**
 * The wrapper of the compression (Photon) methods: `{ context: { slot }, value }`,
 * and the cursor-paged value `{ items, cursor }` most of them return.
 *
 * @example
 * const HoldersResult = SlotContext.withContext(SlotContext.cursorPage(TokenHolder))
 * // decodes { context: { slot }, value: { items, cursor } }
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"

/**
 * The indexer slot a response was read at.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SlotContext = Schema.Struct({ slot: Count }).annotations({ identifier: "SlotContext" })

/**
 * A decoded `SlotContext`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SlotContext = typeof SlotContext.Type

/**
 * A value read at a slot: `{ context: { slot }, value }`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WithContext<A> {
  readonly context: SlotContext
  readonly value: A
}

/**
 * The schema of `{ context: { slot }, value }` around `value`.
 *
 * @example
 * const Result = withContext(cursorPage(TokenHolder))
 * @since 0.1.0
 * @category schemas
 */
export const withContext = <A, I, R>(value: Schema.Schema<A, I, R>) => Schema.Struct({ context: SlotContext, value })

/**
 * One page of a cursor-paged method. `cursor` is opaque (base58 on the real service) and
 * `null` on the last page; pass it back unchanged to get the next page.
 *
 * @since 0.1.0
 * @category models
 */
export interface CursorPage<A> {
  readonly items: ReadonlyArray<A>
  readonly cursor: string | null
}

/**
 * The schema of a cursor page of `item`. An absent cursor decodes as `null`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const cursorPage = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({ items: Schema.Array(item), cursor: nullable(Schema.String) })
