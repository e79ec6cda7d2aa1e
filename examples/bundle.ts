/**
 * Example 4: build two transactions with @solana/kit (a payment, and a tip to a
 * Jito tip account), sign them, send them as one atomic bundle, and wait until it lands.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/bundle.ts
 */
import * as kit from "@solana/kit"
import { Bundle, Bundles } from "@solfx/sdk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { isMain, runExample } from "./support/run.js"

const SYSTEM_PROGRAM = kit.address("11111111111111111111111111111111")
const transferData = kit.getStructEncoder([["instruction", kit.getU32Encoder()], ["lamports", kit.getU64Encoder()]])

/** A System Program transfer, signed by `from`. */
const transfer = (from: kit.TransactionSigner, to: kit.Address, lamports: bigint) => ({
  programAddress: SYSTEM_PROGRAM,
  accounts: [
    { address: from.address, role: kit.AccountRole.WRITABLE_SIGNER, signer: from },
    { address: to, role: kit.AccountRole.WRITABLE }
  ] as const,
  data: transferData.encode({ instruction: 2, lamports })
})

/** A signed v0 transaction, base64 on the wire, and its signature. */
const build = async (payer: kit.TransactionSigner, blockhash: kit.Blockhash, ix: ReturnType<typeof transfer>) => {
  const message = kit.pipe(
    kit.createTransactionMessage({ version: 0 }),
    (m) => kit.setTransactionMessageFeePayerSigner(payer, m),
    (m) => kit.setTransactionMessageLifetimeUsingBlockhash({ blockhash, lastValidBlockHeight: 1_000n }, m),
    (m) => kit.appendTransactionMessageInstructions([ix], m)
  )
  const signed = await kit.signTransactionMessageWithSigners(message)
  return { wire: kit.getBase64EncodedWireTransaction(signed), signature: kit.getSignatureFromTransaction(signed) }
}

/**
 * Sends `lamports` from `payer` to `recipient` plus a tip in one bundle; the outcome once it lands,
 * fails (the payer cannot pay: nothing lands), or times out.
 */
export const main = (
  payer: kit.KeyPairSigner,
  recipient: string,
  latestBlockhash: string,
  lamports = 1_000_000n,
  tip = 10_000n
) =>
  Effect.gen(function*() {
    const bundles = yield* Bundles.Bundles
    // A recent blockhash (your RPC's `getLatestBlockhash`): valid for 150 blocks, about a minute.
    const blockhash = kit.blockhash(latestBlockhash)
    const txs = yield* Effect.promise(() =>
      Promise.all([
        build(payer, blockhash, transfer(payer, kit.address(recipient), lamports)),
        build(payer, blockhash, transfer(payer, kit.address(Bundle.JITO_TIP_ACCOUNTS[0]!), tip))
      ])
    )
    // Checked offline first (signatures, tip), then sent once: a bundle is never resent blindly.
    const id = yield* bundles.sendBundle(txs.map((tx) => tx.wire), { encoding: "base64" })
    yield* Console.log(`bundle ${id} sent`)
    const outcome = yield* bundles.awaitBundle(id, {
      commitment: "confirmed",
      interval: "200 millis",
      timeout: "30 seconds"
    })
    yield* Console.log(outcome._tag === "Landed" ? `landed in slot ${outcome.slot} (${outcome.status})` : outcome._tag)
    return { id, signatures: txs.map((tx) => tx.signature), outcome }
  })

if (isMain(import.meta.url)) {
  // In an app: your keypair. Here a fresh one, funded in the emulator's world (its world API).
  runExample((emulator) =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(() => kit.generateKeyPairSigner())
      yield* emulator.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      return yield* main(payer, emulator.samples.wallet, emulator.ledger.bank.blockhash().blockhash)
    })
  )
}
