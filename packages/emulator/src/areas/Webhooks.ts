/**
 * `GET /v0/webhooks` (spec §2.10, §4.7): the webhooks of the caller's API key,
 * and the store of webhooks the emulator keeps (webhook delivery reads it too).
 *
 * - Each API key has its own webhooks; the list shows only the caller's.
 * - By default every key gets `webhooks.perKey` (default 3) seeded webhooks,
 *   derived from the dataset and the key: kinds in turn (enhanced, raw,
 *   discord, …), 1 to 3 monitored addresses, an `authHeader` on every other one,
 *   and the third one `active: false`. Their URLs are under `.invalid`, so no
 *   delivery can leave the machine.
 * - With the emulator option `webhooks`, exactly the configured webhooks are
 *   served instead (each owned by its `apiKey`/`projectId`, by default the
 *   default project's key), so tests control what delivery sees.
 * - A call is charged by `Endpoints.listWebhooks` ("webhook management via
 *   API", the real price list).
 *
 * @since 0.1.0
 */
import * as Endpoints from "@solfx/core/Endpoints"
import * as Webhook from "@solfx/core/Webhook"
import * as Effect from "effect/Effect"
import type { Area, AreaContext, Project } from "../Area.js"
import { restRoute } from "../Area.js"
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
 * A webhook as the store keeps it: live, delivery may set `active` to false.
 *
 * @since 0.1.0
 * @category models
 */
export interface StoredWebhook {
  readonly webhookID: string
  readonly wallet: string
  readonly webhookURL: string
  readonly webhookType: Webhook.WebhookType
  readonly accountAddresses: ReadonlyArray<string>
  readonly transactionTypes: ReadonlyArray<string>
  readonly authHeader?: string | undefined
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
}

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
  return {
    ofKey: (apiKey, project) => {
      let entry = byKey.get(apiKey)
      if (entry === undefined) {
        entry = { project, hooks: options === undefined ? seeded(dataset, apiKey) : [] }
        byKey.set(apiKey, entry)
      }
      return entry.hooks
    },
    all: () =>
      [...byKey.entries()].flatMap(([apiKey, { hooks, project }]) =>
        hooks.map((webhook) => ({ apiKey, project, webhook }))
      )
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
  active: hook.active
})

const route = restRoute(Endpoints.listWebhooks, {
  handle: (_request, ctx) => Effect.sync(() => storeOf(ctx).ofKey(ctx.apiKey, ctx.project).map(render))
})

/**
 * The webhooks area.
 *
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "webhooks",
  routes: [route]
}
