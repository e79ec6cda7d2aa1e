/**
 * The compatibility manifest cannot drift from the routing: every method and route the emulator
 * serves is listed with a fidelity, every listed one is served, every refused one is answered
 * "Method not found", and `GET /emulator/info` serves the same list over HTTP.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import { areas } from "../src/areas/index.js"
import * as Emulator from "../src/Emulator.js"
import * as Manifest from "../src/Manifest.js"
import { get, rpc } from "./support/Http.js"

describe("Manifest", () => {
  it.scoped("lists exactly what is routed, each with a fidelity; refused methods are not found", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      const manifest = Manifest.make(areas)
      const listed = manifest.methods.filter((m) => m.fidelity !== "refused")
      // The emulator's own operation names: JSON-RPC methods, and REST routes as `METHOD /path`.
      const routed = emu.operations.filter((op) => op !== "POST /")
      const names = listed.map((m) => m.name)
      expect(new Set(names).size).toBe(names.length)
      expect(listed.filter((m) => m.fidelity === "unlisted").map((m) => m.name), "served, without a fidelity line")
        .toEqual([])
      expect([...names].sort()).toEqual([...routed].sort())
      // Every line of the table is a method that is served (no stale line).
      expect(Object.keys(Manifest.served).filter((n) => !names.includes(n)), "listed, not served").toEqual([])
      // Every entry of the endpoint table is served, so listed.
      for (const entry of Endpoints.all) {
        const name = entry._tag === "Rpc" ? entry.name : `${entry.method} ${entry.path.replace(/\{([^}]+)\}/g, ":$1")}`
        expect(names, name).toContain(name)
      }
      for (const m of manifest.methods.filter((m) => m.fidelity === "refused")) {
        expect(routed).not.toContain(m.name)
        const reply = yield* rpc(emu, m.name, [])
        expect(reply.json.error?.code, m.name).toBe(-32601)
      }
      const info = yield* get(emu, "/emulator/info")
      expect(info.status, info.text).toBe(200)
      expect(info.json).toEqual(JSON.parse(JSON.stringify(manifest)))
      expect(emu.manifest).toEqual(manifest)
    }))
})
