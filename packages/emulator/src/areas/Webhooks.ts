/**
 * The webhooks of the caller's API key (`/v0/webhooks`), and the store of webhooks
 * the emulator keeps (webhook delivery reads it too).
 *
 * - `GET /v0/webhooks` lists the caller's webhooks; `POST /v0/webhooks` creates
 *   one; `GET`, `PUT` (the whole webhook), `PATCH` (`{ active }`) and `DELETE`
 *   `/v0/webhooks/{webhookID}` read, replace, pause/resume and delete one. Every
 *   call is charged by its entry of `Endpoints` (100 credits, "webhook management
 *   via API" in the real price list); answers the Billing rule does not bill
 *   (400, 403, 404) are not charged.
 * - A body that is not a webhook (an unknown transaction type, a bad address,
 *   more than 100,000 addresses) is a 400 `{ "error": "<field>: <rule>" }`; an id
 *   the key does not own (never created, deleted, another key's) is a 404.
 * - A project has at most `Plans.maxWebhooks[plan]` webhooks (5 free, 50 on the
 *   others): one more is a 403. (The real service's answer to this is not
 *   documented; 403 is what it answers when a plan does not allow a call.)
 * - Each API key has its own webhooks. By default every key gets `webhooks.perKey`
 *   (default 3) seeded webhooks, derived from the dataset and the key: kinds in
 *   turn (enhanced, raw, discord, …), 1 to 3 monitored addresses, an `authHeader`
 *   on every other one, and the third one `active: false`. Their URLs are under
 *   `.invalid`, so no delivery can leave the machine.
 * - With the emulator option `webhooks`, exactly the configured webhooks are
 *   served at start instead (each owned by its `apiKey`/`projectId`, by default
 *   the default project's key), so tests control what delivery sees.
 * - A webhook is one live record: an edit, a toggle or a delete applies to the
 *   deliveries that follow, retries of earlier ones included.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import { maxWebhooks, type Plan } from "@solfx/core/Plans"
import * as Webhook from "@solfx/core/Webhook"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Area, AreaContext, Project, RestRequest, RestRoute } from "../Area.js"
import { RestFailure, restRoute } from "../Area.js"
import type { Dataset } from "../Dataset.js"

/**
 * A webhook to serve, as the emulator's `webhooks` option takes it.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebhookOptions {
  readonly webhookURL: string
  readonly webhookType: Webhook.WebhookType
  readonly accountAddresses?: ReadonlyArray<string> | undefined
  /** Default `["ANY"]`. */
  readonly transactionTypes?: ReadonlyArray<string> | undefined
  /** Sent as `Authorization` in deliveries. */
  readonly authHeader?: string | undefined
  /** Default true. */
  readonly active?: boolean | undefined
  /** Default: derived from the dataset. */
  readonly webhookID?: string | undefined
  /** Address of the owner; default: derived from the owner's key. */
  readonly wallet?: string | undefined
  /** The owner's API key. Default: the key of `projectId`, else the default project's key. */
  readonly apiKey?: string | undefined
  /** The owner's project, when `apiKey` is not given. */
  readonly projectId?: string | undefined
}

/**
 * A webhook as the store keeps it: one live record, changed in place by edits and
 * toggles (so deliveries and their retries see the change); delivery may set
 * `active` to false.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredWebhook {
  readonly webhookID: string
  readonly wallet: string
  webhookURL: string
  webhookType: Webhook.WebhookType
  accountAddresses: ReadonlyArray<string>
  transactionTypes: ReadonlyArray<string>
  authHeader?: string | undefined
  txnStatus?: string | undefined
  encoding?: string | undefined
  active: boolean
}

/**
 * A webhook, its owner's key and project (delivery attempts count in that project's usage).
 *
 * @since 0.1.0
 * @category models
 */
export interface OwnedWebhook {
  readonly apiKey: string
  readonly project: Project
  readonly webhook: StoredWebhook
}

/**
 * @since 0.1.0
 * @category models
 */
