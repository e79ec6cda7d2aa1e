/**
 * @solfx/http: the shared transport (auth, redaction, JSON-RPC, status mapping,
 * retry, timeouts, spans), the credits estimate every service feeds, the rate
 * limits and credit budget every call goes through (`RateLimitsRedis`, not here,
 * shares them through Redis and needs ioredis), and the transport's test helpers.
 *
 * @example
 * import { HttpTransport } from "@solfx/http"
 *
 * const live = HttpTransport.layer.pipe(Layer.provide(NodeHttpClient.layerUndici), Layer.provide(Config.layerConfig))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as BudgetStore from "./BudgetStore.js"
/** @since 0.1.0 */
export * as Credits from "./Credits.js"
/** @since 0.1.0 */
export * as Derive from "./Derive.js"
/** @since 0.1.0 */
export * as HttpTesting from "./HttpTesting.js"
/** @since 0.1.0 */
export * as HttpTransport from "./HttpTransport.js"
/** @since 0.1.0 */
export * as Operations from "./Operations.js"
/** @since 0.1.0 */
export * as RateLimits from "./RateLimits.js"
/** @since 0.1.0 */
export * as Redactor from "./Redactor.js"
/** @since 0.1.0 */
export * as Retry from "./Retry.js"
/** @since 0.1.0 */
export * as Walk from "./Walk.js"
/** @since 0.1.0 */
export * as WindowStore from "./WindowStore.js"
