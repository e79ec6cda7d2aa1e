/**
 * The project usage record (both layouts) and the webhook record: defaults,
 * the open transaction-type vocabulary, and the redacted authHeader.
 */
import { describe, expect, it } from "@effect/vitest"
import * as ProjectUsage from "@solfx/core/ProjectUsage"
import * as Webhook from "@solfx/core/Webhook"
import * as Either from "effect/Either"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { inspect } from "node:util"

const decodeUsage = Schema.decodeUnknownEither(ProjectUsage.ProjectUsage, { onExcessProperty: "ignore" })
const decodeHooks = Schema.decodeUnknownEither(Webhook.WebhookList, { onExcessProperty: "ignore" })

const base = {
  creditsRemaining: 10,
  creditsUsed: 5,
  prepaidCreditsRemaining: 0,
  prepaidCreditsUsed: 0,
  subscriptionDetails: { billingCycle: { start: "2026-04-01", end: "2026-04-30" }, creditsLimit: 15, plan: "free" }
}
const usage = {
  api: 1,
  archival: 0,
  das: 2,
  grpc: 0,
  grpcGeyser: 0,
  photon: 0,
  rpc: 3,
  stream: 0,
  webhook: 0,
  websocket: 0
}

describe("ProjectUsage", () => {
  it("decodes the spec layout and the newer one into one type", () => {
    const spec = decodeUsage({ ...base, usage })
    expect(Either.getOrThrow(spec).usage?.rpc).toBe(3)
    const newer = Either.getOrThrow(decodeUsage({
      ...base,
      credits: { rpc: 1, laserstreamGrpc: 2, someFutureService: 9 },
      requests: { rpc: 1 },
      dataTransfer: { laserstreamWebsocket: 8 },
      creditCycle: { start: "2026-04-01", end: "2026-04-30" }
    }))
    expect(newer.usage).toBeUndefined()
    expect(newer.credits).toEqual({ rpc: 1, laserstreamGrpc: 2 })
    expect(newer.creditCycle?.start).toBe("2026-04-01")
  })

  it("rejects a usage block with a missing counter, and dates that are not YYYY-MM-DD", () => {
    const { api: _api, ...partial } = usage
    expect(Either.isLeft(decodeUsage({ ...base, usage: partial }))).toBe(true)
    for (const date of ["2026-4-01", "2026-04-01T00:00:00Z", "2026-13-01", "01/04/2026"]) {
      const body = {
        ...base,
        subscriptionDetails: { ...base.subscriptionDetails, billingCycle: { start: date, end: "2026-04-30" } }
      }
      expect([date, Either.isLeft(decodeUsage(body))]).toEqual([date, true])
    }
  })
})

const hook = {
  webhookID: "id-1",
  wallet: "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin",
  webhookURL: "https://example.test/h",
  transactionTypes: ["ANY", "NFT_RENT_END"],
  accountAddresses: ["9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"],
  webhookType: "enhancedDevnet",
  authHeader: "Bearer hunter2-token"
}

describe("Webhook", () => {
  it("active defaults to true; absent lists read as []; authHeader may be absent or null", () => {
    const [a, b] = Either.getOrThrow(decodeHooks([
      hook,
      { ...hook, transactionTypes: undefined, accountAddresses: undefined, authHeader: null, active: false }
    ]))
    expect(a!.active).toBe(true)
    expect(b).toMatchObject({ active: false, transactionTypes: [], accountAddresses: [] })
    expect(b!.authHeader).toBeUndefined()
  })

  it("transaction types: known members typed, other UPPER_SNAKE names accepted, anything else rejected", () => {
    const known: Webhook.KnownTransactionType = "COMPRESSED_NFT_MINT"
    expect(Schema.is(Webhook.TransactionType)(known)).toBe(true)
    expect(Schema.is(Webhook.TransactionType)("NFT_RENT_END")).toBe(true)
    for (const bad of ["transfer", "Nft_Sale", "NFT__SALE", "_X", ""]) {
      expect([bad, Either.isLeft(decodeHooks([{ ...hook, transactionTypes: [bad] }]))]).toEqual([bad, true])
    }
  })

  it("the webhookType enum is closed", () => {
    expect(Either.isLeft(decodeHooks([{ ...hook, webhookType: "account" }]))).toBe(true)
  })

  it("authHeader is Redacted: String, JSON and inspect never show it", () => {
    const [h] = Either.getOrThrow(decodeHooks([hook]))
    expect(Redacted.value(h!.authHeader!)).toBe("Bearer hunter2-token")
    for (const text of [String(h!.authHeader), JSON.stringify(h), inspect(h, { depth: 5 })]) {
      expect(text).not.toContain("hunter2")
    }
    // Encoding gives the wire form back (the emulator's direction).
    expect(Schema.encodeSync(Webhook.Webhook)(h!).authHeader).toBe("Bearer hunter2-token")
  })
})
