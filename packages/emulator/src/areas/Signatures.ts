/**
 * The standard Solana RPC's signature methods, answered from the one world:
 * getSignaturesForAddress lists exactly the signatures an address's `/v1/wallet/{w}/history`
 * lists, in the same order (newest first: what landed since start, then a seeded wallet's
 * seeded activity; `WalletSignatures.signaturesOf`), and getSignatureStatuses finds any of them, landed
 * or seeded. Commitments follow the bundle area's rule (`Bundles.confirmationOf`), so a
 * signature's status and its bundle's agree.
 *
 * Without `searchTransactionHistory`, getSignatureStatuses answers from the recent status cache
 * only, as a validator does: transactions of the last `RECENT_SLOTS` slots.
 *
 * @since 0.1.0
 */

import * as Endpoints from "@solfx/core/Endpoints"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as SignatureStatus from "@solfx/core/SignatureStatus"
import * as Effect from "effect/Effect"
import * as Predicate from "effect/Predicate"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as WalletSignatures from "../seed/WalletSignatures.js"
import * as World from "../World.js"
import { confirmationOf } from "./Bundles.js"

/**
 * The slots the recent status cache covers (a validator keeps the statuses of about the last
 * 300 slots without searching its history).
 *
 * @since 0.1.0
 * @category constants
 */
export const RECENT_SLOTS = 300

const invalid = (message: string) => Effect.fail(new RpcFailure(-32602, `Invalid params: ${message}`))

const isSignature = (v: unknown): v is string => typeof v === "string" && base58ByteLength(v) === 64

/** `params[1]`, the config object, when it is one (or absent). */
const configOf = (params: ReadonlyArray<unknown>): Record<string, unknown> | undefined =>
  params[1] === undefined || params[1] === null ? {} : Predicate.isRecord(params[1]) ? params[1] : undefined

const getSignaturesForAddress = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || typeof params[0] !== "string" || base58ByteLength(params[0]) !== 32) {
      return invalid("params[0] must be a base58 address (32 bytes)")
    }
    const config = configOf(params)
    if (config === undefined) return invalid("params[1] must be a config object")
    const limit = config["limit"] ?? SignatureStatus.MAX_LIMIT
    if (!Number.isInteger(limit) || (limit as number) < 1 || (limit as number) > SignatureStatus.MAX_LIMIT) {
      return invalid(`limit must be an integer between 1 and ${SignatureStatus.MAX_LIMIT}`)
    }
    for (const name of ["before", "until"]) {
      if (config[name] !== undefined && !isSignature(config[name])) return invalid(`${name} must be a signature`)
    }
    const commitment = config["commitment"]
    if (commitment !== undefined && commitment !== "confirmed" && commitment !== "finalized") {
      return invalid("commitment must be confirmed or finalized")
    }
    const minContextSlot = config["minContextSlot"]
    if (minContextSlot !== undefined && (!Number.isInteger(minContextSlot) || (minContextSlot as number) < 0)) {
      return invalid("minContextSlot must be a slot")
    }
    if (typeof minContextSlot === "number" && minContextSlot > ctx.slot()) {
      return Effect.fail(new RpcFailure(-32016, "Minimum context slot has not been reached"))
    }
    const list = WalletSignatures.signaturesOf(ctx, params[0])
    // Strictly older than `before` (an unknown `before`: nothing is known older), down to `until` excluded.
    const before = config["before"] === undefined ? -1 : list.indexOf(config["before"] as string)
    if (before === undefined) return Effect.succeed([])
    const until = config["until"] === undefined ? undefined : list.indexOf(config["until"] as string)
    const end = Math.min(until ?? list.length, before + 1 + (limit as number))
    const out: Array<unknown> = []
    for (let x = before + 1; x < end; x++) {
      const s = list.get(x)
      out.push({
        signature: s.signature,
        slot: s.slot,
        err: s.err,
        memo: null,
        blockTime: s.blockTime,
        confirmationStatus: confirmationOf(ctx, s.slot).status
      })
    }
    return Effect.succeed(out)
  })

const getSignatureStatuses = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || !Array.isArray(params[0]) || !params[0].every(isSignature)) {
      return invalid("params[0] must be an array of base58 signatures (64 bytes)")
    }
    const signatures = params[0] as ReadonlyArray<string>
    if (signatures.length > SignatureStatus.MAX_STATUSES) {
      return invalid(`too many signatures: ${signatures.length} (max ${SignatureStatus.MAX_STATUSES})`)
    }
    const config = configOf(params)
    if (config === undefined) return invalid("params[1] must be a config object")
    const search = config["searchTransactionHistory"] ?? false
    if (typeof search !== "boolean") return invalid("searchTransactionHistory must be a boolean")
    const world = World.of(ctx.state)
    const now = ctx.slot()
    const value = signatures.map((signature) => {
      const tx: WalletSignatures.SignedTransaction | undefined = world.transaction(signature) ??
        (search ? WalletSignatures.seededSignature(ctx, signature) : undefined)
      if (tx === undefined || (!search && now - tx.slot > RECENT_SLOTS)) return null
      const { confirmations, status } = confirmationOf(ctx, tx.slot)
      return {
        slot: tx.slot,
        confirmations,
        err: tx.err,
        status: tx.err === null ? { Ok: null } : { Err: tx.err },
        confirmationStatus: status
      }
    })
    return Effect.succeed({ context: { slot: now }, value })
  })

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "signatures",
  rpc: rpcOf(Endpoints.signatures, {
    getSignaturesForAddress: { handle: getSignaturesForAddress },
    getSignatureStatuses: { handle: getSignatureStatuses }
  })
}
