/**
 * The bank: a real SVM (LiteSVM, the in-process SVM of the Solana ecosystem) that executes every
 * signed transaction the emulator receives, with its default programs (System, SPL Token,
 * Token-2022, Associated Token Account, Memo, Compute Budget, Address Lookup Table) and the
 * programs given with `programs`. One bank per emulator instance, held by its world.
 *
 * The seeded world is its account source, read on first use: before a transaction runs, every
 * account it names (static keys and lookup-table entries) that the bank has not seen is written
 * into it from `source` (the ledger's current state of that address). After a transaction the
 * bank's post-state is the truth; the world writes it back into the ledger. When the world API
 * changes an account outside the bank, the world calls `forget`, and the account is read again.
 *
 * One clock: the bank's Clock sysvar is the world's slot and block time, set before each run.
 * Blockhashes: one per slot, derived from the seed and the slot (so a restored or restarted
 * world issues the same ones), valid for 150 blocks after the slot that issued them, as the
 * cluster's are. LiteSVM accepts only its single latest blockhash, so its own check is off and
 * the bank checks the age here (`BlockhashNotFound` as the runtime fails it).
 *
 * Not seen by LiteSVM: the signature history (the ledger keeps it, so a bundle that did not land
 * leaves no trace; `AlreadyProcessed` comes from the ledger).
 *
 * Snapshots: the bank keeps no state the ledger does not hold. A restore makes it read every
 * account again from the restored ledger (`forgetAll`), its blockhash window is rebuilt when the
 * clock goes back, and the signatures are the ledger's, restored with it.
 *
 * @example
 * const bank = Bank.make({ dataset, slot: world.slot, blockTimeOf: world.blockTimeOf, baseSlot, source })
 * const run = bank.execute(parsed) // the SVM's result, pre- and post-state of every account named
 * @since 0.1.0
 */
import * as Transaction from "@solfx/core/Transaction"
import { Account, Clock, EpochSchedule, FailedTransactionMetadata, LiteSvm } from "litesvm/dist/internal.js"
import type { Dataset } from "./Dataset.js"
import * as Base58 from "./internal/Base58.js"
import * as TransactionError from "./internal/TransactionError.js"

/**
 * An account's state: what the RPC's `getAccountInfo` shows.
 *
 * @since 0.1.0
 * @category models
 */
export interface RawAccount {
  readonly lamports: bigint
  /** The owning program, base58. */
  readonly owner: string
  readonly data: Uint8Array
  readonly executable: boolean
  readonly rentEpoch: bigint
}

/**
 * A program to load into the bank, as `solana-test-validator --bpf-program` does: its id and
 * its ELF (`.so`) as a path or as bytes.
 *
 * @since 0.1.0
 * @category models
 */
export interface Program {
  readonly programId: string
  readonly path?: string | undefined
  readonly bytes?: Uint8Array | undefined
}

/**
 * What the bank needs from its world.
 *
 * @since 0.1.0
 * @category models
 */
export interface Options {
  readonly dataset: Dataset
  /** The world's slot now. */
  readonly slot: () => number
  /** Block time (seconds) of a slot. */
  readonly blockTimeOf: (slot: number) => number
  /** The slot the world started at. */
  readonly baseSlot: number
  /** Block height of a slot: the cluster's clock (`Chain`) says. */
  readonly blockHeight: (slot: number) => number
  /**
   * The ledger's current state of an address, undefined when it holds nothing. `fresh`: the
   * address is known to be none of the seed's token accounts or NFT mints (`Accounts.get`).
   */
  readonly source: (address: string, fresh: boolean) => RawAccount | undefined
  readonly programs?: ReadonlyArray<Program> | undefined
}

/**
 * An instruction a program invoked (CPI), as the RPC lists it: indexes into the transaction's
 * account keys.
 *
 * @since 0.1.0
 * @category models
 */
export interface InnerInstruction {
  readonly programIdIndex: number
  readonly accounts: ReadonlyArray<number>
  readonly data: Uint8Array
  readonly stackHeight: number
}

