/**
 * The endpoint table and the billing rule: one entry per method, names unique,
 * costs and buckets readable, REST path parameters present in the params, and
 * the rule's verdict on each kind of outcome.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Billing from "@solfx/core/Billing"
import * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Schema from "effect/Schema"

describe("Endpoints", () => {
  it("every name is unique and found by name", () => {
    expect(new Set(Endpoints.all.map((e) => e.name)).size).toBe(Endpoints.all.length)
    for (const e of Endpoints.all) expect(Endpoints.byName.get(e.name)).toBe(e)
  })

  it("costs and buckets are readable", () => {
    expect(Endpoints.getAssetsByAuthority.cost).toEqual({ credits: 10, usage: "das" })
    expect(Endpoints.getValidityProof).toMatchObject({ cost: { credits: 100 }, bucket: "validityProof" })
    expect(Endpoints.getValidityProofV2).toMatchObject({
      cost: { credits: 100, usage: "photon" },
      bucket: "validityProof"
    })
    expect(Endpoints.getCompressedTokenAccountsByOwnerV2).toMatchObject({ cost: { credits: 10 }, bucket: "photon" })
    expect(Endpoints.getAssetsByOwner).toMatchObject({ cost: { credits: 10, usage: "das" }, bucket: "das" })
    expect(Endpoints.getAssetBatch.batch).toMatchObject({ field: "ids", size: 1000 })
    expect(Endpoints.walletBalances).toMatchObject({
      name: "GET /v1/wallet/{wallet}/balances",
      cost: { credits: 100, usage: "api" },
      bucket: "wallet"
    })
    expect(Endpoints.projectUsage).toMatchObject({ auth: "header", bucket: "admin" })
    expect(Endpoints.sendBundle).toMatchObject({ idempotent: false, id: "number" })
  })

  it("every REST path parameter is a field of the params", () => {
    for (const e of Endpoints.all) {
      if (e._tag !== "Rest") continue
      const ast = Schema.typeSchema(e.params).ast
      const fields = ast._tag === "TypeLiteral" ? ast.propertySignatures.map((p) => String(p.name)) : []
      for (const p of Endpoint.pathParams(e.path)) expect(fields, `${e.name}: ${p}`).toContain(p)
    }
  })

  it("paged entries say where their items are", () => {
    const list = { total: 2, limit: 2, items: ["a", "b"] }
    const paging = Endpoints.getAssetsByAuthority.paging
    expect(paging._tag).toBe("PageNumber")
    if (paging._tag === "PageNumber") expect(paging.items(list as never)).toEqual(["a", "b"])
  })
})

describe("Billing", () => {
  const plain = { notFoundIsAnswer: false }
  it("bills what reached the handler", () => {
    expect(Billing.billed({ _tag: "Answered", status: 200 }, plain)).toBe(true)
    expect(Billing.billed({ _tag: "Answered", status: 404 }, { notFoundIsAnswer: true })).toBe(true)
  })
  it("does not bill rejections, faults and missing answers", () => {
    for (const status of [400, 401, 403, 404, 429, 500, 502, 503, 504]) {
      expect(Billing.billed({ _tag: "Answered", status }, plain), String(status)).toBe(false)
    }
    expect(Billing.billed({ _tag: "NoAnswer" }, plain)).toBe(false)
  })
})
