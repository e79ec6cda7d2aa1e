/**
 * The standard Solana RPC's reads of the cluster (`Endpoints.clusterReads`), from the emulator's
 * one clock (`Chain`): slots, block heights and times, blockhashes (the bank's once it runs) and
 * epochs of the same slot every area shows; fees from the world's recent fees (`RecentFees`, as
 * getPriorityFeeEstimate); rent as the runtime computes it. Identity, genesis hash, version and
 * the transaction count are the seed's.
 *
 * A read takes `commitment` (the slot it sees: processed the current one, confirmed and finalized
 * behind it, by the bundle area's depths) and `minContextSlot` (refused above that slot, -32016).
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import * as Transaction from "@solfx/core/Transaction"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as Chain from "../Chain.js"
import * as Layout from "../internal/AccountLayout.js"
import * as Base58 from "../internal/Base58.js"
import { invalid, paramsOf, readAt, VERSION } from "../internal/StandardRpc.js"
import * as RecentFees from "../RecentFees.js"
import * as World from "../World.js"

const e = Endpoints.clusterReads

/** Compute units a transaction gets per instruction without a `SetComputeUnitLimit`, and at most. */
const DEFAULT_UNITS = 200_000
const MAX_UNITS = 1_400_000

const withContext = (ctx: AreaContext, config: Parameters<typeof readAt>[1], value: (slot: number) => unknown) =>
  Effect.map(readAt(ctx, config), ({ context, slot }) => ({ context, value: value(slot) }))

/**
 * The fee of a compiled message, as the runtime charges it: the base fee per signature, plus the
 * priority fee (`SetComputeUnitPrice` micro-lamports × the compute unit limit, rounded up); null
 * when its blockhash is no longer valid.
 */
const feeOf = (ctx: AreaContext, message: Uint8Array): Either.Either<bigint | null, string> => {
  // The message alone: give it its signatures (zeros) and read it as a transaction.
  const signers = message[0]! & 0x80 ? message[1] : message[0]
  if (signers === undefined) return Either.left("message: empty")
  const prefix = Transaction.encodeCompactU16(signers)
  const wire = new Uint8Array(prefix.length + 64 * signers + message.length)
  wire.set(prefix, 0)
  wire.set(message, prefix.length + 64 * signers)
  const parsed = Transaction.parseBytes(wire)
  if (Either.isLeft(parsed)) return Either.left(`message: not a message (${parsed.left.reason})`)
  const tx = parsed.right
  if (!ctx.chain.isBlockhashValid(tx.recentBlockhash)) return Either.right(null)
  let price = 0n
  let limit: bigint | undefined
  let others = 0
  for (const ix of tx.instructions) {
    if (ix.programId !== RecentFees.COMPUTE_BUDGET_PROGRAM) {
      others++
      continue
    }
    const view = new DataView(ix.data.buffer, ix.data.byteOffset, ix.data.byteLength)
    if (ix.data[0] === 3 && ix.data.length >= 9) price = view.getBigUint64(1, true)
    if (ix.data[0] === 2 && ix.data.length >= 5) limit = BigInt(view.getUint32(1, true))
  }
  const units = limit ?? BigInt(Math.min(MAX_UNITS, DEFAULT_UNITS * others))
  const priority = (price * units + 999_999n) / 1_000_000n
  return Either.right(World.FEE_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures) + priority)
}

/**
 * @since 0.1.0
 * @category handlers
 */
export const handlers = {
  getHealth: { handle: (raw: unknown) => Effect.as(paramsOf(e.getHealth, raw), "ok") },
  getVersion: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.as(paramsOf(e.getVersion, raw), {
        "solana-core": VERSION,
        "feature-set": ctx.dataset.int("chain:feature-set", 2 ** 32)
      })
  },
  getIdentity: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.as(paramsOf(e.getIdentity, raw), { identity: ctx.dataset.address("chain:identity") })
  },
  getGenesisHash: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.as(paramsOf(e.getGenesisHash, raw), Base58.encode(ctx.dataset.bytes("chain:genesis")))
  },
  getSlot: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(paramsOf(e.getSlot, raw), (p) => Effect.map(readAt(ctx, p), ({ slot }) => slot))
  },
  getBlockHeight: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(
        paramsOf(e.getBlockHeight, raw),
        (p) => Effect.map(readAt(ctx, p), ({ slot }) => ctx.chain.blockHeight(slot))
      )
  },
  getEpochInfo: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(paramsOf(e.getEpochInfo, raw), (p) =>
        Effect.map(readAt(ctx, p), ({ slot }) => ({
          absoluteSlot: slot,
          blockHeight: ctx.chain.blockHeight(slot),
          epoch: Math.floor(slot / Chain.SLOTS_PER_EPOCH),
          slotIndex: slot % Chain.SLOTS_PER_EPOCH,
          slotsInEpoch: Chain.SLOTS_PER_EPOCH,
          // The cluster's history before start (the seed's), then what the world landed.
          transactionCount: ctx.chain.blockHeight(slot) * 1_000 + World.of(ctx.state).transactions().length
        })))
  },
  getEpochSchedule: {
    handle: (raw: unknown) =>
      Effect.as(paramsOf(e.getEpochSchedule, raw), {
        slotsPerEpoch: Chain.SLOTS_PER_EPOCH,
        leaderScheduleSlotOffset: Chain.SLOTS_PER_EPOCH,
        warmup: false,
        firstNormalEpoch: 0,
        firstNormalSlot: 0
      })
  },
  getLatestBlockhash: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(paramsOf(e.getLatestBlockhash, raw), (p) => withContext(ctx, p, () => ctx.chain.latestBlockhash()))
  },
  isBlockhashValid: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(
        paramsOf(e.isBlockhashValid, raw),
        (p) => withContext(ctx, p, () => ctx.chain.isBlockhashValid(p.blockhash))
      )
  },
  getFeeForMessage: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.gen(function*() {
        const p = yield* paramsOf(e.getFeeForMessage, raw)
        const fee = feeOf(ctx, Buffer.from(p.message, "base64"))
        if (Either.isLeft(fee)) return yield* Effect.fail(invalid(fee.left))
        return yield* withContext(ctx, p, () => fee.right)
      })
  },
  getMinimumBalanceForRentExemption: {
    handle: (raw: unknown) =>
      Effect.map(paramsOf(e.getMinimumBalanceForRentExemption, raw), (p) => Layout.rentExempt(p.size))
  },
  getBlockTime: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.flatMap(paramsOf(e.getBlockTime, raw), (p) =>
        p.slot > ctx.slot()
          ? Effect.fail(new RpcFailure(-32004, `Block not available for slot ${p.slot}`))
          : p.slot < ctx.chain.firstSlot
          ? Effect.fail(new RpcFailure(-32009, `Slot ${p.slot} was skipped, or missing in long-term storage`))
          : Effect.succeed(ctx.chain.blockTime(p.slot)))
  },
  getRecentPrioritizationFees: {
    handle: (raw: unknown, ctx: AreaContext) =>
      Effect.map(paramsOf(e.getRecentPrioritizationFees, raw), (p) =>
        RecentFees.prioritizationFees(
          { dataset: ctx.dataset, slot: ctx.slot(), transactions: World.of(ctx.state).transactions },
          p.addresses ?? []
        ))
  }
}

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "cluster",
  rpc: rpcOf(e, handlers)
}
