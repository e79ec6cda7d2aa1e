/**
 * @solfx/subscriptions: the service's WebSocket subscriptions as Effect Streams.
 *
 * @example
 * import { Subscriptions } from "@solfx/subscriptions"
 *
 * const layer = Subscriptions.layer.pipe(Layer.provide(NodeSocket.layerWebSocketConstructor))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Notifications from "./Notifications.js"
/** @since 0.1.0 */
export * as SubscriptionEvent from "./SubscriptionEvent.js"
/** @since 0.1.0 */
export * as Subscriptions from "./Subscriptions.js"
