/**
 * Example 6 (`kit-app.ts`), a plain @solana/kit app, run against an emulator on loopback: the
 * program gets only its HTTP and WebSocket URLs, and what it read back is checked against the
 * amounts it moved and against the emulator's ledger.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import * as kitApp from "../kit-app.js"

const FEE = 5_000n

describe("kit app", () => {
  it.scopedLive(
    "a kit app airdrops, creates a mint and two token accounts, mints and transfers; every area shows it",
    () =>
      Effect.gen(function*() {
        // A blockhash lives 150 slots: 30 s at 200 ms, time enough under load.
        const emu = yield* Emulator.make({ slotMs: 200 })
        const lines: Array<string> = []
        const rpcUrl = `${emu.url}/?api-key=${emu.apiKey}`
        const wsUrl = rpcUrl.replace(/^http/, "ws")
        const r = yield* Effect.promise(() => kitApp.main(rpcUrl, wsUrl, (line) => void lines.push(line)))

        expect(lines.map((l) => l.split(/[ :]/)[0])).toEqual([
          "airdrop",
          "setup",
          "transfer",
          "accountSubscribe",
          "webhook",
          "getTokenAccountsByOwner",
          "getTransaction",
          "getAsset",
          "wallet",
          "wallet"
        ])
        // Each transaction landed in the one ledger, without an error.
        for (const signature of Object.values(r.signatures)) {
          expect(emu.ledger.transaction(signature)?.err, signature).toBeNull()
        }

        expect(r.tokenAccounts).toEqual([{
          address: r.recipientTokenAccount,
          mint: r.mint,
          owner: r.recipient,
          amount: "250000000"
        }])

        const keys = r.transaction.accountKeys
        expect(r.transaction).toMatchObject({ fee: FEE, err: null })
        expect(keys[0]).toBe(r.payer)
        const at = (address: string) => keys.indexOf(address)
        expect(r.transaction.preTokenBalances).toEqual(expect.arrayContaining([
          { accountIndex: at(r.payerTokenAccount), owner: r.payer, amount: "1000000000" },
          { accountIndex: at(r.recipientTokenAccount), owner: r.recipient, amount: "0" }
        ]))
        expect(r.transaction.postTokenBalances).toEqual(expect.arrayContaining([
          { accountIndex: at(r.payerTokenAccount), owner: r.payer, amount: "750000000" },
          { accountIndex: at(r.recipientTokenAccount), owner: r.recipient, amount: "250000000" }
        ]))
        expect(r.transaction.preBalances[0]! - r.transaction.postBalances[0]!).toBe(FEE)
        expect(r.transaction.postBalances[0]).toBe(emu.ledger.lamports(r.payer))

        expect(r.asset).toEqual({ interface: "FungibleToken", supply: 1_000_000_000, decimals: 6 })

        expect(r.wallets.payer.tokenBalance).toBe("750000000")
        expect(r.wallets.recipient.tokenBalance).toBe("250000000")
        expect(r.wallets.payer.solLamports).toBe(emu.ledger.lamports(r.payer))
        expect(r.wallets.payer.history).toEqual([r.signatures.transfer, r.signatures.setup, r.signatures.airdrop])
        // The setup created its token account: the recipient is in it too.
        expect(r.wallets.recipient.history).toEqual([r.signatures.transfer, r.signatures.setup])

        expect(r.webhook).toContain(r.signatures.transfer)
        expect(r.notification.amount).toBe("250000000")
        expect(r.notification.slot).toBeGreaterThanOrEqual(r.transaction.slot)
      }),
    180_000
  )
})
