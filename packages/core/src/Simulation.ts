/**
 * simulateTransaction: a signed (or unsigned) transaction run against the current state, nothing
 * kept. The answer is the runtime's: its error (`null` on success), the program logs, the compute
 * units consumed, the accounts asked for as they would be after it, its return data and, when
 * asked, the instructions its programs invoked. A failed preflight of sendTransaction carries the
 * same object as its error's `data` (-32002).
 *
 * @example
 * const { value } = yield* rpc.simulateTransaction({ transaction: base64, encoding: "base64", sigVerify: true })
 * value.err === null ? value.unitsConsumed : value.logs
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count, nullable } from "./internal/schema.js"
import { Address, U64 } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { SlotContext } from "./SlotContext.js"

/**
 * How a transaction is written on the wire: base58 (the RPC's default, deprecated) or base64.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionEncoding = Schema.Literal("base58", "base64").annotations({
  message: () => "base58 or base64"
})

/**
 * An account encoding of the RPC: `base64`, `base58`, `base64+zstd` or `jsonParsed`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const AccountEncoding = Schema.Literal("base58", "base64", "base64+zstd", "jsonParsed").annotations({
  message: () => "base58, base64, base64+zstd or jsonParsed"
})

/**
 * Params of simulateTransaction: the encoded transaction, then its config (`sigVerify` and
 * `replaceRecentBlockhash` exclude each other; `accounts` asks for accounts as the transaction
 * leaves them; `innerInstructions` for the instructions programs invoked).
 *
 * @since 0.1.0
 * @category params
 */
export const SimulateTransactionParams = Schema.Struct({
  transaction: Schema.String,
  encoding: Schema.optional(TransactionEncoding),
  sigVerify: Schema.optional(Schema.Boolean),
  replaceRecentBlockhash: Schema.optional(Schema.Boolean),
  commitment: Schema.optional(Commitment),
  minContextSlot: Schema.optional(Count),
  innerInstructions: Schema.optional(Schema.Boolean),
  accounts: Schema.optional(Schema.Struct({
    encoding: Schema.optional(AccountEncoding),
    addresses: Schema.Array(Address)
  }))
}).annotations({ identifier: "SimulateTransactionParams" })

/**
 * `SimulateTransactionParams` as callers write it.
 *
 * @since 0.1.0
 * @category params
 */
export type SimulateTransactionParams = typeof SimulateTransactionParams.Encoded

/**
 * An account as the RPC writes it: `data` as `[text, encoding]`, or the parsed object of
 * `jsonParsed`; `rentEpoch` is u64 (u64::MAX for a rent-exempt account, above 2^53).
 *
 * @since 0.1.0
 * @category schemas
 */
export const EncodedAccount = Schema.Struct({
  lamports: U64,
  owner: Address,
  data: Schema.Union(Schema.Tuple(Schema.String, Schema.String), Schema.Unknown),
  executable: Schema.Boolean,
  // u64::MAX for a rent-exempt account: as a JSON number it is past 2^53, so it is read as a number.
  rentEpoch: Schema.Number,
  space: Schema.optional(Count)
}).annotations({ identifier: "EncodedAccount" })

/**
 * What a program returned (`set_return_data`): its id and the data as `[base64, "base64"]`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const ReturnData = Schema.Struct({
  programId: Address,
  data: Schema.Tuple(Schema.String, Schema.Literal("base64"))
}).annotations({ identifier: "ReturnData" })

/**
 * The runtime's result of a simulation. `err` is the transaction error as the runtime writes it
 * (`"BlockhashNotFound"`, `{ "InstructionError": [0, { "Custom": 1 }] }`), `null` on success.
 * Fields a node of another version leaves out decode as `null`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Simulation = Schema.Struct({
  err: Schema.Unknown,
  logs: nullable(Schema.Array(Schema.String)),
  accounts: nullable(Schema.Array(Schema.NullOr(EncodedAccount))),
  unitsConsumed: Schema.optional(U64),
  returnData: nullable(ReturnData),
  innerInstructions: nullable(Schema.Array(Schema.Unknown)),
  loadedAccountsDataSize: Schema.optional(Count),
  replacementBlockhash: nullable(Schema.Struct({ blockhash: Schema.String, lastValidBlockHeight: U64 }))
}).annotations({ identifier: "Simulation" })

/**
 * A decoded `Simulation`.
 *
 * @since 0.1.0
 * @category models
 */
export type Simulation = typeof Simulation.Type

/**
 * The result of simulateTransaction: `{ context: { slot }, value }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SimulateTransactionResult = Schema.Struct({ context: SlotContext, value: Simulation }).annotations({
  identifier: "SimulateTransactionResult"
})

/**
 * A decoded `SimulateTransactionResult`.
 *
 * @since 0.1.0
 * @category models
 */
export type SimulateTransactionResult = typeof SimulateTransactionResult.Type
