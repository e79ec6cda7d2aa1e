/**
 * The webhook record the service answers (`GET /v0/webhooks` and the other
 * webhook routes), and what creating or changing one takes.
 *
 * `authHeader` is a secret the receiver uses to verify the sender: it decodes
 * into a `Redacted`, so printing, `JSON.stringify`, `util.inspect` and logs of a
 * record show `<redacted>`. `Redacted.value(hook.authHeader)` reads it.
 *
 * @example
 * const [hook] = yield* Schema.decodeUnknown(Webhook.WebhookList)(body)
 * console.log(hook) // authHeader prints as <redacted>
 * if (hook?.authHeader !== undefined) Redacted.value(hook.authHeader) // the secret, when you mean it
 * @since 0.1.0
 */

import * as ParseResult from "effect/ParseResult"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Vocabulary from "./internal/transactionTypes.js"
import { Address } from "./Primitives.js"

/**
 * The kind of a webhook.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookType = Schema.Literal(
  "enhanced",
  "raw",
  "discord",
  "enhancedDevnet",
  "rawDevnet",
  "discordDevnet"
).annotations({ identifier: "WebhookType" })

/**
 * A decoded `WebhookType`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type WebhookType = typeof WebhookType.Type

/**
 * The transaction-type vocabulary the service documents for webhooks: `ANY`, then
 * every type its parser names (over 500, e.g. `TRANSFER`, `SWAP`, `NFT_SALE`,
 * `COMPRESSED_NFT_MINT`). The list grows with protocols: a type the service sends
 * back that is not here still decodes, as `OtherTransactionType`; a webhook
 * created or edited through the SDK takes only these.
 *
 * @since 0.1.0
 * @category constants
 */
export const knownTransactionTypes: readonly [KnownTransactionType, ...Array<KnownTransactionType>] =
  Vocabulary.TRANSACTION_TYPES

/**
 * A transaction type of the documented vocabulary (`knownTransactionTypes`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const KnownTransactionType = Schema.Literal(...knownTransactionTypes).annotations({
  identifier: "KnownTransactionType",
  // Not the default message: it would list the whole vocabulary.
  message: () => "a transaction type of the service's vocabulary (Webhook.knownTransactionTypes), e.g. ANY or TRANSFER"
})

/**
 * A decoded `KnownTransactionType`: the type of the schema of the same name, a union of the
 * vocabulary's names written once (the declarations reference it by name).
 *
 * @since 0.1.0
 * @category models
 */
export type KnownTransactionType = Vocabulary.KnownTransactionType

/**
 * Any other member of the vocabulary: an upper-snake-case name such as `NFT_RENT_END`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const OtherTransactionType = Schema.String.pipe(
  Schema.pattern(/^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*$/, { message: () => "an UPPER_SNAKE_CASE transaction type" }),
  Schema.brand("TransactionType"),
  Schema.annotations({ identifier: "OtherTransactionType" })
)

/**
 * A decoded `OtherTransactionType`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type OtherTransactionType = typeof OtherTransactionType.Type

/**
 * A transaction type: a known member, or another upper-snake-case name.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionType = Schema.Union(KnownTransactionType, OtherTransactionType).annotations({
  identifier: "TransactionType"
})

/**
 * A decoded `TransactionType`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TransactionType = typeof TransactionType.Type

/**
 * A webhook record.
 *
 * `wallet` and `accountAddresses` stay plain strings as the service sends them:
 * one odd entry must not make the whole list undecodable. (What the SDK sends is
 * checked strictly: `CreateWebhook`, `WebhookChange`.)
 *
 * @example
 * const hooks = Schema.decodeUnknownSync(Schema.Array(Webhook.Webhook))(body)
 * String(hooks[0]?.authHeader) // "<redacted>"
 * @since 0.1.0
 * @category schemas
 */
