/**
 * A landed transaction as getTransaction writes it (agave's `EncodedConfirmedTransactionWithStatusMeta`,
 * in its key order: slot, transaction, meta, version, blockTime), in the `json`, `jsonParsed`,
 * `base64` and `base58` encodings, and an account as the RPC writes one. A transaction the world
 * API made has no wire form: its message is rebuilt from what it moved (System transfers, token
 * transfers and mints), signed by nobody, as an indexer would show a transaction it parsed.
 *
 * @internal
 */

import * as Transaction from "@solfx/core/Transaction"
import type * as Bank from "../Bank.js"
import type * as Events from "../Events.js"
import * as Base58 from "./Base58.js"

const SYSTEM_PROGRAM = "11111111111111111111111111111111"
const TOKEN_PROGRAM = Transaction.TOKEN_PROGRAM as string

/** An amount of base units as the RPC's `uiTokenAmount`. */
export const uiTokenAmount = (amount: bigint, decimals: number) => {
  const digits = amount.toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  const text = fraction === "" ? whole : `${whole}.${fraction}`
  return { amount: amount.toString(), decimals, uiAmount: Number(text), uiAmountString: text }
}

/** An account as the RPC writes it (base64; jsonParsed falls back to base64, as for an unparsed account). */
export const encodeAccount = (state: Bank.RawAccount, _encoding: string) => ({
  lamports: state.lamports,
  data: [Buffer.from(state.data).toString("base64"), "base64"],
  owner: state.owner,
  executable: state.executable,
  rentEpoch: state.rentEpoch,
  space: state.data.length
})

/** Inner instructions as the RPC's `json` encoding writes them (data in base58). */
export const innerInstructions = (list: Events.Execution["innerInstructions"]) =>
  list.map((x) => ({
    index: x.index,
    instructions: x.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts,
      data: Base58.encode(ix.data),
      stackHeight: ix.stackHeight
    }))
  }))

interface Message {
  readonly version: "legacy" | 0
  readonly signatures: ReadonlyArray<string>
  readonly header: Transaction.MessageHeader
  readonly staticKeys: ReadonlyArray<string>
  readonly recentBlockhash: string
  readonly instructions: ReadonlyArray<{
    readonly programIdIndex: number
    readonly accounts: ReadonlyArray<number>
    readonly data: Uint8Array
  }>
  readonly lookups: ReadonlyArray<Transaction.AddressTableLookup>
  readonly bytes: Uint8Array
}

const u64le = (n: bigint) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setBigUint64(0, n, true)
  return b
}

/** The message of a world-API transaction, rebuilt from its movements (legacy, unsigned). */
const rebuilt = (tx: Events.LandedTransaction, blockhash: string): Message => {
  const signer = tx.feePayer
  const writable = tx.accounts.map((a) => a.address).filter((a) => a !== signer)
  const programs = tx.programs.filter((p) => p !== signer && !writable.includes(p))
  const keys = [signer, ...writable, ...programs]
  const at = (a: string) => keys.indexOf(a)
  const instructions: Array<Message["instructions"][number]> = []
  for (const n of tx.nativeTransfers) {
    if (at(n.from) < 0 || at(n.to) < 0 || at(SYSTEM_PROGRAM) < 0) continue
    const data = new Uint8Array(12)
    data[0] = 2
    data.set(u64le(n.lamports), 4)
    instructions.push({ programIdIndex: at(SYSTEM_PROGRAM), accounts: [at(n.from), at(n.to)], data })
  }
  for (const t of tx.tokenTransfers) {
    if (at(TOKEN_PROGRAM) < 0) continue
    const data = new Uint8Array(10)
    if (t.fromTokenAccount === null && t.toTokenAccount !== null && at(t.toTokenAccount) >= 0 && at(t.mint) >= 0) {
      // MintToChecked: [mint, account, authority]
      data[0] = 14
      data.set(u64le(t.amount), 1)
      data[9] = t.decimals
      instructions.push({ programIdIndex: at(TOKEN_PROGRAM), accounts: [at(t.mint), at(t.toTokenAccount), 0], data })
    } else if (t.fromTokenAccount !== null && t.toTokenAccount !== null) {
      // TransferChecked: [source, mint, destination, owner]
      if (at(t.fromTokenAccount) < 0 || at(t.toTokenAccount) < 0 || at(t.mint) < 0) continue
      data[0] = 12
      data.set(u64le(t.amount), 1)
      data[9] = t.decimals
      instructions.push({
        programIdIndex: at(TOKEN_PROGRAM),
        accounts: [at(t.fromTokenAccount), at(t.mint), at(t.toTokenAccount), 0],
        data
      })
    }
  }
  if (instructions.length === 0 && programs.length > 0) {
    instructions.push({ programIdIndex: at(programs[0]!), accounts: [], data: new Uint8Array(0) })
  }
  const header = { numRequiredSignatures: 1, numReadonlySigned: 0, numReadonlyUnsigned: programs.length }
  const bytes = serialize(tx.signature, header, keys, blockhash, instructions)
  return {
    version: "legacy",
    signatures: [tx.signature],
    header,
    staticKeys: keys,
    recentBlockhash: blockhash,
    instructions,
    lookups: [],
    bytes
  }
}