export interface WebhookStore {
  /** The webhooks of a key, seeding them on first use (unless the emulator was given its own). */
  readonly ofKey: (apiKey: string, project: Project) => ReadonlyArray<StoredWebhook>
  /** Every webhook with its owner. */
  readonly all: () => ReadonlyArray<OwnedWebhook>
  /** A new webhook of the key, with a fresh id. */
  readonly add: (apiKey: string, project: Project, body: Body) => StoredWebhook
  /** Removes a webhook of the key (and stops its pending deliveries); false when the key has none of that id. */
  readonly remove: (apiKey: string, project: Project, webhookID: string) => boolean
}

/** A create or replace body, checked. */
type Body = typeof Webhook.CreateWebhook.Type

/** An account as the store needs it (the emulator's `Projects.Account`). */
interface Owner {
  readonly apiKey: string
  readonly project: Project
}

const STATE_KEY = "webhooks:store"

const KINDS: ReadonlyArray<Webhook.WebhookType> = Webhook.WebhookType.literals

const ENHANCED_TYPES: ReadonlyArray<ReadonlyArray<string>> = [
  ["ANY"],
  ["TRANSFER", "SWAP"],
  ["NFT_SALE", "NFT_LISTING", "NFT_CANCEL_LISTING"],
  ["COMPRESSED_NFT_MINT", "COMPRESSED_NFT_TRANSFER"]
]

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")

const uuidOf = (bytes: Uint8Array): string => {
  const h = hex(bytes.subarray(0, 16))
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`
}

/**
 * The seeded webhooks of a key.
 *
 * @since 0.1.0
 * @category data
 */
export const seeded = (dataset: Dataset, apiKey: string): Array<StoredWebhook> => {
  const count = dataset.size("webhooks.perKey", 3)
  const wallet = dataset.address(`webhook:owner:${apiKey}`)
  return Array.from({ length: count }, (_, n): StoredWebhook => {
    const label = `webhook:${apiKey}:${n}`
    const webhookID = uuidOf(dataset.bytes(`${label}:id`, 16))
    const webhookType = KINDS[n % KINDS.length]!
    const enhanced = webhookType === "enhanced" || webhookType === "enhancedDevnet"
    const addresses = 1 + dataset.int(`${label}:addresses`, 3)
    return {
      webhookID,
      wallet,
      webhookURL: `https://hooks.solfx-emulator.invalid/${webhookID}`,
      webhookType,
      accountAddresses: Array.from({ length: addresses }, (_, i) => dataset.address(`${label}:account:${i}`)),
      transactionTypes: enhanced ? ENHANCED_TYPES[dataset.int(`${label}:types`, ENHANCED_TYPES.length)]! : ["ANY"],
      ...(n % 2 === 0 ? { authHeader: `Bearer ${hex(dataset.bytes(`${label}:auth`, 16))}` } : {}),
      active: n % 3 !== 2
    }
  })
}

const configured = (dataset: Dataset, option: WebhookOptions, owner: Owner, index: number): StoredWebhook => ({
  webhookID: option.webhookID ?? uuidOf(dataset.bytes(`webhook:configured:${index}:id`, 16)),
  wallet: option.wallet ?? dataset.address(`webhook:owner:${owner.apiKey}`),
  webhookURL: option.webhookURL,
  webhookType: option.webhookType,
  accountAddresses: [...(option.accountAddresses ?? [])],
  transactionTypes: [...(option.transactionTypes ?? ["ANY"])],
  ...(option.authHeader === undefined ? {} : { authHeader: option.authHeader }),
  active: option.active ?? true
})

