/**
 * The compression area's transactions with compression info (V1 and V2 shapes): the accounts a
 * signature closed and opened, and its transaction.
 *
 * @since 0.1.0
 */

import { base58ByteLength } from "@solfx/core/Primitives"
import * as Effect from "effect/Effect"
import type { AreaContext } from "../../Area.js"
import * as Dataset from "../../Dataset.js"
import {
  accountCount,
  addressAccount,
  addressCount,
  addressTxSlot,
  hash32,
  holderCount,
  Kind,
  mintCount,
  ownerOf,
  signatureCount,
  TOKEN_PROGRAM,
  tokenAccount,
  tokenTxSlot,
  transactionBody,
  unseal,
  worldTokenAccount
} from "../../seed/CompressedState.js"
import * as World from "../../World.js"
import { accountV2 } from "./Accounts.js"
import type { Handle } from "./Params.js"
import { invalid, notFound, paramsOf, shown } from "./Params.js"

const withTokenData = (entry: ReturnType<typeof tokenAccount>) => ({
  account: entry.account,
  optionalTokenData: entry.tokenData
})

/** The accounts a signature closed and opened, and its transaction; undefined for an unknown signature. */
const compressionInfoOf = (ds: Dataset.Dataset, signature: string) => {
  const s = unseal(ds, 64, signature)
  if (s !== undefined && s.kind === Kind.addressTx && s.a < addressCount(ds) && s.b < signatureCount(ds, s.a)) {
    const version = signatureCount(ds, s.a) - s.b
    const opened = addressAccount(ds, s.a, version)
    return {
      closedAccounts: version > 1 ? [{ account: addressAccount(ds, s.a, version - 1), optionalTokenData: null }] : [],
      openedAccounts: [{ account: opened, optionalTokenData: null }],
      transaction: transactionBody(
        ds,
        signature,
        addressTxSlot(ds, s.a, s.b),
        ds.address(`compression:payer:${s.a}`),
        opened.owner
      )
    }
  }
  if (
    s !== undefined && s.kind === Kind.tokenTx && s.a < mintCount(ds) && s.b < holderCount(ds, s.a) &&
    s.c < accountCount(ds, s.a, s.b)
  ) {
    const { a: k, b: i, c: a } = s
    const current = tokenAccount(ds, k, i, a, false)
    const opened = a === 0
      ? [
        withTokenData(current),
        ...Array.from(
          { length: accountCount(ds, k, i) - 1 },
          (_, x) => withTokenData(tokenAccount(ds, k, i, x + 1, true))
        )
      ]
      : [withTokenData(current)]
    return {
      closedAccounts: a === 0 ? [] : [withTokenData(tokenAccount(ds, k, i, a, true))],
      openedAccounts: opened,
      transaction: transactionBody(ds, signature, tokenTxSlot(ds, k, i, a), ownerOf(ds, k, i), TOKEN_PROGRAM)
    }
  }
  return undefined
}

/** The compress transaction of the world with this signature: it opened one account, closed none. */
const worldCompressionInfo = (ctx: AreaContext, signature: string) => {
  const world = World.of(ctx.state)
  const opened = world.compressedTokenAccount(signature)
  if (opened === undefined || opened.signature !== signature) return undefined
  const tx = world.transaction(signature)!
  return {
    closedAccounts: [],
    openedAccounts: [withTokenData(worldTokenAccount(ctx.dataset, opened))],
    transaction: {
      ...transactionBody(ctx.dataset, signature, tx.slot, tx.feePayer, TOKEN_PROGRAM),
      blockTime: tx.blockTime
    }
  }
}

/** A transaction with compression info, V1 or V2 shaped: the same accounts. */
const transactionWithCompressionInfo = (
  shape: (info: NonNullable<ReturnType<typeof compressionInfoOf>>, ds: Dataset.Dataset, signature: string) => unknown
): Handle =>
(raw, ctx) =>
  Effect.gen(function*() {
    const params = yield* paramsOf(raw, { required: ["signature"], optional: [] })
    const signature = params["signature"]
    if (typeof signature !== "string" || base58ByteLength(signature) !== 64) {
      return yield* Effect.fail(
        invalid(`invalid value: ${shown(signature)}, expected a base58-encoded 64-byte signature`)
      )
    }
    const info = worldCompressionInfo(ctx, signature) ?? compressionInfoOf(ctx.dataset, signature)
    return info === undefined
      ? yield* Effect.fail(notFound(`transaction ${signature} not found`))
      : shape(info, ctx.dataset, signature)
  })

export const getTransactionWithCompressionInfo = transactionWithCompressionInfo((
  { transaction, ...compressionInfo }
) => ({ compressionInfo, transaction }))

export const getTransactionWithCompressionInfoV2 = transactionWithCompressionInfo((
  { closedAccounts, openedAccounts, transaction },
  ds,
  signature
) => ({
  compressionInfo: {
    closedAccounts: closedAccounts.map(({ account, optionalTokenData }) => ({
      account: {
        account: accountV2(account),
        nullifier: hash32(ds, `compression:nullifier:${account.hash}`),
        txHash: hash32(ds, `compression:txhash:${signature}`)
      },
      optionalTokenData
    })),
    openedAccounts: openedAccounts.map(({ account, optionalTokenData }) => ({
      account: accountV2(account),
      optionalTokenData
    }))
  },
  transaction
}))