/** A legacy transaction's bytes: one signature, then the message. */
const serialize = (
  signature: string,
  header: Transaction.MessageHeader,
  keys: ReadonlyArray<string>,
  blockhash: string,
  instructions: Message["instructions"]
): Uint8Array => {
  const parts: Array<Uint8Array> = [
    Transaction.encodeCompactU16(1),
    Base58.decode(signature)!,
    Uint8Array.of(header.numRequiredSignatures, header.numReadonlySigned, header.numReadonlyUnsigned),
    Transaction.encodeCompactU16(keys.length),
    ...keys.map((k) => Base58.decode(k)!),
    Base58.decode(blockhash)!,
    Transaction.encodeCompactU16(instructions.length)
  ]
  for (const ix of instructions) {
    parts.push(
      Uint8Array.of(ix.programIdIndex),
      Transaction.encodeCompactU16(ix.accounts.length),
      Uint8Array.from(ix.accounts),
      Transaction.encodeCompactU16(ix.data.length),
      ix.data
    )
  }
  return Buffer.concat(parts)
}

const messageOf = (tx: Events.LandedTransaction, blockhash: string): Message => {
  const w = tx.wire
  if (w === undefined) return rebuilt(tx, blockhash)
  return {
    version: w.version,
    signatures: w.signatures,
    header: w.header,
    staticKeys: w.staticKeys,
    recentBlockhash: w.recentBlockhash,
    instructions: w.instructions.map((ix) => ({
      programIdIndex: ix.programIdIndex,
      accounts: ix.accounts.map((a) => a.index),
      data: ix.data
    })),
    lookups: w.lookups,
    bytes: w.bytes
  }
}

const headerJson = (h: Transaction.MessageHeader) => ({
  numReadonlySignedAccounts: h.numReadonlySigned,
  numReadonlyUnsignedAccounts: h.numReadonlyUnsigned,
  numRequiredSignatures: h.numRequiredSignatures
})

/**
 * The RPC's refusal of a v0 transaction asked without `maxSupportedTransactionVersion` (-32015).
 *
 * @internal
 */
export const UNSUPPORTED_VERSION =
  "Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: \"maxSupportedTransactionVersion\": 0"

/**
 * getTransaction's result for a landed transaction.
 *
 * @internal
 */
