/**
 * Real transactions built and signed with @solana/kit (a dev dependency), the
 * oracle the wire reader is checked against.
 */
import * as kit from "@solana/kit"

export const SYSTEM = kit.address("11111111111111111111111111111111")
export const TIP = kit.address("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5")
export const TIP2 = kit.address("3AVi9Tg9Uo68tJfuvoKvqKNWKkC5wPdSSdeBnizKZ6jT")
export const MEMO = kit.address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
export const LOOKUP_TABLE = kit.address("AddressLookupTab1e1111111111111111111111111")

const BLOCKHASH = { blockhash: kit.blockhash("EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N"), lastValidBlockHeight: 100n }

export const transferData = (lamports: bigint): Uint8Array => {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, lamports, true)
  return data
}

export const transfer = (from: kit.KeyPairSigner, to: kit.Address, lamports: bigint) => ({
  programAddress: SYSTEM,
  accounts: [
    { address: from.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: from },
    { address: to, role: kit.AccountRole.WRITABLE }
  ],
  data: transferData(lamports)
})

export const memo = (text: string) => ({
  programAddress: MEMO,
  accounts: [],
  data: new TextEncoder().encode(text)
})

export interface Built {
  readonly base64: string
  readonly base58: string
  readonly bytes: Uint8Array
  /** Base58 signatures in the order kit put them. */
  readonly signatures: ReadonlyArray<string>
  /** kit's compiled message: header, staticAccounts, instructions, addressTableLookups. */
  readonly compiled: any
}

export interface BuildOptions {
  readonly version: "legacy" | 0 | 1
  readonly payer: kit.KeyPairSigner
  readonly instructions: ReadonlyArray<ReturnType<typeof transfer> | ReturnType<typeof memo>>
  /** v0 only: table address -> addresses it holds. */
  readonly lookupTables?: Record<string, ReadonlyArray<kit.Address>>
  /** Sign with these key pairs only (default: every signer). */
  readonly signWith?: ReadonlyArray<kit.KeyPairSigner>
}

export const build = async (options: BuildOptions): Promise<Built> => {
  // kit's message types are precise per version; this helper builds all three, so it stays untyped.
  const k: any = kit
  let message: any = k.createTransactionMessage({ version: options.version })
  message = k.setTransactionMessageFeePayerSigner(options.payer, message)
  message = k.setTransactionMessageLifetimeUsingBlockhash(BLOCKHASH, message)
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
    s === null ? "1111111111111111111111111111111111111111111111111111111111111111" : kit.getBase58Decoder().decode(s)
  )
  return { base64, base58, bytes, signatures, compiled: kit.compileTransactionMessage(message) }
}

export const signer = () => kit.generateKeyPairSigner()
