/**
 * The compression area's accounts: token accounts and balances of an owner, a mint's holders, and
 * Photon's V2 account methods (the V1 accounts, each with its Merkle context in place of `tree`).
 *
 * @since 0.1.0
 */

import * as Request from "@solfx/core/CompressionRequest"
import * as Effect from "effect/Effect"
import type { AreaContext } from "../../Area.js"
import { RpcFailure } from "../../Area.js"
import * as Dataset from "../../Dataset.js"
import {
  accountCount,
  addressAccount,
  addressCount,
  addressIndex,
  arrayList,
  balanceOf,
  holderCount,
  holders,
  Kind,
  mintAt,
  mintCount,
  mintIndex,
  ownerAccounts,
  positionsOf,
  programOwner,
  signatureCount,
  tokenAccount,
  unseal,
  worldHolders,
  worldTokenAccount
} from "../../seed/CompressedState.js"
import * as World from "../../World.js"
import type { Handle } from "./Params.js"
import { invalid, page, paging, paramsOf, pubkey, requiredPubkey } from "./Params.js"

export const getCompressedMintTokenHolders: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["mint"], ...paging })
    const mint = yield* requiredPubkey(params, "mint")
    const k = mintIndex(ctx.dataset, mint)
    return yield* page(
      ctx,
      params,
      k === undefined ? worldHolders(World.of(ctx.state), mint) : holders(ctx.dataset, k),
      [
        "getCompressedMintTokenHolders",
        mint
      ]
    )
  })

/** The token accounts of an owner, V1 or V2 shaped: the same accounts in the same order. */
const tokenAccountsByOwner = (shape: (entry: ReturnType<typeof tokenAccount>) => unknown): Handle => (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], optional: ["mint", "cursor", "limit"] })
    const owner = yield* requiredPubkey(params, "owner")
    const mint = yield* pubkey(params, "mint")
    const ds = ctx.dataset
    const k = mint === undefined ? undefined : mintIndex(ds, mint)
    const refs = mint !== undefined && k === undefined ? [] : ownerAccounts(ds, owner, k)
    // After the seeded accounts, the ones the world opened (oldest first).
    const recent = World.of(ctx.state).compressedTokenAccountsOf(owner).filter((c) =>
      mint === undefined || c.mint === mint
    )
    return yield* page(
      ctx,
      params,
      Dataset.lazyList(refs.length + recent.length, (x) => {
        if (x >= refs.length) return shape(worldTokenAccount(ds, recent[x - refs.length]!))
        const r = refs[x]!
        return shape(tokenAccount(ds, r.k, r.i, r.a, false))
      }),
      // Both names share one scope: a cursor of either pages the other.
      ["getCompressedTokenAccountsByOwner", owner, mint ?? ""]
    )
  })

export const getCompressedTokenAccountsByOwner = tokenAccountsByOwner((e) => e)

export const getCompressedTokenBalancesByOwnerV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], optional: ["mint", "cursor", "limit"] })
    const owner = yield* requiredPubkey(params, "owner")
    const mint = yield* pubkey(params, "mint")
    const ds = ctx.dataset
    const k = mint === undefined ? undefined : mintIndex(ds, mint)
    const positions = mint !== undefined && k === undefined
      ? []
      : positionsOf(ds, owner).filter((p) => k === undefined || p.k === k)
    // After the seeded mints, the world's (one a mint, the sum of its accounts; no seeded mint is one).
    const recent = new Map<string, bigint>()
    for (const c of World.of(ctx.state).compressedTokenAccountsOf(owner)) {
      if (mint === undefined || c.mint === mint) recent.set(c.mint, (recent.get(c.mint) ?? 0n) + c.amount)
    }
    const worldBalances = [...recent].map(([m, balance]) => ({ mint: m, balance }))
    return yield* page(
      ctx,
      params,
      Dataset.lazyList(positions.length + worldBalances.length, (x) => {
        if (x >= positions.length) return worldBalances[x - positions.length]!
        const p = positions[x]!
        return { mint: mintAt(ds, p.k), balance: balanceOf(ds, p.k, p.i) }
      }),
      ["getCompressedTokenBalancesByOwnerV2", owner, mint ?? ""]
    )
  })

// ---------------------------------------------------------------------------
// Photon's V2 methods (what stateless.js 0.23 calls by default): the V1 accounts, each with its
// Merkle context in place of `tree`. Every account sits in the local V1 trees stateless.js knows.

