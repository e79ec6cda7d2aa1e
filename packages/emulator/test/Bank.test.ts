/**
 * The bank: transactions built and signed with @solana/kit, executed by the SVM over raw HTTP:
 * what lands changes the one ledger, and what the runtime refuses fails as the RPC answers it
 * (errors and logs from the runtime itself).
 */
import { describe, expect, it } from "@effect/vitest"
import { build, memo, signer, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { rpc } from "./support/Http.js"

const LAMPORTS = 2_000_000_000n

/** An emulator whose slots pass only when a test moves them (60 s a slot). */
const slow = () => Emulator.make({ slotMs: 60_000 })

describe("bank", () => {
  it.scopedLive("requestAirdrop funds a kit payer; a System transfer sent as base64 lands in the ledger", () =>
    Effect.gen(function*() {
      const emu = yield* slow()
      const payer = yield* Effect.promise(signer)
      const to = yield* Effect.promise(signer)
      const airdrop = yield* rpc(emu, "requestAirdrop", [payer.address, Number(LAMPORTS)])
      expect(airdrop.json.result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
      expect(emu.ledger.lamports(payer.address)).toBe(LAMPORTS)

      const { blockhash } = emu.ledger.bank.blockhash()
      const tx = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(payer, to.address, 1_000_000n)], blockhash })
      )
      const sent = yield* rpc(emu, "sendTransaction", [tx.base64, { encoding: "base64" }])
      expect(sent.json).toMatchObject({ result: tx.signature })
      expect(emu.ledger.lamports(to.address)).toBe(1_000_000n)
      expect(emu.ledger.lamports(payer.address)).toBe(LAMPORTS - 1_000_000n - 5_000n)
      const landed = emu.ledger.transaction(tx.signature)!
      expect(landed).toMatchObject({ fee: 5_000n, err: null, type: "TRANSFER", source: "rpc" })
      expect(landed.nativeTransfers).toEqual([{ from: payer.address, to: to.address, lamports: 1_000_000n }])
      expect(landed.logs).toEqual([
        "Program 11111111111111111111111111111111 invoke [1]",
        "Program 11111111111111111111111111111111 success"
      ])

      // Processed now; the status says so, and sending it again is refused by the preflight.
      const status = yield* rpc(emu, "getSignatureStatuses", [[tx.signature]])
      expect(status.json.result.value[0]).toMatchObject({ confirmationStatus: "processed", err: null })
      const again = yield* rpc(emu, "sendTransaction", [tx.base58])
      expect(again.json.error).toMatchObject({
        code: -32002,
        message: "Transaction simulation failed: This transaction has already been processed",
        data: { err: "AlreadyProcessed" }
      })
      const wallet = yield* Effect.promise(() =>
        fetch(`${emu.url}/v1/wallet/${to.address}/balances?api-key=${emu.apiKey}`).then((r) => r.json() as any)
      )
      expect(wallet.nativeBalance ?? wallet.balances?.[0]).toBeDefined()
    }))

  it.scopedLive("the runtime's refusals: rent, signatures, blockhash (never issued, expired), absent program", () =>
    Effect.gen(function*() {
      const emu = yield* slow()
      const payer = yield* Effect.promise(signer)
      const poor = yield* Effect.promise(signer)
      yield* rpc(emu, "requestAirdrop", [payer.address, Number(LAMPORTS)])
      const { blockhash } = emu.ledger.bank.blockhash()
      const before = emu.ledger.lamports(payer.address)

      // A recipient left below rent exemption: the runtime's InsufficientFundsForRent on account 1.
      const dust = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(payer, poor.address, 1_000n)], blockhash })
      )
      const sim = yield* rpc(emu, "simulateTransaction", [dust.base64, { encoding: "base64" }])
      expect(sim.json.result.value).toMatchObject({
        err: { InsufficientFundsForRent: { account_index: 1 } },
        logs: [
          "Program 11111111111111111111111111111111 invoke [1]",
          "Program 11111111111111111111111111111111 success"
        ],
        unitsConsumed: 150
      })
      const sent = yield* rpc(emu, "sendTransaction", [dust.base64, { encoding: "base64" }])
      expect(sent.json.error).toMatchObject({
        code: -32002,
        message:
          "Transaction simulation failed: Transaction results in an account (1) with insufficient funds for rent",
        data: { err: { InsufficientFundsForRent: { account_index: 1 } } }
      })
      // The failed preflight sent nothing: not even the fee moved.
      expect(emu.ledger.lamports(payer.address)).toBe(before)
      expect(emu.ledger.transaction(dust.signature)).toBeUndefined()

      // Unsigned: simulation verifies signatures only when asked, sending always does.
      const unsigned = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [memo("unsigned")], blockhash, signWith: [] })
      )
      const checked = yield* rpc(emu, "simulateTransaction", [unsigned.base64, { encoding: "base64", sigVerify: true }])
      expect(checked.json.error).toEqual({ code: -32003, message: "Transaction signature verification failure" })
      const unchecked = yield* rpc(emu, "simulateTransaction", [unsigned.base64, { encoding: "base64" }])
      expect(unchecked.json.result.value.err).toBeNull()
      const refused = yield* rpc(emu, "sendTransaction", [unsigned.base64, { encoding: "base64" }])
      expect(refused.json.error).toEqual({ code: -32003, message: "Transaction signature verification failure" })

      // A blockhash the cluster never issued.
      const stale = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [memo("stale")], blockhash: emu.dataset.address("not a blockhash") })
      )
      const expired = yield* rpc(emu, "simulateTransaction", [stale.base64, { encoding: "base64" }])
      expect(expired.json.result.value).toMatchObject({ err: "BlockhashNotFound", logs: [], unitsConsumed: 0 })
      const expiredSend = yield* rpc(emu, "sendTransaction", [stale.base64, { encoding: "base64" }])
      expect(expiredSend.json.error).toMatchObject({
        code: -32002,
        message: "Transaction simulation failed: Blockhash not found",
        data: { err: "BlockhashNotFound" }
      })
      // replaceRecentBlockhash runs it with the current one.
      const replaced = yield* rpc(emu, "simulateTransaction", [stale.base64, {
        encoding: "base64",
        replaceRecentBlockhash: true
      }])
      expect(replaced.json.result.value).toMatchObject({
        err: null,
        replacementBlockhash: { blockhash: emu.ledger.bank.blockhash().blockhash }
      })

      // A program the bank does not have.
      const absent = yield* Effect.promise(signer)
      const call = yield* Effect.promise(() =>
        build({
          version: 0,
          payer,
          instructions: [{ programAddress: absent.address, accounts: [], data: new Uint8Array([1]) } as any],
          blockhash
        })
      )
      const missing = yield* rpc(emu, "simulateTransaction", [call.base64, { encoding: "base64" }])
      expect(missing.json.result.value).toMatchObject({ err: "ProgramAccountNotFound", logs: [] })
      const missingSend = yield* rpc(emu, "sendTransaction", [call.base64, { encoding: "base64" }])
      expect(missingSend.json.error.message).toBe(
        "Transaction simulation failed: Attempt to load a program that does not exist"
      )
      expect(emu.ledger.lamports(payer.address)).toBe(before)

      // A blockhash the cluster issued, 151 slots ago: expired, refused as the runtime refuses it.
      const recent = emu.ledger.bank.blockhash().blockhash
      const issued = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [memo("expired")], blockhash: recent })
      )
      const fresh = yield* rpc(emu, "simulateTransaction", [issued.base64, { encoding: "base64" }])
      expect(fresh.json.result.value.err).toBeNull()
      yield* emu.world.advanceSlots({ slots: 151 })
      expect((yield* rpc(emu, "isBlockhashValid", [recent])).json.result.value).toBe(false)
      const old = yield* rpc(emu, "simulateTransaction", [issued.base64, { encoding: "base64" }])
      expect(old.json.result.value).toMatchObject({ err: "BlockhashNotFound", logs: [], unitsConsumed: 0 })
      const oldSend = yield* rpc(emu, "sendTransaction", [issued.base64, { encoding: "base64" }])
      expect(oldSend.json.error).toMatchObject({
        code: -32002,
        message: "Transaction simulation failed: Blockhash not found",
        data: { err: "BlockhashNotFound" }
      })
      expect(emu.ledger.lamports(payer.address)).toBe(before)
    }))
})
