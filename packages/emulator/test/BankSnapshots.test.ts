/**
 * Snapshot and restore with the bank: a test changes the world through kit (a mint, associated
 * token accounts, mintTo and a checked transfer built with @solana-program/system and /token,
 * sent over HTTP with sendTransaction; a requestAirdrop) and through the world API, past the
 * blockhash window (advanceSlots 200), restores, and every area answers as before byte for byte:
 * standard RPC (getAccountInfo base64 and jsonParsed, getBalance, getTokenAccountsByOwner,
 * getTokenSupply, getSignatureStatuses, getTransaction, getLatestBlockhash), DAS, the Wallet API and
 * signatures. Then the same signed transactions are sent again and land as the first time: the
 * SVM's accounts (a mint it created is gone), its blockhash window (a blockhash issued before the
 * snapshot is valid again) and its signatures (not AlreadyProcessed) were put back with the rest.
 * `--state` does the same across a restart, for executed state.
 */
import { describe, expect, it } from "@effect/vitest"
import type { KeyPairSigner } from "@solana/kit"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Emulator from "../src/Emulator.js"
import { get, post, rpc } from "./support/Http.js"
import * as TokenFlow from "./support/TokenFlow.js"

const control = (emu: Emulator.Emulator, call: string, body: unknown) =>
  Effect.map(post(emu, body, { path: `/emulator/world/${call}` }), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.json
  })

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

/** Sends a built transaction over HTTP and expects it to land (its signature back). */
const send = (emu: Emulator.Emulator, tx: Kit.Built) =>
  Effect.map(rpc(emu, "sendTransaction", [tx.base64, { encoding: "base64" }]), (r) => {
    expect(r.json, r.text).toEqual({ jsonrpc: "2.0", id: "1", result: tx.signature })
    return tx.signature
  })

/** Every area's raw answer about the addresses, mints and signatures given. */
const views = (
  emu: Emulator.Emulator,
  of: {
    readonly addresses: ReadonlyArray<string>
    readonly mints: ReadonlyArray<string>
    readonly signatures: ReadonlyArray<string>
    readonly blockhashes: ReadonlyArray<string>
  }
) =>
  Effect.gen(function*() {
    const bodies: Array<readonly [string, string]> = []
    const add = (name: string, text: string) => bodies.push([name, text])
    for (const a of of.addresses) {
      add(`getAccountInfo base64 ${a}`, (yield* rpc(emu, "getAccountInfo", [a, { encoding: "base64" }])).text)
      add(`getAccountInfo jsonParsed ${a}`, (yield* rpc(emu, "getAccountInfo", [a, { encoding: "jsonParsed" }])).text)
      add(`getBalance ${a}`, (yield* rpc(emu, "getBalance", [a])).text)
      add(
        `getTokenAccountsByOwner ${a}`,
        (yield* rpc(emu, "getTokenAccountsByOwner", [a, { programId: TOKEN_PROGRAM }, { encoding: "jsonParsed" }])).text
      )
      add(`getSignaturesForAddress ${a}`, (yield* rpc(emu, "getSignaturesForAddress", [a])).text)
      for (const list of ["balances", "history", "transfers"]) {
        add(`${list} ${a}`, (yield* get(emu, `/v1/wallet/${a}/${list}`, { query: { showNfts: "true" } })).text)
      }
      add(`getAssetsByOwner ${a}`, (yield* rpc(emu, "getAssetsByOwner", { ownerAddress: a, page: 1 })).text)
      add(`getTokenAccounts ${a}`, (yield* rpc(emu, "getTokenAccounts", { owner: a, page: 1 })).text)
    }
    for (const m of of.mints) {
      add(`getAsset ${m}`, (yield* rpc(emu, "getAsset", { id: m })).text)
      add(`getTokenSupply ${m}`, (yield* rpc(emu, "getTokenSupply", [m])).text)
      add(`getTokenLargestAccounts ${m}`, (yield* rpc(emu, "getTokenLargestAccounts", [m])).text)
    }
    add("getSignatureStatuses", (yield* rpc(emu, "getSignatureStatuses", [of.signatures])).text)
    for (const s of of.signatures) {
      add(
        `getTransaction ${s}`,
        (yield* rpc(emu, "getTransaction", [s, { encoding: "json", maxSupportedTransactionVersion: 0 }])).text
      )
    }
    for (const h of of.blockhashes) add(`isBlockhashValid ${h}`, (yield* rpc(emu, "isBlockhashValid", [h])).text)
    add("getLatestBlockhash", (yield* rpc(emu, "getLatestBlockhash", [])).text)
    add("getSlot", (yield* rpc(emu, "getSlot", [])).text)
    add("getBlockHeight", (yield* rpc(emu, "getBlockHeight", [])).text)
    return bodies
  })

