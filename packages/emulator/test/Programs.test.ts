/**
 * Programs loaded into the bank (`programs`, `--program <id>=<file.so>`), as
 * `solana-test-validator --bpf-program` loads them. The program is a real one: the SPL Memo
 * program's ELF (sBPF, machine 263) that the litesvm package ships, written to a .so file and
 * loaded under a fresh id. Before it is loaded, a call to that id fails as a validator fails it.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Kit from "@solfx/testing/Kit"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { parseFlags } from "../src/bin.js"
import * as Emulator from "../src/Emulator.js"
import * as Programs from "../src/Programs.js"
import { rpc } from "./support/Http.js"

/** The SPL Memo program's ELF, as the bank holds it (litesvm ships it). */
const memoElf = Effect.scoped(
  Effect.map(Emulator.make({ slotMs: 60_000 }), (emu) => emu.ledger.bank.account(Kit.MEMO)!.data)
)

/** A call of `programId` with `data` and no accounts, signed by a funded payer over the current blockhash. */
const call = (emu: Emulator.Emulator, programId: string, text: string) =>
  Effect.gen(function*() {
    const payer = yield* Effect.promise(Kit.signer)
    yield* rpc(emu, "requestAirdrop", [payer.address, 1_000_000_000])
    const { blockhash } = emu.ledger.bank.blockhash()
    return yield* Effect.promise(() =>
      Kit.build({
        version: 0,
        payer,
        blockhash,
        instructions: [{ programAddress: programId, accounts: [], data: new TextEncoder().encode(text) } as any]
      })
    )
  })

describe("programs", () => {
  it("parse reads <id>=<file.so> and refuses the rest naming the rule", () => {
    const id = "Counter111111111111111111111111111111111111"
    expect(Programs.parse(`${id}=./a=b.so`)).toEqual(Either.right({ programId: id, path: "./a=b.so" }))
    expect(Programs.parse("./counter.so")).toEqual(
      Either.left("--program must be <program id>=<file.so>, got \"./counter.so\"")
    )
    expect(Programs.parse(`${id}=`)).toMatchObject({ _tag: "Left" })
    expect(Programs.parse("notAnAddress=./x.so")).toEqual(
      Either.left("--program: the program id must be a base58 32-byte address, got \"notAnAddress\"")
    )
    expect(parseFlags(["--program", `${id}=./x.so`, "--program", `${Kit.MEMO}=./y.so`]).programs).toEqual([
      { programId: id, path: "./x.so" },
      { programId: Kit.MEMO, path: "./y.so" }
    ])
    expect(() => parseFlags(["--program", "x.so"])).toThrow(/<program id>=<file.so>/)
  })

  it.scopedLive(
    "a real program from a .so: absent, a call fails as a validator's; loaded, it runs with its own logs; a bad file is refused",
    () =>
      Effect.gen(function*() {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "solfx-programs-"))
        yield* Effect.addFinalizer(() => Effect.sync(() => Fs.rmSync(dir, { recursive: true, force: true })))
        const file = Path.join(dir, "memo.so")
        const elf = yield* memoElf
        expect(Programs.elfProblem(elf)).toBeUndefined()
        Fs.writeFileSync(file, elf)
        const programId = (yield* Effect.promise(Kit.signer)).address

        // Without it: the runtime's ProgramAccountNotFound, nothing charged.
        const without = yield* Emulator.make({ slotMs: 60_000 })
        const absent = yield* call(without, programId, "hello")
        const refused = yield* rpc(without, "simulateTransaction", [absent.base64, { encoding: "base64" }])
        expect(refused.json.result.value).toMatchObject({ err: "ProgramAccountNotFound", logs: [] })
        const sent = yield* rpc(without, "sendTransaction", [absent.base64, { encoding: "base64" }])
        expect(sent.json.error).toMatchObject({ code: -32002, data: { err: "ProgramAccountNotFound" } })
        // An account that exists but is no program: InvalidProgramForExecution.
        const plain = (yield* Effect.promise(Kit.signer)).address
        yield* rpc(without, "requestAirdrop", [plain, 1_000_000_000])
        const notProgram = yield* call(without, plain, "hello")
        const invalid = yield* rpc(without, "simulateTransaction", [notProgram.base64, { encoding: "base64" }])
        expect(invalid.json.result.value, invalid.text).toMatchObject({ err: "InvalidProgramForExecution" })

        // With it, from the file: the memo program's own logs, and the transaction lands.
        const emu = yield* Emulator.make({ slotMs: 60_000, programs: [{ programId, path: file }] })
        const tx = yield* call(emu, programId, "hello")
        const sim = yield* rpc(emu, "simulateTransaction", [tx.base64, { encoding: "base64" }])
        expect(sim.json.result.value, sim.text).toMatchObject({
          err: null,
          logs: [
            `Program ${programId} invoke [1]`,
            "Program log: Memo (len 5)",
            "Program log: hello",
            expect.stringMatching(new RegExp(`^Program ${programId} consumed \\d+ of \\d+ compute units$`)),
            `Program ${programId} success`
          ]
        })
        expect(sim.json.result.value.unitsConsumed).toBeGreaterThan(0)
        const landed = yield* rpc(emu, "sendTransaction", [tx.base64, { encoding: "base64" }])
        expect(landed.json, landed.text).toMatchObject({ result: tx.signature })
        // Confirmed one slot later (getTransaction answers at confirmed or finalized).
        yield* emu.world.advanceSlots({ slots: 1 })
        const read = yield* rpc(emu, "getTransaction", [tx.signature, {
          commitment: "confirmed",
          encoding: "json",
          maxSupportedTransactionVersion: 0
        }])
        expect(read.json.result.meta.logMessages).toEqual(sim.json.result.value.logs)
        // The program account is executable, as getAccountInfo shows a deployed program.
        expect(emu.ledger.bank.isProgram(programId)).toBe(true)

        // A file that is not a Solana program, or no file: refused with the reason, nothing started.
        const bad = Path.join(dir, "not-a-program.so")
        Fs.writeFileSync(bad, "not an elf")
        const starts = (path: string) =>
          Effect.map(
            Effect.exit(Effect.scoped(Emulator.make({ programs: [{ programId, path }] }))),
            (exit) => Exit.isFailure(exit) ? Cause.pretty(exit.cause) : "started"
          )
        expect(yield* starts(bad)).toMatch(
          new RegExp(`--program ${programId}=.*not-a-program.so: the file is not an ELF file.*nothing was started`)
        )
        expect(yield* starts(Path.join(dir, "missing.so"))).toMatch(/missing\.so: cannot be read \(ENOENT/)
        const x86 = Buffer.from(elf)
        x86.writeUInt16LE(62, 18)
        Fs.writeFileSync(bad, x86)
        expect(yield* starts(bad)).toMatch(/is an ELF for machine 62, not a Solana program/)
      }),
    240_000
  )
})
