/**
 * The token flow every kit app runs, built with @solana/kit, @solana-program/system and
 * @solana-program/token only: create a mint, an associated token account for the payer and for a
 * recipient, mint to the payer, transfer to the recipient (checked), and some SOL beside it. The
 * transactions are signed over a blockhash the caller gives, and sent by the caller (raw HTTP).
 */
import { getCreateAccountInstruction } from "@solana-program/system"
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS
} from "@solana-program/token"
import type { Address, KeyPairSigner } from "@solana/kit"
import * as Kit from "@solfx/testing/Kit"

/** The mint's rent-exempt minimum (82 bytes), as getMinimumBalanceForRentExemption answers it. */
export const MINT_RENT = 1_461_600n

/** The addresses the flow makes. */
export interface Made {
  readonly mint: Address
  readonly payerAta: Address
  readonly recipientAta: Address
}

/** The associated token account of an owner for a mint (SPL Token). */
export const ata = async (owner: Address, mint: Address): Promise<Address> =>
  (await findAssociatedTokenPda({ owner, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0]

/**
 * Two transactions: (1) create and initialize the mint (6 decimals, the payer its authority),
 * both associated token accounts, and mint `supply` to the payer's; (2) transfer `amount` of it
 * and `lamports` SOL to the recipient.
 */
export const build = async (options: {
  readonly payer: KeyPairSigner
  readonly mint: KeyPairSigner
  readonly recipient: Address
  readonly blockhash: string
  readonly supply?: bigint
  readonly amount?: bigint
  readonly lamports?: bigint
}): Promise<{ readonly made: Made; readonly transactions: ReadonlyArray<Kit.Built> }> => {
  const { blockhash, payer, recipient } = options
  const mint = options.mint.address
  const payerAta = await ata(payer.address, mint)
  const recipientAta = await ata(recipient, mint)
  const create = await Kit.build({
    version: 0,
    payer,
    blockhash,
    instructions: [
      getCreateAccountInstruction({
        payer,
        newAccount: options.mint,
        lamports: MINT_RENT,
        space: getMintSize(),
        programAddress: TOKEN_PROGRAM_ADDRESS
      }),
      getInitializeMint2Instruction({ mint, decimals: 6, mintAuthority: payer.address }),
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: payerAta, owner: payer.address, mint }),
      getCreateAssociatedTokenIdempotentInstruction({ payer, ata: recipientAta, owner: recipient, mint }),
      getMintToInstruction({ mint, token: payerAta, mintAuthority: payer, amount: options.supply ?? 1_000_000n })
    ] as any
  })
  const send = await Kit.build({
    version: 0,
    payer,
    blockhash,
    instructions: [
      getTransferCheckedInstruction({
        source: payerAta,
        mint,
        destination: recipientAta,
        authority: payer,
        amount: options.amount ?? 250_000n,
        decimals: 6
      }),
      Kit.transfer(payer, recipient, options.lamports ?? 10_000_000n)
    ] as any
  })
  return { made: { mint, payerAta, recipientAta }, transactions: [create, send] }
}
