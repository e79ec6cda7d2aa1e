import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as Emulator from "../src/Emulator.js"
import * as Faults from "../src/Faults.js"
import { attempt, get, rawRpc, rpc, untilServerSleeps } from "./support/Http.js"
import { testArea } from "./support/TestArea.js"

const start = (options: Emulator.Options = {}) => Emulator.make({ areas: [], extraAreas: [testArea], ...options })
const only = (kind: Faults.FaultKind, extra: Partial<Faults.FaultOptions> = {}): Faults.FaultOptions => ({
  rate: 1,
  kinds: [kind],
  ...extra
})

describe("fault injection", () => {
  it.scopedLive("is off by default", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      for (let i = 0; i < 20; i++) expect((yield* rpc(emu, "echo")).status).toBe(200)
      expect(Object.values(emu.faultsHit).every((n) => n === 0)).toBe(true)
    }))

  it.scopedLive("429 carries Retry-After, in the JSON-RPC and the REST shape, and is not charged", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("429", { retryAfterSeconds: 3 }) })
      const r = yield* rpc(emu, "echo", {}, "x")
      expect(r.status).toBe(429)
      expect(r.headers.get("retry-after")).toBe("3")
      expect(r.json).toEqual({ jsonrpc: "2.0", error: { code: -32429, message: "rate limited" }, id: "x" })
      const rest = yield* get(emu, "/v1/test/x/things")
      expect(rest.status).toBe(429)
      expect(rest.headers.get("retry-after")).toBe("3")
      expect(rest.json).toEqual({ error: "rate limited" })
      expect(emu.usage().creditsUsed).toBe(0)
      expect(emu.usage().usage.rpc).toBe(0)
      expect(emu.faultsHit["429"]).toBe(2)
      expect(emu.requests.map((q) => [q.status, q.fault])).toEqual([[429, "429"], [429, "429"]])
    }))

  it.scopedLive("500 and 503", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("500") })
      const a = yield* rpc(emu, "echo", {}, 1)
      expect(a.status).toBe(500)
      expect(a.json.error.code).toBe(-32603)
      emu.setFaults(only("503"))
      const b = yield* rpc(emu, "echo", {}, 2)
      expect(b.status).toBe(503)
      expect(b.json).toMatchObject({ error: { code: -32002 }, id: 2 })
      expect(b.headers.get("retry-after")).toBeNull()
      const c = yield* get(emu, "/v1/test/x/things")
      expect(c.status).toBe(503)
      expect(c.json).toEqual({ error: "Service unavailable" })
      expect(emu.faultsHit).toMatchObject({ "500": 1, "503": 2 })
    }))

  it.scopedLive("reset drops the connection without a response and charges nothing", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("reset") })
      const r = yield* attempt(rawRpc(emu, "echo"))
      expect(r.ok).toBe(false)
      expect(emu.usage().creditsUsed).toBe(0)
      expect(emu.requests).toMatchObject([{ operation: "echo", fault: "reset", status: 0 }])
      expect(emu.counters.clientClosed).toBe(0)
      emu.setFaults(undefined)
      expect((yield* rpc(emu, "echo")).status).toBe(200)
    }))

  it.scopedLive("truncate announces more bytes than it sends: a transport error, after the handler ran", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("truncate") })
      const r = yield* attempt(rawRpc(emu, "bigList", { limit: 20 }))
      expect(r.ok).toBe(false)
      // The handler ran and was charged: the client cannot know whether a send landed.
      expect(emu.usage().usage.das).toBe(1)
      expect(emu.requests).toMatchObject([{ operation: "bigList", fault: "truncate", status: 0 }])
      const rest = yield* attempt(() =>
        fetch(new URL(`/v1/test/x/things?api-key=${emu.apiKey}`, emu.url)).then((res) => res.text()).then((text) => ({
          status: 200,
          headers: new Headers(),
          text,
          json: undefined
        }))
      )
      expect(rest.ok).toBe(false)
      expect(emu.faultsHit.truncate).toBe(2)
    }))

  it.scopedLive("malformed sends a 200 whose body is not JSON", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("malformed") })
      const r = yield* rpc(emu, "echo", {}, "m")
      expect(r.status).toBe(200)
      expect(r.headers.get("content-type")).toContain("application/json")
      expect(() => JSON.parse(r.text)).toThrow()
      expect(r.text.startsWith("{\"jsonrpc\"")).toBe(true)
      expect(emu.faultsHit.malformed).toBe(1)
    }))

  it.scoped("slow delays the response by slowMs (on the Effect Clock, TestClock here)", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("slow", { slowMs: 300 }) })
      const reply = yield* Effect.fork(rpc(emu, "echo", {}, "s"))
      yield* untilServerSleeps()
      yield* TestClock.adjust("299 millis")
      expect(emu.requests).toEqual([])
      yield* TestClock.adjust("1 millis")
      const r = yield* Fiber.join(reply)
      expect(r.status).toBe(200)
      expect(r.json.id).toBe("s")
      expect(emu.requests[0]).toMatchObject({ fault: "slow", status: 200 })
    }))

  it.scopedLive("the same seed gives the same sequence of faults", () =>
    Effect.gen(function*() {
      const faults: Faults.FaultOptions = { rate: 0.5, kinds: ["500", "503", "429"], seed: 99 }
      const emu = yield* start({ faults })
      const run = Effect.forEach(Array.from({ length: 30 }, (_, i) => i), (i) =>
        Effect.map(rpc(emu, "echo", {}, i), (r) => r.status))
      const first = yield* run
      emu.setFaults(faults)
      const second = yield* run
      expect(second).toEqual(first)
      expect(
        first.filter((s) =>
          s === 200
        ).length
      ).toBeGreaterThan(5)
      expect(first.filter((s) => s !== 200).length).toBeGreaterThan(5)
      emu.setFaults({ ...faults, seed: 100 })
      expect(yield* run).not.toEqual(first)
    }))

  it.scopedLive("exempt, only and times restrict the faults", () =>
    Effect.gen(function*() {
      const emu = yield* start({ faults: only("500", { exempt: ["echo"] }) })
      expect((yield* rpc(emu, "echo")).status).toBe(200)
      expect((yield* rpc(emu, "bigList")).status).toBe(500)
      emu.setFaults(only("500", { only: ["GET /v1/test/:wallet/things"] }))
      expect((yield* rpc(emu, "bigList")).status).toBe(200)
      expect((yield* get(emu, "/v1/test/x/things")).status).toBe(500)
      emu.setFaults(only("503", { times: 2 }))
      const statuses = yield* Effect.forEach([1, 2, 3, 4], (i) => Effect.map(rpc(emu, "echo", {}, i), (r) => r.status))
      expect(statuses).toEqual([503, 503, 200, 200])
      // Auth failures and unknown paths are answered before any fault.
      emu.setFaults(only("500"))
      expect((yield* rpc(emu, "echo", {}, 1, "wrong")).status).toBe(401)
      expect((yield* get(emu, "/nowhere")).status).toBe(400)
    }))

  it("rejects invalid options", () => {
    expect(() => Faults.makeInjector({ rate: 2, kinds: ["500"] }, 1)).toThrow(RangeError)
    expect(() => Faults.makeInjector({ rate: 0.5, kinds: ["teapot" as Faults.FaultKind] }, 1)).toThrow(RangeError)
  })
})
