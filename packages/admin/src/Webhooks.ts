/**
 * The webhooks of the caller's API key: list, create, get, edit, pause or resume
 * (`toggle`) and delete them. Each method is an operation of its entry of the
 * endpoint table (`Endpoints.webhooks`), charged 100 credits a call as
 * the service's price list says; a project has at most `Plans.maxWebhooks[plan]`
 * webhooks (5 on the free plan, 50 on the others).
 *
 * Bad input (an unknown transaction type, an address that is not one, more than
 * 100,000 addresses, a URL that is not http(s)) fails with `InvalidRequest`
 * naming the field, before anything is sent. `authHeader` goes in as a
 * `Redacted` and comes back as one: it is never printed or logged.
 *
 * @example
 * const webhooks = yield* Webhooks.Webhooks
 * const hook = yield* webhooks.create({
 *   webhookURL: "https://example.com/hook",
 *   webhookType: "enhanced",
 *   accountAddresses: [wallet],
 *   transactionTypes: ["TRANSFER"],
 *   authHeader: Redacted.make("Bearer my-secret")
 * })
 * yield* webhooks.edit(hook.webhookID, { accountAddresses: [otherWallet] })
 * yield* webhooks.toggle(hook.webhookID, false)
 * @since 0.1.0
 */

import { validateInput } from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import type { ApiError, HttpError, InvalidRequest } from "@solfx/core/Errors"
import {
  type CreateWebhookInput,
  merge,
  type Webhook,
  WebhookChange,
  type WebhookChangeInput,
  WebhookNotFound
} from "@solfx/core/Webhook"
import { HttpTransport } from "@solfx/http/HttpTransport"
import * as Operations from "@solfx/http/Operations"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/**
 * The webhook methods.
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
  /**
   * `POST /v0/webhooks`: a new webhook, as the service recorded it (with its
   * `webhookID`). `transactionTypes` defaults to `["ANY"]`. Not retried unless
   * certainly not received: sent twice, it would make two webhooks.
   */
  readonly create: (input: CreateWebhookInput) => Effect.Effect<Webhook, InvalidRequest | ApiError>
  /** `GET /v0/webhooks/{webhookID}`: one webhook; `WebhookNotFound` when the key has no such webhook. */
  readonly get: (webhookID: string) => Effect.Effect<Webhook, InvalidRequest | WebhookNotFound | ApiError>
  /**
   * Changes the fields given and keeps the others. The service replaces a
   * webhook with the whole body of `PUT /v0/webhooks/{webhookID}` (a field left
   * out is lost), so this reads the webhook first (`get`), applies the change and
   * sends the whole webhook: two calls, 200 credits. `change` may be a function
   * of the current webhook (e.g. to add an address). The change is checked
   * before anything is sent (a function's result, before the `PUT`).
   */
  readonly edit: (
    webhookID: string,
    change: WebhookChangeInput | ((current: Webhook) => WebhookChangeInput)
  ) => Effect.Effect<Webhook, InvalidRequest | WebhookNotFound | ApiError>
  /** `PATCH /v0/webhooks/{webhookID}` with `{ active }`: pauses (false) or resumes (true) deliveries. */
  readonly toggle: (
    webhookID: string,
    active: boolean
  ) => Effect.Effect<Webhook, InvalidRequest | WebhookNotFound | ApiError>
  /** `DELETE /v0/webhooks/{webhookID}`; a webhook already gone is `WebhookNotFound`. */
  readonly delete: (webhookID: string) => Effect.Effect<void, InvalidRequest | WebhookNotFound | ApiError>
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

const isNotFound = <E extends { readonly _tag: string }>(error: E): error is E & HttpError =>
  error._tag === "HttpError" && (error as unknown as HttpError).status === 404

// Built once: `make()` hands out this one description of the service.
const built: Effect.Effect<WebhooksShape, never, HttpTransport> = Effect.gen(function*() {
  const transport = yield* HttpTransport
  const redact = transport.redactor.redact
  // One operation per entry of `Endpoints.webhooks`: each validates its params (InvalidRequest
  // naming the field, nothing sent), then sends, charges and decodes as its entry says.
  const ops = Operations.make(transport, Endpoints.webhooks)
  const checkChange = validateInput(WebhookChange, "", redact)

  /** The service's 404 for a webhook id is `WebhookNotFound`. */
  const found = (webhookID: string) => <A, E extends { readonly _tag: string }>(self: Effect.Effect<A, E>) =>
    Effect.catchIf(self, isNotFound, () => Effect.fail(new WebhookNotFound({ webhookID: redact(webhookID) })))

  const list = Effect.fn("solfx.webhooks.list")(function*() {
    // It takes no params: they cannot be invalid.
    return yield* ops.list().pipe(Effect.catchTag("InvalidRequest", (e) => Effect.die(e)))
  })

  const create = Effect.fn("solfx.webhooks.create")(function*(input: CreateWebhookInput) {
    return yield* ops.create(input)
  })

  const get = Effect.fn("solfx.webhooks.get")(function*(webhookID: string) {
    return yield* ops.get({ webhookID }).pipe(found(webhookID))
  })

  const edit = Effect.fn("solfx.webhooks.edit")(
    function*(webhookID: string, change: WebhookChangeInput | ((current: Webhook) => WebhookChangeInput)) {
      // A plain change is checked before the first request; a function's, once it has the webhook.
      const early = typeof change === "function" ? undefined : yield* checkChange(change)
      const current = yield* ops.get({ webhookID }).pipe(found(webhookID))
      const checked = early ?? (yield* checkChange((change as (c: Webhook) => WebhookChangeInput)(current)))
      return yield* ops.edit({ webhookID, ...merge(current, checked) }).pipe(found(webhookID))
    }
  )

  const toggle = Effect.fn("solfx.webhooks.toggle")(function*(webhookID: string, active: boolean) {
    return yield* ops.toggle({ webhookID, active }).pipe(found(webhookID))
  })

  const remove = Effect.fn("solfx.webhooks.delete")(function*(webhookID: string) {
    yield* ops.delete({ webhookID }).pipe(found(webhookID))
  })

  return Webhooks.of({ list, create, get, edit, toggle, delete: remove })
})

/**
 * Builds the service from the `HttpTransport`.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (): Effect.Effect<WebhooksShape, never, HttpTransport> => built

/**
 * The service as a Layer; needs the `HttpTransport`.
 *
 * @example
 * const hooks = yield* Effect.flatMap(Webhooks.Webhooks, (w) => w.list())
 * hooks.filter((h) => h.active).map((h) => h.webhookURL)
 * @since 0.1.0
 * @category layers
 */
export const layer: Layer.Layer<Webhooks, never, HttpTransport> = Layer.effect(Webhooks, built)
