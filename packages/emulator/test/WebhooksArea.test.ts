/**
 * The emulator's webhook management routes over plain HTTP: each key sees and
 * changes only its own webhooks, a plan's webhook limit, bodies refused with the
 * field named (and not charged), and a PUT that replaces the whole webhook.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoints from "@solfx/core/Endpoints"
import { maxWebhooks } from "@solfx/core/Plans"
import { MAX_ACCOUNT_ADDRESSES } from "@solfx/core/Webhook"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { get, send, urlFor } from "./support/Http.js"

const FREE_KEY = "free-plan-key-000000000000000000000000"
const FREE_PROJECT = "2f9c1d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
const ADDRESS = "11111111111111111111111111111111"

const hook = (over: Record<string, unknown> = {}) => ({
  webhookURL: "http://127.0.0.1:9/hook",
  webhookType: "enhanced",
  accountAddresses: [ADDRESS],
  transactionTypes: ["TRANSFER"],
  authHeader: "Bearer area-secret",
  ...over
})

/** A request with another key. */
const as = (emu: Emulator.Emulator, key: string, method: string, path: string, body?: unknown) =>
  Effect.promise(async () => {
    const url = urlFor(emu, path, key)
    const res = await fetch(url, {
      method,
      ...(body === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    })
    const text = await res.text()
    return { status: res.status, json: text === "" ? undefined : JSON.parse(text) }
  })

describe("emulator webhook management", () => {
  it.scopedLive("each key sees, changes and deletes only its own webhooks", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webhooks: [], projects: [{ id: FREE_PROJECT, apiKey: FREE_KEY }] })
      const created = yield* send(emu, "POST", "/v0/webhooks", hook())
      expect(created.status).toBe(200)
      const id = created.json.webhookID as string
      expect(created.json).toMatchObject({ ...hook(), webhookID: id, active: true })
      expect((yield* get(emu, `/v0/webhooks/${id}`)).json).toEqual(created.json)

      expect((yield* as(emu, FREE_KEY, "GET", "/v0/webhooks")).json).toEqual([])
      for (const [method, body] of [["GET"], ["PUT", hook()], ["PATCH", { active: false }], ["DELETE"]] as const) {
        expect((yield* as(emu, FREE_KEY, method, `/v0/webhooks/${id}`, body)).status, method).toBe(404)
      }
      expect((yield* get(emu, `/v0/webhooks/${id}`)).json.active).toBe(true)

      expect((yield* send(emu, "DELETE", `/v0/webhooks/${id}`)).status).toBe(200)
      expect((yield* get(emu, `/v0/webhooks/${id}`)).status).toBe(404)
      expect((yield* get(emu, "/v0/webhooks")).json).toEqual([])
    }))

  it.scopedLive("a free project has at most 5 webhooks: the sixth is a 403, not charged", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({
        webhooks: [],
        projects: [{ id: FREE_PROJECT, apiKey: FREE_KEY, plan: "free" }]
      })
      const ids: Array<string> = []
      for (let i = 0; i < maxWebhooks.free; i++) {
        const reply = yield* as(emu, FREE_KEY, "POST", "/v0/webhooks", hook())
        expect(reply.status).toBe(200)
        ids.push(reply.json.webhookID)
      }
      expect(new Set(ids).size).toBe(maxWebhooks.free)
      const used = emu.usage(FREE_PROJECT).creditsUsed
      expect(used).toBe(maxWebhooks.free * Endpoints.createWebhook.cost.credits)
      const over = yield* as(emu, FREE_KEY, "POST", "/v0/webhooks", hook())
      expect(over.status).toBe(403)
      expect(over.json.error).toContain("free plan allows 5 webhooks")
      expect(emu.usage(FREE_PROJECT).creditsUsed).toBe(used)

      // Deleting one makes room again.
      expect((yield* as(emu, FREE_KEY, "DELETE", `/v0/webhooks/${ids[0]}`)).status).toBe(200)
      expect((yield* as(emu, FREE_KEY, "POST", "/v0/webhooks", hook())).status).toBe(200)
    }))

  it.scopedLive("a body that is not a webhook is a 400 naming the field, and costs nothing", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webhooks: [] })
      const cases: ReadonlyArray<readonly [string, unknown]> = [
        ["transactionTypes[1]", hook({ transactionTypes: ["TRANSFER", "TRANSFR"] })],
        ["accountAddresses[0]", hook({ accountAddresses: ["nope"] })],
        ["accountAddresses", hook({ accountAddresses: Array(MAX_ACCOUNT_ADDRESSES + 1).fill(ADDRESS) })],
        ["webhookType", hook({ webhookType: "enhancedMainnet" })],
        ["webhookURL", hook({ webhookURL: "not a url" })]
      ]
      for (const [field, body] of cases) {
        const reply = yield* send(emu, "POST", "/v0/webhooks", body)
        expect(reply.status, field).toBe(400)
        expect(reply.json.error.startsWith(`${field}:`), reply.json.error).toBe(true)
      }
      expect(emu.usage().creditsUsed).toBe(0)
      const id = (yield* send(emu, "POST", "/v0/webhooks", hook())).json.webhookID
      expect((yield* send(emu, "PATCH", `/v0/webhooks/${id}`, { active: "no" })).status).toBe(400)
    }))

  it.scopedLive("PUT replaces the whole webhook: a field it leaves out is gone; the active flag stays", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ webhooks: [] })
      const id = (yield* send(emu, "POST", "/v0/webhooks", hook())).json.webhookID
      expect((yield* send(emu, "PATCH", `/v0/webhooks/${id}`, { active: false })).json.active).toBe(false)
      const { authHeader: _, ...withoutAuth } = hook({ webhookType: "raw" })
      const replaced = yield* send(emu, "PUT", `/v0/webhooks/${id}`, withoutAuth)
      expect(replaced.status).toBe(200)
      expect(replaced.json.authHeader).toBeUndefined()
      expect(replaced.json).toMatchObject({ webhookID: id, webhookType: "raw", active: false })
    }))
})
