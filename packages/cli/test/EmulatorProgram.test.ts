/**
 * `solfx emulator --program <id>=<file.so>` as a child process: a real program (the SPL Memo
 * program's ELF that the litesvm package ships, written to a .so file) loaded under a fresh id,
 * called over HTTP with a transaction signed by @solana/kit: it runs with its own logs. A flag
 * that is not `<id>=<file>` is a usage error (exit 2), a file that is not a program stops the
 * start with the reason (exit 1).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import { exited, firstLine, inProcess, solfx, start } from "./support/Cli.js"

const post = (url: string, key: string, method: string, params: unknown) =>
  Effect.promise(() =>
    fetch(`${url}/?api-key=${key}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "1", method, params })
    }).then((r) => r.json() as Promise<any>)
  )

describe("solfx emulator --program", () => {
  it.live("loads a real program from a .so file; a call runs it with its own logs", () =>
    Effect.gen(function*() {
      const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "solfx-cli-program-"))
      const file = Path.join(dir, "memo.so")
      // The SPL Memo program's ELF, as an in-process bank holds it (litesvm ships it).
      const elf = yield* Effect.scoped(Effect.map(Emulator.make({}), (emu) => emu.ledger.bank.account(Kit.MEMO)!.data))
      Fs.writeFileSync(file, elf)
      const programId = (yield* Effect.promise(Kit.signer)).address
      const child = start(["emulator", "--port", "0", "--api-key", "program-key", "--program", `${programId}=${file}`])
      try {
        const info = JSON.parse(yield* Effect.promise(() => firstLine(child)))
        const payer = yield* Effect.promise(Kit.signer)
        const airdrop = yield* post(info.url, "program-key", "requestAirdrop", [payer.address, 1_000_000_000])
        expect(airdrop.result, JSON.stringify(airdrop)).toBeTypeOf("string")
        const latest = yield* post(info.url, "program-key", "getLatestBlockhash", [])
        const tx = yield* Effect.promise(() =>
          Kit.build({
            version: 0,
            payer,
            blockhash: latest.result.value.blockhash,
            instructions: [{ programAddress: programId, accounts: [], data: new TextEncoder().encode("cli") } as any]
          })
        )
        const sim = yield* post(info.url, "program-key", "simulateTransaction", [tx.base64, { encoding: "base64" }])
        expect(sim.result.value, JSON.stringify(sim)).toMatchObject({
          err: null,
          logs: [
            `Program ${programId} invoke [1]`,
            "Program log: Memo (len 3)",
            "Program log: cli",
            expect.stringMatching(/ consumed \d+ of 200000 compute units$/),
            `Program ${programId} success`
          ]
        })
        const sent = yield* post(info.url, "program-key", "sendTransaction", [tx.base64, { encoding: "base64" }])
        expect(sent).toMatchObject({ result: tx.signature })
        child.kill("SIGINT")
        const exit = yield* Effect.promise(() => exited(child))
        expect(exit.code).toBe(130)
      } finally {
        if (child.exitCode === null) child.kill("SIGKILL")
      }

      // A file that is not a program: nothing starts, the reason on stderr.
      const junk = Path.join(dir, "junk.so")
      Fs.writeFileSync(junk, "junk")
      const refused = yield* solfx(["emulator", "--port", "0", "--program", `${programId}=${junk}`])
      expect(refused.code, refused.stderr).toBe(1)
      expect(refused.stdout).toBe("")
      expect(refused.stderr).toContain(`--program ${programId}=${junk}: the file is not an ELF file`)
      Fs.rmSync(dir, { recursive: true, force: true })
    }), 240_000)

  it.effect("a flag that is not <id>=<file> is a usage error naming the rule", () =>
    Effect.gen(function*() {
      const result = yield* inProcess(["emulator", "--program", "memo.so"])
      expect(result.code).toBe(2)
      expect(result.stderr).toContain("--program must be <program id>=<file.so>, got \"memo.so\"")
    }))
})