/**
 * One run of a transaction in the bank.
 *
 * @since 0.1.0
 * @category models
 */
export interface Executed {
  readonly signature: string
  /** The runtime's error as the RPC writes it, null on success. */
  readonly err: TransactionError.TransactionError | null
  /**
   * Whether it went into a block: it succeeded, or it failed in execution and paid its fee. A
   * transaction refused before execution (blockhash, signatures, fee payer) did not.
   */
  readonly landed: boolean
  readonly logs: ReadonlyArray<string>
  readonly unitsConsumed: bigint
  /** Lamports the fee payer paid (0 when not landed). */
  readonly fee: bigint
  /** Inner instructions of each top-level instruction that had any. */
  readonly innerInstructions: ReadonlyArray<
    { readonly index: number; readonly instructions: ReadonlyArray<InnerInstruction> }
  >
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null
  /** Every account key: the static keys, then lookup-table entries (writable, then read-only). */
  readonly keys: ReadonlyArray<string>
  /** Lookup-table entries the transaction loaded. */
  readonly loaded: { readonly writable: ReadonlyArray<string>; readonly readonly: ReadonlyArray<string> }
  readonly writable: ReadonlyArray<boolean>
  readonly signer: ReadonlyArray<boolean>
  /** State of each key before the run (undefined: no account). */
  readonly pre: ReadonlyArray<RawAccount | undefined>
  /** State of each key after the run; equal to `pre` when it did not land. */
  readonly post: ReadonlyArray<RawAccount | undefined>
  /** The slot it ran at. */
  readonly slot: number
}

/**
 * A blockhash and the last block height at which a transaction using it can land.
 *
 * @since 0.1.0
 * @category models
 */
export interface Blockhash {
  readonly blockhash: string
  readonly lastValidBlockHeight: number
  /** The slot that issued it. */
  readonly slot: number
}

/**
 * The bank of one emulator instance.
 *
 * @since 0.1.0
 * @category models
 */
export interface Bank {
  /** The blockhash of a slot (default: the current one) and its last valid block height. */
  readonly blockhash: (slot?: number) => Blockhash
  /** Whether a blockhash can still land a transaction now. */
  readonly isBlockhashValid: (blockhash: string) => boolean
  /** Block height of a slot (default: the current one), as the cluster's clock gives it. */
  readonly blockHeight: (slot?: number) => number
  /** Runs a transaction and keeps its changes when it lands. */
  readonly execute: (tx: Transaction.ParsedTransaction) => Executed
  /**
   * Runs a transaction and keeps nothing: `sigVerify` checks signatures (default false, as the
   * RPC), `replaceRecentBlockhash` runs it with the current blockhash.
   */
  readonly simulate: (
    tx: Transaction.ParsedTransaction,
    options?: { readonly sigVerify?: boolean | undefined; readonly replaceRecentBlockhash?: boolean | undefined }
  ) => Executed & { readonly replacementBlockhash?: Blockhash | undefined }
  /** An account as the bank holds it (read from the source on first use). */
  readonly account: (address: string) => RawAccount | undefined
  /** Writes accounts back as they were (a bundle that did not land). */
  readonly restore: (accounts: ReadonlyMap<string, RawAccount | undefined>) => void
  /** The ledger changed this account outside the bank: read it again on next use. */
  readonly forget: (address: string) => void
  /** Forgets everything read from the source (a restored ledger); programs stay. */
  readonly forgetAll: () => void
  /** Loads a program (an ELF) under an id. */
  readonly addProgram: (program: Program) => void
  readonly minimumBalanceForRentExemption: (dataLength: number) => bigint
  /** Whether a program can be invoked: an executable account the bank holds. */
  readonly isProgram: (address: string) => boolean
}

/**
 * Blocks a blockhash stays valid for (the cluster's MAX_PROCESSING_AGE).
 *
 * @since 0.1.0
 * @category constants
 */
export const BLOCKHASH_VALIDITY = 150

/**
 * Slots an epoch, as mainnet's schedule (no warm-up).
 *
 * @since 0.1.0
 * @category constants
 */
export const SLOTS_PER_EPOCH = 432_000

