/**
 * The studio (`/studio`) in headless Chromium, driven as a person would: a world transfer through
 * its form (keyboard only), the transaction in the live feed, the recipient's new balance in the
 * lookup, the webhook's delivery listed, an NFT whose name is markup shown as text, and the key
 * nowhere in the page. The screenshot goes to test/browser/output/studio.png (not committed);
 * with SOLFX_UPDATE_SCREENSHOT=1 the same screenshot also replaces docs/studio.png, the README's.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Dataset from "@solfx/emulator/Dataset"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Servers from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import { mkdirSync, writeFileSync } from "node:fs"
import * as Http from "node:http"
import { join } from "node:path"
import * as Browser from "./support/Browser.js"

const missing = Servers.unavailable("chromium")

const HOSTILE = "<img src=x onerror=__pwned=1>&" // the world caps names at 32 characters

/** A webhook receiver on loopback that answers 200 to every delivery, and counts them. */
const receiver = Effect.acquireRelease(
  Effect.async<{ server: Http.Server; received: () => number }>((resume) => {
    let received = 0
    const server = Http.createServer((req, res) => {
      req.resume()
      req.on("end", () => {
        received++
        res.writeHead(200).end("ok")
      })
    })
    server.listen(0, "127.0.0.1", () => resume(Effect.succeed({ server, received: () => received })))
  }),
  ({ server }) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
).pipe(Effect.map(({ received, server }) => {
  const address = server.address()
  return {
    url: `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/hook`,
    received
  }
}))

describe.skipIf(missing !== undefined)(Servers.title("the studio in Chromium", missing), () => {
  it.live("a transfer through its form: in the feed, in the lookup's balance, delivered to the webhook", () =>
    Effect.scoped(Effect.gen(function*() {
      const hook = yield* receiver
      // Addresses of the seed that are no sample: the test's own, holding nothing at start.
      const dataset = Dataset.make(42, {})
      const from = dataset.address("studio:sender")
      const to = dataset.address("studio:recipient")
      const emu = yield* Emulator.make({
        plan: "developer",
        webhooks: [{ webhookURL: hook.url, webhookType: "enhanced", accountAddresses: [to] }]
      })
      yield* emu.world.fund({ address: from, lamports: 5_000_000_000n })
      yield* emu.world.mintNft({ owner: to, name: HOSTILE })

      const browser = yield* Browser.launch
      const { errors, page } = yield* Browser.newPage(browser)
      yield* Effect.promise(() => page.setViewportSize({ width: 1360, height: 1000 }))
      yield* Effect.promise(() => page.goto(emu.studioUrl))
      yield* Effect.promise(() => page.waitForFunction(() => (globalThis as any).solfxStudioReady === true))
      yield* Effect.promise(() => page.getByText("Live: waiting").waitFor({ timeout: 60_000 }))

      // The transfer, with the keyboard only: focus the first field, type, Tab, type, Enter.
      yield* Effect.promise(async () => {
        await page.focus("#transfer-from")
        await page.keyboard.type(from)
        await page.keyboard.press("Tab")
        await page.keyboard.type(to)
        await page.keyboard.press("Tab")
        await page.keyboard.type("0.25")
        await page.keyboard.press("Enter")
      })
      const result = page.locator("form[data-call=transfer] .result")
      yield* Effect.promise(() => result.getByText("Landed").waitFor({ timeout: 60_000 }))
      const signature = yield* Effect.promise(() => result.locator("button").first().getAttribute("title"))
      expect(signature).toBe(emu.ledger.transactions().at(-1)!.signature)

      // The feed shows it, typed by its enhanced form, with the SOL that moved.
      const row = page.locator(`#feed-rows tr[data-signature="${signature}"]`)
      yield* Effect.promise(() => row.getByText("TRANSFER").waitFor({ timeout: 60_000 }))
      expect(yield* Effect.promise(() => row.innerText())).toContain("+0.25 SOL")

      // The lookup: the recipient's SOL is the world's lamports, and its NFT's name is text.
      yield* Effect.promise(async () => {
        await page.fill("#lookup-input", to)
        await page.press("#lookup-input", "Enter")
        await page.locator("[data-testid=sol-balance]").waitFor({ timeout: 60_000 })
      })
      expect(emu.ledger.lamports(to)).toBe(250_000_000n)
      expect(yield* Effect.promise(() => page.locator("[data-testid=sol-balance]").innerText())).toBe("0.25 SOL")
      const name = page.locator("#lookup-result").getByText(HOSTILE, { exact: true })
      expect(yield* Effect.promise(() => name.count())).toBe(1)
      expect(yield* Effect.promise(() => page.locator("#lookup-result img").count())).toBe(0)
      expect(yield* Effect.promise(() => page.evaluate(() => (globalThis as any).__pwned))).toBeUndefined()

      // The webhook's delivery of the transfer, listed with its status.
      const delivery = page.locator("#deliveries tr", { has: page.locator(`button[title="${signature}"]`) })
      yield* Effect.promise(() => delivery.getByText("200").waitFor({ timeout: 60_000 }))
      expect(hook.received()).toBeGreaterThanOrEqual(1)

      // The chart saw the studio's own SDK calls (DAS, Wallet) under the developer plan's limits.
      yield* Effect.promise(() => page.locator("#usage").getByText("Plan developer (limits enforced)").waitFor())

      // The key is nowhere in the page's markup.
      const markup = yield* Effect.promise(() => page.content())
      expect(markup).not.toContain(emu.apiKey)

      mkdirSync(Browser.outputDir, { recursive: true })
      const shot = yield* Effect.promise(() =>
        page.screenshot({ path: join(Browser.outputDir, "studio.png"), fullPage: true })
      )
      if (process.env["SOLFX_UPDATE_SCREENSHOT"] === "1") writeFileSync(join(Browser.root, "docs/studio.png"), shot)
      expect(errors).toEqual([])
    })))

  it.live("without the key the page is refused, and another origin cannot fetch it", () =>
    Effect.scoped(Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const keyless = yield* Effect.promise(() => fetch(`${emu.url}/studio`))
      expect(keyless.status).toBe(401)
      const other = yield* Effect.promise(() => fetch(emu.studioUrl, { headers: { origin: "http://evil.test" } }))
      expect(other.status).toBe(403)
      const page = yield* Effect.promise(() => fetch(emu.studioUrl))
      expect(page.status).toBe(200)
      expect(page.headers.get("content-security-policy")).toMatch(/script-src 'sha256-/)
      expect(yield* Effect.promise(() => page.text())).not.toContain(emu.apiKey)
    })))
})
