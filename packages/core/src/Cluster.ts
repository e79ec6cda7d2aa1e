/**
 * The standard Solana RPC's reads of the cluster itself: health, version, identity, genesis
 * hash, slot, block height, epoch, the latest blockhash and whether one is still valid, the fee
 * of a message, the rent-exempt minimum, a block's time and the recent prioritization fees.
 * Their params (named fields for the SDK; positional on the wire, `Endpoint.wireParams`) and results.
 *
 * @example
 * const { value } = Schema.decodeUnknownSync(Cluster.LatestBlockhash)(result)
 * value.lastValidBlockHeight // the last block height at which the blockhash is valid
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"
import { Address, Base64String, Hash32, U64 } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { withContext } from "./SlotContext.js"

/**
 * The most addresses getRecentPrioritizationFees takes.
 *
 * @since 0.1.0
 * @category constants
 */
export const MAX_FEE_ADDRESSES = 128

const slotFloor = Schema.Number.pipe(
  Schema.int(),
  Schema.nonNegative({ message: () => "a slot (a non-negative integer)" })
)

/**
 * Params of the reads that take only a config: `[{ commitment, minContextSlot }]` (getSlot,
 * getBlockHeight, getEpochInfo, getLatestBlockhash, getHealth and the other cluster reads).
 *
 * @since 0.1.0
 * @category params
 */
export const ReadParams = Schema.Struct({
  /** The commitment of the bank read (default `finalized`). */
  commitment: Schema.optional(Commitment),
  /** The lowest slot the read may be answered at; a node behind it answers -32016. */
  minContextSlot: Schema.optional(slotFloor)
}).annotations({ identifier: "ClusterReadParams" })

/**
 * `ReadParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type ReadParams = typeof ReadParams.Encoded

/**
 * Params of the methods that take nothing (getVersion, getIdentity, getGenesisHash, getEpochSchedule).
 *
 * @since 0.1.0
 * @category params
 */
export const NoParams = Schema.Struct({}).annotations({ identifier: "NoParams" })

/**
 * Params of isBlockhashValid: `[blockhash, { commitment, minContextSlot }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const IsBlockhashValidParams = Schema.Struct({
  /** The blockhash (base58, 32 bytes). */
  blockhash: Hash32,
  ...ReadParams.fields
}).annotations({ identifier: "IsBlockhashValidParams" })

/**
 * `IsBlockhashValidParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type IsBlockhashValidParams = typeof IsBlockhashValidParams.Encoded

/**
 * Params of getFeeForMessage: `[message, { commitment, minContextSlot }]`, the compiled message base64.
 *
 * @since 0.1.0
 * @category params
 */
export const GetFeeForMessageParams = Schema.Struct({
  /** The compiled message (legacy or v0), base64. */
  message: Base64String,
  ...ReadParams.fields
}).annotations({ identifier: "GetFeeForMessageParams" })

/**
 * `GetFeeForMessageParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetFeeForMessageParams = typeof GetFeeForMessageParams.Encoded

/**
 * Params of getMinimumBalanceForRentExemption: `[size, { commitment }]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetMinimumBalanceParams = Schema.Struct({
  /** The account's data length in bytes (at most 10 MiB). */
  size: Count.pipe(Schema.lessThanOrEqualTo(10 * 1024 * 1024, { message: () => "at most 10485760 bytes" })),
  /** The commitment of the bank read (default `finalized`). */
  commitment: Schema.optional(Commitment)
}).annotations({ identifier: "GetMinimumBalanceParams" })

/**
 * `GetMinimumBalanceParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetMinimumBalanceParams = typeof GetMinimumBalanceParams.Encoded

/**
 * Params of getBlockTime: `[slot]`.
 *
 * @since 0.1.0
 * @category params
 */
export const GetBlockTimeParams = Schema.Struct({
  /** The block's slot. */
  slot: slotFloor
}).annotations({ identifier: "GetBlockTimeParams" })

/**
 * `GetBlockTimeParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetBlockTimeParams = typeof GetBlockTimeParams.Encoded

/**
 * Params of getRecentPrioritizationFees: `[addresses?]`, up to 128 accounts a transaction
 * would write-lock (none: the fees of every transaction).
 *
 * @since 0.1.0
 * @category params
 */
export const GetRecentPrioritizationFeesParams = Schema.Struct({
  /** Accounts a transaction would write-lock. */
  addresses: Schema.optional(
    Schema.Array(Address).pipe(
      Schema.maxItems(MAX_FEE_ADDRESSES, { message: () => `at most ${MAX_FEE_ADDRESSES} addresses` })
    )
  )
}).annotations({ identifier: "GetRecentPrioritizationFeesParams" })

/**
 * `GetRecentPrioritizationFeesParams` as callers write it: the input (encoded) side of the schema of the same name.
 *
 * @since 0.1.0
 * @category params
 */
