/**
 * The one builder of an enhanced transaction: what a ledger transaction did, as the service's
 * enhanced APIs type it (transfers, every touched account's lamport and token balance change, the
 * runtime's error). Enhanced webhook deliveries (`WebhookDeliveries`) and the enhanced transactions
 * API (`POST /v0/transactions`, `GET /v0/addresses/{address}/transactions`) both build theirs here,
 * so a transaction reads the same wherever it is shown.
 *
 * A ledger transaction is one that landed since start (`World.transaction`), or an entry of a seeded
 * wallet's history (`WalletSignatures.signaturesOf`, `WalletSignatures.seededSignature`): dated before the emulator's
 * first slot, it is known by what the wallet's history says of it (its type, fee payer, fee, error
 * and the wallet's SOL change), so its enhanced form holds those and no transfer lists.
 *
 * @example
 * const item = EnhancedTransactions.enhancedOf(world.transaction(signature)!)
 * WebhookDelivery.encode([item]) // the wire shape both webhooks and the API send
 * @since 0.1.0
 */

import { encodeBase58 } from "@solfx/core/Primitives"
import type * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import type { AreaContext } from "./Area.js"
import type * as Events from "./Events.js"
import type * as WalletSignatures from "./seed/WalletSignatures.js"
import * as World from "./World.js"

const SYSTEM_PROGRAM = "11111111111111111111111111111111"

const sol = (lamports: bigint): string => {
  const whole = lamports / 1_000_000_000n
  const frac = (lamports % 1_000_000_000n).toString().padStart(9, "0").replace(/0+$/, "")
  return frac === "" ? whole.toString() : `${whole}.${frac}`
}

/** The instructions of a bundle's transaction as the wire carried them; the world API's have none. */
const wireInstructions = (tx: Events.LandedTransaction) =>
  tx.wire?.instructions.map((ix) => ({
    programId: ix.programId,
    accounts: ix.accounts.flatMap((a) => (a._tag === "Static" ? [a.address] : [])),
    data: encodeBase58(ix.data),
    innerInstructions: []
  })) ?? []

/**
 * An enhanced item for a landed transaction: its transfers, and each touched
 * account's lamport and token balance change, as the world applied them.
 *
 * @since 0.1.0
 * @category payloads
 */
export const enhancedOf = (tx: Events.LandedTransaction): WebhookDelivery.EnhancedTransaction => {
  const first = tx.nativeTransfers[0]
  return {
    kind: "enhanced",
    signature: tx.signature as WebhookDelivery.EnhancedTransaction["signature"],
    slot: tx.slot,
    timestamp: tx.blockTime,
    type: tx.type,
    source: tx.tokenTransfers.length > 0 ? "SOLANA_PROGRAM_LIBRARY" : "SYSTEM_PROGRAM",
    description: first === undefined ? "" : `${first.from} transferred ${sol(first.lamports)} SOL to ${first.to}.`,
    fee: tx.fee,
    feePayer: tx.feePayer as WebhookDelivery.EnhancedTransaction["feePayer"],
    nativeTransfers: tx.nativeTransfers.map((t) => ({
      fromUserAccount: t.from as WebhookDelivery.NativeTransfer["fromUserAccount"],
      toUserAccount: t.to as WebhookDelivery.NativeTransfer["toUserAccount"],
      amount: t.lamports
    })),
    tokenTransfers: tx.tokenTransfers.map((t) => ({
      fromUserAccount: (t.from ?? "") as WebhookDelivery.TokenTransfer["fromUserAccount"],
      toUserAccount: (t.to ?? "") as WebhookDelivery.TokenTransfer["toUserAccount"],
      fromTokenAccount: (t.fromTokenAccount ?? "") as WebhookDelivery.TokenTransfer["fromTokenAccount"],
      toTokenAccount: (t.toTokenAccount ?? "") as WebhookDelivery.TokenTransfer["toTokenAccount"],
      mint: t.mint as WebhookDelivery.TokenTransfer["mint"],
      tokenAmount: Number(t.amount) / 10 ** t.decimals
    })),
    accountData: tx.accounts.map((a) => ({
      account: a.address as WebhookDelivery.AccountData["account"],
      nativeBalanceChange: a.lamportsAfter - a.lamportsBefore,
      tokenBalanceChanges: a.token === undefined ? [] : [{
        userAccount: a.token.owner as WebhookDelivery.TokenBalanceChange["userAccount"],
        tokenAccount: a.address as WebhookDelivery.TokenBalanceChange["tokenAccount"],
        mint: a.token.mint as WebhookDelivery.TokenBalanceChange["mint"],
        rawTokenAmount: { tokenAmount: a.token.amountAfter - a.token.amountBefore, decimals: a.token.decimals }
      }]
    })),
    events: {},
    transactionError: tx.err === null ? null : { error: JSON.stringify(tx.err) },
    instructions: wireInstructions(tx)
  }
}

/**
 * A seeded history entry as a ledger transaction: the wallet's SOL change (its fee included when
 * it paid), the fee payer's fee when another paid it, its type and error; no transfer lists (the
 * history does not say who was on the other side).
 *
 * @since 0.1.0
 * @category builders
 */
export const seededLanded = (
  signed: WalletSignatures.SignedTransaction,
  index = 0
): Events.LandedTransaction | undefined => {
  const seeded = signed.seeded
  if (seeded === undefined) return undefined
  const { entry, type, wallet } = seeded
  const lamports = (sol: number | string) => BigInt(Math.round(Number(sol) * 1e9))
  const fee = lamports(entry.fee)
  const change = lamports((entry.balanceChanges ?? []).find((c) => c.mint === "SOL")?.amount ?? 0)
  const account = (address: string, delta: bigint, signer: boolean): Events.AccountChange => ({
    address,
    program: SYSTEM_PROGRAM,
    // Only the change is known: the balances read from 0.
    lamportsBefore: 0n,
    lamportsAfter: delta,
    writable: true,
    signer
  })
  const payerIsWallet = entry.feePayer === wallet
  return {
    signature: signed.signature,
    slot: signed.slot,
    blockTime: seeded.time,
    index,
    feePayer: entry.feePayer,
    fee,
    err: signed.err,
    logs: [],
    type: type as Events.TransactionType,
    accounts: payerIsWallet
      ? [account(wallet, change, true)]
      : [account(entry.feePayer, -fee, true), account(wallet, change, false)],
    nativeTransfers: [],
    tokenTransfers: [],
    programs: [SYSTEM_PROGRAM],
    source: "world"
  }
}

/**
 * A transaction of the one ledger by signature: landed since start, or a seeded wallet's entry.
 *
 * @since 0.1.0
 * @category builders
 */
export const ledgerTransaction = (
  ctx: AreaContext,
  signature: string,
  seeded: (ctx: AreaContext, signature: string) => WalletSignatures.SignedTransaction | undefined
): Events.LandedTransaction | undefined => {
  const landed = World.of(ctx.state).transaction(signature)
  if (landed !== undefined) return landed
  const found = seeded(ctx, signature)
  return found === undefined ? undefined : seededLanded(found)
}
