/**
 * The notifications of the service's WebSocket subscriptions, as Schemas: the
 * standard Solana PubSub ones (account, program, signature, logs, slot) and the
 * enhanced transaction notification. Slots, lamports, fees and rent epochs are
 * exact `bigint`s (`U64`): a rent-exempt account's rent epoch is the largest u64.
 *
 * @example
 * const decoded = Schema.decodeUnknownSync(Notification.Slot)({ parent: 9, root: 1, slot: 10 }) // slot: 10n
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Address, Signature, U64 } from "./Primitives.js"

const Context = Schema.Struct({ slot: U64 })

/**
 * An account as notifications show it. `data` is kept as the service sent it (its
 * shape depends on the requested encoding).
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountInfo = Schema.Struct({
  lamports: U64,
  data: Schema.Unknown,
  owner: Address,
  executable: Schema.Boolean,
  rentEpoch: U64,
  space: Schema.optional(U64)
})

/**
 * An account as a notification carries it (the type of the `AccountInfo` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type AccountInfo = typeof AccountInfo.Type

/**
 * `accountNotification`: the account after a change.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Account = Schema.Struct({ context: Context, value: AccountInfo })

/**
 * An `accountNotification`, decoded (the type of the `Account` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type Account = typeof Account.Type

/**
 * `programNotification`: an account owned by the program, after a change.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Program = Schema.Struct({
  context: Context,
  value: Schema.Struct({ pubkey: Address, account: AccountInfo })
})

/**
 * A `programNotification`, decoded (the type of the `Program` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type Program = typeof Program.Type

/**
 * `signatureNotification`: the transaction reached the commitment (`err` null when it
 * succeeded), or, when asked for, `"receivedSignature"` first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureStatus = Schema.Struct({
  context: Context,
  value: Schema.Union(Schema.Literal("receivedSignature"), Schema.Struct({ err: Schema.NullOr(Schema.Unknown) }))
})

/**
 * A `signatureNotification`, decoded (the type of the `SignatureStatus` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureStatus = typeof SignatureStatus.Type

/**
 * `logsNotification`: a transaction's logs.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Logs = Schema.Struct({
  context: Context,
  value: Schema.Struct({ signature: Signature, err: Schema.NullOr(Schema.Unknown), logs: Schema.Array(Schema.String) })
})

/**
 * A `logsNotification`, decoded (the type of the `Logs` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type Logs = typeof Logs.Type

/**
 * `slotNotification`: a slot was processed.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Slot = Schema.Struct({ parent: U64, root: U64, slot: U64 })

/**
 * A `slotNotification`, decoded (the type of the `Slot` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type Slot = typeof Slot.Type

/**
 * The status and balances of an enhanced transaction notification (present with
 * `transactionDetails: "full"`).
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionMeta = Schema.Struct({
  err: Schema.NullOr(Schema.Unknown),
  fee: U64,
  preBalances: Schema.Array(U64),
  postBalances: Schema.Array(U64),
  logMessages: Schema.optional(Schema.NullOr(Schema.Array(Schema.String)))
})

/**
 * `transactionNotification` (the enhanced `transactionSubscribe`). The transaction
 * itself is kept as sent: its shape follows the requested encoding.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Transaction = Schema.Struct({
  signature: Signature,
  slot: U64,
  transactionIndex: Schema.optional(Schema.Number),
  transaction: Schema.Struct({ transaction: Schema.Unknown, meta: Schema.optional(Schema.NullOr(TransactionMeta)) })
})

/**
 * A `transactionNotification`, decoded (the type of the `Transaction` schema).
 *
 * @since 0.1.0
 * @category models
 */
export type Transaction = typeof Transaction.Type
