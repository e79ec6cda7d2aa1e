/**
 * The two ways the standard RPC lands a transaction and answers with its signature:
 * sendTransaction (a signed transaction, simulated first unless `skipPreflight`; a failed
 * preflight is error -32002 with the simulation as its data) and requestAirdrop (lamports from
 * the cluster's faucet, as devnet, testnet and local validators serve it).
 *
 * @example
 * const signature = yield* rpc.sendTransaction({ transaction: base64, encoding: "base64" })
 * const airdrop = yield* rpc.requestAirdrop({ address, lamports: 1_000_000_000 })
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import { Count } from "./internal/schema.js"
import { Address, Signature } from "./Primitives.js"
import { Commitment } from "./SignatureStatus.js"
import { TransactionEncoding } from "./Simulation.js"

/**
 * Params of sendTransaction: the encoded transaction, then its config (`encoding`, default
 * base58; `skipPreflight`; `preflightCommitment`; `maxRetries`; `minContextSlot`).
 *
 * @since 0.1.0
 * @category params
 */
export const SendTransactionParams = Schema.Struct({
  transaction: Schema.String,
  encoding: Schema.optional(TransactionEncoding),
  skipPreflight: Schema.optional(Schema.Boolean),
  preflightCommitment: Schema.optional(Commitment),
  maxRetries: Schema.optional(Count),
  minContextSlot: Schema.optional(Count)
}).annotations({ identifier: "SendTransactionParams" })

/**
 * `SendTransactionParams` as callers write it.
 *
 * @since 0.1.0
 * @category params
 */
export type SendTransactionParams = typeof SendTransactionParams.Encoded

/**
 * Params of requestAirdrop: the address, the lamports, then its config (`commitment`).
 *
 * @since 0.1.0
 * @category params
 */
export const RequestAirdropParams = Schema.Struct({
  address: Address,
  lamports: Count,
  commitment: Schema.optional(Commitment)
}).annotations({ identifier: "RequestAirdropParams" })

/**
 * `RequestAirdropParams` as callers write it.
 *
 * @since 0.1.0
 * @category params
 */
export type RequestAirdropParams = typeof RequestAirdropParams.Encoded

/**
 * The answer of both: the transaction's signature (its id), base58.
 *
 * @since 0.1.0
 * @category schemas
 */
export const TransactionSignature = Signature
