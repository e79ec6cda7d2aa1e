/**
 * SendAndConfirm against the emulator over loopback: real HTTP, the real Node client, transactions
 * kit builds and signs, executed by the emulator's bank. Faults are the emulator's own; what was sent
 * is the emulator's request count.
 */
import { describe, expect, it } from "@effect/vitest"
import { getTransferSolInstruction } from "@solana-program/system"
import {
  address,
  appendTransactionMessageInstructions,
  createTransactionMessage,
  generateKeyPairSigner,
  type KeyPairSigner,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Emulator from "@solfx/emulator/Emulator"
import { SendAndConfirm, SolanaRpc } from "@solfx/kit"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Supervisor from "effect/Supervisor"

const TestLayer = Loopback.layer(SolanaRpc.layer, { seed: 21 })

const fast = { rebroadcastEvery: "300 millis", pollEvery: "100 millis" } as const

/** A funded payer and a message of its, on the emulator's latest blockhash: `lamports` to a fresh address, and a memo. */
const setup = (lamports: bigint, fund = 1_000_000_000n) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.EmulatorHandle
    const solana = yield* SolanaRpc.SolanaRpc
    const payer: KeyPairSigner = yield* Effect.promise(() => generateKeyPairSigner())
    const to = address(emu.dataset.address(`kit:to:${payer.address}`))
    yield* emu.world.fund({ address: payer.address, lamports: fund })
    const { value: lifetime } = yield* solana.call(solana.rpc.getLatestBlockhash({ commitment: "confirmed" }))
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(payer, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
      (m) =>
        appendTransactionMessageInstructions([
          getTransferSolInstruction({ source: payer, destination: to, amount: lamports }),
          Kit.memo(`kit ${payer.address}`)
        ], m)
    )
    const tx = yield* Effect.promise(() => signTransactionMessageWithSigners(message))
    return { emu, solana, payer, to, message, tx, lifetime }
  })

/** Polls until `done` (at most 30 s), failing with the last value seen. */
const until = <A>(read: () => A, done: (a: A) => boolean) =>
  Effect.gen(function*() {
    for (let i = 0; i < 300; i++) {
      if (done(read())) return
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.dieMessage(`never reached: ${JSON.stringify(read())}`)
  })

/** The emulator executes transactions only once the endpoint table has sendTransaction (the local cluster's bank). */
const executes = Endpoints.byName.has("sendTransaction")

describe.skipIf(!executes)(
  executes
    ? "SendAndConfirm (integration, loopback emulator)"
    : "SendAndConfirm (integration, loopback emulator) (skipped: this emulator does not execute transactions: no sendTransaction entry)",
  () => {
    it.live(
      "the first send dropped by a fault: confirmed by a rebroadcast, the transfer landed",
      () =>
        Effect.gen(function*() {
          const { emu, solana, to, tx } = yield* setup(1_012_345n)
          emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendTransaction"], times: 1 })
          const confirmed = yield* SendAndConfirm.sendAndConfirm(tx as never, fast)
          expect(emu.faultsHit.reset).toBe(1)
          expect(confirmed.sends).toBeGreaterThanOrEqual(2)
          const { value } = yield* solana.call(solana.rpc.getBalance(to))
          expect(value).toBe(1_012_345n)
          const { value: [status] } = yield* solana.call(solana.rpc.getSignatureStatuses([confirmed.signature]))
          expect(status).toMatchObject({ err: null, slot: confirmed.slot })
        }).pipe(Effect.provide(TestLayer)),
      120_000
    )

    it.live(
      "never landed, the block height advanced past lastValidBlockHeight: BlockhashExpired",
      () =>
        Effect.gen(function*() {
          const { emu, tx, lifetime } = yield* setup(1_000_000n)
          emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendTransaction"] })
          const fiber = yield* Effect.fork(SendAndConfirm.sendAndConfirm(tx as never, fast))
          yield* until(() => emu.count("sendTransaction"), (n) => n >= 2)
          const solana = yield* SolanaRpc.SolanaRpc
          const height = yield* solana.call(solana.rpc.getBlockHeight())
          yield* emu.world.advanceSlots({ slots: Number(lifetime.lastValidBlockHeight - height) + 5 })
          const e = yield* Effect.flip(Fiber.join(fiber))
          expect(e).toMatchObject({ _tag: "BlockhashExpired", lastValidBlockHeight: lifetime.lastValidBlockHeight })
          expect((e as SendAndConfirm.BlockhashExpired).blockHeight).toBeGreaterThan(lifetime.lastValidBlockHeight)
        }).pipe(Effect.provide(TestLayer)),
      120_000
    )

    it.live(
      "a failing program: TransactionFailed with the runtime's error and logs (skipPreflight), SimulationFailed with preflight",
      () =>
        Effect.gen(function*() {
          // A transfer of more than the payer holds: the System program fails it.
          const { tx } = yield* setup(5_000_000_000n, 1_000_000n)
          const failed = yield* Effect.flip(
            SendAndConfirm.sendAndConfirm(tx as never, { ...fast, skipPreflight: true })
          )
          expect(failed._tag).toBe("TransactionFailed")
          const f = failed as SendAndConfirm.TransactionFailed
          expect(JSON.stringify(f.err, (_, v) => typeof v === "bigint" ? Number(v) : v)).toContain("InstructionError")
          expect(f.logs.some((l) => l.includes("11111111111111111111111111111111"))).toBe(true)

          const { tx: again } = yield* setup(5_000_000_000n, 1_000_000n)
          const simulated = yield* Effect.flip(SendAndConfirm.sendAndConfirm(again as never, fast))
          expect(simulated._tag).toBe("SimulationFailed")
          expect((simulated as SendAndConfirm.SimulationFailed).logs.length).toBeGreaterThan(0)
        }).pipe(Effect.provide(TestLayer)),
      120_000
    )

    it.live("interrupted: no fiber of it left, and the emulator sees no further send", () =>
      Effect.gen(function*() {
        const { emu, tx } = yield* setup(1_000_000n)
        emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendTransaction"] })
        const supervisor = yield* Supervisor.track
        const fiber = yield* Effect.fork(
          Effect.supervised(SendAndConfirm.sendAndConfirm(tx as never, fast), supervisor)
        )
        yield* until(() => emu.count("sendTransaction"), (n) => n >= 3)
        yield* Fiber.interrupt(fiber)
        const live = yield* supervisor.value
        expect(live.filter((f) => f.unsafePoll() === null)).toEqual([])
        const sent = emu.count("sendTransaction")
        yield* Effect.sleep("1 second")
        expect(emu.count("sendTransaction")).toBe(sent)
      }).pipe(Effect.provide(TestLayer)), 120_000)
  }
)
