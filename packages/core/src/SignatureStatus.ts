/**
 * The standard Solana RPC's signature methods (as the service serves them, 1 credit each):
 * getSignaturesForAddress, the signatures of the transactions that touched an address, newest
 * first, paged by `before`; and getSignatureStatuses, the status of up to 256 signatures.
 * Slots are exact `bigint`s (`U64`), as everywhere in the SDK.
 *
 * On the wire both are positional (`[address, { limit, before, … }]`, `[[signatures], { … }]`);
 * the SDK takes one object of named fields and sends them in that order (the entries'
 * `positional`).
 *
 * @example
 * const signatures = yield* Signatures.Signatures
 * const recent = yield* signatures.getSignaturesForAddress({ address, limit: 10 })
 * recent.map((s) => `${s.slot} ${s.signature} ${s.err === null ? "ok" : "failed"}`)
 * const { value } = yield* signatures.getSignatureStatuses({ signatures: [recent[0]!.signature] })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import type * as Endpoint from "./Endpoint.js"
import { nullable } from "./internal/schema.js"
import { Address, Signature, U64 } from "./Primitives.js"

/**
 * The most signatures getSignaturesForAddress gives a request (and its default).
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_LIMIT = 1000

/**
 * The most signatures getSignatureStatuses takes a request.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_STATUSES = 256

const limitRule = `an integer between 1 and ${MAX_LIMIT}`

/**
 * A commitment level. getSignaturesForAddress takes `confirmed` or `finalized` only.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Commitment = Schema.Literal("processed", "confirmed", "finalized")
/** A decoded `Commitment`: the type of the schema of the same name. @since 0.1.0 @category models */
export type Commitment = typeof Commitment.Type

/**
 * Params of getSignaturesForAddress: the address, then its config (`limit` 1..1000, default
 * 1000; `before` and `until`, signatures that bound the search, both excluded; `commitment`;
 * `minContextSlot`).
 *
 * @since 0.1.0
 * @category params
 */
export const GetSignaturesForAddressParams = Schema.Struct({
  /** The account whose signatures are listed: a base58 address of 32 bytes (sent first, positionally). */
  address: Address,
  /** Signatures a page: an integer from 1 to 1000 (default 1000). */
  limit: Schema.optional(
    Schema.Number.pipe(
      Schema.int({ message: () => limitRule }),
      Schema.between(1, MAX_LIMIT, { message: () => limitRule })
    )
  ),
  /** Start before this signature (base58 of 64 bytes; excluded). A walk starts from `start` instead. */
  before: Schema.optional(Signature),
  /** Stop at this signature (base58 of 64 bytes; excluded). */
  until: Schema.optional(Signature),
  /** `"confirmed"` or `"finalized"` (the service's default: finalized). */
  commitment: Schema.optional(
    Schema.Literal("confirmed", "finalized").annotations({ message: () => "confirmed or finalized" })
  ),
  /** The lowest slot the answer may be read at: a non-negative integer. */
  minContextSlot: Schema.optional(
    Schema.Number.pipe(Schema.int(), Schema.nonNegative({ message: () => "a slot (a non-negative integer)" }))
  )
}).annotations({ identifier: "GetSignaturesForAddressParams" })

/**
 * `GetSignaturesForAddressParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetSignaturesForAddressParams = Endpoint.InputOf<typeof GetSignaturesForAddressParams>

/**
 * A signature of getSignaturesForAddress: `err` is the runtime's error of a failed transaction
 * (e.g. `{ InstructionError: [0, { Custom: 1 }] }`), null on success; `blockTime` is null when
 * unknown.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureInfo = Schema.Struct({
  signature: Signature,
  slot: U64,
  err: Schema.Unknown,
  memo: nullable(Schema.String),
  blockTime: nullable(Schema.Number),
  confirmationStatus: nullable(Commitment),
  transactionIndex: Schema.optional(Schema.Number)
}).annotations({ identifier: "SignatureInfo" })

/**
 * A decoded `SignatureInfo`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureInfo = typeof SignatureInfo.Type

/**
 * The result of getSignaturesForAddress: newest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureInfoList = Schema.Array(SignatureInfo).annotations({ identifier: "SignatureInfoList" })

/**
 * A decoded `SignatureInfoList`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureInfoList = typeof SignatureInfoList.Type

/**
 * Params of getSignatureStatuses: 1 to 256 signatures, and whether to search past the recent
 * status cache (`searchTransactionHistory`, default false: only recent transactions are found).
 *
 * @since 0.1.0
 * @category params
 */
export const GetSignatureStatusesParams = Schema.Struct({
  /** The transactions' signatures, base58 of 64 bytes: 1 to 256. */
  signatures: Schema.Array(Signature).pipe(
    Schema.minItems(1, { message: () => `1 to ${MAX_STATUSES} signatures` }),
    Schema.maxItems(MAX_STATUSES, { message: () => `1 to ${MAX_STATUSES} signatures` })
  ),
  /** Search past the recent status cache (default false: only recent transactions are found). */
  searchTransactionHistory: Schema.optional(Schema.Boolean)
}).annotations({ identifier: "GetSignatureStatusesParams" })

/**
 * `GetSignatureStatusesParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetSignatureStatusesParams = Endpoint.InputOf<typeof GetSignatureStatusesParams>

/**
 * The status of one signature: its slot, its error (null on success), `confirmations` (null
 * once finalized) and `confirmationStatus`. `status` is the deprecated `{ Ok: null }` / `{ Err }`.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureStatus = Schema.Struct({
  slot: U64,
  confirmations: nullable(Schema.Number),
  err: Schema.Unknown,
  status: Schema.optional(Schema.Unknown),
  confirmationStatus: nullable(Commitment)
}).annotations({ identifier: "SignatureStatus" })

/**
 * A decoded `SignatureStatus`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureStatus = typeof SignatureStatus.Type

/**
 * The result of getSignatureStatuses: a status per signature asked, in order, `null` for one
 * not found.
 *
 * @since 0.1.0
 * @category schemas
 */
export const SignatureStatuses = Schema.Struct({
  context: Schema.Struct({ slot: U64 }),
  value: Schema.Array(Schema.NullOr(SignatureStatus))
}).annotations({ identifier: "SignatureStatuses" })

/**
 * A decoded `SignatureStatuses`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type SignatureStatuses = typeof SignatureStatuses.Type
