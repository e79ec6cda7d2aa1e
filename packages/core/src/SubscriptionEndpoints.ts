/**
 * The subscriptions table: every WebSocket subscription of the service, one entry each,
 * with its subscribe, unsubscribe and notification method names, the Schema of its
 * positional params, the Schema of its notification's `result`, the endpoint that serves
 * it and its credits. `@solfx/subscriptions` builds its requests and decodes its
 * notifications from these entries; the emulator checks each request's params with the
 * same Schemas and answers under the same names, so a subscription is written once.
 *
 * Params are checked as the service's validators check them: an address is base58 of
 * 32 bytes, a signature base58 of 64 bytes. A config object (commitment, encoding, ...)
 * may carry fields this table does not name; they are passed on as given.
 *
 * Credits: the service documents no per-request cost for subscriptions (its plans bill
 * streamed data); every entry is 0, and a subscription request is counted under the
 * project's `websocket` usage.
 *
 * @example
 * SubscriptionEndpoints.account.method // "accountSubscribe"
 * Schema.decodeUnknownEither(SubscriptionEndpoints.signature.params)(["abc"]) // Left: base58 of 64 bytes
 * @since 0.1.0
 */

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { validateInput } from "./Decode.js"
import type { InvalidRequest } from "./Errors.js"
import * as Notification from "./Notification.js"
import { Address, Signature } from "./Primitives.js"

/**
 * One subscription: its method names, params and notification Schemas, endpoint and credits.
 *
 * @since 0.1.0
 * @category models
 */
export interface SubscriptionEndpoint<Name extends string, P, PI, N, NI> {
  /** The entry's name in the table (`account`). */
  readonly name: Name
  /** The subscribe method (`accountSubscribe`). */
  readonly method: string
  /** The method that ends it (`accountUnsubscribe`), its param the subscription id. */
  readonly unsubscribe: string
  /** The method name of its notifications (`accountNotification`). */
  readonly notification: string
  /** Its positional params, as the request carries them. */
  readonly params: Schema.Schema<P, PI>
  /** A notification's `params.result`. */
  readonly result: Schema.Schema<N, NI>
  /** `standard`: the RPC host's socket; `enhanced`: the service's enhanced socket (`atlas-` host). */
  readonly endpoint: "standard" | "enhanced"
  /** Credits charged per subscribe request. */
  readonly credits: number
  /** The server ends it after its first notification (no unsubscribe is needed then). */
  readonly once: boolean
}

/**
 * Any entry of the table.
 *
 * @since 0.1.0
 * @category models
 */
export type Any = SubscriptionEndpoint<string, any, any, any, any>

const Commitment = Schema.Literal("processed", "confirmed", "finalized")

/** A config object: the fields checked here, and any others passed on as given. */
const config = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(
    { commitment: Schema.optional(Commitment), ...fields },
    Schema.Record({ key: Schema.String, value: Schema.Unknown })
  )

const AccountConfig = config({ encoding: Schema.optional(Schema.String) })

