/**
 * Comparison 16 (issue 37): sendTransaction to confirmed through the emulator against LiteSVM
 * driven directly in the same process. 1,000 System transfers built and signed with @solana/kit
 * (built before the clock starts, each a distinct amount so each is its own signature):
 * - LiteSVM: `new LiteSVM()`, the payer airdropped, each transaction `sendTransaction` in turn.
 * - Emulator: `Emulator.make` in this process (slots of 1 s: a blockhash lives 150 s), the payer
 *   funded with requestAirdrop, each transaction sent with JSON-RPC `sendTransaction` over
 *   loopback HTTP in turn, then getSignatureStatuses polled (20 ms) until the last is confirmed.
 * Throughput is transactions per second from the first send to the last confirmed (the emulator)
 * or landed (LiteSVM); rounds alternate which goes first.
 */
import { getTransferSolInstruction } from "@solana-program/system"
import {
  appendTransactionMessageInstruction,
  blockhash as toBlockhash,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  type KeyPairSigner,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { LiteSVM } from "litesvm"
import { fmtRatio, log, median } from "./lib/harness.js"
import { emit } from "./lib/result.js"

const COUNT = Number(process.env["BENCH_BANK_COUNT"] ?? 1000)
const ROUNDS = Number(process.env["BENCH_BANK_ROUNDS"] ?? 3)

const build = async (payer: KeyPairSigner, blockhash: string, to: KeyPairSigner, n: number) => {
  const out = []
  for (let i = 0; i < n; i++) {
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        setTransactionMessageLifetimeUsingBlockhash({ blockhash: toBlockhash(blockhash), lastValidBlockHeight: 0n }, m),
      (m) =>
        appendTransactionMessageInstruction(
          getTransferSolInstruction({
            source: payer,
            destination: to.address,
            amount: lamports(1_000_000n + BigInt(i))
          }),
          m
        )
    )
    out.push(await signTransactionMessageWithSigners(message))
  }
  return out
}

const liteSvmRound = async (): Promise<number> => {
  const svm = new LiteSVM()
  const payer = await generateKeyPairSigner()
  const to = await generateKeyPairSigner()
  svm.airdrop(payer.address, lamports(10_000_000_000_000n))
  const txs = await build(payer, svm.latestBlockhash(), to, COUNT)
  const t0 = performance.now()
  for (const tx of txs) {
    const result = svm.sendTransaction(tx)
    if ("err" in result && typeof result.err === "function") throw new Error(`LiteSVM refused: ${String(result.err())}`)
  }
  return COUNT / ((performance.now() - t0) / 1000)
}

const emulatorRound = async (): Promise<number> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const emu = await Effect.runPromise(Scope.extend(Emulator.make({ slotMs: 1000 }), scope))
    const url = `${emu.url}/?api-key=${emu.apiKey}`
    const call = async (method: string, params: unknown) => {
      const res = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
      })
      const body = (await res.json()) as { result?: any; error?: any }
      if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
      return body.result
    }
    const payer = await generateKeyPairSigner()
    const to = await generateKeyPairSigner()
    await call("requestAirdrop", [payer.address, 10_000_000_000_000])
    const { blockhash } = (await call("getLatestBlockhash", [])).value
    const txs = await build(payer, blockhash, to, COUNT)
    const wires = txs.map((tx) => getBase64EncodedWireTransaction(tx))
    const t0 = performance.now()
    let last = ""
    for (const wire of wires) last = await call("sendTransaction", [wire, { encoding: "base64" }])
    // Confirmed: bounded at 5 minutes, then a failure naming what it saw.
    for (let i = 0;; i++) {
      const status = (await call("getSignatureStatuses", [[last]])).value[0]
      if (status?.confirmationStatus === "confirmed" || status?.confirmationStatus === "finalized") break
      if (i > 15_000) throw new Error(`never confirmed: ${JSON.stringify(status)}`)
      await new Promise((r) => setTimeout(r, 20))
    }
    return COUNT / ((performance.now() - t0) / 1000)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const rates = { litesvm: [] as Array<number>, emulator: [] as Array<number> }
for (let round = 0; round < ROUNDS; round++) {
  const order = round % 2 === 0 ? (["litesvm", "emulator"] as const) : (["emulator", "litesvm"] as const)
  for (const who of order) {
    const rate = who === "litesvm" ? await liteSvmRound() : await emulatorRound()
    rates[who].push(rate)
    log(`round ${round + 1}: ${who} ${rate.toFixed(0)} tx/s`)
  }
}
const lite = median(rates.litesvm)
const emu = median(rates.emulator)
const fmtRate = (r: number) => `${r.toFixed(0)} tx/s`
emit({
  id: "bank",
  title: "16. sendTransaction to confirmed through the emulator vs LiteSVM in one process (issue 37)",
  setup: `${COUNT} System transfers built and signed with @solana/kit before the clock starts, each a distinct ` +
    "amount. LiteSVM: new LiteSVM(), sendTransaction of each in turn in this process. Emulator: Emulator.make " +
    "in this process (slots of 1 s), JSON-RPC sendTransaction of each in turn over loopback HTTP (base64), then " +
    "getSignatureStatuses polled every 20 ms until the last is confirmed (one slot later). Throughput from the " +
    `first send to the last landed (LiteSVM) or confirmed (emulator); ${ROUNDS} rounds alternating which goes ` +
    "first; medians.",
  tables: [{
    caption: "throughput; ratio to LiteSVM driven directly",
    rows: [
      { contender: "LiteSVM directly (sendTransaction in process)", value: fmtRate(lite), ratio: "1.00×" },
      {
        contender: "emulator, sendTransaction over HTTP to confirmed",
        value: fmtRate(emu),
        ratio: fmtRatio(emu / lite),
        note: "includes one slot (1 s) waiting for confirmed"
      }
    ]
  }],
  targets: [{
    name: "emulator throughput vs LiteSVM",
    target: ">= 0.50×",
    measured: fmtRatio(emu / lite),
    met: emu / lite >= 0.5
  }],
  raw: [
    `litesvm tx/s: ${rates.litesvm.map((r) => r.toFixed(1)).join(", ")}`,
    `emulator tx/s: ${rates.emulator.map((r) => r.toFixed(1)).join(", ")}`
  ]
})
