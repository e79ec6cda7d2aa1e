/**
 * What an executed transaction did, read from the bank's run: every account's lamports and
 * token balance before and after, the SOL and token movements of its instructions (top-level and
 * inner: System transfers and account creations, SPL Token and Token-2022 transfers, mints and
 * burns), the programs it called and the type the enhanced APIs give it. The world records these
 * as a ledger entry (`Events.LandedTransaction`).
 *
 * @internal
 */
import type * as Transaction from "@solfx/core/Transaction"
import type * as Bank from "../Bank.js"
import type * as Events from "../Events.js"
import * as AccountLayout from "./AccountLayout.js"

/** A token account's fields at a moment, when the account is one. */
export const tokenAccountOf = (a: Bank.RawAccount | undefined): AccountLayout.TokenAccount | undefined =>
  a === undefined || AccountLayout.tokenProgramOf(a.owner) === undefined
    ? undefined
    : AccountLayout.decodeTokenAccount(a.data, a.owner)

/** A mint's fields at a moment, when the account is one. */
export const mintOf = (a: Bank.RawAccount | undefined): AccountLayout.Mint | undefined =>
  a === undefined || AccountLayout.tokenProgramOf(a.owner) === undefined
    ? undefined
    : AccountLayout.decodeMint(a.data, a.owner)

/** A compiled instruction: top-level or inner, its program and accounts as indexes into the keys. */
interface Compiled {
  readonly programIdIndex: number
  readonly accounts: ReadonlyArray<number>
  readonly data: Uint8Array
}

const u64 = (data: Uint8Array, at: number): bigint | undefined =>
  data.length >= at + 8 ? new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(at, true) : undefined

const u32 = (data: Uint8Array): number | undefined =>
  data.length >= 4 ? new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true) : undefined

/** Top-level instructions and, after each, the inner instructions it made, in execution order. */
const instructionsOf = (
  wire: Transaction.ParsedTransaction,
  run: Bank.Executed
): ReadonlyArray<Compiled> => {
  const inner = new Map(run.innerInstructions.map((x) => [x.index, x.instructions]))
  return wire.instructions.flatMap((ix, i) => [
    {
      programIdIndex: ix.programIdIndex,
      // Both kinds of reference carry their index in the message's account list.
      accounts: ix.accounts.map((a) => a.index),
      data: ix.data
    },
    ...(inner.get(i) ?? [])
  ])
}

/**
 * The movements and the changes of a landed run.
 *
 * @internal
 */
export const describe = (
  wire: Transaction.ParsedTransaction,
  run: Bank.Executed,
  decimalsOf: (mint: string) => number
): {
  readonly accounts: ReadonlyArray<Events.AccountChange>
  readonly nativeTransfers: ReadonlyArray<Events.NativeTransfer>
  readonly tokenTransfers: ReadonlyArray<Events.TokenTransfer>
  readonly programs: ReadonlyArray<string>
  readonly type: Events.TransactionType
} => {
  const { keys } = run
  const tokenAt = (i: number) => tokenAccountOf(run.post[i]) ?? tokenAccountOf(run.pre[i])
  const mintDecimals = (mint: string) => {
    const k = keys.indexOf(mint)
    const m = k < 0 ? undefined : mintOf(run.post[k]) ?? mintOf(run.pre[k])
    return m?.decimals ?? decimalsOf(mint)
  }
  const accounts = keys.map((address, i): Events.AccountChange => {
    const pre = run.pre[i]
    const post = run.post[i]
    const before = tokenAccountOf(pre)
    const after = tokenAccountOf(post)
    const token = after ?? before
    return {
      address,
      program: (post ?? pre)?.owner ?? AccountLayout.SYSTEM_PROGRAM,
      lamportsBefore: pre?.lamports ?? 0n,
      lamportsAfter: post?.lamports ?? 0n,
      writable: run.writable[i] ?? false,
      signer: run.signer[i] ?? false,
      ...(token === undefined ? {} : {
        token: {
          mint: token.mint,
          owner: token.owner,
          decimals: mintDecimals(token.mint),
          amountBefore: before?.amount ?? 0n,
          amountAfter: after?.amount ?? 0n,
          ...(before === undefined ? { created: true } : {}),
          ...(after === undefined ? { closed: true } : {})
        }
      }),
      after: post
    }
  })
  const nativeTransfers: Array<Events.NativeTransfer> = []
  const tokenTransfers: Array<Events.TokenTransfer> = []
  const programs: Array<string> = []
  let minted = false
  // A failed transaction moved nothing but its fee.
  const list = instructionsOf(wire, run)
  for (const ix of list) {
    const program = keys[ix.programIdIndex]
    if (program === undefined) continue
    if (!programs.includes(program)) programs.push(program)
    if (run.err !== null) continue
    const accountsOf = (ix as Compiled).accounts
    const at = (n: number) => keys[accountsOf[n] ?? -1]
    if (program === AccountLayout.SYSTEM_PROGRAM) {
      const tag = u32(ix.data)
      // Transfer (2), CreateAccount (0): [from, to], lamports after the tag; TransferWithSeed (11): [from, base, to].
      const lamports = u64(ix.data, 4)
      const from = at(0)
      const to = tag === 11 ? at(2) : at(1)
      if ((tag === 0 || tag === 2 || tag === 11) && lamports !== undefined && lamports > 0n && from && to) {
        nativeTransfers.push({ from, to, lamports })
      }
      continue
    }
    if (AccountLayout.tokenProgramOf(program) === undefined) continue
    const tag = ix.data[0]
    const amount = u64(ix.data, 1)
    if (amount === undefined) continue
    const holder = (k: string | undefined) => k === undefined ? undefined : tokenAt(keys.indexOf(k))
    if (tag === 3 || tag === 12) {
      const source = at(0)
      const destination = tag === 3 ? at(1) : at(2)
      const src = holder(source)
      const dst = holder(destination)
      if (src === undefined || dst === undefined) continue
      tokenTransfers.push({
        from: src.owner,
        to: dst.owner,
        fromTokenAccount: source!,
        toTokenAccount: destination!,
        mint: src.mint,
        amount,
        decimals: mintDecimals(src.mint)
      })
    } else if (tag === 7 || tag === 14) {
      const mint = at(0)
      const destination = at(1)
      const dst = holder(destination)
      if (mint === undefined || dst === undefined) continue
      minted = true
      tokenTransfers.push({
        from: null,
        to: dst.owner,
        fromTokenAccount: null,
        toTokenAccount: destination!,
        mint,
        amount,
        decimals: mintDecimals(mint)
      })
    } else if (tag === 8 || tag === 15) {
      const source = at(0)
      const src = holder(source)
      if (src === undefined) continue
      tokenTransfers.push({
        from: src.owner,
        to: null,
        fromTokenAccount: source!,
        toTokenAccount: null,
        mint: src.mint,
        amount,
        decimals: mintDecimals(src.mint)
      })
    }
  }
  const type: Events.TransactionType = minted
    ? "TOKEN_MINT"
    : nativeTransfers.length > 0 || tokenTransfers.length > 0
    ? "TRANSFER"
    : "UNKNOWN"
  return { accounts, nativeTransfers, tokenTransfers, programs, type }
}
