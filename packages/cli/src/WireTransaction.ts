/**
 * A tiny builder of signed legacy transactions made of System transfers, for the
 * demo and for scripts: no @solana/kit at run time. The wire format is the one
 * core's `Transaction` parser reads (Solana's wire format): compact-u16 signature
 * count, Ed25519 signatures, then the message (header, static keys, recent
 * blockhash, instructions). Transfer data: u32 LE 2 ‖ u64 LE lamports.
 *
 * @example
 * const payer = WireTransaction.generateKeypair()
 * const tx = WireTransaction.transferTransaction(payer, [{ to: recipient, lamports: 1_000_000n }]) // base64
 * @since 0.1.0
 */

import { ed25519 } from "@noble/curves/ed25519.js"
import { decodeBase58, encodeBase58, encodeBase64 } from "@solfx/core/Primitives"
import { encodeCompactU16, SYSTEM_PROGRAM } from "@solfx/core/Transaction"

/**
 * An Ed25519 key pair.
 *
 * @since 0.1.0
 * @category models
 */
export interface Keypair {
  readonly secretKey: Uint8Array
  /** The base58 address. */
  readonly address: string
}

/**
 * A fresh random key pair.
 *
 * @since 0.1.0
 * @category keys
 */
export const generateKeypair = (): Keypair => fromSecretKey(ed25519.utils.randomSecretKey())

/**
 * The key pair of a 32-byte secret key (seed).
 *
 * @since 0.1.0
 * @category keys
 */
export const fromSecretKey = (secretKey: Uint8Array): Keypair => ({
  secretKey,
  address: encodeBase58(ed25519.getPublicKey(secretKey))
})

/**
 * A System transfer.
 *
 * @since 0.1.0
 * @category models
 */
export interface Transfer {
  readonly to: string
  readonly lamports: bigint
}

const u32le = (n: number) => {
  const b = new Uint8Array(4)
  new DataView(b.buffer).setUint32(0, n, true)
  return b
}

const u64le = (n: bigint) => {
  const b = new Uint8Array(8)
  new DataView(b.buffer).setBigUint64(0, n, true)
  return b
}

const concat = (parts: ReadonlyArray<Uint8Array | ReadonlyArray<number>>): Uint8Array => {
  const total = parts.reduce((n, p) => n + p.length, 0)
  const out = new Uint8Array(total)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

const key32 = (address: string): Uint8Array => {
  const bytes = decodeBase58(address)
  if (bytes === undefined || bytes.length !== 32) throw new RangeError(`not a 32-byte base58 address: ${address}`)
  return bytes
}

/**
 * The message of a legacy transaction where `payer` signs and pays, and sends each
 * transfer from its own account. Keys: payer (signer, writable), each distinct
 * recipient (writable), the System Program (read-only).
 *
 * @since 0.1.0
 * @category building
 */
export const transferMessage = (
  payer: string,
  transfers: ReadonlyArray<Transfer>,
  recentBlockhash: Uint8Array
): Uint8Array => {
  if (recentBlockhash.length !== 32) throw new RangeError("a recent blockhash is 32 bytes")
  const recipients = [...new Set(transfers.map((t) => t.to))].filter((to) => to !== payer)
  const keys = [payer, ...recipients, SYSTEM_PROGRAM]
  const index = (address: string) => keys.indexOf(address)
  const programIndex = keys.length - 1
  const instructions = transfers.map((t) =>
    concat([
      [programIndex],
      encodeCompactU16(2),
      [0, index(t.to)],
      encodeCompactU16(12),
      u32le(2),
      u64le(t.lamports)
    ])
  )
  return concat([
    // numRequiredSignatures, numReadonlySigned, numReadonlyUnsigned (the System Program)
    [1, 0, 1],
    encodeCompactU16(keys.length),
    ...keys.map(key32),
    recentBlockhash,
    encodeCompactU16(instructions.length),
    ...instructions
  ])
}

/**
 * A signed transaction: one signature by `payer` over the message.
 *
 * @since 0.1.0
 * @category building
 */
export const sign = (payer: Keypair, message: Uint8Array): Uint8Array =>
  concat([encodeCompactU16(1), ed25519.sign(message, payer.secretKey), message])

/**
 * A signed transfer transaction, base64-encoded (the recommended `sendBundle` encoding).
 *
 * @example
 * const tx = transferTransaction(payer, [{ to: recipient, lamports: 5_000n }, { to: tipAccount, lamports: 10_000n }])
 * @since 0.1.0
 * @category building
 */
export const transferTransaction = (
  payer: Keypair,
  transfers: ReadonlyArray<Transfer>,
  recentBlockhash: Uint8Array = ed25519.utils.randomSecretKey()
): string => encodeBase64(sign(payer, transferMessage(payer.address, transfers, recentBlockhash)))
