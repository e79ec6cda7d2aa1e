/**
 * `--state FILE`: what happened is written on exit and read on start, so a restart answers as the
 * last run left it (raw HTTP bodies, byte for byte); a corrupt or foreign file is refused with the
 * reason and left as it was.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fs from "node:fs"
import * as Os from "node:os"
import * as Path from "node:path"
import * as Emulator from "../src/Emulator.js"
import { get, post, rpc } from "./support/Http.js"

const control = (emu: Emulator.Emulator, call: string, body: unknown) =>
  Effect.map(post(emu, body, { path: `/emulator/world/${call}` }), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.json
  })

describe("--state", () => {
  it.live(
    "round-trips across a restart; a corrupt, foreign or other-seed file is refused and left as it was",
    () =>
      Effect.gen(function*() {
        const dir = Fs.mkdtempSync(Path.join(Os.tmpdir(), "solfx-state-"))
        const file = Path.join(dir, "state.json")
        // An hour a slot: the restart continues from the saved slot, and no slot passes meanwhile.
        const options = { seed: 7, slotMs: 3_600_000, state: file }
        const owner = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
        const made: Record<string, string> = {}
        const views = (emu: Emulator.Emulator) =>
          Effect.gen(function*() {
            const out: Array<string> = []
            for (const list of ["balances", "history", "transfers"]) {
              out.push((yield* get(emu, `/v1/wallet/${owner}/${list}`, { query: { showNfts: "true" } })).text)
            }
            out.push((yield* rpc(emu, "getAssetsByOwner", { ownerAddress: owner, page: 1 })).text)
            out.push((yield* rpc(emu, "getAsset", { id: made["mint"] })).text)
            out.push((yield* rpc(emu, "getAccountInfo", [made["set"], { encoding: "base64" }])).text)
            out.push((yield* rpc(emu, "getSignaturesForAddress", [owner])).text)
            out.push((yield* rpc(emu, "getIndexerSlot", [])).text)
            return out
          })
        const first = yield* Effect.scoped(Effect.gen(function*() {
          const emu = yield* Emulator.make(options)
          yield* control(emu, "fund", { address: owner, lamports: "3000000000" })
          const token = yield* control(emu, "mintFungible", { owner, amount: "777", decimals: 1 })
          made["mint"] = token.mint
          made["set"] = emu.dataset.address("state:set")
          yield* control(emu, "compress", { owner })
          yield* control(emu, "setAccount", { address: made["set"], lamports: "42", data: "AQID", owner })
          return yield* views(emu)
        }))
        const saved = Fs.readFileSync(file, "utf8")
        expect(JSON.parse(saved)).toMatchObject({ format: "solfx-emulator-state", version: 1, seed: 7 })
        const second = yield* Effect.scoped(Effect.flatMap(Emulator.make(options), views))
        expect(second).toEqual(first)
        // What the second run did not change is written back the same.
        expect(JSON.parse(Fs.readFileSync(file, "utf8")).parts.world.transactions).toEqual(
          JSON.parse(saved).parts.world.transactions
        )

        const refused = (text: string, seed: number, reason: RegExp) =>
          Effect.gen(function*() {
            Fs.writeFileSync(file, text)
            const exit = yield* Effect.exit(Effect.scoped(Emulator.make({ ...options, seed })))
            expect(Exit.isFailure(exit)).toBe(true)
            if (Exit.isFailure(exit)) expect(Cause.pretty(exit.cause)).toMatch(reason)
            expect(Fs.readFileSync(file, "utf8")).toBe(text)
          })
        yield* refused(saved.slice(0, 100), 7, /is not JSON.*nothing was changed/)
        yield* refused(JSON.stringify({ hello: "world" }), 7, /is not a solfx emulator state file/)
        yield* refused(saved.replace("\"version\":1", "\"version\":99"), 7, /has version 99/)
        yield* refused(saved, 8, /belongs to seed 7; this emulator runs seed 8/)
        Fs.rmSync(dir, { recursive: true, force: true })
      }),
    120_000
  )
})
