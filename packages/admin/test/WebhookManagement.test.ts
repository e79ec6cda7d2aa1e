/**
 * Webhooks.create/get/edit/toggle/delete over the HTTP test layer: what goes on
 * the wire (paths, methods, whole bodies), bad input refused with nothing sent,
 * the 404 as `WebhookNotFound`, the answers a delete may give, and the auth
 * header kept out of every error.
 */
import { describe, expect, it } from "@effect/vitest"
import { Webhooks } from "@solfx/admin"
import * as Webhook from "@solfx/core/Webhook"
import { HttpTesting } from "@solfx/http"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { inspect } from "node:util"

const SECRET = "Bearer manage-secret-7c1d"
const ID = "123e4567-e89b-12d3-a456-426614174000"
const WALLET = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
const OTHER = "11111111111111111111111111111111"

const record = {
  webhookID: ID,
  wallet: WALLET,
  webhookURL: "https://example.test/hook",
  // NFT_FUTURE_THING is not in the vocabulary: the service may add types.
  transactionTypes: ["TRANSFER", "NFT_FUTURE_THING"],
  accountAddresses: [WALLET],
  webhookType: "enhanced",
  authHeader: SECRET,
  txnStatus: "success"
}

/** The service over a test client answering `answer`; the requests it recorded. */
const run = <A, E>(
  answer: (req: HttpTesting.RecordedRequest, index: number) => Response,
  body: (w: Webhooks.WebhooksShape) => Effect.Effect<A, E>
) =>
  Effect.gen(function*() {
    const result = yield* Effect.either(body(yield* Webhooks.Webhooks))
    const requests = yield* (yield* HttpTesting.RequestLog).requests
    return { result, requests }
  }).pipe(
    Effect.provide(
      Webhooks.layer.pipe(Layer.provideMerge(HttpTesting.layerTransport((req, i) => answer(req, i))))
    )
  )

const echo = (req: HttpTesting.RecordedRequest) =>
  Response.json({ webhookID: ID, wallet: WALLET, active: true, ...(req.body as object) })

describe("Webhooks.create", () => {
  it.effect("POSTs the webhook with the auth header in clear in the body only; types default to ANY", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* run(echo, (w) =>
        w.create({
          webhookURL: "https://example.test/hook",
          webhookType: "raw",
          accountAddresses: [WALLET],
          authHeader: Redacted.make(SECRET),
          txnStatus: "all"
        }))
      expect(requests.map((r) => [r.method, r.url.pathname])).toEqual([["POST", "/v0/webhooks"]])
      expect(requests[0]!.body).toEqual({
        webhookURL: "https://example.test/hook",
        webhookType: "raw",
        accountAddresses: [WALLET],
        transactionTypes: ["ANY"],
        authHeader: SECRET,
        txnStatus: "all"
      })
      if (result._tag === "Left") return expect.fail(String(result.left))
      expect(result.right.webhookID).toBe(ID)
      expect(Redacted.value(result.right.authHeader!)).toBe(SECRET)
      expect(inspect(result.right)).not.toContain("manage-secret")
    }))

  it.effect("bad input is InvalidRequest naming the field, and nothing is sent", () =>
    Effect.gen(function*() {
      const base = {
        webhookURL: "https://example.test/hook",
        webhookType: "enhanced" as const,
        accountAddresses: [WALLET]
      }
      const cases: ReadonlyArray<readonly [string, unknown]> = [
        ["transactionTypes[1]", { ...base, transactionTypes: ["TRANSFER", "TRANSFR"] }],
        ["transactionTypes", { ...base, transactionTypes: [] }],
        ["accountAddresses[1]", { ...base, accountAddresses: [WALLET, "not-an-address"] }],
        ["accountAddresses", { ...base, accountAddresses: [] }],
        ["accountAddresses", { ...base, accountAddresses: Array(Webhook.MAX_ACCOUNT_ADDRESSES + 1).fill(OTHER) }],
        ["webhookURL", { ...base, webhookURL: "ftp://example.test/hook" }],
        ["webhookType", { ...base, webhookType: "enhancedMainnet" }],
        ["txnStatus", { ...base, txnStatus: "succeeded" }],
        ["authHeader", { ...base, authHeader: Redacted.make("") }],
        ["hookURL", { ...base, hookURL: "https://example.test/typo" }]
      ]
      for (const [field, input] of cases) {
        const { requests, result } = yield* run(echo, (w) => w.create(input as Webhook.CreateWebhookInput))
        if (result._tag === "Right") return expect.fail(`accepted ${field}`)
        expect(result.left._tag).toBe("InvalidRequest")
        if (result.left._tag === "InvalidRequest") expect(result.left.field).toBe(field)
        expect(requests).toEqual([])
      }
      // 100,000 addresses are within the bound.
      const { requests } = yield* run(echo, (w) =>
        w.create({ ...base, accountAddresses: Array(Webhook.MAX_ACCOUNT_ADDRESSES).fill(OTHER) }))
      expect(requests).toHaveLength(1)
    }))

  it.effect("a bad auth header given in clear never shows in the error", () =>
    Effect.gen(function*() {
      const long = `Bearer manage-secret-${"x".repeat(1100)}`
      const { result } = yield* run(echo, (w) =>
        w.create({
          webhookURL: "https://example.test/hook",
          webhookType: "raw",
          accountAddresses: [WALLET],
          authHeader: long as unknown as Redacted.Redacted<string>
        }))
      if (result._tag === "Right") return expect.fail("accepted")
      const shown = [String(result.left), inspect(result.left), JSON.stringify(result.left)]
      for (const text of shown) expect(text).not.toContain("manage-secret")
    }))

  it.effect("a 500 answer to a create is not retried: sent twice it would make two webhooks", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* run(
        () => Response.json({ error: "boom" }, { status: 500 }),
        (w) => w.create({ webhookURL: "https://example.test/hook", webhookType: "raw", accountAddresses: [WALLET] })
      )
      expect(result._tag).toBe("Left")
      expect(requests).toHaveLength(1)
    }))
})

