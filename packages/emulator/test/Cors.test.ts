/**
 * Cross-origin requests over raw HTTP, as a browser sends them (an `Origin`, and a preflight
 * before any request that is not "simple"): what the emulator answers, which headers it sends,
 * and that a refused origin runs nothing. The same rules in a real browser: test/browser.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Http from "node:http"
import { WebSocket } from "ws"
import { parseFlags } from "../src/bin.js"
import * as Cors from "../src/Cors.js"
import * as Emulator from "../src/Emulator.js"

interface Answer {
  readonly status: number
  readonly headers: Http.IncomingHttpHeaders
  readonly text: string
}

/** node:http, not fetch: a browser's `Origin` and preflight headers are sent exactly as given. */
const request = (
  emu: Emulator.Emulator,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string
): Effect.Effect<Answer> =>
  Effect.promise(() =>
    new Promise<Answer>((resolve, reject) => {
      const req = Http.request(new URL(path, emu.url), { method, headers, agent: false }, (res) => {
        let text = ""
        res.setEncoding("utf8")
        res.on("data", (d) => (text += d))
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
      })
      req.on("error", reject)
      req.end(body)
    })
  )

const PAGE = "http://localhost:5173"
const OTHER = "http://evil.test"

const preflight = (emu: Emulator.Emulator, path: string, origin: string, method = "POST") =>
  request(emu, "OPTIONS", path, {
    origin,
    "access-control-request-method": method,
    "access-control-request-headers": "content-type,x-api-key,solana-client,traceparent,b3"
  })

const rpcBody = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getAsset", params: { id: "x" } })
const rpcCall = (emu: Emulator.Emulator, origin: string | undefined, key = emu.apiKey) =>
  request(emu, "POST", `/?api-key=${key}`, {
    "content-type": "application/json",
    ...(origin === undefined ? {} : { origin })
  }, rpcBody)

const fund = (emu: Emulator.Emulator, headers: Record<string, string>) =>
  request(
    emu,
    "POST",
    `/emulator/world/fund?api-key=${emu.apiKey}`,
    { "content-type": "application/json", ...headers },
    JSON.stringify({ address: emu.samples.unknownAddress, lamports: "5" })
  )

/** Opens a WebSocket with this Origin: the status of a refusal, or 101. */
const upgrade = (emu: Emulator.Emulator, origin: string | undefined) =>
  Effect.promise(() =>
    new Promise<number>((resolve) => {
      const ws = new WebSocket(`${emu.url.replace("http", "ws")}/?api-key=${emu.apiKey}`, {
        ...(origin === undefined ? {} : { origin })
      })
      ws.once("open", () => {
        ws.close()
        resolve(101)
      })
      ws.once("unexpected-response", (_req, res) => {
        resolve(res.statusCode ?? 0)
        ws.terminate()
      })
      ws.once("error", () => resolve(-1))
    })
  )

