/**
 * `solfx webhooks create|get|edit|toggle|delete` against an emulator (in process):
 * each step as the emulator then shows it, the auth header never printed, and a
 * deleted webhook a typed not-found with exit code 1, and a bad type refused (exit 2) before any request.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import { inProcess, jsonLines, type Result } from "./support/Cli.js"

const SECRET = "Bearer cli-webhook-secret-31f"
const A = "11111111111111111111111111111111"
const B = "So11111111111111111111111111111111111111112"

/** Exit 0 and no secret in the output; the JSON lines of stdout. */
const ok = (r: Result, what: string, json = true) => {
  expect(r.code, `${what}: ${r.stderr}`).toBe(0)
  expect(r.stdout + r.stderr).not.toContain("cli-webhook-secret")
  return json ? jsonLines(r.stdout) : []
}

describe("solfx webhooks", () => {
  it.scopedLive("create, get, edit, toggle, delete; then get is WebhookNotFound", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webhooks: [] })
      const env = {
        SOLFX_API_KEY: emu.apiKey,
        SOLFX_RPC_URL: emu.url,
        SOLFX_REST_URL: emu.url,
        SOLFX_V0_URL: emu.url,
        SOLFX_ADMIN_URL: emu.url
      }
      const run = (...args: ReadonlyArray<string>) => inProcess(["webhooks", ...args], env)

      const [created] = ok(
        yield* run(
          "create",
          "--webhook-url",
          "http://127.0.0.1:9/hook",
          "--type",
          "enhanced",
          "--address",
          A,
          "--transaction-type",
          "TRANSFER",
          "--auth-header",
          SECRET,
          "--json"
        ),
        "create"
      )
      const id = created.webhookID as string
      expect(created).toMatchObject({ accountAddresses: [A], transactionTypes: ["TRANSFER"], authHeader: "<redacted>" })
      const human = yield* run("get", id)
      ok(human, "get", false)
      expect(human.stdout).toContain("auth header")
      expect(human.stdout).toContain("set (redacted)")

      const [edited] = ok(yield* run("edit", id, "--add-address", B, "--json"), "edit")
      expect(edited.accountAddresses).toEqual([A, B])
      expect(edited.transactionTypes).toEqual(["TRANSFER"])
      const [removed] = ok(yield* run("edit", id, "--remove-address", A, "--no-auth-header", "--json"), "edit")
      expect(removed.accountAddresses).toEqual([B])
      expect(removed.authHeader).toBeUndefined()

      const [off] = ok(yield* run("toggle", id, "off", "--json"), "toggle")
      expect(off.active).toBe(false)
      const listed = ok(yield* run("--json"), "list")
      expect(listed.map((h) => [h.webhookID, h.active])).toEqual([[id, false]])

      ok(yield* run("delete", id), "delete", false)
      const gone = yield* run("get", id)
      expect(gone.code).toBe(1)
      expect(gone.stderr).toMatch(/^WebhookNotFound: /)

      // Bad input is refused before any request: an unknown transaction type names the field.
      const before = emu.requests.length
      const bad = yield* run(
        "create",
        "--webhook-url",
        "http://127.0.0.1:9/hook",
        "--type",
        "raw",
        "--address",
        A,
        "--transaction-type",
        "TRANSFR"
      )
      // The CLI's code for input it refuses.
      expect(bad.code).toBe(2)
      expect(bad.stderr).toMatch(/^InvalidRequest: .*transactionTypes\[0\]/)
      expect(emu.requests.length).toBe(before)
    }))
})
