/**
 * The webhooks configured for the caller's API key (spec §4.7). Read only: this
 * interface has no operations to create or change webhooks (spec §6.6).
 *
 * @example
 * const hooks = yield* (yield* Webhooks.Webhooks).list()
 * hooks.filter((h) => h.active).map((h) => h.webhookURL)
 * @since 0.1.0
 */
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError } from "@solfx/core/Errors"
import type { Webhook } from "@solfx/core/Webhook"
import * as Derive from "@solfx/http/Derive"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The webhook method: list the key's webhooks.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebhooksShape {
  /**
   * `GET {v0_url}/v0/webhooks`: the key's webhooks. Each record's `authHeader`
   * is `Redacted` (unwrap it with effect's `Redacted` module).
   */
  readonly list: () => Effect.Effect<ReadonlyArray<Webhook>, ApiError>
}

/**
 * The webhooks service; `layer` builds it over the `HttpTransport`.
 *
 * @example
 * const hooks = yield* Effect.flatMap(Webhooks.Webhooks, (w) => w.list())
 *
 * @since 0.1.0
 * @category tags
 */
export class Webhooks extends Context.Tag("@solfx/admin/Webhooks")<Webhooks, WebhooksShape>() {}

/**
 * Builds the service from the `HttpTransport`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make: Effect.Effect<WebhooksShape, never, HttpTransport> = Effect.gen(function*() {
  const transport = yield* HttpTransport
  const webhooks = Derive.fromTransport(transport, Endpoints.listWebhooks)
  const list = Effect.fn("Webhooks.list")(function*() {
    return yield* webhooks.send({})
  })
  return Webhooks.of({ list })
})

/**
 * The service as a Layer; needs the `HttpTransport`.
 *
 * @example
 * const hooks = yield* Effect.flatMap(Webhooks.Webhooks, (w) => w.list())
 * hooks.filter((h) => h.active).map((h) => h.webhookURL)
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Webhooks, never, HttpTransport> = Layer.effect(Webhooks, make)
