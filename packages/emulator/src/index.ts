/**
 * @solfx/emulator: the service on loopback, for offline development and real-HTTP tests.
 *
 * @example
 * import { Emulator } from "@solfx/emulator"
 *
 * // every solfx service against an in-process emulator, on a free port with a fresh key
 * const TestLayer = Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7 })))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Area from "./Area.js"
/** @since 0.1.0 */
export * as Cors from "./Cors.js"
/** @since 0.1.0 */
export * as Dataset from "./Dataset.js"
/** @since 0.1.0 */
export * as Emulator from "./Emulator.js"
/** @since 0.1.0 */
export * as Events from "./Events.js"
/** @since 0.1.0 */
export * as Faults from "./Faults.js"
/** @since 0.1.0 */
export * as Paging from "./Paging.js"
/** @since 0.1.0 */
export * as PlanLimits from "./PlanLimits.js"
/** @since 0.1.0 */
export * as Projects from "./Projects.js"
/** @since 0.1.0 */
export * as PubSub from "./PubSub.js"
/** @since 0.1.0 */
export * as RequestLog from "./RequestLog.js"
/** @since 0.1.0 */
export * as Samples from "./Samples.js"
/** @since 0.1.0 */
export * as Server from "./Server.js"
/** @since 0.1.0 */
export * as Snapshots from "./Snapshots.js"
/** @since 0.1.0 */
export * as StateFile from "./StateFile.js"
/** @since 0.1.0 */
export * as WebhookDeliveries from "./WebhookDeliveries.js"
/** @since 0.1.0 */
export * as Wire from "./Wire.js"
/** @since 0.1.0 */
export * as World from "./World.js"
/** @since 0.1.0 */
export * as WorldHttp from "./WorldHttp.js"