export const confirmed = (
  tx: Events.LandedTransaction,
  options: {
    readonly encoding: "json" | "jsonParsed" | "base64" | "base58"
    readonly withVersion: boolean
    readonly blockhashOf: (slot: number) => string
    readonly lamportsOf: (address: string) => bigint
  }
) => {
  const message = messageOf(tx, options.blockhashOf(tx.slot - 1))
  const loaded = tx.execution?.loaded ?? { writable: [], readonly: [] }
  const keys = [...message.staticKeys, ...loaded.writable, ...loaded.readonly]
  const byAddress = new Map(tx.accounts.map((a) => [a.address, a]))
  const preBalances = keys.map((k) => byAddress.get(k)?.lamportsBefore ?? options.lamportsOf(k))
  const postBalances = keys.map((k) => byAddress.get(k)?.lamportsAfter ?? options.lamportsOf(k))
  const tokenBalances = (when: "pre" | "post") =>
    keys.flatMap((k, accountIndex) => {
      const t = byAddress.get(k)?.token
      if (t === undefined || (when === "pre" && t.created === true) || (when === "post" && t.closed === true)) return []
      return [{
        accountIndex,
        mint: t.mint,
        owner: t.owner,
        programId: byAddress.get(k)!.program,
        uiTokenAmount: uiTokenAmount(when === "pre" ? t.amountBefore : t.amountAfter, t.decimals)
      }]
    })
  const parsed = options.encoding === "jsonParsed"
  const writableOf = (i: number) => {
    const { numReadonlySigned, numReadonlyUnsigned, numRequiredSignatures } = message.header
    const n = message.staticKeys.length
    return i < numRequiredSignatures
      ? i < numRequiredSignatures - numReadonlySigned
      : i < n
      ? i < n - numReadonlyUnsigned
      : i < n + loaded.writable.length
  }
  const instructionJson = (ix: Message["instructions"][number], stackHeight: number | null) =>
    parsed
      ? {
        accounts: ix.accounts.map((i) => keys[i]),
        data: Base58.encode(ix.data),
        programId: keys[ix.programIdIndex],
        stackHeight
      }
      : { accounts: ix.accounts, data: Base58.encode(ix.data), programIdIndex: ix.programIdIndex, stackHeight }
  const transaction = options.encoding === "base64"
    ? [Buffer.from(message.bytes).toString("base64"), "base64"]
    : options.encoding === "base58"
    ? [Base58.encode(message.bytes), "base58"]
    : {
      message: {
        accountKeys: parsed
          ? keys.map((pubkey, i) => ({
            pubkey,
            signer: i < message.header.numRequiredSignatures,
            source: i < message.staticKeys.length ? "transaction" : "lookupTable",
            writable: writableOf(i)
          }))
          : message.staticKeys,
        ...(parsed ? {} : { header: headerJson(message.header) }),
        instructions: message.instructions.map((ix) => instructionJson(ix, null)),
        recentBlockhash: message.recentBlockhash,
        ...(message.version === 0
          ? {
            addressTableLookups: message.lookups.map((l) => ({
              accountKey: l.table,
              readonlyIndexes: l.readonlyIndexes,
              writableIndexes: l.writableIndexes
            }))
          }
          : {})
      },
      signatures: message.signatures
    }
  const inner = tx.execution?.innerInstructions ?? []
  const meta = {
    computeUnitsConsumed: tx.execution?.unitsConsumed ?? 0n,
    err: tx.err,
    fee: tx.fee,
    innerInstructions: inner.map((x) => ({
      index: x.index,
      instructions: x.instructions.map((ix) => instructionJson(ix, ix.stackHeight))
    })),
    ...(parsed ? {} : { loadedAddresses: { readonly: loaded.readonly, writable: loaded.writable } }),
    logMessages: tx.logs,
    postBalances,
    postTokenBalances: tokenBalances("post"),
    preBalances,
    preTokenBalances: tokenBalances("pre"),
    ...(tx.execution?.returnData == null ? {} : {
      returnData: {
        programId: tx.execution.returnData.programId,
        data: [Buffer.from(tx.execution.returnData.data).toString("base64"), "base64"]
      }
    }),
    rewards: [],
    status: tx.err === null ? { Ok: null } : { Err: tx.err }
  }
  return {
    blockTime: tx.blockTime,
    meta,
    slot: tx.slot,
    transaction,
    ...(options.withVersion ? { version: message.version } : {})
  }
}
