/**
 * The notifications of the service's WebSocket subscriptions, as Schemas. They live in
 * `@solfx/core/Notification`, beside the subscriptions table (`@solfx/core/SubscriptionEndpoints`)
 * that the emulator reads too; this module keeps `@solfx/subscriptions/Notifications` working.
 *
 * @example
 * const decoded = Schema.decodeUnknownSync(Notifications.Slot)({ parent: 9, root: 1, slot: 10 }) // slot: 10n
 * @since 0.1.0
 */
export * from "@solfx/core/Notification"
