/**
 * `solfx fees`, `solfx tx history` and `solfx tx parse` as child processes against an emulator in
 * this process: the levels table and its JSON lines, an address's history by page and whole (the
 * same list getSignaturesForAddress gives), enhanced parsing in input order.
 */
import { expect, layer } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import { morePagesNote } from "../src/Handler.js"
import { jsonLines, type Result, solfx } from "./support/Cli.js"

const envOf = (emu: Emulator.Emulator): Record<string, string> => ({
  SOLFX_API_KEY: emu.apiKey,
  SOLFX_RPC_URL: emu.url,
  SOLFX_REST_URL: emu.url,
  SOLFX_V0_URL: emu.url,
  SOLFX_ADMIN_URL: emu.url
})

const ok = (r: Result, what: string) => {
  expect(r.stderr.replace(`${morePagesNote}\n`, ""), `${what}: stderr`).toBe("")
  expect(r.code, `${what}: exit code (stderr: ${r.stderr})`).toBe(0)
  return r
}

const signaturesOf = (emu: Emulator.Emulator, address: string) =>
  Effect.promise(async () => {
    const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: "1", method: "getSignaturesForAddress", params: [address] })
    })
    return (Json.parse(await res.text()) as any).result as ReadonlyArray<{ signature: string }>
  })

layer(Emulator.layer({ slotMs: 20 }), { timeout: 300_000, excludeTestServices: true })("solfx fees and tx", (it) => {
  it.effect("fees: six ordered levels as a table and as JSON lines", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const [table, json] = yield* Effect.all([
        solfx(["fees", emu.samples.feeAccount], { env }),
        solfx(["fees", emu.samples.feeAccount, emu.samples.wallet, "--json"], { env })
      ], { concurrency: 2 })
      const lines = ok(table!, "fees").stdout.trimEnd().split("\n")
      expect(lines[0]).toMatch(/^LEVEL +MICRO-LAMPORTS\/CU/)
      expect(lines.slice(1, 7).map((l) => l.split(/ +/)[0])).toEqual([
        "Min",
        "Low",
        "Medium",
        "High",
        "VeryHigh",
        "UnsafeMax"
      ])
      const rows = jsonLines(ok(json!, "fees --json").stdout)
      expect(rows.map((r) => r.level)).toEqual(["Min", "Low", "Medium", "High", "VeryHigh", "UnsafeMax"])
      const fees = rows.map((r) => r.microLamportsPerComputeUnit as number)
      expect(fees).toEqual([...fees].sort((a, b) => a - b))
    }))

  it.effect("tx history: a page, then --all (every page, the signatures list); tx parse in input order", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = envOf(emu)
      const wallet = emu.samples.wallet
      const listed = yield* signaturesOf(emu, wallet)
      const before = emu.count("getTransactionsForAddress")
      const [page, whole, failed] = yield* Effect.all([
        solfx(["tx", "history", wallet, "--limit", "5", "--json"], { env }),
        solfx(["tx", "history", wallet, "--all", "--limit", "500", "--json"], { env }),
        solfx(["tx", "history", wallet, "--all", "--status", "failed", "--json"], { env })
      ], { concurrency: 3 })
      expect(jsonLines(ok(page!, "history").stdout).map((t) => t.signature)).toEqual(
        listed.slice(0, 5).map((s) => s.signature)
      )
      expect(page!.stderr).toContain(morePagesNote)
      const all = jsonLines(ok(whole!, "history --all").stdout)
      expect(all.map((t) => t.signature).slice(0, listed.length)).toEqual(listed.map((s) => s.signature))
      const failedRows = jsonLines(ok(failed!, "history --status failed").stdout)
      expect(failedRows.length).toBeGreaterThan(0)
      expect(failedRows.every((t) => t.err !== null)).toBe(true)
      expect(emu.count("getTransactionsForAddress") - before).toBe(1 + Math.ceil(all.length / 500) + 1)
      const chosen = [listed[2]!.signature, listed[0]!.signature]
      const parsed = yield* solfx(["tx", "parse", ...chosen, "--json"], { env })
      expect(jsonLines(ok(parsed, "tx parse").stdout).map((t) => t.signature)).toEqual(chosen)
    }))
})
