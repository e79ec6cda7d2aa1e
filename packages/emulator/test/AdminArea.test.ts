/**
 * Conformance of the admin and webhooks areas with plain fetch: the spec's
 * field names and rules the service documents (usage, webhooks, auth, limits), no SDK schemas.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as TestClock from "effect/TestClock"
import * as AdminArea from "../src/areas/Admin.js"
import * as WebhooksArea from "../src/areas/Webhooks.js"
import * as Emulator from "../src/Emulator.js"
import { get } from "./support/Http.js"

const OTHER_PROJECT = "0b7e4c1a-5d2f-4e8b-9a3c-6f1d2e3a4b5c"
const OTHER_KEY = "other-project-key"
const YMD = /^\d{4}-\d{2}-\d{2}$/

const start = (options: Emulator.Options = {}) =>
  Emulator.make({
    seed: 5,
    areas: [AdminArea.area, WebhooksArea.area],
    projects: [{ id: OTHER_PROJECT, apiKey: OTHER_KEY }],
    ...options
  })

const usage = (emu: Emulator.Emulator, id = emu.projectId, key = emu.apiKey) =>
  get(emu, `/v0/admin/projects/${id}/usage`, { key: null, headers: { "x-api-key": key } })

describe("admin area", () => {
  it.scopedLive("the usage record: spec field names, YYYY-MM-DD cycle, the live counters; header or query key", () =>
    Effect.gen(function*() {
      const emu = yield* start({ creditsLimit: 150, prepaidCredits: 500, plan: "developer" })
      const first = yield* usage(emu)
      expect(first.status).toBe(200)
      expect(Object.keys(first.json).sort()).toEqual([
        "creditsRemaining",
        "creditsUsed",
        "prepaidCreditsRemaining",
        "prepaidCreditsUsed",
        "subscriptionDetails",
        "usage"
      ])
      expect(Object.keys(first.json.subscriptionDetails).sort()).toEqual(["billingCycle", "creditsLimit", "plan"])
      expect(Object.keys(first.json.usage).sort()).toEqual(
        ["api", "archival", "das", "grpc", "grpcGeyser", "photon", "rpc", "stream", "webhook", "websocket"]
      )
      expect(first.json.subscriptionDetails.billingCycle.start).toMatch(YMD)
      expect(first.json.subscriptionDetails.billingCycle.end).toMatch(YMD)
      expect(first.json).toMatchObject({
        creditsRemaining: 150,
        creditsUsed: 0,
        prepaidCreditsRemaining: 500,
        prepaidCreditsUsed: 0,
        subscriptionDetails: { creditsLimit: 150, plan: "developer" }
      })

      // Two webhook lists at 100 credits: 150 regular, then 50 prepaid.
      for (let i = 0; i < 2; i++) expect((yield* get(emu, "/v0/webhooks")).status).toBe(200)
      const byQuery = yield* get(emu, `/v0/admin/projects/${emu.projectId}/usage`)
      expect(byQuery.status).toBe(200)
      expect(byQuery.json).toMatchObject({
        creditsRemaining: 0,
        creditsUsed: 200,
        prepaidCreditsRemaining: 450,
        prepaidCreditsUsed: 50
      })
      // The first read, two lists, this read: all /v0 enhanced-API requests.
      expect(byQuery.json.usage.api).toBe(4)
    }))

  it.scopedLive("a key of another project, or an unknown project: 400 {error}, nothing counted", () =>
    Effect.gen(function*() {
      const emu = yield* start()
      const mismatch = yield* usage(emu, OTHER_PROJECT)
      expect(mismatch.status).toBe(400)
      expect(typeof mismatch.json.error).toBe("string")
      const unknown = yield* usage(emu, "11111111-2222-4333-8444-555555555555")
      expect(unknown.status).toBe(400)
      const reverse = yield* usage(emu, emu.projectId, OTHER_KEY)
      expect(reverse.status).toBe(400)
      expect(emu.usage().usage.api).toBe(0)
      expect(emu.usage(OTHER_PROJECT).usage.api).toBe(0)
      const own = yield* usage(emu, OTHER_PROJECT, OTHER_KEY)
      expect(own.status).toBe(200)
      expect(own.json.usage.api).toBe(1)
      const noKey = yield* get(emu, `/v0/admin/projects/${emu.projectId}/usage`, { key: null })
      expect(noKey.status).toBe(401)
    }))

  it.scoped("5 requests per second per project over a sliding window; 429 with Retry-After, not charged", () =>
    Effect.gen(function*() {
      const emu = yield* start({ costs: { [`GET /v0/admin/projects/:id/usage`]: 1 } })
      const statuses = (n: number, id = emu.projectId, key = emu.apiKey) =>
        Effect.forEach(Array.from({ length: n }), () => usage(emu, id, key), { concurrency: "unbounded" })

      expect((yield* statuses(1)).map((r) => r.status)).toEqual([200]) // t = 0
      yield* TestClock.adjust("900 millis")
      expect((yield* statuses(4)).map((r) => r.status)).toEqual([200, 200, 200, 200]) // t = 900
      const limited = yield* usage(emu)
      expect(limited.status).toBe(429)
      expect(limited.headers.get("retry-after")).toBe("1")
      expect(typeof limited.json.error).toBe("string")
      // Another project has its own window.
      expect((yield* statuses(1, OTHER_PROJECT, OTHER_KEY)).map((r) => r.status)).toEqual([200])

      yield* TestClock.adjust("100 millis") // t = 1000: the request of t = 0 has left the window
      expect((yield* usage(emu)).status).toBe(200)
      // A fixed window would have reset at t = 1000 and allowed 4 more; the sliding one holds the 4 of t = 900.
      yield* TestClock.adjust("1 millis")
      expect((yield* usage(emu)).status).toBe(429)
      yield* TestClock.adjust("899 millis") // t = 1900: the 4 of t = 900 have left
      expect((yield* statuses(4)).map((r) => r.status)).toEqual([200, 200, 200, 200])

      const records = emu.requests.filter((r) => r.operation === "GET /v0/admin/projects/:id/usage")
      const rejected = records.filter((r) => r.status === 429)
      expect(rejected).toHaveLength(2)
      expect(rejected.every((r) => r.credits === 0 && r.category === undefined)).toBe(true)
      // Only the admitted ones were charged (1 credit each, by the `costs` override) and counted.
      expect(emu.usage().creditsUsed).toBe(1 + 4 + 1 + 4)
      expect(emu.usage().usage.api).toBe(10)
    }))
})

describe("webhooks area", () => {
  it.scopedLive("seeded per key: spec field names, every kind of the enum in turn, the list shows only the caller's", () =>
    Effect.gen(function*() {
      const emu = yield* start({ sizes: { "webhooks.perKey": 6 } })
      const mine = yield* get(emu, "/v0/webhooks")
      const theirs = yield* get(emu, "/v0/webhooks", { key: OTHER_KEY })
      expect(mine.status).toBe(200)
      expect(mine.json).toHaveLength(6)
      expect(mine.json.map((h: any) => h.webhookType)).toEqual(
        ["enhanced", "raw", "discord", "enhancedDevnet", "rawDevnet", "discordDevnet"]
      )
      for (const hook of mine.json) {
        expect(Object.keys(hook).filter((k) => k !== "authHeader").sort()).toEqual(
          ["accountAddresses", "active", "transactionTypes", "wallet", "webhookID", "webhookType", "webhookURL"]
        )
        for (const t of hook.transactionTypes) expect(t).toMatch(/^[A-Z][A-Z0-9_]*$/)
      }
      expect(mine.json.filter((h: any) => "authHeader" in h)).toHaveLength(3)
      expect(mine.json.filter((h: any) => h.active === false)).toHaveLength(2)
      const ids = new Set(mine.json.map((h: any) => h.webhookID))
      expect(theirs.json.some((h: any) => ids.has(h.webhookID))).toBe(false)
      // Deterministic: the same seed and key give the same list.
      expect((yield* get(emu, "/v0/webhooks")).json).toEqual(mine.json)
      expect(emu.usage().creditsUsed).toBe(2 * Endpoints.listWebhooks.cost.credits)
    }))

  it.scopedLive("the webhooks option replaces the seed; each webhook goes to its owner's key", () =>
    Effect.gen(function*() {
      const emu = yield* start({
        webhooks: [
          {
            webhookURL: "https://a.example/1",
            webhookType: "enhanced",
            transactionTypes: ["SWAP"],
            authHeader: "s3cret"
          },
          { webhookURL: "https://b.example/1", webhookType: "raw", projectId: OTHER_PROJECT },
          { webhookURL: "https://a.example/2", webhookType: "discord", active: false }
        ]
      })
      const mine = yield* get(emu, "/v0/webhooks")
      const theirs = yield* get(emu, "/v0/webhooks", { key: OTHER_KEY })
      expect(mine.json.map((h: any) => [h.webhookURL, h.webhookType, h.active])).toEqual([
        ["https://a.example/1", "enhanced", true],
        ["https://a.example/2", "discord", false]
      ])
      expect(mine.json[0]).toMatchObject({ transactionTypes: ["SWAP"], authHeader: "s3cret", accountAddresses: [] })
      expect(theirs.json.map((h: any) => h.webhookURL)).toEqual(["https://b.example/1"])
    }))

  it.scoped("a configured webhook naming an unknown owner stops the emulator from starting", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(
        start({ webhooks: [{ webhookURL: "https://x.example", webhookType: "raw", apiKey: "nobody" }] })
      )
      expect(Exit.isFailure(exit)).toBe(true)
    }))
})
