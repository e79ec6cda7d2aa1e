/**
 * SendAndConfirm.sendAndConfirmBundle against the emulator over loopback: kit-signed bundles
 * executed by the emulator's bank, faults the emulator's own, what was sent its request count.
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
import * as Emulator from "@solfx/emulator/Emulator"
import { SendAndConfirm, SolanaRpc } from "@solfx/kit"
import * as Kit from "@solfx/testing/Kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Supervisor from "effect/Supervisor"

const TestLayer = Loopback.layer(SolanaRpc.layer, { seed: 23 })

const fast = { rebroadcastEvery: "300 millis", pollEvery: "100 millis" } as const

/**
 * A funded payer and a bundle of two of its transactions on the emulator's latest blockhash:
 * `lamports` to a fresh address, then a tip of `tip` to a Jito tip account.
 */
const setup = (lamports: bigint, options: { readonly fund?: bigint; readonly tip?: bigint } = {}) =>
  Effect.gen(function*() {
    const emu = yield* Emulator.EmulatorHandle
    const solana = yield* SolanaRpc.SolanaRpc
    const payer: KeyPairSigner = yield* Effect.promise(() => generateKeyPairSigner())
    const to = address(emu.dataset.address(`kit:bundle:${payer.address}`))
    yield* emu.world.fund({ address: payer.address, lamports: options.fund ?? 1_000_000_000n })
    const { value: lifetime } = yield* solana.call(solana.rpc.getLatestBlockhash({ commitment: "confirmed" }))
    const sign = (instruction: Parameters<typeof appendTransactionMessageInstructions>[0][number]) =>
      Effect.promise(() =>
        signTransactionMessageWithSigners(pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(payer, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
          (m) => appendTransactionMessageInstructions([instruction, Kit.memo(`bundle ${payer.address}`)], m)
        ))
      )
    const payment = yield* sign(getTransferSolInstruction({ source: payer, destination: to, amount: lamports }))
    const tip = yield* sign(
      getTransferSolInstruction({ source: payer, destination: Kit.TIP, amount: options.tip ?? 10_000n })
    )
    return { emu, solana, to, bundle: [payment, tip], lifetime }
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

describe("SendAndConfirm.sendAndConfirmBundle (integration, loopback emulator)", () => {
  it.live(
    "the first sendBundle dropped by a fault: confirmed by a rebroadcast, both transactions landed",
    () =>
      Effect.gen(function*() {
        const { bundle, emu, solana, to } = yield* setup(1_234_567n)
        emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendBundle"], times: 1 })
        const confirmed = yield* SendAndConfirm.sendAndConfirmBundle(bundle as never, fast)
        expect(emu.faultsHit.reset).toBe(1)
        expect(confirmed.sends).toBeGreaterThanOrEqual(2)
        expect(confirmed.bundleId).toBe(Kit.bundleIdOf(confirmed.signatures))
        const { value } = yield* solana.call(solana.rpc.getBalance(to))
        expect(value).toBe(1_234_567n)
        const { value: statuses } = yield* solana.call(solana.rpc.getSignatureStatuses([...confirmed.signatures]))
        expect(statuses.map((s) => s?.slot)).toEqual([confirmed.slot, confirmed.slot])
      }).pipe(Effect.provide(TestLayer)),
    120_000
  )

  it.live(
    "never landed, the block height advanced past lastValidBlockHeight: BlockhashExpired",
    () =>
      Effect.gen(function*() {
        const { bundle, emu, lifetime, solana } = yield* setup(1_000_000n)
        emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendBundle"] })
        const fiber = yield* Effect.fork(SendAndConfirm.sendAndConfirmBundle(bundle as never, fast))
        yield* until(() => emu.count("sendBundle"), (n) => n >= 2)
        const height = yield* solana.call(solana.rpc.getBlockHeight())
        yield* emu.world.advanceSlots({ slots: Number(lifetime.lastValidBlockHeight - height) + 5 })
        const e = yield* Effect.flip(Fiber.join(fiber))
        expect(e).toMatchObject({ _tag: "BlockhashExpired", lastValidBlockHeight: lifetime.lastValidBlockHeight })
        expect((e as SendAndConfirm.BlockhashExpired).sends).toBeGreaterThanOrEqual(2)
      }).pipe(Effect.provide(TestLayer)),
    120_000
  )

  it.live(
    "a transaction of it fails: BundleFailed with the runtime's error, before the blockhash expires, nothing landed",
    () =>
      Effect.gen(function*() {
        // A payment of more than the payer holds: the System program fails it, and the bundle whole.
        const { bundle, emu, solana, to } = yield* setup(5_000_000_000n, { fund: 1_000_000n })
        const failed = yield* Effect.flip(SendAndConfirm.sendAndConfirmBundle(bundle as never, fast))
        expect(failed._tag).toBe("BundleFailed")
        const f = failed as SendAndConfirm.BundleFailed
        expect(JSON.stringify(f.err, (_, v) => typeof v === "bigint" ? Number(v) : v)).toContain("InstructionError")
        const { value } = yield* solana.call(solana.rpc.getBalance(to))
        expect(value).toBe(0n)
        expect(emu.count("sendBundle")).toBeGreaterThanOrEqual(1)
      }).pipe(Effect.provide(TestLayer)),
    120_000
  )

  it.live("bad input is refused with the field and the rule, nothing sent", () =>
    Effect.gen(function*() {
      const { bundle, emu } = yield* setup(1_000_000n, { tip: 10n })
      expect(yield* Effect.flip(SendAndConfirm.sendAndConfirmBundle(bundle as never, fast))).toMatchObject({
        _tag: "InvalidRequest",
        field: "transactions"
      })
      expect(yield* Effect.flip(SendAndConfirm.sendAndConfirmBundle([], fast))).toMatchObject({
        _tag: "InvalidRequest",
        field: "transactions"
      })
      expect(emu.count("sendBundle")).toBe(0)
    }).pipe(Effect.provide(TestLayer)), 120_000)

  it.live(
    "interrupted: no fiber of it left, and the emulator sees no further sendBundle",
    () =>
      Effect.gen(function*() {
        const { bundle, emu } = yield* setup(1_000_000n)
        emu.setFaults({ rate: 1, kinds: ["reset"], only: ["sendBundle"] })
        const supervisor = yield* Supervisor.track
        const fiber = yield* Effect.fork(
          Effect.supervised(SendAndConfirm.sendAndConfirmBundle(bundle as never, fast), supervisor)
        )
        yield* until(() => emu.count("sendBundle"), (n) => n >= 3)
        yield* Fiber.interrupt(fiber)
        const live = yield* supervisor.value
        expect(live.filter((f) => f.unsafePoll() === null)).toEqual([])
        const sent = emu.count("sendBundle")
        yield* Effect.sleep("1 second")
        expect(emu.count("sendBundle")).toBe(sent)
      }).pipe(Effect.provide(TestLayer)),
    120_000
  )
})