export const Webhook = Schema.Struct({
  webhookID: Schema.String,
  /** Address of the API key owner who created it. */
  wallet: Schema.String,
  /** URL receiving POST deliveries. */
  webhookURL: Schema.String,
  /** Types that trigger a delivery; applies to the enhanced kinds only, so absent reads as `[]`. */
  transactionTypes: Schema.optionalWith(Schema.Array(TransactionType), { default: () => [] }),
  /** Monitored accounts. */
  accountAddresses: Schema.optionalWith(Schema.Array(Schema.String), { default: () => [] }),
  webhookType: WebhookType,
  /** Value sent in deliveries' `Authorization` header. A secret: kept `Redacted`. */
  authHeader: Schema.optionalWith(
    // A value of the wrong shape must not be echoed in the DecodeError either.
    Schema.Redacted(Schema.String.annotations({ message: () => "a string (the value is a secret: not shown)" })),
    { nullable: true }
  ),
  /** False when paused (`toggle`) or disabled by the service; absent means true. */
  active: Schema.optionalWith(Schema.Boolean, { default: () => true }),
  /** Which outcomes are delivered (`all`, `success`, `failed`), when the service says. */
  txnStatus: Schema.optional(Schema.String),
  /** The payload encoding, when the service says. */
  encoding: Schema.optional(Schema.String)
}).annotations({
  identifier: "Webhook",
  // Not "actual {...}": a record holds its auth header.
  message: () => "a webhook record (not shown: it holds a secret auth header)"
})

/**
 * A decoded `Webhook`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Webhook = typeof Webhook.Type

/**
 * The body of `GET /v0/webhooks`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookList = Schema.Array(Webhook).annotations({
  identifier: "WebhookList",
  message: () => "an array of webhook records (not shown: they hold secret auth headers)"
})

// -- Creating and changing webhooks ---------------------------------------------

/**
 * The most accounts one webhook may watch, as the service documents for its API.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_ACCOUNT_ADDRESSES = 100_000

/**
 * Which transactions are delivered by outcome. The service documents `all`,
 * `success` and `failed`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TxnStatus = Schema.Literal("all", "success", "failed").annotations({ identifier: "TxnStatus" })

/**
 * A decoded `TxnStatus`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type TxnStatus = typeof TxnStatus.Type

/**
 * A webhook id as the caller gives it: the service's are UUIDs; any id made of
 * letters, digits, `-` and `_` is accepted, so the path stays one segment.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookId = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9_-]{1,128}$/, {
    message: () => "a webhook id such as 123e4567-e89b-12d3-a456-426614174000"
  }),
  Schema.annotations({ identifier: "WebhookId" })
)

const isWebUrl = (s: string): boolean => {
  if (s.length > 2048 || !URL.canParse(s)) return false
  const protocol = new URL(s).protocol
  return protocol === "https:" || protocol === "http:"
}

/**
 * The URL deliveries are POSTed to.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookUrl = Schema.String.pipe(
  Schema.filter(isWebUrl, { message: () => "an http(s) URL of at most 2,048 characters" }),
  Schema.annotations({ identifier: "WebhookUrl" })
)

/**
 * The accounts a webhook watches: 1 to `MAX_ACCOUNT_ADDRESSES` addresses.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountAddresses = Schema.Array(Address).pipe(
  Schema.filter((a) => a.length >= 1 && a.length <= MAX_ACCOUNT_ADDRESSES, {
    message: () => `1 to ${MAX_ACCOUNT_ADDRESSES.toLocaleString("en-US")} addresses`
  })
)

/**
 * The types that trigger an enhanced webhook: at least one, each of the vocabulary.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionTypes = Schema.Array(KnownTransactionType).pipe(
  Schema.filter((a) => a.length >= 1, { message: () => "at least one transaction type (ANY for every type)" })
)

const SECRET_RULE = "a string of 1 to 1,024 characters (the value is a secret: not shown)"

const secretText = (v: unknown): string | undefined => {
  const text = Redacted.isRedacted(v) ? Redacted.value(v) : v
  return typeof text === "string" && text.length >= 1 && text.length <= 1024 ? text : undefined
}

/**
 * An `authHeader` as the caller gives it: a `Redacted` string (a plain string is
 * accepted too). It decodes to the text sent in the request body, the only place
 * the service needs it. One check of its own, so no error ever quotes the value.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AuthHeaderInput = Schema.transformOrFail(Schema.Unknown, Schema.String, {
  strict: true,
  decode: (v, _, ast) => {
    const text = secretText(v)
    return text === undefined
      ? ParseResult.fail(new ParseResult.Type(ast, "<redacted>", SECRET_RULE))
      : ParseResult.succeed(text)
  },
  encode: (s) => ParseResult.succeed(Redacted.make(s))
}).annotations({ identifier: "AuthHeaderInput", message: () => SECRET_RULE })

/**
 * The payload encoding (the service's example is `json`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Encoding = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z0-9]{1,32}$/, { message: () => "an encoding name such as json" })
)

/**
 * A new webhook, as `Webhooks.create` takes it and as it is sent (`POST /v0/webhooks`).
 * `transactionTypes` defaults to `["ANY"]` (the raw kinds ignore it).
 *
 * @example
 * const input: typeof Webhook.CreateWebhook.Encoded = {
 *   webhookURL: "https://example.com/hook",
 *   webhookType: "enhanced",
 *   accountAddresses: [wallet],
 *   transactionTypes: ["TRANSFER"],
 *   authHeader: Redacted.make("Bearer my-secret")
 * }
 * @since 0.1.0
 * @category schemas
 */