/**
 * A `logsSubscribe` filter: every transaction's logs (`all`, `allWithVotes`), or those of
 * transactions that mention one address.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LogsFilter = Schema.Union(
  // The object first: a bad `mentions` is then reported at its own path, with its rule.
  Schema.Struct({ mentions: Schema.Tuple(Address) }).annotations({
    message: () => "\"all\", \"allWithVotes\" or { mentions: [one base58 address] }"
  }),
  Schema.Literal("all", "allWithVotes")
)

/**
 * The enhanced `transactionSubscribe` filter.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionFilter = Schema.Struct({
  vote: Schema.optional(Schema.Boolean),
  failed: Schema.optional(Schema.Boolean),
  signature: Schema.optional(Signature),
  accountInclude: Schema.optional(Schema.Array(Address)),
  accountExclude: Schema.optional(Schema.Array(Address)),
  accountRequired: Schema.optional(Schema.Array(Address))
})

const entry = <const Name extends string, P, PI, N, NI>(
  e: Omit<SubscriptionEndpoint<Name, P, PI, N, NI>, "credits" | "once" | "endpoint"> & {
    readonly endpoint?: "standard" | "enhanced"
    readonly once?: boolean
  }
): SubscriptionEndpoint<Name, P, PI, N, NI> => ({ endpoint: "standard", credits: 0, once: false, ...e })

/**
 * An account's changes.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const account = entry({
  name: "account",
  method: "accountSubscribe",
  unsubscribe: "accountUnsubscribe",
  notification: "accountNotification",
  params: Schema.Tuple(Address, Schema.optionalElement(AccountConfig)),
  result: Notification.Account
})

/**
 * Changes of the accounts a program owns.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const program = entry({
  name: "program",
  method: "programSubscribe",
  unsubscribe: "programUnsubscribe",
  notification: "programNotification",
  params: Schema.Tuple(Address, Schema.optionalElement(AccountConfig)),
  result: Notification.Program
})

/**
 * One transaction reaching a commitment; the server ends it after that notification.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const signature = entry({
  name: "signature",
  method: "signatureSubscribe",
  unsubscribe: "signatureUnsubscribe",
  notification: "signatureNotification",
  params: Schema.Tuple(Signature, Schema.optionalElement(config({}))),
  result: Notification.SignatureStatus,
  once: true
})

/**
 * Transactions' logs: all, or those that mention one address.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const logs = entry({
  name: "logs",
  method: "logsSubscribe",
  unsubscribe: "logsUnsubscribe",
  notification: "logsNotification",
  params: Schema.Tuple(LogsFilter, Schema.optionalElement(config({}))),
  result: Notification.Logs
})

/**
 * Every slot processed.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const slot = entry({
  name: "slot",
  method: "slotSubscribe",
  unsubscribe: "slotUnsubscribe",
  notification: "slotNotification",
  params: Schema.Tuple(),
  result: Notification.Slot
})

/**
 * The service's enhanced transaction subscription, on its enhanced endpoint.
 *
 * @since 0.1.0
 * @category subscriptions
 */
export const transaction = entry({
  name: "transaction",
  method: "transactionSubscribe",
  unsubscribe: "transactionUnsubscribe",
  notification: "transactionNotification",
  params: Schema.Tuple(
    Schema.optionalElement(TransactionFilter),
    Schema.optionalElement(config({ encoding: Schema.optional(Schema.String) }))
  ),
  result: Notification.Transaction,
  endpoint: "enhanced"
})

/**
 * The table, by entry name.
 *
 * @since 0.1.0
 * @category tables
 */
export const table = { account, program, signature, logs, slot, transaction } as const

/**
 * Every entry, in table order.
 *
 * @since 0.1.0
 * @category tables
 */
export const all: ReadonlyArray<Any> = Object.values(table)

/**
 * The entry whose subscribe method this is.
 *
 * @since 0.1.0
 * @category tables
 */
export const bySubscribe: ReadonlyMap<string, Any> = new Map(all.map((e) => [e.method, e]))

/**
 * The entry whose unsubscribe method this is.
 *
 * @since 0.1.0
 * @category tables
 */
export const byUnsubscribe: ReadonlyMap<string, Any> = new Map(all.map((e) => [e.unsubscribe, e]))

const validators = new Map(all.map((e) => [e, validateInput(e.params, "params")]))

/**
 * Checks a request's params with the entry's Schema, synchronously: the decoded params, or
 * `InvalidRequest` naming the param (`params[0]`, `params[0].mentions[0]`) and the rule it
 * broke. Absent params read as `[]`.
 *
 * @example
 * SubscriptionEndpoints.check(SubscriptionEndpoints.account, ["0OIl+/notBase58address!!"])
 * // Left(InvalidRequest { field: "params[0]", rule: "base58 that decodes to exactly 32 bytes" })
 * @since 0.1.0
 * @category validation
 */
export const check = <P>(
  e: SubscriptionEndpoint<string, P, any, any, any>,
  params: unknown
): Either.Either<P, InvalidRequest> =>
  Effect.runSync(Effect.either(validators.get(e as Any)!(params === undefined ? [] : params))) as Either.Either<
    P,
    InvalidRequest
  >
