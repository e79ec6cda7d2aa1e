/**
 * @solfx/core: the domain. Schemas, branded primitives, errors, config,
 * pagination and pure Solana logic. No HTTP.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Config from "./Config.js"
/** @since 0.1.0 */
export * as Decode from "./Decode.js"
/** @since 0.1.0 */
export * from "./Errors.js"
/** @since 0.1.0 */
export * as Json from "./Json.js"
/** @since 0.1.0 */
export * as Pagination from "./Pagination.js"
/** @since 0.1.0 */
export * as Primitives from "./Primitives.js"
