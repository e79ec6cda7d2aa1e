/**
 * Real signed transactions built with @solana/kit (a dev dependency): a memo
 * that makes each one unique, and optionally a tip to a Jito tip account.
 * (A minimal copy of the packages' own test helpers: test folders are not shared.)
 */
import * as kit from "@solana/kit"

const SYSTEM = kit.address("11111111111111111111111111111111")
const MEMO = kit.address("MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr")
/** The first mainnet Jito tip account. */
export const TIP = kit.address("96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5")

const BLOCKHASH = { blockhash: kit.blockhash("EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N"), lastValidBlockHeight: 100n }

const transfer = (from: kit.KeyPairSigner, to: kit.Address, lamports: bigint) => {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, 2, true)
  view.setBigUint64(4, lamports, true)
  return {
    programAddress: SYSTEM,
    accounts: [
      { address: from.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: from },
      { address: to, role: kit.AccountRole.WRITABLE }
    ],
    data
  }
}

const memo = (text: string) => ({ programAddress: MEMO, accounts: [], data: new TextEncoder().encode(text) })

export interface Built {
  readonly base64: string
  readonly base58: string
  /** The first (fee payer's) signature, base58. */
  readonly signature: string
}

/** A signed legacy transaction: a memo, then `tip` lamports to the tip account (none when 0). */
export const build = async (payer: kit.KeyPairSigner, note: string, tip: bigint): Promise<Built> => {
  // kit's message types are precise per step; this helper stays untyped like the packages' own.
  const k: any = kit
  let message: any = k.createTransactionMessage({ version: "legacy" })
  message = k.setTransactionMessageFeePayerSigner(payer, message)
  message = k.setTransactionMessageLifetimeUsingBlockhash(BLOCKHASH, message)
  message = k.appendTransactionMessageInstructions(
    tip > 0n ? [memo(note), transfer(payer, TIP, tip)] : [memo(note)],
    message
  )
  const tx: any = await kit.signTransactionMessageWithSigners(message)
  const base64 = kit.getBase64EncodedWireTransaction(tx)
  const bytes = Uint8Array.from(Buffer.from(base64, "base64"))
  const first = Object.values(tx.signatures as Record<string, Uint8Array>)[0]!
  return { base64, base58: kit.getBase58Decoder().decode(bytes), signature: kit.getBase58Decoder().decode(first) }
}

export const signer = (): Promise<kit.KeyPairSigner> => kit.generateKeyPairSigner()