/**
 * Lamports per signature, the cluster's base fee.
 *
 * @since 0.1.0
 * @category constants
 */
export const LAMPORTS_PER_SIGNATURE = 5_000n

const SYSTEM_PROGRAM = "11111111111111111111111111111111"
const ATA_PROGRAM = "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL"
const U64_MAX = 2n ** 64n - 1n
/** A lookup table's header: its entries follow, 32 bytes each. */
const LOOKUP_TABLE_HEADER = 56

const keyBytes = (address: string): Uint8Array => {
  const bytes = Base58.decode(address)
  if (bytes === undefined || bytes.length !== 32) throw new Error(`bank: not a 32-byte address: ${address}`)
  return bytes
}

const toRaw = (a: Account | null): RawAccount | undefined =>
  a === null ? undefined : {
    lamports: a.lamports(),
    owner: Base58.encode(a.owner()),
    data: a.data(),
    executable: a.executable(),
    rentEpoch: a.rentEpoch()
  }

const toAccount = (a: RawAccount): Account =>
  new Account(a.lamports, a.data, keyBytes(a.owner), a.executable, a.rentEpoch)

/** The fee the SVM charged, from its metadata's text (the binding has no accessor for it). */
const feeOf = (meta: { toString(): string }, fallback: bigint): bigint => {
  const m = /fee: (\d+) \}/.exec(meta.toString())
  return m === null ? fallback : BigInt(m[1]!)
}

/**
 * The blockhash the bank issues at a slot: derived from the seed and the slot, so a restarted or
 * restored world issues the same ones.
 *
 * @since 0.1.0
 * @category blockhashes
 */
export const blockhashAt = (dataset: Dataset, slot: number): string =>
  Base58.encode(dataset.bytes(`bank:blockhash:${slot}`))

/** Offset of the recent blockhash in a transaction's bytes. */
const blockhashOffset = (tx: Transaction.ParsedTransaction): number => {
  const sigs = Transaction.encodeCompactU16(tx.signatures.length).length + 64 * tx.signatures.length
  const keys = Transaction.encodeCompactU16(tx.staticKeys.length).length + 32 * tx.staticKeys.length
  return sigs + (tx.version === 0 ? 1 : 0) + 3 + keys
}