export const STATE_QUEUE = "nfq1NvQDJ2GEgnS8zt9prAe8rjjpAW1zFkrvZoBR148"
const ADDRESS_QUEUE = "aq1S9z4reTSQAdgWHGD2zDaS39sjGrAxbR31vxJ2F4F"
// The batched (V2) address tree: its queue is the tree account itself.
const ADDRESS_TREE_V2 = "amt2kaJA14v3urZbZvnc5v2np8jqvc4Z8zDep5wbtzx"
export const TreeType = { stateV1: 1, addressV1: 2, addressV2: 4 } as const

export const contextOf = (treeType: number, tree: string, queue: string) => ({
  treeType,
  tree,
  queue,
  cpiContext: null,
  nextTreeContext: null
})

export const addressContext = (tree: string) =>
  tree === ADDRESS_TREE_V2
    ? contextOf(TreeType.addressV2, tree, tree)
    : contextOf(TreeType.addressV1, tree, ADDRESS_QUEUE)

export const accountV2 = <A extends { readonly tree: string }>({ tree, ...account }: A) => ({
  ...account,
  proveByIndex: false,
  merkleContext: contextOf(TreeType.stateV1, tree, STATE_QUEUE)
})

export const getCompressedTokenAccountsByOwnerV2 = tokenAccountsByOwner(({ account, tokenData }) => ({
  account: accountV2(account),
  tokenData
}))

/** The owner's current accounts: only the program owning the address accounts has compressed accounts of its own. */
export const getCompressedAccountsByOwnerV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["owner"], ...paging })
    const owner = yield* requiredPubkey(params, "owner")
    const ds = ctx.dataset
    const list = owner === programOwner(ds)
      ? Dataset.lazyList(addressCount(ds), (n) => accountV2(addressAccount(ds, n, signatureCount(ds, n))))
      : arrayList([])
    return yield* page(ctx, params, list, ["getCompressedAccountsByOwnerV2", owner])
  })

/** The current (unspent) account of a hash or an address, as getMultipleCompressedAccounts finds it. */
const currentAccount = (ctx: AreaContext, key: string, by: "hash" | "address") => {
  const ds = ctx.dataset
  const opened = by === "hash" ? World.of(ctx.state).compressedTokenAccount(key) : undefined
  if (opened !== undefined && opened.hash === key) return worldTokenAccount(ds, opened).account
  if (by === "address") {
    const n = addressIndex(ds, key)
    return n === undefined ? undefined : addressAccount(ds, n, signatureCount(ds, n))
  }
  const s = unseal(ds, 32, key)
  if (s === undefined) return undefined
  if (s.kind === Kind.tokenAccount && s.a < mintCount(ds) && s.b < holderCount(ds, s.a)) {
    return s.c < accountCount(ds, s.a, s.b) ? tokenAccount(ds, s.a, s.b, s.c, false).account : undefined
  }
  if (s.kind === Kind.addressAccount && s.a < addressCount(ds) && s.b === signatureCount(ds, s.a)) {
    return addressAccount(ds, s.a, s.b)
  }
  return undefined
}

export const getMultipleCompressedAccountsV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], optional: ["hashes", "addresses"] })
    const hashes = params["hashes"] ?? undefined
    const addresses = params["addresses"] ?? undefined
    if ((hashes === undefined) === (addresses === undefined)) {
      return yield* Effect.fail(new RpcFailure(-32000, "Validation Error: exactly one of hashes or addresses"))
    }
    const by = hashes === undefined ? "address" : "hash"
    const keys = hashes ?? addresses
    if (!Array.isArray(keys)) return yield* Effect.fail(invalid("invalid type: expected a sequence"))
    if (keys.length > Request.MAX_LIMIT) {
      return yield* Effect.fail(
        new RpcFailure(
          -32000,
          `Validation Error: at most ${Request.MAX_LIMIT} ${by === "hash" ? "hashes" : "addresses"}`
        )
      )
    }
    const checked = yield* Effect.forEach(keys, (key) => requiredPubkey({ [by]: key }, by))
    // Photon answers null for a hash it does not hold (or one spent): stateless.js refuses such a
    // list, but that is the service's answer.
    const items = checked.map((key) => {
      const account = currentAccount(ctx, key, by)
      return account === undefined ? null : accountV2(account)
    })
    return { context: { slot: ctx.slot() }, value: { items } }
  })
