/**
 * The plan limits, asked for with `plan`: per project and bucket, a sliding 1 s
 * window, the real 429 bodies with Retry-After, counted per bucket; webhooks as
 * enhanced, validity proofs on Photon too. The window rule on synthetic times;
 * the wire with plain fetch on the TestClock (every request at one instant).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as Emulator from "../src/Emulator.js"
import * as PlanLimits from "../src/PlanLimits.js"
import { get, post, rpc } from "./support/Http.js"

const developer = { id: "p", plan: "developer" }

describe("PlanLimits: the window rule", () => {
  it("developer DAS: 10 in any closed second, the 11th refused until the oldest leaves", () => {
    const limits = PlanLimits.make()
    const at = (t: number) => limits.admit(developer, "das", t)
    for (let i = 0; i < 10; i++) expect(at(i * 10)).toBeUndefined()
    expect(at(500)).toBe(1)
    // The window is closed: at 1000 the request of 0 still counts; at 1001 it has left.
    expect(at(1000)).toBe(1)
    expect(at(1001)).toBeUndefined()
    expect(limits.stats()).toEqual({ rejected: { das: 2 }, maxInWindow: { das: 12 } })
  })

  it("projects and buckets have windows of their own; admin and unknown plans are not limited here", () => {
    const limits = PlanLimits.make()
    for (let i = 0; i < 10; i++) {
      expect(limits.admit(developer, "das", 0)).toBeUndefined()
      expect(limits.admit({ id: "q", plan: "developer" }, "das", 0)).toBeUndefined()
      expect(limits.admit(developer, "photon", 0)).toBeUndefined()
      expect(limits.admit(developer, "admin", 0)).toBeUndefined()
      expect(limits.admit({ id: "r", plan: "enterprise" }, "das", 0)).toBeUndefined()
    }
    expect(limits.admit(developer, "das", 0)).toBe(1)
    expect(limits.admit(developer, "photon", 0)).toBe(1)
    expect(limits.stats().rejected).toEqual({ das: 1, photon: 1 })
  })

  it("webhooks count as enhanced; a validity proof counts on its bucket and on Photon", () => {
    const limits = PlanLimits.make()
    for (let i = 0; i < 5; i++) expect(limits.admit(developer, "webhooks", 0)).toBeUndefined()
    for (let i = 0; i < 5; i++) expect(limits.admit(developer, "enhanced", 0)).toBeUndefined()
    expect(limits.admit(developer, "webhooks", 0)).toBe(1)
    for (let i = 0; i < 5; i++) expect(limits.admit(developer, "validityProof", 0)).toBeUndefined()
    expect(limits.admit(developer, "validityProof", 0)).toBe(1)
    for (let i = 0; i < 5; i++) expect(limits.admit(developer, "photon", 0)).toBeUndefined()
    expect(limits.admit(developer, "photon", 0)).toBe(1)
    expect(limits.stats().rejected).toEqual({ enhanced: 1, validityProof: 1, photon: 1 })
  })
})

describe("PlanLimits: on the wire", () => {
  it.scoped("plan free: 2 DAS requests let through, then the real 429 bodies with Retry-After, counted", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ plan: "free", seed: 3 })
      const params = { authorityAddress: emu.samples.assetAuthority, limit: 1 }
      const replies = yield* Effect.forEach([1, 2, 3], (id) => rpc(emu, "getAssetsByAuthority", params, id))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 429])
      expect(replies[2]!.json).toEqual({ jsonrpc: "2.0", error: { code: -32429, message: "rate limited" }, id: 3 })
      expect(replies[2]!.headers.get("retry-after")).toBe("1")
      const wallet = yield* get(emu, `/v1/wallet/${emu.samples.wallet}/identity`)
      expect(wallet.status).not.toBe(429)
      expect(emu.planLimits).toEqual({ rejected: { das: 1 }, maxInWindow: { das: 3, wallet: 1 } })
      // The refused request was not billed: two DAS requests charged.
      expect(emu.project()!.usage["das"]).toBe(2)
      yield* TestClock.adjust("1001 millis")
      expect((yield* rpc(emu, "getAssetsByAuthority", params, 4)).status).toBe(200)
    }))

  it.scoped("REST: 429 {\"error\":\"rate limited\"}; without a plan nothing is limited", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ plan: "free", seed: 3 })
      const body = { mintAccounts: [emu.samples.metadataMint] }
      const replies = yield* Effect.forEach([1, 2, 3], () => post(emu, body, { path: "/v0/token-metadata" }))
      expect(replies.map((r) => r.status === 429)).toEqual([false, false, true])
      expect(replies[2]!.json).toEqual({ error: "rate limited" })
      expect(replies[2]!.headers.get("retry-after")).toBe("1")

      const open = yield* Emulator.make({ seed: 3 })
      const params = { authorityAddress: open.samples.assetAuthority, limit: 1 }
      const many = yield* Effect.forEach(Array.from({ length: 30 }, (_, i) => i), (id) =>
        rpc(open, "getAssetsByAuthority", params, id))
      expect(many.every((r) =>
        r.status === 200
      )).toBe(true)
      expect(open.planLimits).toEqual({ rejected: {}, maxInWindow: {} })
    }))
})
