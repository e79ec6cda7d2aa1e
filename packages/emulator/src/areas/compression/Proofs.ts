/**
 * The compression area's validity proofs (V1 and V2): what a request asks for, checked as Photon
 * checks it, and proofs in the real shape.
 *
 * @since 0.1.0
 */

import * as Request from "@solfx/core/CompressionRequest"
import { base58ByteLength } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import type { AreaContext } from "../../Area.js"
import { RpcFailure } from "../../Area.js"
import {
  accountCount,
  ADDRESS_TREE,
  addressAccount,
  addressCount,
  addressIndex,
  hash32,
  holderCount,
  Kind,
  mintCount,
  signatureCount,
  STATE_TREE,
  tokenAccount,
  unseal
} from "../../seed/CompressedState.js"
import * as World from "../../World.js"
import { addressContext, contextOf, STATE_QUEUE, TreeType } from "./Accounts.js"
import type { Handle, Params } from "./Params.js"
import { invalid, notFound, paramsOf, requiredPubkey, shown } from "./Params.js"

interface ProofInput {
  readonly hash: string
  readonly tree: string
  readonly leafIndex: number
}

/** The current account a hash names, or why it cannot be proven. */
const provable = (ctx: AreaContext, hash: string): Effect.Effect<ProofInput, RpcFailure> => {
  const ds = ctx.dataset
  const opened = World.of(ctx.state).compressedTokenAccount(hash)
  if (opened !== undefined && opened.hash === hash) {
    return Effect.succeed({ hash, tree: STATE_TREE, leafIndex: opened.leafIndex })
  }
  const s = unseal(ds, 32, hash)
  if (s !== undefined && s.kind === Kind.tokenAccount && s.a < mintCount(ds) && s.b < holderCount(ds, s.a)) {
    if (s.c < accountCount(ds, s.a, s.b)) {
      const { account } = tokenAccount(ds, s.a, s.b, s.c, false)
      return Effect.succeed({ hash, tree: account.tree, leafIndex: account.leafIndex })
    }
  }
  if (s !== undefined && s.kind === Kind.addressAccount && s.a < addressCount(ds)) {
    const current = signatureCount(ds, s.a)
    if (s.b === current) {
      const account = addressAccount(ds, s.a, s.b)
      return Effect.succeed({ hash, tree: account.tree, leafIndex: account.leafIndex })
    }
    if (s.b >= 1 && s.b < current) {
      return Effect.fail(new RpcFailure(-32000, `Validation Error: account ${hash} is spent`))
    }
  }
  if (s !== undefined && s.kind === Kind.previousTokenAccount) {
    return Effect.fail(new RpcFailure(-32000, `Validation Error: account ${hash} is spent`))
  }
  return Effect.fail(notFound(`account ${hash} not found`))
}

/** What a validity proof request asks for, checked as Photon checks it, and the proof's values. */
const proofInputs = (raw: unknown, ctx: AreaContext, optional: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: [], optional })
    const ds = ctx.dataset
    const hashesRaw = params["hashes"] ?? []
    const newRaw = params["newAddressesWithTrees"] ?? []
    const legacyRaw = params["newAddresses"] ?? []
    if (!Array.isArray(hashesRaw) || !Array.isArray(newRaw) || !Array.isArray(legacyRaw)) {
      return yield* Effect.fail(invalid("invalid type: expected a sequence"))
    }
    const hashes: Array<string> = []
    for (const h of hashesRaw) {
      if (typeof h !== "string" || base58ByteLength(h) !== 32) {
        return yield* Effect.fail(invalid(`invalid value: ${shown(h)}, expected a base58-encoded 32-byte hash`))
      }
      hashes.push(h)
    }
    const addresses: Array<{ address: string; tree: string }> = []
    for (const entry of newRaw) {
      const e = typeof entry === "object" && entry !== null ? entry as Params : {}
      const address = yield* requiredPubkey(e, "address")
      const tree = yield* requiredPubkey(e, "tree")
      addresses.push({ address, tree })
    }
    for (const address of legacyRaw) {
      const a = yield* requiredPubkey({ address }, "address")
      addresses.push({ address: a, tree: ADDRESS_TREE })
    }
    if (hashes.length + addresses.length === 0) {
      return yield* Effect.fail(invalid("no hashes or new addresses to prove"))
    }
    if (hashes.length > Request.MAX_PROOF_INPUTS || addresses.length > Request.MAX_PROOF_INPUTS) {
      return yield* Effect.fail(
        new RpcFailure(
          -32000,
          `Validation Error: at most ${Request.MAX_PROOF_INPUTS} hashes and ${Request.MAX_PROOF_INPUTS} new addresses`
        )
      )
    }
    const accounts = yield* Effect.forEach(hashes, (h) => provable(ctx, h))
    for (const { address } of addresses) {
      if (addressIndex(ds, address) !== undefined) {
        return yield* Effect.fail(new RpcFailure(-32000, `Validation Error: address ${address} already exists`))
      }
    }
    const proof = ds.bytes(`compression:proof:${hashes.join(",")}|${addresses.map((a) => a.address).join(",")}`, 128)
    return {
      accounts,
      addresses,
      compressedProof: {
        a: Array.from(proof.subarray(0, 32)),
        b: Array.from(proof.subarray(32, 96)),
        c: Array.from(proof.subarray(96, 128))
      },
      rootOf: (tree: string) => hash32(ds, `compression:root:${tree}`),
      rootIndexOf: (tree: string) => ds.int(`compression:rootindex:${tree}`, 2400)
    }
  })

export const getValidityProof: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const { accounts, addresses, compressedProof, rootIndexOf, rootOf } = yield* proofInputs(raw, ctx, [
      "hashes",
      "newAddressesWithTrees",
      "newAddresses"
    ])
    const ds = ctx.dataset
    return {
      context: { slot: ctx.slot() },
      value: {
        compressedProof,
        roots: [...accounts.map((a) => rootOf(a.tree)), ...addresses.map((a) => rootOf(a.tree))],
        rootIndices: [...accounts.map((a) => rootIndexOf(a.tree)), ...addresses.map((a) => rootIndexOf(a.tree))],
        leafIndices: [
          ...accounts.map((a) => a.leafIndex),
          ...addresses.map((a) => ds.int(`compression:lowleaf:${a.tree}:${a.address}`, 2 ** 28))
        ],
        leaves: [
          ...accounts.map((a) => a.hash),
          ...addresses.map((a) => hash32(ds, `compression:lowelement:${a.tree}:${a.address}`))
        ],
        merkleTrees: [...accounts.map((a) => a.tree), ...addresses.map((a) => a.tree)]
      }
    }
  })

export const getValidityProofV2: Handle = (raw, ctx) =>
  Effect.gen(function*() {
    const { accounts, addresses, compressedProof, rootIndexOf, rootOf } = yield* proofInputs(raw, ctx, [
      "hashes",
      "newAddressesWithTrees"
    ])
    return {
      context: { slot: ctx.slot() },
      value: {
        compressedProof,
        accounts: accounts.map((a) => ({
          hash: a.hash,
          root: rootOf(a.tree),
          rootIndex: { rootIndex: rootIndexOf(a.tree), proveByIndex: false },
          leafIndex: a.leafIndex,
          merkleContext: contextOf(TreeType.stateV1, a.tree, STATE_QUEUE)
        })),
        addresses: addresses.map((a) => ({
          address: a.address,
          root: rootOf(a.tree),
          rootIndex: rootIndexOf(a.tree),
          merkleContext: addressContext(a.tree)
        }))
      }
    }
  })