describe("CORS, default (no --cors-origin)", () => {
  it.scoped("a JSON-RPC preflight from any origin gets 204 with the SDK's and kit's headers allowed", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const answer = yield* preflight(emu, "/", OTHER)
      expect(answer.status).toBe(204)
      expect(answer.headers["access-control-allow-origin"]).toBe("*")
      const allowed = String(answer.headers["access-control-allow-headers"]).split(/,\s*/)
      for (const h of ["content-type", "x-api-key", "solana-client", "traceparent", "b3"]) {
        expect(allowed).toContain(h)
      }
      expect(String(answer.headers["access-control-allow-methods"])).toContain("POST")
      // A preflight carries no key and is never charged.
      expect(emu.usage().creditsUsed).toBe(0)
    }))

  it.scoped("a REST route's preflight (a GET, a webhook's DELETE) and its answer carry the headers", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const path = `/v1/wallet/${emu.samples.wallet}/identity`
      expect((yield* preflight(emu, path, PAGE, "GET")).headers["access-control-allow-origin"]).toBe("*")
      expect(String((yield* preflight(emu, "/v0/webhooks/x", PAGE, "DELETE")).headers["access-control-allow-methods"]))
        .toContain("DELETE")
      const answer = yield* request(emu, "GET", `${path}?api-key=${emu.apiKey}`, { origin: PAGE })
      expect(answer.status).toBe(200)
      expect(answer.headers["access-control-allow-origin"]).toBe("*")
    }))

  it.scoped("error answers carry the headers too: a 401, and a 429 whose retry-after a page may read", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const denied = yield* rpcCall(emu, OTHER, "wrong-key")
      expect(denied.status).toBe(401)
      expect(denied.headers["access-control-allow-origin"]).toBe("*")
      emu.setFaults({ rate: 1, kinds: ["429"], retryAfterSeconds: 3 })
      const limited = yield* rpcCall(emu, OTHER)
      expect(limited.status).toBe(429)
      expect(limited.headers["access-control-allow-origin"]).toBe("*")
      expect(limited.headers["retry-after"]).toBe("3")
      expect(String(limited.headers["access-control-expose-headers"]).split(/,\s*/)).toContain("retry-after")
    }))

  it.scoped("the world API refuses other origins (preflight and a preflight-free POST alike) and changes nothing", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const pre = yield* preflight(emu, "/emulator/world/fund", OTHER)
      expect(pre.status).toBe(403)
      expect(pre.headers["access-control-allow-origin"]).toBeUndefined()
      // text/plain needs no preflight: the browser sends it, so the server itself must refuse it.
      const simple = yield* fund(emu, { origin: OTHER, "content-type": "text/plain" })
      expect(simple.status).toBe(403)
      expect(simple.headers["access-control-allow-origin"]).toBeUndefined()
      expect(emu.ledger.transactions().length).toBe(0)
      // Its own origin (the studio's) and non-browser clients (no Origin) are not cross-origin.
      const host = new URL(emu.url).host
      expect((yield* fund(emu, { origin: `http://${host}`, host })).status).toBe(200)
      expect((yield* fund(emu, {})).status).toBe(200)
      expect(emu.ledger.transactions().length).toBe(2)
    }))

  it.scoped("WebSocket upgrades from any origin are accepted", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      expect(yield* upgrade(emu, OTHER)).toBe(101)
      expect(yield* upgrade(emu, undefined)).toBe(101)
    }))
})

describe("CORS with --cors-origin", () => {
  it.scoped("only the listed origins: preflight, answers (echoed, vary: origin), world API and WebSocket", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ corsOrigins: [PAGE, "http://127.0.0.1:3000"] })
      const ok = yield* preflight(emu, "/", PAGE)
      expect(ok.status).toBe(204)
      expect(ok.headers["access-control-allow-origin"]).toBe(PAGE)
      expect(ok.headers["vary"]).toContain("origin")
      const refused = yield* preflight(emu, "/", OTHER)
      expect(refused.status).toBe(403)
      expect(refused.headers["access-control-allow-origin"]).toBeUndefined()

      const answer = yield* rpcCall(emu, PAGE)
      expect(answer.headers["access-control-allow-origin"]).toBe(PAGE)
      const before = emu.usage().creditsUsed
      const foreign = yield* rpcCall(emu, OTHER)
      expect(foreign.status).toBe(403)
      expect(emu.usage().creditsUsed).toBe(before)

      const world = yield* fund(emu, { origin: PAGE })
      expect(world.status).toBe(200)
      expect(world.headers["access-control-allow-origin"]).toBe(PAGE)
      expect((yield* fund(emu, { origin: OTHER })).status).toBe(403)
      expect(emu.ledger.transactions().length).toBe(1)

      expect(yield* upgrade(emu, PAGE)).toBe(101)
      expect(yield* upgrade(emu, OTHER)).toBe(403)
      expect(yield* upgrade(emu, undefined)).toBe(101)
    }))

  it("the flag is repeatable and takes origins only", () => {
    expect(parseFlags(["--cors-origin", PAGE, "--cors-origin", "https://app.example"]).corsOrigins).toEqual([
      PAGE,
      "https://app.example"
    ])
    expect(parseFlags([]).corsOrigins).toBeUndefined()
    expect(() => parseFlags(["--cors-origin", "http://localhost:5173/"])).toThrow(
      /did you mean http:\/\/localhost:5173/
    )
    expect(Cors.validateOrigin("localhost:5173")).toMatch(/must be an origin/)
  })
})
