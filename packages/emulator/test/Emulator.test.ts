import { describe, expect, it } from "@effect/vitest"
import { SolfxConfig } from "@solfx/core/Config"
import { open } from "@solfx/core/internal/apiKey"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import * as Emulator from "../src/Emulator.js"
import { get, post, rpc, until, untilServerSleeps, urlFor } from "./support/Http.js"
import { testArea } from "./support/TestArea.js"

const start = (options: Emulator.Options = {}) => Emulator.make({ areas: [], extraAreas: [testArea], ...options })

describe("Emulator", () => {
  it.scopedLive("starts on loopback with a fresh key, a project and samples", () =>
    Effect.gen(function*() {
      const a = yield* start()
      const b = yield* start()
      expect(a.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      expect(a.port).toBeGreaterThan(0)
      expect(a.apiKey).not.toBe(b.apiKey)
      expect(a.projectId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      expect(a.sampleRecord["testWallet"]).toBe(a.dataset.address("test:wallet"))
      const line = JSON.parse(a.startLine)
      expect(Object.keys(line)).toEqual(["url", "apiKey", "projectId", "samples", "studio"])
      expect(line).toEqual({
        url: a.url,
        apiKey: a.apiKey,
        projectId: a.projectId,
        samples: a.sampleRecord,
        studio: `${a.url}/studio?api-key=${a.apiKey}`
      })
      // Each sample under its name and, for existing scripts, its older one.
      expect(line.samples.tokenAccountOwner).toBe(a.samples.tokenAccountOwner)
      expect(line.samples.dasOwner).toBe(a.samples.tokenAccountOwner)
      expect(line.samples.batchAssetAuthorities).toBe(a.samples.batchAssetAuthorities.join(","))
      expect(Object.values(a.samples).every((v) => v.length > 0)).toBe(true)
      expect(a.operations).toContain("GET /v1/test/:wallet/things")
      expect(a.operations).toContain("echo")
    }))

  describe("auth", () => {
    it.scopedLive("JSON-RPC without a key or with a wrong key is 401 -32401, id null (the body is not read)", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        for (const key of [null, "not-a-key", ""]) {
          const r = yield* rpc(emu, "echo", {}, "abc", key)
          expect(r.status).toBe(401)
          expect(r.json).toEqual({
            jsonrpc: "2.0",
            error: { code: -32401, message: "invalid api key provided" },
            id: null
          })
        }
        expect(emu.usage().usage.rpc).toBe(0)
        expect(emu.requests.map((r) => r.status)).toEqual([401, 401, 401])
      }))

    it.scopedLive("REST without a key or with a wrong key is 401 {error}", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        for (const key of [null, "not-a-key"]) {
          const r = yield* get(emu, "/v1/test/abc/things", { key })
          expect(r.status).toBe(401)
          expect(r.json).toEqual({ error: "invalid api key provided" })
        }
        expect(emu.usage().usage.api).toBe(0)
      }))

    it.scopedLive("X-Api-Key is accepted only where the route allows header auth", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        const admin = yield* get(emu, `/v0/test-admin/${emu.projectId}`, {
          key: null,
          headers: { "x-api-key": emu.apiKey }
        })
        expect(admin.status).toBe(200)
        expect(admin.json).toEqual({ id: emu.projectId })
        const other = yield* get(emu, "/v1/test/abc/things", { key: null, headers: { "x-api-key": emu.apiKey } })
        expect(other.status).toBe(401)
        const rpcHeader = yield* Effect.promise(() =>
          fetch(emu.url, {
            method: "POST",
            headers: { "content-type": "application/json", "x-api-key": emu.apiKey },
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: {} })
          }).then((r) => r.status)
        )
        expect(rpcHeader).toBe(401)
      }))

    it.scopedLive("each project has its own key; a precheck failure is not charged", () =>
      Effect.gen(function*() {
        const emu = yield* start({ projects: [{ apiKey: "second-key" }] })
        expect(emu.projects).toHaveLength(2)
        const second = emu.projects[1]!
        expect(second.apiKey).toBe("second-key")
        const ok = yield* get(emu, `/v0/test-admin/${second.projectId}`, { key: "second-key" })
        expect(ok.json).toEqual({ id: second.projectId })
        const mismatch = yield* get(emu, `/v0/test-admin/${emu.projectId}`, { key: "second-key" })
        expect(mismatch.status).toBe(400)
        expect(mismatch.json).toEqual({ error: "project mismatch" })
        expect(emu.usage(second.projectId).usage.api).toBe(1)
        expect(emu.usage().usage.api).toBe(0)
      }))
  })

  describe("JSON-RPC envelope", () => {
    it.scopedLive("echoes string and number ids and writes bigints as bare numbers", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        const s = yield* rpc(emu, "echo", { x: 1 }, "req-7")
        expect(s.status).toBe(200)
        expect(s.json.jsonrpc).toBe("2.0")
        expect(s.json.id).toBe("req-7")
        expect(s.json.result.params).toEqual({ x: 1 })
        expect(s.json.result.project).toBe(emu.projectId)
        const n = yield* rpc(emu, "echo", [1, 2], 42)
        expect(n.json.id).toBe(42)
        expect(n.json.result.params).toEqual([1, 2])
        const big = yield* rpc(emu, "bigList", { limit: 1 })
        const lamports = 10n ** 18n + BigInt(emu.dataset.int("test:big:lamports:0", 1_000_000))
        expect(big.text).toContain(`"lamports":${lamports}`)
      }))

    it.scopedLive("parse errors, invalid envelopes, unknown methods and invalid params", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        const parse = yield* post(emu, "{not json")
        expect(parse.json).toEqual({ jsonrpc: "2.0", error: { code: -32700, message: "Parse error" }, id: null })
        const version = yield* post(emu, { jsonrpc: "1.0", id: "v", method: "echo", params: {} })
        expect(version.json.error.code).toBe(-32600)
        expect(version.json.id).toBe("v")
        const noMethod = yield* post(emu, { jsonrpc: "2.0", id: 3, params: {} })
        expect(noMethod.json.error.code).toBe(-32600)
        const noId = yield* post(emu, { jsonrpc: "2.0", method: "echo", params: {} })
        expect(noId.json).toEqual({ jsonrpc: "2.0", error: { code: -32600, message: "Invalid Request" }, id: null })
        const batch = yield* post(emu, [{ jsonrpc: "2.0", id: 1, method: "echo" }])
        expect(batch.json.error.code).toBe(-32600)
        const unknown = yield* rpc(emu, "getNothing", {}, "u")
        expect(unknown.json).toEqual({ jsonrpc: "2.0", error: { code: -32601, message: "Method not found" }, id: "u" })
        const scalar = yield* rpc(emu, "echo", 5, "p")
        expect(scalar.json.error).toEqual({ code: -32602, message: "Invalid params" })
        const cursor = yield* rpc(emu, "bigList", { cursor: "not-a-cursor" }, "c")
        expect(cursor.json).toEqual({
          jsonrpc: "2.0",
          error: { code: -32602, message: "Invalid params: cursor" },
          id: "c"
        })
        const limit = yield* rpc(emu, "bigList", { limit: 1001 }, "l")
        expect(limit.json.error.code).toBe(-32602)
        expect(limit.json.error.message).toContain("limit")
        const boom = yield* rpc(emu, "boom", {}, "b")
        expect(boom.status).toBe(500)
        expect(boom.json.error).toMatchObject({ code: -32603, message: "Internal error", data: "handler bug" })
        expect(emu.count("getNothing")).toBe(1)
        expect(emu.counters.byStatus[500]).toBe(1)
      }))

    it.scopedLive("an unknown path is 400 invalid path", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        for (const path of ["/nope", "/v1/test/abc", "/v1/test/abc/things/more"]) {
          const r = yield* get(emu, path)
          expect(r.status).toBe(400)
          expect(r.json).toEqual({ error: "invalid path" })
        }
        const wrongMethod = yield* post(emu, {}, { path: "/v1/test/abc/things" })
        expect(wrongMethod.json).toEqual({ error: "invalid path" })
        const getRoot = yield* get(emu, "/")
        expect(getRoot.status).toBe(400)
        expect(emu.requests[0]!.operation).toBe("GET /nope")
      }))
  })

  describe("usage and credits", () => {
    it.scopedLive("each request counts in its category and charges its credits", () =>
      Effect.gen(function*() {
        const emu = yield* start({ creditsLimit: 1000 })
        expect(emu.usage().usage).toMatchObject({ rpc: 0, das: 0, api: 0 })
        yield* rpc(emu, "echo")
        expect(emu.usage().usage.rpc).toBe(1)
        yield* rpc(emu, "echo")
        yield* rpc(emu, "bigList", { limit: 5 })
        const wallet = emu.sampleRecord["testWallet"]!
        const things = yield* get(emu, `/v1/test/${wallet}/things`, { query: { page: "3" } })
        expect(things.json.items).toHaveLength(5)
        expect(things.json.pagination).toEqual({ page: 3, hasMore: false })
        const u = emu.usage()
        expect(u.usage).toMatchObject({ rpc: 2, das: 1, api: 1, photon: 0 })
        expect(u.creditsUsed).toBe(1 + 1 + 10 + 100)
        expect(u.creditsRemaining).toBe(1000 - 112)
        expect(u.subscriptionDetails.creditsLimit).toBe(1000)
        expect(u.subscriptionDetails.plan).toBe("business")
        expect(u.subscriptionDetails.billingCycle.start).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(u.subscriptionDetails.billingCycle.end).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(emu.count("echo")).toBe(2)
        expect(emu.count("GET /v1/test/:wallet/things")).toBe(1)
        expect(emu.requests.at(-1)).toMatchObject({
          operation: "GET /v1/test/:wallet/things",
          status: 200,
          category: "api",
          credits: 100,
          projectId: emu.projectId
        })
      }))

    it.scopedLive("the costs table overrides an area's credits", () =>
      Effect.gen(function*() {
        const emu = yield* start({ costs: { echo: 7, "GET /v1/test/:wallet/things": 3 } })
        yield* rpc(emu, "echo")
        yield* get(emu, "/v1/test/x/things")
        expect(emu.usage().creditsUsed).toBe(10)
      }))

    it.scopedLive("regular credits, then prepaid, then 429 max usage reached", () =>
      Effect.gen(function*() {
        const emu = yield* start({ creditsLimit: 3, prepaidCredits: 2 })
        for (let i = 0; i < 5; i++) expect((yield* rpc(emu, "echo", {}, i)).status).toBe(200)
        const u = emu.usage()
        expect(u).toMatchObject({
          creditsRemaining: 0,
          creditsUsed: 5,
          prepaidCreditsRemaining: 0,
          prepaidCreditsUsed: 2
        })
        const denied = yield* rpc(emu, "echo", {}, "last")
        expect(denied.status).toBe(429)
        expect(denied.headers.get("retry-after")).toBeNull()
        expect(denied.json).toEqual({
          jsonrpc: "2.0",
          error: { code: -32429, message: "max usage reached" },
          id: "last"
        })
        const rest = yield* get(emu, "/v1/test/x/things")
        expect(rest.status).toBe(429)
        expect(rest.json).toEqual({ error: "max usage reached" })
        expect(emu.usage().usage.rpc).toBe(5)
        expect(emu.usage().creditsUsed).toBe(5)
        // Free operations still answer.
        const free = yield* get(emu, `/v0/test-admin/${emu.projectId}`)
        expect(free.status).toBe(200)
      }))

    it.scopedLive("a request the regular credits cannot pay alone takes the rest from prepaid", () =>
      Effect.gen(function*() {
        const emu = yield* start({ creditsLimit: 150, prepaidCredits: 60 })
        yield* get(emu, "/v1/test/x/things")
        expect(emu.usage()).toMatchObject({ creditsRemaining: 50, prepaidCreditsRemaining: 60 })
        yield* get(emu, "/v1/test/x/things")
        expect(emu.usage()).toMatchObject({ creditsRemaining: 0, creditsUsed: 200, prepaidCreditsUsed: 50 })
        expect((yield* get(emu, "/v1/test/x/things")).status).toBe(429)
      }))
  })

  describe("dataset", () => {
    it.scopedLive("the same seed gives the same data; another seed gives other data", () =>
      Effect.gen(function*() {
        const a = yield* start({ seed: 7 })
        const b = yield* start({ seed: 7 })
        const c = yield* start({ seed: 8 })
        expect(a.samples).toEqual(b.samples)
        expect(a.samples).not.toEqual(c.samples)
        const page = (emu: Emulator.Emulator) =>
          Effect.map(rpc(emu, "bigList", { limit: 50 }), (r) => JSON.stringify(r.json.result.value))
        const [pa, pb, pc] = [yield* page(a), yield* page(b), yield* page(c)]
        expect(pa).toBe(pb)
        expect(pa).not.toBe(pc)
        const addresses: Array<string> = JSON.parse(pa).items.map((i: { address: string }) => i.address)
        expect(new Set(addresses).size).toBe(50)
      }))

    it.scopedLive("the slot advances with time", () =>
      Effect.gen(function*() {
        const emu = yield* start({ slotMs: 10 })
        const first = (yield* rpc(emu, "echo")).json.result.slot
        yield* Effect.sleep("60 millis")
        const second = (yield* rpc(emu, "echo")).json.result.slot
        expect(first).toBeGreaterThan(300_000_000)
        // At least 60 ms passed: the slot moved on (how far is the TestClock test's business).
        expect(second).toBeGreaterThan(first)
      }))

    it.scoped("the slot follows the Effect Clock (TestClock here)", () =>
      Effect.gen(function*() {
        const emu = yield* start()
        const first = (yield* rpc(emu, "echo")).json.result.slot
        yield* TestClock.adjust("2 seconds")
        const second = (yield* rpc(emu, "echo")).json.result.slot
        expect(second - first).toBe(5)
        expect(emu.usage().subscriptionDetails.billingCycle.start.startsWith("1970")).toBe(false)
      }))
  })

  describe("request log", () => {
    it.scoped("counts concurrent requests in flight and clients that leave early", () =>
      Effect.gen(function*() {
        const emu = yield* start({ latencyMs: 200 })
        const five = yield* Effect.fork(
          Effect.forEach([1, 2, 3, 4, 5], (i) => rpc(emu, "echo", {}, i), { concurrency: "unbounded" })
        )
        // Every answer is held back on the TestClock until all five have arrived.
        yield* untilServerSleeps(5)
        yield* TestClock.adjust("200 millis")
        yield* Fiber.join(five)
        expect(emu.counters.maxInFlight).toBe(5)
        expect(emu.counters.inFlight).toBe(0)
        const controller = new AbortController()
        const fiber = yield* Effect.fork(Effect.either(Effect.tryPromise(() =>
          fetch(urlFor(emu, "/"), {
            method: "POST",
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "echo", params: {} }),
            signal: controller.signal
          })
        )))
        yield* untilServerSleeps()
        controller.abort()
        expect((yield* Fiber.join(fiber))._tag).toBe("Left")
        // The server learns of the close on its own socket, a moment later.
        yield* until(() => emu.counters.clientClosed === 1)
        expect(emu.requests.at(-1)).toMatchObject({ operation: "echo", aborted: true, status: 0 })
        emu.resetLog()
        expect(emu.counters).toMatchObject({ total: 0, clientClosed: 0, maxInFlight: 0 })
        expect(emu.requests).toEqual([])
      }))

    it.scoped("latencyMs delays every response (on the Effect Clock, TestClock here)", () =>
      Effect.gen(function*() {
        const emu = yield* start({ latencyMs: 50 })
        const reply = yield* Effect.fork(rpc(emu, "echo"))
        yield* untilServerSleeps()
        yield* TestClock.adjust("49 millis")
        // Still waiting out its latency: nothing answered yet.
        expect(emu.counters.inFlight).toBe(1)
        expect(emu.requests).toEqual([])
        yield* TestClock.adjust("1 millis")
        expect((yield* Fiber.join(reply)).json.result).toBeDefined()
        expect(emu.requests).toHaveLength(1)
        // Without latency the answer needs no clock at all.
        emu.setLatency(0)
        expect((yield* rpc(emu, "echo")).json.result).toBeDefined()
      }))
  })

  it.scopedLive("layerTest provides the handle and a SolfxConfig pointing at it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const config = yield* SolfxConfig
      // Sealed: the test opens it as only the send step does.
      expect(String(config.apiKey)).toBe("<redacted>")
      expect(open(config.apiKey)).toBe(emu.apiKey)
      expect(config.urls).toEqual({ rpc: emu.url, rest: emu.url, v0: emu.url, admin: emu.url })
      const r = yield* rpc(emu, "echo", {}, "layer")
      expect(r.json.id).toBe("layer")
    }).pipe(Effect.provide(Emulator.layerTest({ areas: [], extraAreas: [testArea] }))))
})
