/**
 * @solfx/rpc: the JSON-RPC data services (digital assets, compression, bundles).
 *
 * @example
 * import { DigitalAssets } from "@solfx/rpc"
 *
 * const das = yield* DigitalAssets.DigitalAssets
 * const assets = yield* das.getAssetsByAuthority.stream({ authorityAddress }).pipe(Stream.take(100), Stream.runCollect)
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as AddressHistory from "./AddressHistory.js"
/** @since 0.1.0 */
export * as Bundles from "./Bundles.js"
/** @since 0.1.0 */
export * as Compression from "./Compression.js"
/** @since 0.1.0 */
export * as DigitalAssets from "./DigitalAssets.js"
/** @since 0.1.0 */
export * as EnhancedTransactions from "./EnhancedTransactions.js"
/** @since 0.1.0 */
export * as PriorityFees from "./PriorityFees.js"
/** @since 0.1.0 */
export * as Signatures from "./Signatures.js"
/** @since 0.1.0 */
export * as TokenMetadata from "./TokenMetadata.js"
