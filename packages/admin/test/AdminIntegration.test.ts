/**
 * Admin and Webhooks against the emulator over loopback, in real time, with
 * the Node HTTP client: the client-side limiter keeps the server's sliding
 * window free of 429s, a key of another project is ProjectMismatch, usage
 * follows the other calls, and each key sees only its own webhooks.
 */
import { describe, expect, it } from "@effect/vitest"
import { Admin, Webhooks } from "@solfx/admin"
import * as Emulator from "@solfx/emulator/Emulator"
import { HttpTransport } from "@solfx/http"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { inspect } from "node:util"

const USAGE_ROUTE = "GET /v0/admin/projects/:id/usage"
const OTHER_PROJECT = "0b7e4c1a-5d2f-4e8b-9a3c-6f1d2e3a4b5c"
const OTHER_KEY = "other-project-key-0000000000000000000"

const layer = (options?: Emulator.Options) => Loopback.layer(Layer.mergeAll(Admin.layer, Webhooks.layer), options)

/** The Webhooks service of another key, against the same emulator. */
const webhooksOf = (emu: Emulator.Emulator, apiKey: string) =>
  Effect.flatMap(Webhooks.Webhooks, (w) => w.list()).pipe(
    Effect.provide(Loopback.layerAt(Webhooks.layer, { apiKey, baseUrl: emu.url }))
  )

/** The most arrivals the server saw in any half-open window [t, t + 1000). */
const maxInWindow = (times: ReadonlyArray<number>, window = 1000): number => {
  const sorted = [...times].sort((a, b) => a - b)
  let best = 0
  for (let i = 0, j = 0; i < sorted.length; i++) {
    while (j < sorted.length && sorted[j]! - sorted[i]! < window) j++
    best = Math.max(best, j - i)
  }
  return best
}

describe("Admin against the emulator", () => {
  it.live("20 calls from 20 fibers: zero 429s, at most 5 in any second at the server", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const admin = yield* Admin.Admin
      const started = performance.now()
      const results = yield* Effect.forEach(
        Array.from({ length: 20 }),
        () => admin.getProjectUsage(emu.projectId),
        { concurrency: "unbounded" }
      )
      const seconds = (performance.now() - started) / 1000
      const rate = results.length / seconds
      const served = emu.requests.filter((r) => r.operation === USAGE_ROUTE)
      const arrivals = served.map((r) => r.startedAt)
      const span = (Math.max(...arrivals) - Math.min(...arrivals)) / 1000
      console.log(
        `admin: 20 calls in ${seconds.toFixed(2)} s = ${rate.toFixed(2)} calls/s; ` +
          `server saw ${served.length} requests over ${span.toFixed(2)} s, at most ${maxInWindow(arrivals)} in any 1 s`
      )
      expect(results).toHaveLength(20)
      expect(served.filter((r) => r.status === 429)).toEqual([])
      expect(served).toHaveLength(20)
      // The pace (that the limiter does not idle) is asserted under TestClock in Admin.test.ts; the rate is printed.
      expect(maxInWindow(arrivals)).toBeLessThanOrEqual(5)
    }).pipe(Effect.provide(layer())))

  it.live("the server's limit holds: without the client's limiter, the 6th request in a second is a 429", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const statuses = yield* Effect.forEach(
        Array.from({ length: 8 }),
        () =>
          Effect.promise(() =>
            fetch(`${emu.url}/v0/admin/projects/${emu.projectId}/usage`, { headers: { "x-api-key": emu.apiKey } })
              .then(async (res) => ({
                status: res.status,
                retryAfter: res.headers.get("retry-after"),
                body: await res.json()
              }))
          ),
        { concurrency: "unbounded" }
      )
      expect(statuses.filter((s) => s.status === 200)).toHaveLength(5)
      const limited = statuses.filter((s) => s.status === 429)
      expect(limited).toHaveLength(3)
      expect(limited.every((s) => s.retryAfter === "1" && typeof (s.body as any).error === "string")).toBe(true)
    }).pipe(Effect.provide(layer())))

  it.live("a key of another project gives ProjectMismatch carrying the project id", () =>
    Effect.gen(function*() {
      const admin = yield* Admin.Admin
      const error = yield* Effect.flip(admin.getProjectUsage(OTHER_PROJECT))
      expect(error).toMatchObject({ _tag: "ProjectMismatch", projectId: OTHER_PROJECT })
      // The project's own key reads it.
      const emu = yield* Emulator.EmulatorHandle
      expect(emu.projects.map((p) => p.projectId)).toContain(OTHER_PROJECT)
    }).pipe(Effect.provide(layer({ projects: [{ id: OTHER_PROJECT, apiKey: OTHER_KEY }] }))))

  it.live("usage grows as other calls are made, as the emulator counted them", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const admin = yield* Admin.Admin
      const transport = yield* HttpTransport.HttpTransport
      const before = yield* admin.getProjectUsage(emu.projectId)
      for (let i = 0; i < 3; i++) {
        yield* transport.rpc("getLatestNonVotingSignatures", { limit: 1 }, Schema.Unknown)
      }
      yield* (yield* Webhooks.Webhooks).list()
      const after = yield* admin.getProjectUsage(emu.projectId)

      expect(after.usage!.photon - before.usage!.photon).toBe(3)
      // The webhook list, and this usage read itself (the /v0 endpoints are the enhanced API).
      expect(after.usage!.api - before.usage!.api).toBe(2)
      expect(after.creditsUsed - before.creditsUsed).toBe(3 * 10 + 100)
      expect(before.creditsRemaining - after.creditsRemaining).toBe(130)
      expect(after.subscriptionDetails.billingCycle.start).toMatch(/^\d{4}-\d{2}-01$/)
      expect(after.subscriptionDetails.billingCycle.end).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      // What the SDK decoded is what the emulator holds.
      const direct = emu.usage()
      expect({ ...after, usage: { ...after.usage } }).toEqual(direct)
    }).pipe(Effect.provide(layer())))

  it.live("prepaid credits: regular first, then prepaid; creditsUsed counts both", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const admin = yield* Admin.Admin
      const transport = yield* HttpTransport.HttpTransport
      for (let i = 0; i < 3; i++) {
        yield* transport.rpc("getLatestNonVotingSignatures", { limit: 1 }, Schema.Unknown)
      }
      yield* (yield* Webhooks.Webhooks).list()
      const usage = yield* admin.getProjectUsage(emu.projectId)
      expect(usage).toMatchObject({
        creditsRemaining: 0,
        creditsUsed: 130,
        prepaidCreditsUsed: 80,
        prepaidCreditsRemaining: 920,
        subscriptionDetails: { creditsLimit: 50, plan: "developer" }
      })
    }).pipe(Effect.provide(layer({ creditsLimit: 50, prepaidCredits: 1000, plan: "developer" }))))
})