/**
 * Makes the bank of an instance: a LiteSVM with its default programs, the native mints and the
 * given programs, its Clock at the world's slot.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: Options): Bank => {
  const { baseSlot, blockTimeOf, dataset, slot, source } = options
  const svm = new LiteSvm()
  svm.withNativeMints()
  // The ledger keeps the signatures; the bank checks blockhash age itself (see the module doc).
  svm.setTransactionHistory(0n)
  svm.setBlockhashCheck(false)
  svm.setEpochSchedule(new EpochSchedule(BigInt(SLOTS_PER_EPOCH), BigInt(SLOTS_PER_EPOCH), false, 0n, 0n))
  const blockHeight = (s: number = slot()) => options.blockHeight(s)

  // -- blockhashes ----------------------------------------------------------------------------

  const hashOf = (s: number) => blockhashAt(dataset, s)
  /** Blockhashes of the last BLOCKHASH_VALIDITY + 1 slots, by hash. */
  const recent = new Map<string, number>()
  let recentUpTo = baseSlot - 1
  const refresh = (now: number) => {
    // The clock went back (a snapshot restored): the window is rebuilt from the slot it is at.
    if (now < recentUpTo) {
      recent.clear()
      recentUpTo = baseSlot - 1
    }
    if (now === recentUpTo) return
    const from = Math.max(recentUpTo + 1, now - BLOCKHASH_VALIDITY)
    for (let s = from; s <= now; s++) recent.set(hashOf(s), s)
    recentUpTo = now
    for (const [h, s] of recent) if (s < now - BLOCKHASH_VALIDITY) recent.delete(h)
  }
  const blockhash = (s: number = slot()): Blockhash => ({
    blockhash: hashOf(s),
    lastValidBlockHeight: blockHeight(s) + BLOCKHASH_VALIDITY,
    slot: s
  })
  const isBlockhashValid = (hash: string) => {
    const now = slot()
    refresh(now)
    const s = recent.get(hash)
    return s !== undefined && s <= now && now - s <= BLOCKHASH_VALIDITY
  }

  // -- clock ----------------------------------------------------------------------------------

  let clockSlot = -1
  const syncClock = () => {
    const s = slot()
    if (s === clockSlot) return
    const epoch = Math.floor(s / SLOTS_PER_EPOCH)
    svm.setClock(
      new Clock(
        BigInt(s),
        BigInt(blockTimeOf(epoch * SLOTS_PER_EPOCH)),
        BigInt(epoch),
        BigInt(epoch + 1),
        BigInt(blockTimeOf(s))
      )
    )
    clockSlot = s
  }

  // -- accounts -------------------------------------------------------------------------------

  /** Addresses the bank has read from the source (or found in itself: programs, sysvars). */
  const seen = new Set<string>()
  /** Programs loaded with `programs` / `addProgram`, and what the bank held from the start: never forgotten. */
  const programs = new Set<string>()

  /** Reads an account from the source on first use; true when it was read as `fresh`. */
  const load = (address: string, fresh = false): boolean => {
    if (seen.has(address)) return false
    seen.add(address)
    const bytes = keyBytes(address)
    // What the bank holds from the start (programs, sysvars, native mints) it keeps, for good.
    if (svm.getAccount(bytes) !== null) return void programs.add(address), false
    const account = source(address, fresh)
    if (account !== undefined && (account.lamports > 0n || account.data.length > 0)) {
      svm.setAccount(bytes, toAccount(account))
    }
    return fresh
  }

  /**
   * The keys of a transaction that cannot be seeded token accounts or NFT mints: its signers when
   * their signatures are verified (nobody holds a seeded address's key), and the account each
   * associated-token-account instruction creates (a PDA of the ATA program; a seeded address is
   * a hash of a label, never one). Read as such, a kit app's first transaction does not wait for
   * the index of every seeded token account (about 150,000 addresses, seconds on first use).
   */
  const freshKeys = (tx: Transaction.ParsedTransaction, keys: ReadonlyArray<string>, sigVerify: boolean) => {
    const fresh = new Set<string>(sigVerify ? keys.slice(0, tx.header.numRequiredSignatures) : [])
    for (const ix of tx.instructions) {
      const ata = ix.accounts[1]
      if (keys[ix.programIdIndex] === ATA_PROGRAM && ata !== undefined) fresh.add(keys[ata.index]!)
    }
    return fresh
  }

  /** Forgets what `load` read as fresh in a run that did not land: the next use reads it again, whole. */
  const unload = (addresses: ReadonlyArray<string>) => {
    for (const address of addresses) {
      seen.delete(address)
      svm.setAccount(keyBytes(address), new Account(0n, new Uint8Array(0), keyBytes(SYSTEM_PROGRAM), false, 0n))
    }
  }

  const account = (address: string) => {
    load(address)
    return toRaw(svm.getAccount(keyBytes(address)))
  }

  const write = (address: string, a: RawAccount | undefined) => {
    // An account of no lamports is no account: the SVM drops it.
    svm.setAccount(
      keyBytes(address),
      a === undefined ? new Account(0n, new Uint8Array(0), keyBytes(SYSTEM_PROGRAM), false, 0n) : toAccount(a)
    )
  }

  /** Every key of a transaction: static, then its lookup tables' writable and read-only entries. */
  const keysOf = (tx: Transaction.ParsedTransaction) => {
    const writable: Array<string> = []
    const readonly: Array<string> = []
    for (const lookup of tx.lookups) {
      load(lookup.table)
      const table = svm.getAccount(keyBytes(lookup.table))
      const data = table?.data()
      const entry = (i: number) => {
        const at = LOOKUP_TABLE_HEADER + 32 * i
        return data !== undefined && data.length >= at + 32 ? Base58.encode(data.subarray(at, at + 32)) : undefined
      }
      for (const i of lookup.writableIndexes) {
        const a = entry(i)
        if (a !== undefined) writable.push(a)
      }
      for (const i of lookup.readonlyIndexes) {
        const a = entry(i)
        if (a !== undefined) readonly.push(a)
      }
    }
    const { numReadonlySigned, numReadonlyUnsigned, numRequiredSignatures } = tx.header
    const n = tx.staticKeys.length
    const keys = [...tx.staticKeys as ReadonlyArray<string>, ...writable, ...readonly]
    const isWritable = keys.map((_, k) =>
      k < numRequiredSignatures
        ? k < numRequiredSignatures - numReadonlySigned
        : k < n
        ? k < n - numReadonlyUnsigned
        : k < n + writable.length
    )
    const isSigner = keys.map((_, k) => k < numRequiredSignatures)
    return { keys, writableFlags: isWritable, signerFlags: isSigner, loaded: { writable, readonly } }
  }

  /** The run's record, from the SVM's answer. */
  const record = (
    tx: Transaction.ParsedTransaction,
    s: number,
    named: ReturnType<typeof keysOf>,
    pre: ReadonlyArray<RawAccount | undefined>,
    result: FailedTransactionMetadata | {
      meta?: () => unknown
      logs?: () => Array<string>
      postAccounts?: () => unknown
    },
    post: (landed: boolean) => ReadonlyArray<RawAccount | undefined>
  ): Executed => {
    const failed = result instanceof FailedTransactionMetadata
    const meta = (failed ? result.meta() : "meta" in result && typeof result.meta === "function"
      ? result.meta()
      : result) as import("litesvm/dist/internal.js").TransactionMetadata
    const err = failed ? TransactionError.fromLiteSvm(result.err()) : null
    const after = post(true)
    // Landed: it succeeded, or its fee payer paid (a failure in execution, not before it).
    const payerPre = pre[0]?.lamports ?? 0n
    const payerPost = after[0]?.lamports ?? 0n
    const landed = err === null || payerPost < payerPre
    const base = LAMPORTS_PER_SIGNATURE * BigInt(tx.header.numRequiredSignatures)
    const ret = meta.returnData()
    const retData = ret.data()
    return {
      signature: tx.signatures[0]!,
      err,
      landed,
      logs: meta.logs(),
      unitsConsumed: meta.computeUnitsConsumed(),
      fee: landed ? feeOf(meta, base) : 0n,
      innerInstructions: meta.innerInstructions().flatMap((list, index) =>
        list.length === 0 ? [] : [{
          index,
          instructions: list.map((inner) => {
            const ix = inner.instruction()
            return {
              programIdIndex: ix.programIdIndex(),
              accounts: [...ix.accounts()],
              data: ix.data(),
              stackHeight: inner.stackHeight()
            }
          })
        }]
      ),
      returnData: retData.length === 0 ? null : { programId: Base58.encode(ret.programId()), data: retData },
      keys: named.keys,
      loaded: named.loaded,
      writable: named.writableFlags,
      signer: named.signerFlags,
      pre,
      post: landed ? after : pre,
      slot: s
    }
  }

  const run = (
    tx: Transaction.ParsedTransaction,
    mode: "execute" | "simulate",
    options: { readonly sigVerify?: boolean | undefined; readonly replaceRecentBlockhash?: boolean | undefined } = {}
  ): Executed & { readonly replacementBlockhash?: Blockhash | undefined } => {
    const readFresh: Array<string> = []
    const executed = runOnce(tx, mode, options, readFresh)
    if (!executed.landed) unload(readFresh)
    return executed
  }

  const runOnce = (
    tx: Transaction.ParsedTransaction,
    mode: "execute" | "simulate",
    options: { readonly sigVerify?: boolean | undefined; readonly replaceRecentBlockhash?: boolean | undefined },
    readFresh: Array<string>
  ): Executed & { readonly replacementBlockhash?: Blockhash | undefined } => {
    syncClock()
    const s = slot()
    const named = keysOf(tx)
    const sigVerify = mode === "execute" || options.sigVerify === true
    const fresh = freshKeys(tx, named.keys, sigVerify)
    for (const k of named.keys) if (load(k, fresh.has(k))) readFresh.push(k)
    const pre = named.keys.map((k) => toRaw(svm.getAccount(keyBytes(k))))
    const replacement = options.replaceRecentBlockhash === true ? blockhash(s) : undefined
    const refused = (err: TransactionError.TransactionError): Executed => ({
      signature: tx.signatures[0]!,
      err,
      landed: false,
      logs: [],
      unitsConsumed: 0n,
      fee: 0n,
      innerInstructions: [],
      returnData: null,
      keys: named.keys,
      loaded: named.loaded,
      writable: named.writableFlags,
      signer: named.signerFlags,
      pre,
      post: pre,
      slot: s
    })
    if (replacement === undefined && !isBlockhashValid(tx.recentBlockhash)) return refused("BlockhashNotFound")
    // A validator refuses a program it does not have before execution (LiteSVM would say
    // InvalidProgramForExecution, for an account it makes up).
    for (const ix of tx.instructions) {
      const p = pre[ix.programIdIndex]
      if (p === undefined) return refused("ProgramAccountNotFound")
    }
    let bytes = tx.bytes
    if (replacement !== undefined) {
      bytes = new Uint8Array(tx.bytes)
      bytes.set(keyBytes(replacement.blockhash), blockhashOffset(tx))
    }
    svm.setSigverify(sigVerify && replacement === undefined)
    const legacy = tx.version === "legacy"
    if (mode === "simulate") {
      const result = legacy ? svm.simulateLegacyTransaction(bytes) : svm.simulateVersionedTransaction(bytes)
      const executed = record(tx, s, named, pre, result, () => {
        if (result instanceof FailedTransactionMetadata) return pre
        const byKey = new Map(result.postAccounts().map((p) => [Base58.encode(p.address), toRaw(p.account())]))
        return named.keys.map((k, i) => byKey.has(k) ? byKey.get(k) : pre[i])
      })
      return replacement === undefined ? executed : { ...executed, replacementBlockhash: replacement }
    }
    const result = legacy ? svm.sendLegacyTransaction(bytes) : svm.sendVersionedTransaction(bytes)
    return record(
      tx,
      s,
      named,
      pre,
      result,
      () => named.keys.map((k, i) => named.writableFlags[i] ? toRaw(svm.getAccount(keyBytes(k))) : pre[i])
    )
  }

  const addProgram = (program: Program) => {
    const id = keyBytes(program.programId)
    try {
      if (program.bytes !== undefined) svm.addProgram(id, program.bytes)
      else if (program.path !== undefined) svm.addProgramFromFile(id, program.path)
      else throw new Error("needs a path or bytes")
    } catch (e) {
      // LiteSVM's words ("Failed to add program: …"), with the program they are about.
      throw new Error(`bank: program ${program.programId}: ${e instanceof Error ? e.message : String(e)}`)
    }
    programs.add(program.programId)
    seen.add(program.programId)
  }
  for (const p of options.programs ?? []) addProgram(p)

  return {
    blockhash,
    isBlockhashValid,
    blockHeight,
    execute: (tx) => run(tx, "execute"),
    simulate: (tx, o) => run(tx, "simulate", o),
    account,
    restore: (accounts) => {
      for (const [address, a] of accounts) write(address, a)
    },
    forget: (address) => {
      if (programs.has(address) || !seen.has(address)) return
      seen.delete(address)
      // Dropped from the SVM too, so that it is read again from the source.
      write(address, undefined)
    },
    forgetAll: () => {
      for (const address of seen) if (!programs.has(address)) write(address, undefined)
      seen.clear()
      for (const p of programs) seen.add(p)
    },
    addProgram,
    minimumBalanceForRentExemption: (n) => svm.minimumBalanceForRentExemption(BigInt(n)),
    isProgram: (address) => account(address)?.executable === true
  }
}

/**
 * `rentEpoch` of a rent-exempt account, as the RPC reports it (u64::MAX).
 *
 * @since 0.1.0
 * @category constants
 */
export const RENT_EXEMPT_EPOCH = U64_MAX
