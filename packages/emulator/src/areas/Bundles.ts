/**
 * The bundle area: `sendBundle` and `getBundleStatuses` as the block engine
 * answers them. A bundle is decoded with core's wire reader, its Ed25519
 * signatures are verified and it must tip a tip account; the world (`World`) then
 * lands it atomically in the next slot: its System and SPL token transfers (tips
 * included) and fees change balances in every area, or, when one would overdraw,
 * nothing lands and its status carries the runtime's error
 * (`{ "Err": { "InstructionError": [i, { "Custom": 1 }] } }`). A landed bundle's
 * status moves from processed to confirmed to finalized as slots pass.
 *
 * Knobs (dataset sizes): `bundles.confirmDepth` (slots until confirmed, default 1),
 * `bundles.finalizeDepth` (slots until finalized, default 32).
 *
 * @since 0.1.0
 */

import * as Bundle from "@solfx/core/Bundle"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { Area, AreaContext } from "../Area.js"
import { RpcFailure, rpcOf } from "../Area.js"
import * as World from "../World.js"

interface Landed {
  readonly id: string
  readonly signatures: ReadonlyArray<string>
  readonly slot: number
  /** Why it failed whole (an overdraw), or undefined when it landed. */
  readonly err?: unknown
}

interface State {
  readonly bundles: Map<string, Landed>
}

const stateOf = (ctx: AreaContext) => ctx.state<State>("bundles", () => ({ bundles: new Map() }))

const REGIONS: ReadonlySet<string> = new Set(["ams", "dub", "fra", "lon", "nyc", "slc", "sgp", "tyo", "mainnet"])

/** The block engine answers bad bundles with HTTP 400 and -32602 (observed). */
const invalid = (message: string) => Effect.fail(new RpcFailure(-32602, message, 400))

/**
 * The observed rejection of a bundle without a tip.
 *
 * @since 0.1.0
 * @category messages
 */
export const NO_TIP_MESSAGE = "Bundles must write lock at least one tip account to be eligible for the auction."

/**
 * The observed rejection of a bundle holding a transaction that already landed.
 *
 * @since 0.1.0
 * @category messages
 */
export const ALREADY_PROCESSED_MESSAGE = "bundle contains an already processed transaction"

const messageOf = (violation: Bundle.BundleViolation): string => {
  switch (violation._tag) {
    case "Empty":
      return "bundle must contain at least one transaction"
    case "TooMany":
      return `bundle contains too many transactions: ${violation.count} (max ${Bundle.MAX_BUNDLE_SIZE})`
    case "Undecodable":
      return `transaction #${violation.transaction} could not be decoded`
    case "Unsigned":
    case "BadSignature":
      return `transaction #${violation.transaction} failed signature verification`
    case "DuplicateSignature":
      return `bundle contains duplicate transactions: #${violation.duplicateOf} and #${violation.transaction}`
    case "NoTip":
      return NO_TIP_MESSAGE
  }
}

const sendBundle = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || !Array.isArray(params[0]) || !params[0].every((t) => typeof t === "string")) {
      return invalid("Invalid params: params[0] must be an array of encoded transactions")
    }
    const config: unknown = params[1] ?? {}
    if (typeof config !== "object" || config === null || Array.isArray(config)) {
      return invalid("Invalid params: params[1] must be an object")
    }
    // The block engine's default encoding is base58.
    const encoding = (config as { encoding?: unknown }).encoding ?? "base58"
    if (encoding !== "base58" && encoding !== "base64") {
      return invalid(`Invalid params: unsupported encoding ${JSON.stringify(encoding)}, expected base58 or base64`)
    }
    const region = ctx.header("relay-region")
    if (region !== undefined && !REGIONS.has(region)) {
      return invalid(`unknown relay-region ${JSON.stringify(region)}`)
    }
    const checked = Bundle.check(params[0] as ReadonlyArray<string>, encoding, { verifySignatures: true })
    if (Either.isLeft(checked)) return invalid(messageOf(checked.left))
    const state = stateOf(ctx)
    const world = World.of(ctx.state)
    const { id, transactions } = checked.right
    if (transactions.some((tx) => world.landed(tx.signatures[0]!))) return invalid(ALREADY_PROCESSED_MESSAGE)
    const signatures = transactions.map((tx) => tx.signatures[0]!)
    // The world applies every transfer of the bundle or none (an overdraw fails it whole).
    const landed = world.landBundle(transactions, id)
    if (Either.isLeft(landed)) {
      // Accepted by the block engine, but it did not land: its status says why.
      state.bundles.set(id, { id, signatures, slot: ctx.slot(), err: { Err: landed.left.err } })
      return Effect.succeed(id)
    }
    state.bundles.set(id, { id, signatures, slot: landed.right[0]!.slot })
    return Effect.succeed(id)
  })

const encodeStatus = Schema.encodeSync(Bundle.BundleStatus)

const getBundleStatuses = (params: unknown, ctx: AreaContext) =>
  Effect.suspend(() => {
    if (!Array.isArray(params) || !Array.isArray(params[0]) || !params[0].every((t) => typeof t === "string")) {
      return invalid("Invalid params: params[0] must be an array of bundle ids")
    }
    const ids = params[0] as ReadonlyArray<string>
    if (ids.length > Bundle.MAX_STATUS_IDS) {
      return invalid(`too many bundle ids: ${ids.length} (max ${Bundle.MAX_STATUS_IDS})`)
    }
    const now = ctx.slot()
    const { bundles } = stateOf(ctx)
    const value = ids.map((id) => {
      const landed = bundles.get(id)
      if (landed === undefined) return null
      return encodeStatus({
        bundle_id: landed.id as Bundle.BundleStatus["bundle_id"],
        transactions: landed.signatures as Bundle.BundleStatus["transactions"],
        slot: landed.slot,
        confirmation_status: confirmationOf(ctx, landed.slot).status,
        err: landed.err ?? { Ok: null }
      })
    })
    return Effect.succeed({ context: { slot: now }, value })
  })

/**
 * The commitment a transaction landed at `slot` has reached now, and the blocks since it
 * (`confirmations`, null once finalized): the world's one rule (`World.confirmation`: confirmed
 * after `bundles.confirmDepth` slots, finalized after `bundles.finalizeDepth`).
 *
 * @since 0.1.0
 * @category status
 */
export const confirmationOf = (
  ctx: AreaContext,
  slot: number
): { readonly status: "processed" | "confirmed" | "finalized"; readonly confirmations: number | null } =>
  World.of(ctx.state).confirmation(slot)

/**
 * @since 0.1.0
 * @category areas
 */
export const area: Area = {
  name: "bundles",
  rpc: rpcOf(Endpoints.bundles, {
    sendBundle: { handle: sendBundle },
    getBundleStatuses: { handle: getBundleStatuses }
  })
}
