/**
 * What the world changed since start as the Wallet API shows it: SOL and token balances, NFTs,
 * transfers and history entries of landed transactions.
 *
 * @since 0.1.0
 */

import type * as Events from "../../Events.js"
import type { Balance, HistoryEntry, Nft, Transfer } from "../../seed/Wallets.js"
import { NATIVE_MINT, round, SOL_PRICE, ui } from "../../seed/Wallets.js"
import * as World from "../../World.js"

// -- the world's changes: what landed since start, newest first -------------------

export const solBalance = (lamports: bigint): Balance => {
  const balance = ui(lamports, 9)
  return {
    mint: NATIVE_MINT,
    balance,
    decimals: 9,
    tokenProgram: "spl-token",
    symbol: "SOL",
    name: "Solana",
    pricePerToken: SOL_PRICE,
    usdValue: round(balance * SOL_PRICE, 2),
    logoUri: "https://example.invalid/logo/sol.png"
  }
}

/** A token account the world made, as a balance (unpriced: no market knows a world mint). */
export const worldBalance = (world: World.World, t: World.TokenAccount): Balance => {
  const m = world.mint(t.mint)!
  return {
    mint: t.mint,
    balance: ui(t.amount, m.decimals),
    decimals: m.decimals,
    tokenProgram: "spl-token",
    symbol: m.symbol,
    name: m.name,
    pricePerToken: null,
    usdValue: null,
    logoUri: null
  }
}

export const worldNft = (m: World.Mint): Nft => ({
  mint: m.address,
  compressed: false,
  name: m.name,
  imageUri: null,
  collectionName: null,
  collectionAddress: m.collection
})

export const worldCompressedNft = (c: World.CompressedNft): Nft => ({
  mint: c.id,
  compressed: true,
  name: c.name,
  imageUri: null,
  collectionName: null,
  collectionAddress: c.collection
})

/** The SOL and token movements of a landed transaction to or from `wallet`. */
const worldTransfersOf = (world: World.World, wallet: string, tx: Events.LandedTransaction): Array<Transfer> => {
  if (tx.err !== null) return []
  const out: Array<Transfer> = []
  const base = { signature: tx.signature, timestamp: tx.blockTime }
  for (const n of tx.nativeTransfers) {
    if ((n.from === wallet) === (n.to === wallet)) continue
    out.push({
      ...base,
      direction: n.to === wallet ? "in" : "out",
      counterparty: n.to === wallet ? n.from : n.to,
      mint: NATIVE_MINT,
      symbol: "SOL",
      amount: ui(n.lamports, 9),
      amountRaw: n.lamports.toString(),
      decimals: 9
    })
  }
  for (const t of tx.tokenTransfers) {
    if ((t.from === wallet) === (t.to === wallet)) continue
    const into = t.to === wallet
    out.push({
      ...base,
      direction: into ? "in" : "out",
      // A mint comes from the mint's authority.
      counterparty: (into ? t.from : t.to) ?? world.mint(t.mint)?.authority ?? t.mint,
      mint: t.mint,
      symbol: world.mint(t.mint)?.symbol ?? null,
      amount: ui(t.amount, t.decimals),
      amountRaw: t.amount.toString(),
      decimals: t.decimals
    })
  }
  return out
}

export const worldTransfers = (world: World.World, wallet: string): ReadonlyArray<Transfer> =>
  world.transactionsOf(wallet).flatMap((tx) => worldTransfersOf(world, wallet, tx))

/** A landed transaction as the wallet's history shows it: the wallet's own balance changes. */
export const worldHistoryEntry = (
  wallet: string,
  tx: Events.LandedTransaction,
  tokenAccounts: string
): HistoryEntry => {
  const changes: Array<{ mint: string; amount: number; decimals: number }> = []
  for (const a of tx.accounts) {
    if (a.address === wallet && a.lamportsAfter !== a.lamportsBefore) {
      changes.push({ mint: "SOL", amount: ui(a.lamportsAfter - a.lamportsBefore, 9), decimals: 9 })
    }
    if (a.token !== undefined && a.token.owner === wallet && tokenAccounts !== "none") {
      const delta = a.token.amountAfter - a.token.amountBefore
      if (delta !== 0n || tokenAccounts === "all") {
        changes.push({ mint: a.token.mint, amount: ui(delta, a.token.decimals), decimals: a.token.decimals })
      }
    }
  }
  return {
    signature: tx.signature,
    timestamp: tx.blockTime,
    slot: tx.slot,
    fee: ui(tx.fee, 9),
    feePayer: tx.feePayer,
    error: tx.err === null ? null : JSON.stringify(tx.err),
    balanceChanges: changes
  }
}
