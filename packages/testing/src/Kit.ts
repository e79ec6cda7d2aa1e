/**
 * Real transactions built and signed with @solana/kit: the independent oracle the
 * SDK's wire reader, bundle checks, CLI encoder and emulator are tested against.
 * One general `build`, plus the shorthands the tests use: transfers only
 * (`buildTransfers`) and a memo with an optional tip (`buildMemoTip`).
 *
 * @example
 * const payer = await Kit.signer()
 * const tx = await Kit.build({ version: 0, payer, instructions: [Kit.memo("hi"), Kit.transfer(payer, Kit.TIP, 10_000n)] })
 * const id = Kit.bundleIdOf([tx.signature])
 * @since 0.1.0
 */
import * as kit from "@solana/kit"
import * as Dataset from "@solfx/emulator/Dataset"
import * as World from "@solfx/emulator/World"
import { createHash } from "node:crypto"

/** The System Program. */
export const SYSTEM = kit.address("11111111111111111111111111111111")
/** The first mainnet Jito tip account (Jito's published list). */
export const TIP = kit.address("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5")
/** The last mainnet Jito tip account (Jito's published list). */
export const TIP2 = kit.address("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT")
/** The SPL Memo program: a memo makes each transaction unique. */
export const MEMO = kit.address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
/** The Address Lookup Table program. */
export const LOOKUP_TABLE = kit.address("AddressLookupTab1e1111111111111111111111111")

/**
 * The blockhash of every built transaction unless `blockhash` is given: the one a seed-42
 * emulator (the default seed) issues at its first slot, valid for its first 150 blocks. Another
 * seed, or a later transaction, takes the emulator's own (`getLatestBlockhash`).
 */
export const BLOCKHASH = World.firstBlockhash(Dataset.make(42))

/** What an unsigned slot of a partially signed transaction reads as: 64 zero bytes in base58. */
const NO_SIGNATURE = "1111111111111111111111111111111111111111111111111111111111111111"

/** The data of a System transfer: instruction 2, then the lamports (u64 LE). */
export const transferData = (lamports: bigint): Uint8Array => {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, lamports, true)
  return data
}

/** A System transfer of `lamports` from `from` (who signs) to `to`. */
export const transfer = (from: kit.KeyPairSigner, to: kit.Address, lamports: bigint) => ({
  programAddress: SYSTEM,
  accounts: [
    { address: from.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: from },
    { address: to, role: kit.AccountRole.WRITABLE }
  ],
  data: transferData(lamports)
})

/** A memo instruction (no accounts). */
export const memo = (text: string) => ({
  programAddress: MEMO,
  accounts: [],
  data: new TextEncoder().encode(text)
})

/** An instruction `build` takes. */
export type Instruction = ReturnType<typeof transfer> | ReturnType<typeof memo>

/** A built transaction, in every form the tests compare. */
export interface Built {
  readonly base64: string
  readonly base58: string
  readonly bytes: Uint8Array
  /** Base58 signatures in the order kit put them (an unsigned slot is all `1`s). */
  readonly signatures: ReadonlyArray<string>
  /** The first signature, the fee payer's: kit's id of the transaction. */
  readonly signature: string
  /** kit's compiled message: header, staticAccounts, instructions, addressTableLookups. */
  readonly compiled: any
}

/** What to build. */
export interface BuildOptions {
  readonly version: "legacy" | 0 | 1
  readonly payer: kit.KeyPairSigner
  readonly instructions: ReadonlyArray<Instruction>
  /** v0 only: table address -> addresses it holds. */
  readonly lookupTables?: Record<string, ReadonlyArray<kit.Address>> | undefined
  /** Sign with these key pairs only (default: every signer). */
  readonly signWith?: ReadonlyArray<kit.KeyPairSigner> | undefined
  /** Default `BLOCKHASH`. */
  readonly blockhash?: string | undefined
}

/** A transaction of `instructions`, signed by every signer (or only `signWith`). */
export const build = async (options: BuildOptions): Promise<Built> => {
  // kit's message types are precise per version; this helper builds all three, so it stays untyped.
  const k: any = kit
  let message: any = k.createTransactionMessage({ version: options.version })
  message = k.setTransactionMessageFeePayerSigner(options.payer, message)
  message = k.setTransactionMessageLifetimeUsingBlockhash(
    { blockhash: kit.blockhash(options.blockhash ?? BLOCKHASH), lastValidBlockHeight: 100n },
    message
  )
  message = k.appendTransactionMessageInstructions(options.instructions, message)
  if (options.lookupTables) {
    message = kit.compressTransactionMessageUsingAddressLookupTables(message, options.lookupTables as any)
  }
  const tx: any = options.signWith
    ? await kit.partiallySignTransaction(options.signWith.map((s) => s.keyPair), kit.compileTransaction(message))
    : await kit.signTransactionMessageWithSigners(message)
  const base64 = kit.getBase64EncodedWireTransaction(tx)
  const bytes = Uint8Array.from(Buffer.from(base64, "base64"))
  const base58 = kit.getBase58Decoder().decode(bytes)
  const signatures = Object.values(tx.signatures as Record<string, Uint8Array | null>).map((s) =>
    s === null ? NO_SIGNATURE : kit.getBase58Decoder().decode(s)
  )
  return {
    base64,
    base58,
    bytes,
    signatures,
    signature: signatures[0]!,
    compiled: kit.compileTransactionMessage(message)
  }
}

/** A signed transaction of System transfers from `payer` (default v0). */
export const buildTransfers = (
  payer: kit.KeyPairSigner,
  transfers: ReadonlyArray<readonly [kit.Address, bigint]>,
  options: { readonly version?: "legacy" | 0 | undefined; readonly blockhash?: string | undefined } = {}
): Promise<Built> =>
  build({
    version: options.version ?? 0,
    payer,
    instructions: transfers.map(([to, lamports]) => transfer(payer, to, lamports)),
    blockhash: options.blockhash
  })

/** A signed legacy transaction: a memo `note`, then `tip` lamports to `TIP` (no tip when 0). */
export const buildMemoTip = (payer: kit.KeyPairSigner, note: string, tip: bigint): Promise<Built> =>
  build({
    version: "legacy",
    payer,
    instructions: tip > 0n ? [memo(note), transfer(payer, TIP, tip)] : [memo(note)]
  })

/** A fresh random key pair. */
export const signer = (): Promise<kit.KeyPairSigner> => kit.generateKeyPairSigner()

/** The key pair of a 32-byte seed (the same seed always gives the same address). */
export const signerFromSeed = (seed: Uint8Array): Promise<kit.KeyPairSigner> =>
  kit.createKeyPairSignerFromPrivateKeyBytes(seed)

/**
 * The bundle id as Jito's block engine computes it, computed here independently of
 * core: SHA-256 (hex) of the transactions' first signatures joined with ",".
 */
export const bundleIdOf = (signatures: ReadonlyArray<string>): string =>
  createHash("sha256").update(signatures.join(",")).digest("hex")