/** Compares two views name by name (a failure names the body that differs). */
const same = (actual: ReadonlyArray<readonly [string, string]>, expected: ReadonlyArray<readonly [string, string]>) => {
  expect(actual.map(([name]) => name)).toEqual(expected.map(([name]) => name))
  for (const [k, [name, text]] of actual.entries()) expect([name, text]).toEqual(expected[k])
}

interface Actors {
  readonly payer: KeyPairSigner
  readonly mint: KeyPairSigner
  readonly recipient: KeyPairSigner
}

const actors = Effect.promise(async (): Promise<Actors> => ({
  payer: await Kit.signer(),
  mint: await Kit.signer(),
  recipient: await Kit.signer()
}))

describe("bank snapshots", () => {
  it.scopedLive(
    "restore puts back the SVM's state, its blockhash window and signatures: every area byte for byte, and the same transactions land again",
    () =>
      Effect.gen(function*() {
        // An hour a slot: only landings and advanceSlots move the clock, so two views of the same state agree.
        const emu = yield* Emulator.make({ seed: 42, slotMs: 3_600_000 })
        const { mint, payer, recipient } = yield* actors
        const owner = emu.dataset.address("bank-snapshots:owner")
        const set = emu.dataset.address("bank-snapshots:set")
        const { blockhash } = (yield* rpc(emu, "getLatestBlockhash", [])).json.result.value
        const flow = yield* Effect.promise(() =>
          TokenFlow.build({ payer, mint, recipient: recipient.address, blockhash })
        )
        const { payerAta, recipientAta } = flow.made
        const worldMint: { mint?: string | undefined } = {}
        const signatures: Array<string> = []
        const of = () => ({
          addresses: [payer.address, recipient.address, mint.address, payerAta, recipientAta, owner, set],
          mints: [mint.address, ...(worldMint.mint === undefined ? [] : [worldMint.mint])],
          signatures: [...flow.transactions.map((t) => t.signature), ...signatures],
          blockhashes: [blockhash]
        })

        /** kit over HTTP, then the world API, then 200 slots: past the blockhash window. */
        const change = Effect.gen(function*() {
          const airdrop = yield* rpc(emu, "requestAirdrop", [payer.address, 5_000_000_000])
          expect(airdrop.json.result, airdrop.text).toBeTypeOf("string")
          signatures.push(airdrop.json.result)
          for (const tx of flow.transactions) yield* send(emu, tx)
          yield* control(emu, "fund", { address: owner, lamports: "3000000000" })
          const token = yield* control(emu, "mintFungible", { owner, amount: "5000", decimals: 2 })
          worldMint.mint = token.mint
          // Seeded state moves through the bank: the world's mint goes to the kit recipient.
          yield* control(emu, "transfer", { from: owner, to: recipient.address, mint: token.mint, amount: "1200" })
          yield* control(emu, "setAccount", {
            address: set,
            lamports: "5000000",
            owner: Kit.MEMO,
            data: Buffer.from("bank snapshot").toString("base64")
          })
          yield* control(emu, "advanceSlots", { slots: 200 })
        })

        const initial = yield* views(emu, of())
        const { id } = yield* control(emu, "snapshot", {})
        yield* change
        const learned = { signatures: [...signatures], mint: worldMint.mint }
        const changed = yield* views(emu, of())
        // The kit transfer landed (the recipient's token account holds 250,000) and the blockhash expired.
        const parsed = (yield* rpc(emu, "getAccountInfo", [recipientAta, { encoding: "jsonParsed" }])).json
        expect(parsed.result.value.data.parsed.info.tokenAmount.amount).toBe("250000")
        expect((yield* rpc(emu, "isBlockhashValid", [blockhash])).json.result.value).toBe(false)

        expect(yield* control(emu, "restore", { id })).toMatchObject({ restored: true })
        signatures.length = 0
        delete worldMint.mint
        same(yield* views(emu, of()), initial)
        expect((yield* rpc(emu, "isBlockhashValid", [blockhash])).json.result.value).toBe(true)
        // What the changes made, as it is at the snapshot (nothing), to compare after the second restore.
        signatures.push(...learned.signatures)
        worldMint.mint = learned.mint
        const before = yield* views(emu, of())
        expect(before).not.toEqual(changed)

        // The same signed transactions again: the SVM no longer holds the mint (createAccount would
        // fail), the blockhash is valid again, the signatures are new to the ledger.
        signatures.length = 0
        delete worldMint.mint
        yield* change
        same(yield* views(emu, of()), changed)

        expect(yield* control(emu, "restore", { id })).toMatchObject({ restored: true })
        same(yield* views(emu, of()), before)
        // And once more in process: the bank answers from the restored ledger.
        expect(emu.ledger.bank.account(mint.address)).toBeUndefined()
        expect(emu.ledger.bank.account(payer.address)).toBeUndefined()
      }),
    240_000
  )

  it.live(
    "--state round-trips executed state across a restart: every area answers the same, the bank moves what kit made, and a landed signature stays processed",
    () =>
      Effect.gen(function*() {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "solfx-bank-state-"))
        const file = Path.join(dir, "state.json")
        const options = { seed: 7, slotMs: 3_600_000, state: file }
        const { mint, payer, recipient } = yield* actors
        let flow: Awaited<ReturnType<typeof TokenFlow.build>> | undefined
        const signatures: Array<string> = []
        const of = () => ({
          addresses: [payer.address, recipient.address, mint.address, flow!.made.payerAta, flow!.made.recipientAta],
          mints: [mint.address],
          signatures,
          blockhashes: []
        })
        const first = yield* Effect.scoped(Effect.gen(function*() {
          const emu = yield* Emulator.make(options)
          signatures.push((yield* rpc(emu, "requestAirdrop", [payer.address, 5_000_000_000])).json.result)
          const { blockhash } = (yield* rpc(emu, "getLatestBlockhash", [])).json.result.value
          flow = yield* Effect.promise(() => TokenFlow.build({ payer, mint, recipient: recipient.address, blockhash }))
          for (const tx of flow.transactions) signatures.push(yield* send(emu, tx))
          return yield* views(emu, of())
        }))
        const saved = JSON.parse(Fs.readFileSync(file, "utf8"))
        expect(saved).toMatchObject({ format: "solfx-emulator-state", seed: 7 })

        yield* Effect.scoped(Effect.gen(function*() {
          const emu = yield* Emulator.make(options)
          same(yield* views(emu, of()), first)
          // A landed transaction is still known: sending it again is refused as the cluster refuses it.
          const again = yield* rpc(emu, "sendTransaction", [flow!.transactions[1]!.base64, { encoding: "base64" }])
          expect(again.json.error, again.text).toMatchObject({ code: -32002, data: { err: "AlreadyProcessed" } })
          // The bank reads what kit made from the restored ledger: the recipient sends tokens back.
          yield* rpc(emu, "requestAirdrop", [recipient.address, 1_000_000_000])
          const { blockhash } = (yield* rpc(emu, "getLatestBlockhash", [])).json.result.value
          const back = yield* Effect.promise(async () =>
            Kit.build({
              version: 0,
              payer: recipient,
              blockhash,
              instructions: [
                (await import("@solana-program/token")).getTransferCheckedInstruction({
                  source: flow!.made.recipientAta,
                  mint: mint.address,
                  destination: flow!.made.payerAta,
                  authority: recipient,
                  amount: 50_000n,
                  decimals: 6
                })
              ] as any
            })
          )
          yield* send(emu, back)
          const balance = (yield* rpc(emu, "getTokenAccountBalance", [flow!.made.recipientAta])).json
          expect(balance.result.value.amount).toBe("200000")
          const payerBalance = (yield* rpc(emu, "getTokenAccountBalance", [flow!.made.payerAta])).json
          expect(payerBalance.result.value.amount).toBe("800000")
        }))
        Fs.rmSync(dir, { recursive: true, force: true })
      }),
    240_000
  )
})