export const CreateWebhook = Schema.Struct({
  /** Where deliveries are POSTed: an http(s) URL of at most 2,048 characters. */
  webhookURL: WebhookUrl,
  /** `"enhanced"` (parsed transactions), `"raw"`, `"discord"`, or their `…Devnet` kinds. */
  webhookType: WebhookType,
  /** The accounts watched: 1 to 100,000 base58 addresses of 32 bytes. */
  accountAddresses: AccountAddresses,
  /** The types that trigger an enhanced webhook: at least one of the vocabulary (default `["ANY"]`; raw kinds ignore it). */
  transactionTypes: Schema.optionalWith(TransactionTypes, { default: () => ["ANY"] as const }),
  /** Sent back in each delivery's `Authorization` header: 1 to 1,024 characters, a secret (never shown in errors). */
  authHeader: Schema.optional(AuthHeaderInput),
  /** Deliver `"all"` transactions (default), only `"success"`ful or only `"failed"` ones. */
  txnStatus: Schema.optional(TxnStatus),
  /** The payload encoding, letters and digits (1 to 32), such as `"json"`. */
  encoding: Schema.optional(Encoding)
}).annotations({ identifier: "CreateWebhook" })

/**
 * What a caller passes to `Webhooks.create`.
 *
 * @since 0.1.0
 * @category models
 */
export interface CreateWebhookInput {
  /** Where deliveries are POSTed: an http(s) URL of at most 2,048 characters. */
  readonly webhookURL: string
  /** `"enhanced"` (parsed transactions), `"raw"`, `"discord"`, or their `…Devnet` kinds. */
  readonly webhookType: WebhookType
  /** The accounts watched: 1 to 100,000 base58 addresses of 32 bytes. */
  readonly accountAddresses: ReadonlyArray<string>
  /** The types that trigger an enhanced webhook: at least one of the vocabulary (default `["ANY"]`; raw kinds ignore it). */
  readonly transactionTypes?: ReadonlyArray<KnownTransactionType> | undefined
  /** Sent back in each delivery's `Authorization` header: 1 to 1,024 characters, a secret (never shown in errors). */
  readonly authHeader?: Redacted.Redacted<string> | undefined
  /** Deliver `"all"` transactions (default), only `"success"`ful or only `"failed"` ones. */
  readonly txnStatus?: TxnStatus | undefined
  /** The payload encoding, letters and digits (1 to 32), such as `"json"`. */
  readonly encoding?: string | undefined
}

