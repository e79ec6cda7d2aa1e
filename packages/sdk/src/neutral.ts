/**
 * @solfx/sdk/neutral: the SDK for fetch-only runtimes (Deno, Bun, workers).
 * The same services and modules as `@solfx/sdk`, but nothing in its import
 * graph loads `@effect/platform-node`: `Solfx.layer` and `Solfx.layerConfig`
 * take the platform `HttpClient` layer to use, for example `FetchHttpClient.layer`.
 *
 * @example
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
 * import { Solfx, Wallet } from "@solfx/sdk/neutral"
 *
 * Effect.flatMap(Wallet.Wallet, (w) => w.balances(address)).pipe(
 *   Effect.provide(Solfx.layerConfig(FetchHttpClient.layer))
 * )
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Solfx from "./SolfxNeutral.js"

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
export * as PriorityFees from "@solfx/rpc/PriorityFees"
/** @since 0.1.0 */
export * as AddressHistory from "@solfx/rpc/AddressHistory"
/** @since 0.1.0 */
export * as EnhancedTransactions from "@solfx/rpc/EnhancedTransactions"
/** @since 0.1.0 */
export * as RateLimits from "@solfx/http/RateLimits"
/** @since 0.1.0 */
export * as Signatures from "@solfx/rpc/Signatures"
/** @since 0.1.0 */
export * as SignatureStatus from "@solfx/core/SignatureStatus"
/** @since 0.1.0 */
export * as SubscriptionEvent from "@solfx/subscriptions/SubscriptionEvent"
/** @since 0.1.0 */
export * as Subscriptions from "@solfx/subscriptions/Subscriptions"
/** @since 0.1.0 */
export * as TokenMetadata from "@solfx/rpc/TokenMetadata"
/** @since 0.1.0 */
export * as Walk from "@solfx/http/Walk"
/** @since 0.1.0 */
export * as Wallet from "@solfx/wallet/Wallet"
/** @since 0.1.0 */
export * as WebhookReceiver from "@solfx/webhooks/WebhookReceiver"
/** @since 0.1.0 */
export * as Webhooks from "@solfx/admin/Webhooks"
/** @since 0.1.0 */
export * from "@solfx/core/Errors"
