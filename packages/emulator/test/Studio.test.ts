/**
 * The studio's own routes over raw HTTP: the key rule, the page (built from the sources on its
 * first request, with its script pinned by the Content-Security-Policy), and the JSON reads the page
 * needs (webhook deliveries with status, attempt and latency; usage per area per second beside the
 * plan's limits; a landed transaction in its enhanced form). The page in a browser: test/browser.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import * as Http from "node:http"
import * as Emulator from "../src/Emulator.js"

const get = (emu: Emulator.Emulator, path: string, key: string | null = emu.apiKey) =>
  Effect.promise(async () => {
    const res = await fetch(new URL(path, emu.url), { headers: key === null ? {} : { "x-api-key": key } })
    const text = await res.text()
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: (() => {
        try {
          return JSON.parse(text)
        } catch {
          return undefined
        }
      })()
    }
  })

/** A receiver answering every delivery with `status`. */
const receiver = (status: number) =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer((req, res) => {
        req.resume()
        req.on("end", () => res.writeHead(status).end())
      })
      server.listen(0, "127.0.0.1", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => `http://127.0.0.1:${(server.address() as { port: number }).port}/`))

describe("studio routes", () => {
  it.scopedLive("every path takes the key; the page holds no key and runs only its own script", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      for (const path of ["/studio", "/emulator/usage", "/emulator/deliveries"]) {
        expect((yield* get(emu, path, null)).status).toBe(401)
        expect((yield* get(emu, path, "wrong")).status).toBe(401)
      }
      expect((yield* get(emu, "/emulator/nothing")).status).toBe(404)
      const page = yield* get(emu, emu.studioUrl.replace(emu.url, ""), null)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.text).not.toContain(emu.apiKey)
      // No CDN, nothing fetched but its own origin: no URL to another host in the page.
      expect(page.text).not.toMatch(/<(script|link)[^>]+(src|href)=/)
      const script = /<script type="module">([\s\S]*?)<\/script>/.exec(page.text)![1]!
      const hash = createHash("sha256").update(script).digest("base64")
      expect(page.headers.get("content-security-policy")).toContain(`script-src 'sha256-${hash}'`)
      expect(page.headers.get("referrer-policy")).toBe("no-referrer")
      // Never charged.
      expect(emu.usage().creditsUsed).toBe(0)
    }))

  it.scopedLive("deliveries: each attempt with its status, attempt number and latency; failures counted", () =>
    Effect.gen(function*() {
      const ok = yield* receiver(200)
      const broken = yield* receiver(500)
      const owner = "11111111111111111111111111111112"
      const emu = yield* Emulator.make({
        webhooks: [
          { webhookURL: ok, webhookType: "enhanced", accountAddresses: [owner], webhookID: "good" },
          { webhookURL: broken, webhookType: "enhanced", accountAddresses: [owner], webhookID: "bad" }
        ],
        webhookDelivery: { maxRetries: 1, retrySpacing: "10 millis" }
      })
      const { signature } = yield* emu.world.fund({ address: owner, lamports: 1n })
      yield* emu.webhookDeliveries.idle
      const d = (yield* get(emu, "/emulator/deliveries")).json
      expect(d.webhooks.map((w: any) => [w.webhookID, w.delivered, w.failed])).toEqual([["good", 1, 0], ["bad", 0, 2]])
      expect(d.attempts.map((a: any) => [a.webhookID, a.attempt, a.status, a.signature])).toEqual(
        expect.arrayContaining([["good", 1, 200, signature], ["bad", 1, 500, signature], ["bad", 2, 500, signature]])
      )
      expect(d.attempts.every((a: any) => Number.isInteger(a.latencyMs) && a.latencyMs >= 0)).toBe(true)
      // Newest first.
      expect(d.attempts.map((a: any) => a.at)).toEqual([...d.attempts.map((a: any) => a.at)].sort((a, b) => b - a))
    }))

  it.scopedLive("usage: requests, credits and 429s per area per second, beside the plan's limits", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ plan: "free" })
      const call = (method: string, params: unknown) =>
        Effect.promise(() =>
          fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
            method: "POST",
            body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
          }).then((r) => r.status)
        )
      // The free plan's DAS bucket takes 2 a second: calls one after another until one gets a 429 (at most 20).
      const statuses: Array<number> = []
      while (!statuses.includes(429)) {
        if (statuses.length === 20) throw new Error(`no 429 in 20 calls: ${statuses.join(",")}`)
        statuses.push(yield* call("getAsset", { id: emu.samples.unknownAddress }))
      }
      const u = (yield* get(emu, "/emulator/usage?seconds=30")).json
      expect(u.seconds).toBe(30)
      expect(u.series.length).toBe(30)
      expect(u.areas).toContain("das")
      const das = u.totals.das ?? { requests: 0, credits: 0, limited: 0 }
      const rejected = u.totals.rejected?.limited ?? 0
      // Every call is counted once: answered under das, or refused by the plan before it had an area.
      expect(das.requests + (u.totals.rejected?.requests ?? 0)).toBe(statuses.length)
      expect(das.limited + rejected).toBe(statuses.filter((s) => s === 429).length)
      expect(das.credits).toBe(emu.usage().creditsUsed)
      const perSecond = u.series.reduce((n: number, s: any) => n + (s.areas.das?.requests ?? 0), 0)
      expect(perSecond).toBe(das.requests)
      expect(u.plan).toMatchObject({ name: "free", enforced: true, limits: { das: 2 } })
      expect(u.plan.rejected.das).toBe(statuses.filter((s) => s === 429).length)
      // The studio's own reads are not counted in any area.
      expect(u.areas).not.toContain(undefined)
    }))

  it.scopedLive("a landed transaction, enhanced (type, transfers, balance changes); 404 for an unknown one", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const owner = "11111111111111111111111111111112"
      const { signature } = yield* emu.world.fund({ address: owner, lamports: 7n })
      const tx = (yield* get(emu, `/emulator/transactions/${signature}`)).json
      expect(tx).toMatchObject({ signature, type: "TRANSFER" })
      expect(tx.nativeTransfers).toEqual([expect.objectContaining({ toUserAccount: owner, amount: 7 })])
      const unknown = yield* get(emu, `/emulator/transactions/${"1".repeat(64)}`)
      expect(unknown.status).toBe(404)
    }))
})
