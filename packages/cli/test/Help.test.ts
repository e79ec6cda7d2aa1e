/**
 * The CLI's help says what a user types: the whole path in each usage line, optional flags in
 * brackets, each argument once; an unknown command is one line; and every `solfx … --emulator` line
 * of the README prints something from the emulator's own data.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { inProcess } from "./support/Cli.js"

const usageLine = (stdout: string) => {
  const lines = stdout.split("\n")
  const at = lines.findIndex((l) => l.startsWith("$ "))
  // A long usage wraps onto indented lines.
  const rest = lines.slice(at + 1).findIndex((l) => !l.startsWith("    "))
  return lines.slice(at, at + 1 + (rest < 0 ? 0 : rest)).map((l) => l.trim()).join(" ")
}

describe("solfx help", () => {
  it.live("a subcommand's usage line is its whole path", () =>
    Effect.gen(function*() {
      const cases: ReadonlyArray<readonly [ReadonlyArray<string>, string]> = [
        [["das", "asset", "--help"], "$ solfx das asset <id>"],
        [["webhooks", "get", "--help"], "$ solfx webhooks get <webhookID>"],
        [["emulator", "--help"], "$ solfx emulator [--port integer]"],
        [["metadata", "-h"], "$ solfx metadata [--off-chain]"]
      ]
      for (const [args, start] of cases) {
        const r = yield* inProcess(args)
        expect(r.code, r.stderr).toBe(0)
        expect(usageLine(r.stdout)).toMatch(new RegExp(`^${start.replace(/[$[\]]/g, "\\$&")}`))
        expect(r.stdout.split("\n").filter((l) => l.length > 100)).toEqual([])
      }
    }), { timeout: 240_000 })

  it.live(
    "optional flags are in brackets: webhooks edit's addresses and types, create's types",
    () =>
      Effect.gen(function*() {
        const edit = usageLine((yield* inProcess(["webhooks", "edit", "--help"])).stdout)
        for (const flag of ["address", "add-address", "remove-address", "transaction-type"]) {
          expect(edit).toContain(`[--${flag} text...]`)
        }
        const create = usageLine((yield* inProcess(["webhooks", "create", "--help"])).stdout)
        expect(create).toContain("[--transaction-type text...]")
        // The webhook's accounts are what it watches: create requires them.
        expect(create).toMatch(/ --address text\.\.\. /)
        const emulator = usageLine((yield* inProcess(["emulator", "--help"])).stdout)
        expect(emulator).toContain("[--cors-origin text...]")
        expect(emulator).toContain("[--program text...]")
      }),
    { timeout: 240_000 }
  )

  it.live("toggle names its state once, and refuses anything but on or off", () =>
    Effect.gen(function*() {
      const help = yield* inProcess(["webhooks", "toggle", "--help"])
      expect(usageLine(help.stdout)).toBe("$ solfx webhooks toggle <webhookID> <on|off>")
      const wrong = yield* inProcess(["webhooks", "toggle", "some-id", "maybe", "--emulator"])
      expect(wrong.code).toBe(2)
      expect(wrong.stderr).toMatch(/^UsageError: .*expected on or off, got maybe/)
    }), { timeout: 240_000 })

  it.live(
    "an unknown command is one line on stderr with the nearest name, exit 2; webhooks alone still lists",
    () =>
      Effect.gen(function*() {
        const wrong = yield* inProcess(["webhooks", "lst"])
        expect(wrong.code).toBe(2)
        expect(wrong.stdout).toBe("")
        expect(wrong.stderr.trimEnd().split("\n")).toHaveLength(1)
        expect(wrong.stderr).toMatch(
          /^UsageError: unknown command for solfx webhooks: use one of .*\(did you mean list\?\)$/m
        )
        const bare = yield* inProcess(["webhooks", "--emulator", "--json"])
        expect(bare.code, bare.stderr).toBe(0)
        expect(bare.stdout.trim().split("\n").length).toBeGreaterThan(0)
        expect(JSON.parse(bare.stdout.split("\n")[0]!)).toHaveProperty("webhookID")
      }),
    { timeout: 240_000 }
  )

  it.live(
    "every `npx solfx … --emulator` line of the README prints the emulator's own data",
    () =>
      Effect.gen(function*() {
        const readme = readFileSync(fileURLToPath(new URL("../../../README.md", import.meta.url)), "utf8")
        const lines = readme.split("\n").filter((l) => l.startsWith("npx solfx ") && l.includes("--emulator"))
        expect(lines.length).toBeGreaterThanOrEqual(5)
        for (const line of lines) {
          const args = line.slice("npx solfx ".length).split(/\s+/).filter((a) => a !== "")
          const r = yield* inProcess(args)
          expect(r.code, `${line}: ${r.stderr}`).toBe(0)
          expect(r.stdout.trim(), line).not.toBe("")
          expect(r.stdout, line).not.toContain("(none)")
        }
      }),
    { timeout: 300_000 }
  )
})