export type GetRecentPrioritizationFeesParams = typeof GetRecentPrioritizationFeesParams.Encoded

/**
 * getHealth's result: `"ok"` (an unhealthy node answers an error instead).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Health = Schema.Literal("ok").annotations({ identifier: "Health" })

/**
 * getVersion's result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Version = Schema.Struct({
  /** The node's software version. */
  "solana-core": Schema.String,
  /** Unique identifier of the node's feature set (u32). */
  "feature-set": Schema.optional(Schema.NullOr(Count))
}).annotations({ identifier: "Version" })

/**
 * A decoded `Version`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type Version = typeof Version.Type

/**
 * getIdentity's result: the node's identity key.
 *
 * @since 0.1.0
 * @category schemas
 */
export const Identity = Schema.Struct({
  /** The node's identity public key. */
  identity: Address
}).annotations({ identifier: "Identity" })

/**
 * getGenesisHash's result: the cluster's genesis hash.
 *
 * @since 0.1.0
 * @category schemas
 */
export const GenesisHash = Hash32

/**
 * getSlot's, getBlockHeight's and getMinimumBalanceForRentExemption's results are plain numbers:
 * a slot or height (within 2^53).
 *
 * @since 0.1.0
 * @category schemas
 */
export const Slot = Count

/**
 * getMinimumBalanceForRentExemption's result: lamports (u64, exact).
 *
 * @since 0.1.0
 * @category schemas
 */
export const MinimumBalance = U64

/**
 * getEpochInfo's result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EpochInfo = Schema.Struct({
  /** The current slot. */
  absoluteSlot: Count,
  /** The current block height. */
  blockHeight: Count,
  /** The current epoch. */
  epoch: Count,
  /** The current slot relative to the start of the epoch. */
  slotIndex: Count,
  /** Slots in this epoch. */
  slotsInEpoch: Count,
  /** Transactions processed since genesis (older nodes leave it out or send null). */
  transactionCount: Schema.optional(Schema.NullOr(Count))
}).annotations({ identifier: "EpochInfo" })

/**
 * A decoded `EpochInfo`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type EpochInfo = typeof EpochInfo.Type

/**
 * getEpochSchedule's result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const EpochSchedule = Schema.Struct({
  /** Slots in each epoch (after warmup). */
  slotsPerEpoch: Count,
  /** How many slots before an epoch its leader schedule is computed. */
  leaderScheduleSlotOffset: Count,
  /** Whether epochs start short and grow. */
  warmup: Schema.Boolean,
  /** The first epoch of `slotsPerEpoch` slots. */
  firstNormalEpoch: Count,
  /** Its first slot. */
  firstNormalSlot: Count
}).annotations({ identifier: "EpochSchedule" })

/**
 * A decoded `EpochSchedule`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type EpochSchedule = typeof EpochSchedule.Type

/**
 * getLatestBlockhash's result: a blockhash and the last block height at which a transaction using it lands.
 *
 * @since 0.1.0
 * @category schemas
 */
export const LatestBlockhash = withContext(Schema.Struct({
  /** The blockhash (base58). */
  blockhash: Hash32,
  /** The last block height at which it is valid. */
  lastValidBlockHeight: Count
})).annotations({ identifier: "LatestBlockhash" })

/**
 * A decoded `LatestBlockhash`: the type of the schema of the same name.
 *
 * @since 0.1.0
 * @category models
 */
export type LatestBlockhash = typeof LatestBlockhash.Type

/**
 * isBlockhashValid's result.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BlockhashValid = withContext(Schema.Boolean).annotations({ identifier: "BlockhashValid" })

/**
 * getFeeForMessage's result: lamports, or `null` when the message's blockhash is not valid.
 *
 * @since 0.1.0
 * @category schemas
 */
export const FeeForMessage = withContext(Schema.NullOr(U64)).annotations({ identifier: "FeeForMessage" })

/**
 * getBlockTime's result: Unix seconds, or `null` when unknown.
 *
 * @since 0.1.0
 * @category schemas
 */
export const BlockTime = Schema.NullOr(Schema.Number.pipe(Schema.int())).annotations({ identifier: "BlockTime" })

/**
 * One slot's prioritization fee: the lowest fee (micro-lamports per compute unit) a transaction
 * locking the accounts asked paid in it.
 *
 * @since 0.1.0
 * @category schemas
 */
export const PrioritizationFee = Schema.Struct({
  /** The slot. */
  slot: Count,
  /** Micro-lamports per compute unit. */
  prioritizationFee: Count
}).annotations({ identifier: "PrioritizationFee" })

/**
 * getRecentPrioritizationFees' result: the recent slots' fees (up to 150), oldest first.
 *
 * @since 0.1.0
 * @category schemas
 */
export const RecentPrioritizationFees = Schema.Array(PrioritizationFee).annotations({
  identifier: "RecentPrioritizationFees"
})