const makeStore = (
  dataset: Dataset,
  owners: ReadonlyArray<Owner>,
  options: ReadonlyArray<WebhookOptions> | undefined
): WebhookStore => {
  const byKey = new Map<string, { readonly project: Project; readonly hooks: Array<StoredWebhook> }>()
  if (options !== undefined) {
    for (const owner of owners) byKey.set(owner.apiKey, { project: owner.project, hooks: [] })
    options.forEach((option, index) => {
      const owner = owners.find((o) => o.apiKey === option.apiKey) ??
        (option.apiKey === undefined ? owners.find((o) => o.project.id === option.projectId) : undefined) ??
        (option.apiKey === undefined && option.projectId === undefined ? owners[0] : undefined)
      if (owner === undefined) {
        throw new Error(`emulator: webhook ${index} names an owner that is not a project of this emulator`)
      }
      byKey.get(owner.apiKey)!.hooks.push(configured(dataset, option, owner, index))
    })
  } else {
    for (const owner of owners) {
      byKey.set(owner.apiKey, { project: owner.project, hooks: seeded(dataset, owner.apiKey) })
    }
  }
  const hooksOf = (apiKey: string, project: Project): Array<StoredWebhook> => {
    let entry = byKey.get(apiKey)
    if (entry === undefined) {
      entry = { project, hooks: options === undefined ? seeded(dataset, apiKey) : [] }
      byKey.set(apiKey, entry)
    }
    return entry.hooks
  }
  let created = 0
  return {
    ofKey: hooksOf,
    all: () =>
      [...byKey.entries()].flatMap(([apiKey, { hooks, project }]) =>
        hooks.map((webhook) => ({ apiKey, project, webhook }))
      ),
    add: (apiKey, project, body) => {
      const hook: StoredWebhook = {
        webhookID: uuidOf(dataset.bytes(`webhook:created:${created++}:id`, 16)),
        wallet: dataset.address(`webhook:owner:${apiKey}`),
        ...fieldsOf(body),
        active: true
      }
      hooksOf(apiKey, project).push(hook)
      return hook
    },
    remove: (apiKey, project, webhookID) => {
      const hooks = hooksOf(apiKey, project)
      const at = hooks.findIndex((h) => h.webhookID === webhookID)
      if (at < 0) return false
      // A delivery waiting to retry holds the record: inactive, it sends nothing more.
      hooks[at]!.active = false
      hooks.splice(at, 1)
      return true
    }
  }
}

/**
 * Creates the instance's store from the emulator's options; call once at start,
 * before serving. Throws when a configured webhook names an unknown owner.
 *
 * @since 0.1.0
 * @category constructors
 */
export const install = (
  state: AreaContext["state"],
  params: {
    readonly dataset: Dataset
    readonly accounts: ReadonlyArray<Owner>
    readonly webhooks?: ReadonlyArray<WebhookOptions> | undefined
  }
): WebhookStore => state(STATE_KEY, () => makeStore(params.dataset, params.accounts, params.webhooks))

/**
 * The instance's store (an empty, seeding one when `install` was not called).
 *
 * @since 0.1.0
 * @category getters
 */
export const storeOf = (ctx: Pick<AreaContext, "state" | "dataset">): WebhookStore =>
  ctx.state(STATE_KEY, () => makeStore(ctx.dataset, [], undefined))

/** The wire form: what the SDK's `Webhook` schema decodes. */
const render = (hook: StoredWebhook): typeof Webhook.Webhook.Encoded => ({
  webhookID: hook.webhookID,
  wallet: hook.wallet,
  webhookURL: hook.webhookURL,
  transactionTypes: [...hook.transactionTypes],
  accountAddresses: [...hook.accountAddresses],
  webhookType: hook.webhookType,
  ...(hook.authHeader === undefined ? {} : { authHeader: hook.authHeader }),
  active: hook.active,
  ...(hook.txnStatus === undefined ? {} : { txnStatus: hook.txnStatus }),
  ...(hook.encoding === undefined ? {} : { encoding: hook.encoding })
})

/** The fields a create or replace body sets. */
const fieldsOf = (body: Body) => ({
  webhookURL: body.webhookURL,
  webhookType: body.webhookType,
  accountAddresses: [...body.accountAddresses],
  transactionTypes: [...body.transactionTypes],
  authHeader: body.authHeader,
  txnStatus: body.txnStatus,
  encoding: body.encoding
})

