/**
 * The webhook record of `GET /v0/webhooks` (spec §2.10, REAL-WORLD §7).
 *
 * `authHeader` is a secret the receiver uses to verify the sender: it decodes
 * into a `Redacted`, so printing, `JSON.stringify`, `util.inspect` and logs of a
 * record show `<redacted>`. `Redacted.value(hook.authHeader)` reads it.
 *
 * @example
 * const [hook] = yield* Schema.decodeUnknown(Webhook.WebhookList)(body)
 * console.log(hook) // authHeader prints as <redacted>
 * Redacted.value(hook.authHeader) // the secret, when you mean it
 * @since 0.1.0
 */
import * as Schema from "effect/Schema"

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
 * The members of the transaction-type vocabulary the spec names, plus a few of
 * the most used ones. The service's list is long and grows with protocols, so
 * these are typed and the rest decode as `OtherTransactionType`.
 *
 * @since 0.1.0
 * @category constants
 */
export const knownTransactionTypes = [
  "ANY",
  "TRANSFER",
  "SWAP",
  "BURN",
  "BURN_NFT",
  "STAKE",
  "UNSTAKE",
  "NFT_SALE",
  "NFT_LISTING",
  "NFT_CANCEL_LISTING",
  "NFT_BID",
  "NFT_BID_CANCELLED",
  "NFT_MINT",
  "TOKEN_MINT",
  "COMPRESSED_NFT_MINT",
  "COMPRESSED_NFT_TRANSFER",
  "COMPRESSED_NFT_BURN",
  "UNKNOWN",
  "UNLABELED"
] as const

/**
 * A transaction type the SDK names.
 *
 * @since 0.1.0
 * @category schemas
 */
export const KnownTransactionType = Schema.Literal(...knownTransactionTypes).annotations({
  identifier: "KnownTransactionType"
})

/**
 * A decoded `KnownTransactionType`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type KnownTransactionType = typeof KnownTransactionType.Type

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
 * `wallet` and `accountAddresses` stay plain strings: the list is informational
 * (this interface cannot create webhooks), and one odd entry must not make the
 * whole list undecodable.
 *
 * @example
 * import * as Schema from "effect/Schema"
 * const hooks = Schema.decodeUnknownSync(Schema.Array(Webhook))(body)
 * String(hooks[0].authHeader) // "<redacted>"
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
  /** False when the service disabled it; absent means true. */
  active: Schema.optionalWith(Schema.Boolean, { default: () => true })
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
