/**
 * A web app on one origin calling the emulator on another, in headless Chromium: the shared
 * program (support/program.ts, bundled by esbuild from @solfx/sdk/neutral and @solfx/subscriptions)
 * gives the same answers in the browser as in Node, errors included. And a page from an origin
 * not on `--cors-origin` is refused by the browser's own preflight.
 */
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Servers from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import { fileURLToPath } from "node:url"
import * as Browser from "./support/Browser.js"
import { type Input, type Output, run } from "./support/program.js"

const missing = Servers.unavailable("chromium")

const html =
  `<!doctype html><meta charset="utf-8"><title>solfx in a browser</title><script type="module" src="/app.js"></script>`

describe.skipIf(missing !== undefined)(Servers.title("cross-origin page in Chromium", missing), () => {
  it.live("the page's answers equal Node's: DAS pages, Wallet, Photon, a slot subscription, a 429 and an invalid input", () =>
    Effect.scoped(Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 100 })
      // A 429 (with its retry-after) for getAssetBatch only: the page must see it as a typed RateLimited.
      emu.setFaults({ rate: 1, kinds: ["429"], only: ["getAssetBatch"], retryAfterSeconds: 7 })
      const input: Input = {
        url: emu.url,
        apiKey: emu.apiKey,
        samples: {
          wallet: emu.samples.wallet,
          assetAuthority: emu.samples.assetAuthority,
          compressedTokenMint: emu.samples.compressedTokenMint,
          unknownAddress: emu.samples.unknownAddress
        }
      }
      const app = yield* Browser.bundle(fileURLToPath(new URL("./support/page.ts", import.meta.url)))
      const origin = yield* Browser.serve({
        "/": { type: "text/html", body: html },
        "/app.js": { type: "text/javascript", body: app }
      })
      expect(new URL(origin).host).not.toBe(new URL(emu.url).host)

      const browser = yield* Browser.launch
      const { errors, page } = yield* Browser.newPage(browser)
      yield* Effect.promise(() => page.goto(origin))
      yield* Effect.promise(() =>
        page.waitForFunction(() => "runProgram" in globalThis, undefined, { timeout: 60_000 })
      )
      emu.resetLog()
      const inBrowser = yield* Effect.promise(() =>
        page.evaluate((i) => (globalThis as any).runProgram(i) as Promise<Output>, input)
      )
      // What the server saw from the page: preflights answered, then the calls themselves, from its origin.
      const seen = emu.requests.map((r) => r.operation)
      expect(seen.filter((o) => o.startsWith("OPTIONS")).length).toBeGreaterThan(0)
      expect(seen).toContain("getAssetsByAuthority")
      expect(seen).toContain("getCompressedMintTokenHolders")

      const inNode = yield* Effect.promise(() => run(input, NodeSocket.layerWebSocketConstructor))
      expect(inBrowser).toEqual(inNode)
      // And the answers are the real ones, not two equal failures.
      expect(inNode.dasPages.map((p) => p.count)).toEqual([400, 400, 400])
      expect(inNode.identity).not.toBeNull()
      expect(inNode.slots).toEqual({ count: 2, increasing: true })
      expect(inNode.rateLimited).toEqual({ tag: "RateLimited", retryAfterMillis: 7000 })
      expect(inNode.invalid.tag).toBe("InvalidRequest")
      expect(errors.filter((e) => !e.includes("429"))).toEqual([])
      console.info(`[solfx] browser test ran in ${browser.browserType().name()} ${browser.version()}`)
    })))

  it.live("a page from an origin not on --cors-origin: Chromium's preflight is refused and the call fails", () =>
    Effect.scoped(Effect.gen(function*() {
      const app = yield* Browser.bundle(fileURLToPath(new URL("./support/page.ts", import.meta.url)))
      const origin = yield* Browser.serve({
        "/": { type: "text/html", body: html },
        "/app.js": { type: "text/javascript", body: app }
      })
      const emu = yield* Emulator.make({ corsOrigins: ["http://localhost:1"] })
      const browser = yield* Browser.launch
      const { page } = yield* Browser.newPage(browser)
      yield* Effect.promise(() => page.goto(origin))
      const outcome = yield* Effect.promise(() =>
        page.evaluate(async (url) => {
          try {
            const res = await fetch(url, {
              method: "POST",
              headers: { "content-type": "application/json", "x-api-key": "k" },
              body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getAsset", params: { id: "x" } })
            })
            return `answered ${res.status}`
          } catch (e) {
            return `refused: ${String(e)}`
          }
        }, emu.url)
      )
      expect(outcome).toMatch(/^refused: TypeError: Failed to fetch/)
      // The browser stopped at the preflight: the server saw it (403) and never the POST.
      expect(emu.requests.map((r) => [r.operation, r.status])).toEqual([["OPTIONS /", 403]])
      // The same page on a listed origin gets through.
      const listed = yield* Emulator.make({ corsOrigins: [origin] })
      const through = yield* Effect.promise(() =>
        page.evaluate(
          async (url) =>
            (await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })).status,
          listed.url
        )
      )
      expect(through).toBe(401)
    })))
})