const decodeBody = Schema.decodeUnknownEither(Webhook.CreateWebhook, { errors: "first" })

/** The request body as a webhook, or a 400 naming the first bad field. */
const bodyOf = (request: RestRequest): Effect.Effect<Body, RestFailure> => {
  const decoded = decodeBody(request.body)
  if (Either.isRight(decoded)) return Effect.succeed(decoded.right)
  const [issue] = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
  const field = pathText(issue?.path ?? [])
  return Effect.fail(new RestFailure(400, `${field === "" ? "body" : field}: ${issue?.message ?? "not a webhook"}`))
}

/** A decode path as a field name: `accountAddresses[3]`. */
const pathText = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join("")

/** The caller's webhook of the path's id, or a 404. */
const ownedHook = (request: RestRequest, ctx: AreaContext): Effect.Effect<StoredWebhook, RestFailure> => {
  const id = request.params["webhookID"]
  const hook = storeOf(ctx).ofKey(ctx.apiKey, ctx.project).find((h) => h.webhookID === id)
  return hook === undefined ? Effect.fail(new RestFailure(404, "webhook not found")) : Effect.succeed(hook)
}

const listRoute = restRoute(Endpoints.listWebhooks, {
  handle: (_request, ctx) => Effect.sync(() => storeOf(ctx).ofKey(ctx.apiKey, ctx.project).map(render))
})

const createRoute = restRoute(Endpoints.createWebhook, {
  handle: (request, ctx) =>
    Effect.flatMap(bodyOf(request), (body) => {
      const store = storeOf(ctx)
      const max = maxWebhooks[ctx.project.plan as Plan] as number | undefined
      const owned = store.all().filter((o) => o.project.id === ctx.project.id).length
      if (max !== undefined && owned >= max) {
        return Effect.fail(
          new RestFailure(403, `webhook limit reached: the ${ctx.project.plan} plan allows ${max} webhooks`)
        )
      }
      return Effect.succeed(render(store.add(ctx.apiKey, ctx.project, body)))
    })
})

const getRoute = restRoute(Endpoints.getWebhook, {
  handle: (request, ctx) => Effect.map(ownedHook(request, ctx), render)
})

const editRoute = restRoute(Endpoints.editWebhook, {
  handle: (request, ctx) =>
    Effect.flatMap(ownedHook(request, ctx), (hook) =>
      Effect.map(bodyOf(request), (body) => {
        // The whole webhook is replaced: a field the body leaves out is gone.
        Object.assign(hook, fieldsOf(body))
        return render(hook)
      }))
})

const ToggleBody = Schema.Struct({ active: Schema.Boolean })

const toggleRoute = restRoute(Endpoints.toggleWebhook, {
  handle: (request, ctx) =>
    Effect.flatMap(ownedHook(request, ctx), (hook) => {
      const body = Schema.decodeUnknownEither(ToggleBody)(request.body)
      if (Either.isLeft(body)) return Effect.fail(new RestFailure(400, "active: a boolean"))
      hook.active = body.right.active
      return Effect.succeed(render(hook))
    })
})

const deleteRoute = restRoute(Endpoints.deleteWebhook, {
  handle: (request, ctx) =>
    Effect.flatMap(ownedHook(request, ctx), (hook) => {
      storeOf(ctx).remove(ctx.apiKey, ctx.project, hook.webhookID)
      return Effect.succeed({ message: "webhook deleted" })
    })
})

/**
 * The webhooks area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "webhooks",
  // Typed by the table: an entry of `Endpoints.webhooks` without a route, or a route of no entry, does not compile.
  routes: Object.values(
    {
      list: listRoute,
      create: createRoute,
      get: getRoute,
      edit: editRoute,
      toggle: toggleRoute,
      delete: deleteRoute
    } satisfies { readonly [K in keyof typeof Endpoints.webhooks]: RestRoute }
  )
}