/**
 * A change to a webhook: the fields to replace, each checked as on create.
 * `authHeader: null` removes the header.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookChange = Schema.Struct({
  /** A new URL for deliveries: http(s), at most 2,048 characters. */
  webhookURL: Schema.optional(WebhookUrl),
  /** A new kind: `"enhanced"`, `"raw"`, `"discord"`, or their `…Devnet` kinds. */
  webhookType: Schema.optional(WebhookType),
  /** The accounts watched instead: 1 to 100,000 base58 addresses of 32 bytes. */
  accountAddresses: Schema.optional(AccountAddresses),
  /** The types that trigger it instead: at least one of the vocabulary. */
  transactionTypes: Schema.optional(TransactionTypes),
  /** A new `Authorization` header (1 to 1,024 characters, a secret), or `null` to send deliveries without one. */
  authHeader: Schema.optional(Schema.NullOr(AuthHeaderInput)),
  /** `"all"`, `"success"` or `"failed"`. */
  txnStatus: Schema.optional(TxnStatus),
  /** The payload encoding, letters and digits (1 to 32), such as `"json"`. */
  encoding: Schema.optional(Encoding)
}).annotations({ identifier: "WebhookChange" })

/**
 * What a caller passes to `Webhooks.edit`.
 *
 * @since 0.1.0
 * @category models
 */
export interface WebhookChangeInput extends Partial<Omit<CreateWebhookInput, "authHeader">> {
  /** A new `Authorization` header (1 to 1,024 characters, a secret), or `null` to send deliveries without one. */
  readonly authHeader?: Redacted.Redacted<string> | null | undefined
}

/**
 * The whole webhook as `PUT /v0/webhooks/{webhookID}` takes it: the service
 * replaces the webhook with this body, so a field left out is lost. Types the
 * service sent back that are not in the vocabulary pass through.
 *
 * @since 0.1.0
 * @category schemas
 */
export const WebhookBody = Schema.Struct({
  /** Where deliveries are POSTed. */
  webhookURL: WebhookUrl,
  /** The webhook's kind. */
  webhookType: WebhookType,
  /** The accounts watched: at most 100,000. */
  accountAddresses: Schema.Array(Schema.String).pipe(Schema.maxItems(MAX_ACCOUNT_ADDRESSES)),
  /** The types that trigger it (ones the service sent back outside the vocabulary pass through). */
  transactionTypes: Schema.Array(TransactionType),
  /** The `Authorization` header sent with each delivery. */
  authHeader: Schema.optional(Schema.String),
  /** `"all"`, `"success"` or `"failed"`. */
  txnStatus: Schema.optional(Schema.String),
  /** The payload encoding. */
  encoding: Schema.optional(Schema.String)
}).annotations({ identifier: "WebhookBody" })

/**
 * A decoded `WebhookBody`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type WebhookBody = typeof WebhookBody.Type

/**
 * The body an edit sends: the webhook as it is, with the change applied.
 *
 * @example
 * const body = Webhook.merge(current, { accountAddresses: [other] })
 * @since 0.1.0
 * @category constructors
 */
export const merge = (current: Webhook, change: typeof WebhookChange.Type): WebhookBody => {
  const authHeader = change.authHeader === undefined
    ? (current.authHeader === undefined ? undefined : Redacted.value(current.authHeader))
    : change.authHeader ?? undefined
  const txnStatus = change.txnStatus ?? current.txnStatus
  const encoding = change.encoding ?? current.encoding
  return {
    webhookURL: change.webhookURL ?? current.webhookURL,
    webhookType: change.webhookType ?? current.webhookType,
    accountAddresses: change.accountAddresses ?? current.accountAddresses,
    transactionTypes: change.transactionTypes ?? current.transactionTypes,
    ...(authHeader === undefined ? {} : { authHeader }),
    ...(txnStatus === undefined ? {} : { txnStatus }),
    ...(encoding === undefined ? {} : { encoding })
  }
}

/**
 * The service answered 404 for a webhook id: there is no such webhook for this
 * key (never created, deleted, or another key's).
 *
 * @since 0.1.0
 * @category errors
 */
export class WebhookNotFound extends Schema.TaggedError<WebhookNotFound>("@solfx/WebhookNotFound")(
  "WebhookNotFound",
  { webhookID: Schema.String }
) {
  override get message(): string {
    return `no webhook ${this.webhookID} for this API key`
  }
}
