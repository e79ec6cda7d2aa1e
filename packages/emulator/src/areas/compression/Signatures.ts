/**
 * The compression area's signature lists: of an address, of an owner (the token program's and the
 * address program's histories), of a token owner, and the latest non-voting ones.
 *
 * @since 0.1.0
 */

import * as Request from "@solfx/core/CompressionRequest"
import * as Effect from "effect/Effect"
import type { AreaContext } from "../../Area.js"
import * as Dataset from "../../Dataset.js"
import * as Paging from "../../Paging.js"
import {
  accountCount,
  addressCount,
  addressIndex,
  addressSignatures,
  addressTxSlot,
  arrayList,
  concat,
  holderCount,
  Kind,
  mintCount,
  ownerAccounts,
  programOwner,
  seal,
  signatureCount,
  signatureItem,
  TOKEN_PROGRAM,
  tokenTxSlot,
  worldTokenSignatures
} from "../../seed/CompressedState.js"
import * as World from "../../World.js"
import type { Handle } from "./Params.js"
import { cursorOf, limitOf, page, paging, paramsOf, requiredPubkey } from "./Params.js"

export const getCompressionSignaturesForAddress: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["address"], ...paging })
    const address = yield* requiredPubkey(params, "address")
    const n = addressIndex(ctx.dataset, address)
    return yield* page(ctx, params, n === undefined ? arrayList([]) : addressSignatures(ctx.dataset, n), [
      "getCompressionSignaturesForAddress",
      address
    ])
  })

const NON_VOTING_PER_SLOT = 4

export const getLatestNonVotingSignatures: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], ...paging })
    const limit = yield* limitOf(params)
    const cursor = yield* cursorOf(params)
    const ds = ctx.dataset
    const now = ctx.slot()
    // Recent slots, since the world started or before: the world's clock dates them.
    const clock = World.of(ctx.state).blockTimeOf
    const list = Dataset.lazyList(100_000, (i) => {
      const slot = now - Math.floor(i / NON_VOTING_PER_SLOT)
      const label = `${slot}:${i % NON_VOTING_PER_SLOT}`
      return {
        signature: ds.signature(`compression:nonvoting:${label}`),
        slot,
        blockTime: clock(slot),
        error: ds.int(`compression:nonvoting:failed:${label}`, 8) === 0
          ? "{\"InstructionError\":[0,{\"Custom\":6001}]}"
          : null
      }
    })
    const slice = yield* Paging.slice(list, cursor, limit, Request.MAX_LIMIT, "getLatestNonVotingSignatures")
    // Photon sends no cursor for this method.
    return { context: { slot: now }, value: { items: slice.items } }
  })

export const getCompressionSignaturesForTokenOwner: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    const ds = ctx.dataset
    const items = ownerAccounts(ds, owner, undefined)
      .map((r) => signatureItem(ds, seal(ds, 64, Kind.tokenTx, r.k, r.i, r.a), tokenTxSlot(ds, r.k, r.i, r.a)))
      .sort((x, y) => y.slot - x.slot || (x.signature < y.signature ? -1 : 1))
    // The world's transactions are newer than every seeded one: they come first.
    const recent = worldTokenSignatures(World.of(ctx.state), owner)
    return yield* page(ctx, params, arrayList([...recent, ...items]), [
      "getCompressionSignaturesForTokenOwner",
      owner
    ])
  })

/**
 * Every token transaction (one per token account of every holder of every mint, about 11,000 by
 * default), newest first: the history of the token program that owns the accounts. Positions and
 * slots are sorted once per instance; signatures are sealed only for the page served.
 */
const tokenProgramSignatures = (ctx: AreaContext) => {
  const ds = ctx.dataset
  const rows = ctx.state("compression:token-program-signatures", () => {
    const out: Array<{ readonly k: number; readonly i: number; readonly a: number; readonly slot: number }> = []
    for (let k = 0; k < mintCount(ds); k++) {
      for (let i = 0; i < holderCount(ds, k); i++) {
        for (let a = 0; a < accountCount(ds, k, i); a++) out.push({ k, i, a, slot: tokenTxSlot(ds, k, i, a) })
      }
    }
    return out.sort((x, y) => y.slot - x.slot || x.k - y.k || x.i - y.i || x.a - y.a)
  })
  return Dataset.lazyList(rows.length, (x) => {
    const r = rows[x]!
    return signatureItem(ds, seal(ds, 64, Kind.tokenTx, r.k, r.i, r.a), r.slot)
  })
}

/**
 * The signatures of every address account, newest first: the history of their owner, the program.
 * Address 0's list is long (1,000,000 by default) and the others short (at most 40 each): the short
 * ones are merged with the head of address 0's down to their oldest slot; past it, address 0's own.
 */
const programSignatures = (ds: Dataset.Dataset) => {
  const head: Array<{ readonly n: number; readonly idx: number; readonly slot: number }> = []
  let oldest = Number.POSITIVE_INFINITY
  for (let n = 1; n < addressCount(ds); n++) {
    for (let idx = 0; idx < signatureCount(ds, n); idx++) {
      const slot = addressTxSlot(ds, n, idx)
      head.push({ n, idx, slot })
      oldest = Math.min(oldest, slot)
    }
  }
  const bigCount = signatureCount(ds, 0)
  let taken = 0
  while (taken < bigCount && addressTxSlot(ds, 0, taken) >= oldest) {
    head.push({ n: 0, idx: taken, slot: addressTxSlot(ds, 0, taken) })
    taken++
  }
  head.sort((x, y) => y.slot - x.slot || x.n - y.n || x.idx - y.idx)
  const total = head.length + bigCount - taken
  const item = (n: number, idx: number) =>
    signatureItem(ds, seal(ds, 64, Kind.addressTx, n, idx), addressTxSlot(ds, n, idx))
  return Dataset.lazyList(total, (x) => {
    if (x < head.length) return item(head[x]!.n, head[x]!.idx)
    return item(0, taken + x - head.length)
  })
}

export const getCompressionSignaturesForOwner: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    // Token accounts belong to the token program (their holders are `tokenData.owner`): its history is
    // every token transaction; the address accounts belong to their program.
    const list = owner === programOwner(ctx.dataset)
      ? programSignatures(ctx.dataset)
      : owner === TOKEN_PROGRAM
      ? concat(worldTokenSignatures(World.of(ctx.state)), tokenProgramSignatures(ctx))
      : arrayList([])
    return yield* page(ctx, params, list, ["getCompressionSignaturesForOwner", owner])
  })
