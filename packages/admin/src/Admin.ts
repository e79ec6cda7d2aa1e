/**
 * The admin API: a project's credit usage for the current billing cycle, rate
 * limited client-side to the 5 requests per second per project the service documents,
 * by the transport's `RateLimits`, like every area (the
 * admin bucket is limited with or without a plan).
 *
 * @example
 * const usage = yield* (yield* Admin.Admin).getProjectUsage(projectId)
 * console.log(`${usage.creditsUsed} credits used, ${usage.creditsRemaining} left`)
 * @since 0.1.0
 */

import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import { type ApiError, type HttpError, type InvalidRequest, ProjectMismatch } from "@solfx/core/Errors"
import { ProjectId } from "@solfx/core/Primitives"
import type { ProjectUsage } from "@solfx/core/ProjectUsage"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The admin method: a project's usage.
 *
 * @since 0.1.0
 * @category models
 */
export interface AdminShape {
  /**
   * `GET {admin_url}/v0/admin/projects/{id}/usage` with the key in `X-Api-Key`.
   * A non-UUID id fails with `InvalidRequest` before any request; a key of
   * another project fails with `ProjectMismatch`. Every attempt, retries
   * included, waits for a start slot of the admin bucket (`RateLimits`).
   */
  readonly getProjectUsage: (
    projectId: string
  ) => Effect.Effect<ProjectUsage, InvalidRequest | ProjectMismatch | ApiError>
}

/**
 * The admin service; `layer` builds it over the `HttpTransport`, whose limits it shares.
 *
 * @example
 * const admin = yield* Admin.Admin
 * const usage = yield* admin.getProjectUsage(projectId)
 * console.log(usage.creditsUsed, usage.creditsRemaining)
 *
 * @since 0.1.0
 * @category tags
 */
export class Admin extends Context.Tag("@solfx/admin/Admin")<Admin, AdminShape>() {}

const isBadRequest = (error: InvalidRequest | ApiError): error is HttpError =>
  error._tag === "HttpError" && error.status === 400

// Built once: `make()` hands out this one description of the service.
const built: Effect.Effect<AdminShape, never, HttpTransport> = Effect.gen(function*() {
  const transport = yield* HttpTransport
  const checkId = validateInput(ProjectId, "projectId", transport.redactor.redact)
  const usage = Derive.fromTransport(transport, Endpoints.projectUsage, { name: "getProjectUsage" })

  const getProjectUsage = Effect.fn("solfx.admin.getProjectUsage")(function*(projectId: string) {
    const id = yield* checkId(projectId)
    // The key passed by mistake as the id is a valid UUID: it must not reach the span.
    const shown = transport.redactor.redact(id)
    yield* Effect.annotateCurrentSpan("solfx.projectId", shown)
    return yield* usage.send({ id }).pipe(
      // The service documents it: the admin host answers 400 when the key's project is not `id`.
      Effect.catchIf(isBadRequest, (e) => Effect.fail(new ProjectMismatch({ projectId: shown, detail: e.body })))
    )
  })

  return Admin.of({ getProjectUsage })
})

/**
 * Builds the service. The admin limit is the transport's: one transport is one API
 * key, which belongs to one project, so its admin bucket is the project's, shared
 * by every fiber (and, with `RateLimitsRedis`, every process) that uses it.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<AdminShape, never, HttpTransport> => built

/**
 * The service over `HttpTransport`; it shares the transport's rate limits.
 *
 * @example
 * import { NodeHttpClient } from "@effect/platform-node"
 * const AdminLive = Admin.layer.pipe(
 *   Layer.provide(HttpTransport.layer),
 *   Layer.provide(NodeHttpClient.layerUndici),
 *   Layer.provide(Config.layerConfig)
 * )
 * const usage = Effect.flatMap(Admin.Admin, (admin) => admin.getProjectUsage(projectId))
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Admin, never, HttpTransport> = Layer.effect(Admin, built)
