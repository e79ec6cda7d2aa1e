/**
 * The admin usage endpoint, `GET /v0/admin/projects/:id/usage`, with the usage
 * record, authentication and rate limit the service documents.
 *
 * - The key goes in `X-Api-Key` (or `?api-key`).
 * - At most 5 requests per second per project (the key's project), counted over
 *   a sliding one-second window of the requests it let through. The 6th gets
 *   HTTP 429 `{"error": "rate limited"}` with `Retry-After` in whole seconds.
 *   This check runs before any credit is charged, so a rejected request costs
 *   nothing and is not counted.
 * - A key of another project than `:id` gets HTTP 400 `{"error": …}`.
 * - The record is the project's live counters: what the server has charged and
 *   counted so far, with the arithmetic the service documents (see `Projects.usageRecord`).
 *   Reading it is free; it counts as one `api` request (the `/v0` endpoints are
 *   the enhanced API).
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import type * as ProjectUsage from "@solfx/core/ProjectUsage"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import type { Area, AreaContext } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import * as Projects from "../Projects.js"

/**
 * The admin rate limit the service documents (5 requests a second per project).
 *
 * @since 0.1.0
 * @category constants
 */
export const RATE_LIMIT = { requests: 5, windowMillis: 1000 } as const

/** Start times of the admin requests let through, per project, within the last window. */
const windows = (ctx: AreaContext) => ctx.state("admin:rate-windows", () => new Map<string, Array<number>>())

/**
 * Counts a request in the project's sliding window, or fails with 429 when the
 * window already holds `RATE_LIMIT.requests`.
 */
const admit = (ctx: AreaContext): Effect.Effect<void, RestFailure> =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => {
    const all = windows(ctx)
    const recent = (all.get(ctx.project.id) ?? []).filter((t) => t > now - RATE_LIMIT.windowMillis)
    all.set(ctx.project.id, recent)
    if (recent.length >= RATE_LIMIT.requests) {
      const waitMillis = recent[0]! + RATE_LIMIT.windowMillis - now
      return Effect.fail(
        new RestFailure(429, "rate limited", { "retry-after": String(Math.max(1, Math.ceil(waitMillis / 1000))) })
      )
    }
    recent.push(now)
    return Effect.void
  })

/** The service documents that the key must belong to the project in the path; anything else is a 400. */
const sameProject = (id: string, ctx: AreaContext): Effect.Effect<void, RestFailure> => {
  if (id.toLowerCase() === ctx.project.id.toLowerCase()) return Effect.void
  const known = ctx.projectById(id) !== undefined || ctx.projectById(id.toLowerCase()) !== undefined
  return Effect.fail(
    new RestFailure(
      400,
      known ? `the API key does not belong to project ${id}` : `project ${id} not found for this API key`
    )
  )
}

const route = restRoute(Endpoints.projectUsage, {
  precheck: (request, ctx) => Effect.zipRight(admit(ctx), sameProject(request.params["id"] ?? "", ctx)),
  handle: (_request, ctx) =>
    Effect.sync(() => {
      // Typed as the SDK's wire form, so a field the schema does not know is a compile error.
      const record: typeof ProjectUsage.ProjectUsage.Encoded = Projects.usageRecord(ctx.project)
      return record
    })
})

/**
 * The admin area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "admin",
  routes: [route]
}
