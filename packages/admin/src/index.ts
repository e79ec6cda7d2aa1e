/**
 * @solfx/admin: the admin usage endpoint (rate limited) and the webhook list.
 *
 * @example
 * import { Admin } from "@solfx/admin"
 *
 * const usage = yield* Effect.flatMap(Admin.Admin, (a) => a.getProjectUsage(projectId))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Admin from "./Admin.js"
/** @since 0.1.0 */
export * as Webhooks from "./Webhooks.js"
