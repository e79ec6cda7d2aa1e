/**
 * Transactions built and signed by @solana/kit (a dev dependency): the oracle for
 * what `solfx bundle inspect` and the CLI's own wire encoder must agree with.
 */
import * as kit from "@solana/kit"
import { sha256 } from "@noble/hashes/sha2.js"

export const SYSTEM = kit.address("11111111111111111111111111111111")
/** The first Jito tip account of REAL-WORLD.md §8. */
export const TIP = kit.address("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5")

const transferData = (lamports: bigint): Uint8Array => {
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

export interface Built {
  readonly base64: string
  readonly base58: string
  /** kit's id of the transaction: the fee payer's signature. */
  readonly signature: string
}

/** A signed transaction of System transfers, legacy or v0. */
export const build = async (
  payer: kit.KeyPairSigner,
  transfers: ReadonlyArray<readonly [kit.Address, bigint]>,
  options: { readonly version?: "legacy" | 0; readonly blockhash?: string } = {}
): Promise<Built> => {
  const k: any = kit // kit's message types are precise per version; this helper builds both
  let message: any = k.createTransactionMessage({ version: options.version ?? 0 })
  message = k.setTransactionMessageFeePayerSigner(payer, message)
  message = k.setTransactionMessageLifetimeUsingBlockhash(
    { blockhash: kit.blockhash(options.blockhash ?? "EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N"), lastValidBlockHeight: 100n },
    message
  )
  message = k.appendTransactionMessageInstructions(transfers.map(([to, lamports]) => transfer(payer, to, lamports)), message)
  const tx = await kit.signTransactionMessageWithSigners(message)
  const base64 = kit.getBase64EncodedWireTransaction(tx as any)
  const base58 = kit.getBase58Decoder().decode(Buffer.from(base64, "base64"))
  return { base64, base58, signature: kit.getSignatureFromTransaction(tx as any) }
}

export const signer = () => kit.generateKeyPairSigner()
export const signerFromSeed = (seed: Uint8Array) => kit.createKeyPairSignerFromPrivateKeyBytes(seed)

/** The bundle id as REAL-WORLD.md §13 defines it, computed here independently of core. */
export const expectedBundleId = (signatures: ReadonlyArray<string>): string =>
  Buffer.from(sha256(new TextEncoder().encode(signatures.join(",")))).toString("hex")
