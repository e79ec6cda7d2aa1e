/**
 * @solfx/sdk: the entry point. `Solfx.layer` / `Solfx.layerConfig` give every
 * service at once, and every service's module is re-exported here, so one import
 * is enough.
 *
 * @example
 * import { Solfx, Wallet } from "@solfx/sdk"
 *
 * Effect.flatMap(Wallet.Wallet, (w) => w.balances(address)).pipe(Effect.provide(Solfx.layerConfig))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Solfx from "./Solfx.js"

/** @since 0.1.0 */
export * as Admin from "@solfx/admin/Admin"
/** @since 0.1.0 */
export * as Bundle from "@solfx/core/Bundle"
/** @since 0.1.0 */
export * as Bundles from "@solfx/rpc/Bundles"
/** @since 0.1.0 */
export * as Compression from "@solfx/rpc/Compression"
/** @since 0.1.0 */
export * as Config from "@solfx/core/Config"
/** @since 0.1.0 */
export * as Credits from "@solfx/http/Credits"
/** @since 0.1.0 */
export * as DigitalAssets from "@solfx/rpc/DigitalAssets"
/** @since 0.1.0 */
export * as HttpTransport from "@solfx/http/HttpTransport"
/** @since 0.1.0 */
export * as Pagination from "@solfx/core/Pagination"
/** @since 0.1.0 */
export * as Primitives from "@solfx/core/Primitives"
/** @since 0.1.0 */
export * as TokenMetadata from "@solfx/rpc/TokenMetadata"
/** @since 0.1.0 */
export * as Wallet from "@solfx/wallet/Wallet"
/** @since 0.1.0 */
export * as Webhooks from "@solfx/admin/Webhooks"
/** @since 0.1.0 */
export * from "@solfx/core/Errors"
