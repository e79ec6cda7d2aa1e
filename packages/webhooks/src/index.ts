/**
 * @solfx/webhooks: the receiving end of the service's webhooks, a server-side
 * `HttpApp` (auth check, body limits, deduplication, a bounded hand-off) kept
 * apart from the client packages so that they stay free of server code.
 * (`DedupeStoreRedis`, not here, shares the deduplication through Redis and needs ioredis.)
 *
 * @example
 * import { WebhookReceiver } from "@solfx/webhooks"
 *
 * const receiver = yield* WebhookReceiver.make({ authHeader, onEvents: (events) => Effect.log(events.length) })
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as DedupeStore from "./DedupeStore.js"

/** @since 0.1.0 */
export * as WebhookReceiver from "./WebhookReceiver.js"