describe("Webhooks.get, edit, toggle, delete", () => {
  it.effect("get: GET /v0/webhooks/{id}; an unknown type decodes; 404 is WebhookNotFound; a bad id sends nothing", () =>
    Effect.gen(function*() {
      const ok = yield* run(() => Response.json(record), (w) => w.get(ID))
      expect(ok.requests.map((r) => [r.method, r.url.pathname])).toEqual([["GET", `/v0/webhooks/${ID}`]])
      if (ok.result._tag === "Left") return expect.fail(String(ok.result.left))
      expect(ok.result.right.transactionTypes).toEqual(["TRANSFER", "NFT_FUTURE_THING"])
      expect(ok.result.right.txnStatus).toBe("success")

      const missing = yield* run(() => Response.json({ error: "webhook not found" }, { status: 404 }), (w) => w.get(ID))
      expect(missing.result).toMatchObject({ _tag: "Left", left: { _tag: "WebhookNotFound", webhookID: ID } })

      const bad = yield* run(() => Response.json(record), (w) => w.get("../admin"))
      expect(bad.result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidRequest", field: "webhookID" } })
      expect(bad.requests).toEqual([])
    }))

  it.effect("edit reads the webhook, then PUTs all of it with the change applied", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* run(
        (req) => (req.method === "GET" ? Response.json(record) : echo(req)),
        (w) => w.edit(ID, { accountAddresses: [OTHER], webhookURL: "https://example.test/new" })
      )
      expect(requests.map((r) => [r.method, r.url.pathname])).toEqual([
        ["GET", `/v0/webhooks/${ID}`],
        ["PUT", `/v0/webhooks/${ID}`]
      ])
      // Everything the change does not name is sent as it was, the auth header and the unknown type included.
      expect(requests[1]!.body).toEqual({
        webhookURL: "https://example.test/new",
        webhookType: "enhanced",
        accountAddresses: [OTHER],
        transactionTypes: ["TRANSFER", "NFT_FUTURE_THING"],
        authHeader: SECRET,
        txnStatus: "success"
      })
      if (result._tag === "Left") return expect.fail(String(result.left))
      expect(result.right.accountAddresses).toEqual([OTHER])
    }))

  it.effect("edit: a function of the current webhook; null removes the auth header; a bad change sends nothing", () =>
    Effect.gen(function*() {
      const added = yield* run(
        (req) => (req.method === "GET" ? Response.json(record) : echo(req)),
        (w) => w.edit(ID, (current) => ({ accountAddresses: [...current.accountAddresses, OTHER], authHeader: null }))
      )
      const put = added.requests[1]!.body as Record<string, unknown>
      expect(put["accountAddresses"]).toEqual([WALLET, OTHER])
      expect("authHeader" in put).toBe(false)

      const bad = yield* run(
        () => Response.json(record),
        (w) => w.edit(ID, { transactionTypes: ["NFT_FUTURE_THING"] as any })
      )
      expect(bad.result).toMatchObject({ _tag: "Left", left: { _tag: "InvalidRequest", field: "transactionTypes[0]" } })
      expect(bad.requests).toEqual([])

      // A function's bad result is refused after the read, before any PUT.
      const late = yield* run(() => Response.json(record), (w) => w.edit(ID, () => ({ accountAddresses: ["nope"] })))
      expect(late.result).toMatchObject({
        _tag: "Left",
        left: { _tag: "InvalidRequest", field: "accountAddresses[0]" }
      })
      expect(late.requests.map((r) => r.method)).toEqual(["GET"])

      const gone = yield* run(
        () => Response.json({ error: "webhook not found" }, { status: 404 }),
        (w) => w.edit(ID, { webhookType: "raw" })
      )
      expect(gone.result).toMatchObject({ _tag: "Left", left: { _tag: "WebhookNotFound" } })
      expect(gone.requests.map((r) => r.method)).toEqual(["GET"])
    }))

  it.effect("toggle: PATCH /v0/webhooks/{id} with { active }", () =>
    Effect.gen(function*() {
      const { requests, result } = yield* run(
        (req) => Response.json({ ...record, ...(req.body as object) }),
        (w) => w.toggle(ID, false)
      )
      expect(requests.map((r) => [r.method, r.url.pathname, r.body])).toEqual([
        ["PATCH", `/v0/webhooks/${ID}`, { active: false }]
      ])
      if (result._tag === "Left") return expect.fail(String(result.left))
      expect(result.right.active).toBe(false)
    }))

  it.effect("delete: an empty 200, a 204 or a message are all success; 404 is WebhookNotFound", () =>
    Effect.gen(function*() {
      const answers = [
        () => new Response(null, { status: 200 }),
        () => new Response(null, { status: 204 }),
        () => Response.json({ message: "deleted" })
      ]
      for (const answer of answers) {
        const { requests, result } = yield* run(answer, (w) => w.delete(ID))
        if (result._tag === "Left") return expect.fail(String(result.left))
        expect(requests.map((r) => [r.method, r.url.pathname])).toEqual([["DELETE", `/v0/webhooks/${ID}`]])
      }
      const missing = yield* run(
        () => Response.json({ error: "webhook not found" }, { status: 404 }),
        (w) => w.delete(ID)
      )
      expect(missing.result).toMatchObject({ _tag: "Left", left: { _tag: "WebhookNotFound", webhookID: ID } })
    }))
})