describe("Webhooks against the emulator", () => {
  const SECRET = "Bearer integration-secret-5e1f"

  it.live("each key lists only its own configured webhooks; the authHeader stays hidden", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const mine = yield* (yield* Webhooks.Webhooks).list()
      const theirs = yield* webhooksOf(emu, OTHER_KEY)
      expect(mine.map((h) => h.webhookURL)).toEqual(["https://mine.example/hook", "https://mine.example/raw"])
      expect(theirs.map((h) => h.webhookURL)).toEqual(["https://theirs.example/hook"])
      expect(mine[0]).toMatchObject({
        webhookType: "enhanced",
        transactionTypes: ["TRANSFER", "NFT_SALE"],
        active: true
      })
      expect(mine[1]).toMatchObject({ webhookType: "raw", active: false })
      expect(mine[1]!.authHeader).toBeUndefined()
      expect(Redacted.value(mine[0]!.authHeader!)).toBe(SECRET)
      for (const text of [JSON.stringify(mine), inspect(mine, { depth: 10 }), String(mine[0]!.authHeader)]) {
        expect(text).not.toContain("integration-secret")
      }
    }).pipe(Effect.provide(layer({
      projects: [{ id: OTHER_PROJECT, apiKey: OTHER_KEY }],
      webhooks: [
        {
          webhookURL: "https://mine.example/hook",
          webhookType: "enhanced",
          accountAddresses: ["9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"],
          transactionTypes: ["TRANSFER", "NFT_SALE"],
          authHeader: SECRET
        },
        { webhookURL: "https://theirs.example/hook", webhookType: "discord", apiKey: OTHER_KEY },
        { webhookURL: "https://mine.example/raw", webhookType: "raw", active: false }
      ]
    }))))

  it.live("seeded webhooks differ per key and never mix", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const mine = yield* (yield* Webhooks.Webhooks).list()
      const theirs = yield* webhooksOf(emu, OTHER_KEY)
      expect(mine.length).toBeGreaterThan(0)
      expect(theirs.length).toBe(mine.length)
      const ids = new Set(mine.map((h) => h.webhookID))
      expect(theirs.some((h) => ids.has(h.webhookID))).toBe(false)
      expect(new Set(mine.map((h) => h.wallet)).size).toBe(1)
      expect(mine.some((h) => !h.active)).toBe(true)
    }).pipe(Effect.provide(layer({ projects: [{ id: OTHER_PROJECT, apiKey: OTHER_KEY }] }))))
})
