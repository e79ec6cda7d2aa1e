/**
 * The studio (issue 41): its page weight, and how soon a landing shows in its feed.
 * - Weight: `GET /studio` as served (one HTML document, its script and style inline), split
 *   into the HTML around them, the JS and the CSS; bytes raw and gzipped (level 9), and the
 *   whole document gzipped (what a compressing proxy would send; the emulator sends it raw).
 * - Time to first feed entry: headless Chromium (Debian's, playwright-core) with the studio
 *   open; a `POST /emulator/world/fund` is sent and the page notes when the feed's row for its
 *   signature appears. The baseline, in the same page for the same landing: a bare WebSocket
 *   (`transactionSubscribe`, JSON.parse, nothing else) noting its notification. Median of
 *   `BENCH_STUDIO_LANDINGS` (default 20) landings, 300 ms apart; both clocks are the machine's.
 */
import * as Emulator from "@solfx/emulator/Emulator"
import { chromiumPath } from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import { gzipSync } from "node:zlib"
import { chromium } from "playwright-core"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { emit, type Target } from "./lib/result.js"

const LANDINGS = Number(process.env["BENCH_STUDIO_LANDINGS"] ?? 20)
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const gz = (text: string) => gzipSync(Buffer.from(text), { level: 9 }).length

const result = await Effect.runPromise(Effect.scoped(Effect.gen(function*() {
  const emu = yield* Emulator.make()
  const html = yield* Effect.promise(() => fetch(emu.studioUrl).then((r) => r.text()))
  const script = /<script type="module">([\s\S]*?)<\/script>/.exec(html)?.[1] ?? ""
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? ""
  const rest = html.replace(script, "").replace(style, "")
  const weight = [
    { part: "HTML (without the inline script and style)", raw: Buffer.byteLength(rest), gzip: gz(rest) },
    { part: "JS (inline)", raw: Buffer.byteLength(script), gzip: gz(script) },
    { part: "CSS (inline)", raw: Buffer.byteLength(style), gzip: gz(style) },
    { part: "the whole document", raw: Buffer.byteLength(html), gzip: gz(html) }
  ]

  const path = chromiumPath()
  if (path === undefined) return { weight, latency: undefined }
  const browser = yield* Effect.acquireRelease(
    Effect.promise(() =>
      chromium.launch({
        executablePath: path,
        headless: true,
        args: [
          "--no-sandbox",
          "--disable-gpu",
          "--disable-quic",
          "--no-first-run",
          "--disable-background-networking",
          "--disable-component-update",
          "--disable-sync"
        ]
      })
    ),
    (b) => Effect.promise(() => b.close())
  )
  const page = yield* Effect.promise(() => browser.newPage())
  const loadStart = Date.now()
  yield* Effect.promise(() => page.goto(emu.studioUrl))
  yield* Effect.promise(() => page.getByText("Live: waiting").waitFor({ timeout: 120_000 }))
  const liveAfter = Date.now() - loadStart
  // The page notes when each row appears, and when a bare WebSocket gets the same transaction.
  yield* Effect.promise(() =>
    page.evaluate((wsUrl) =>
      new Promise<void>((resolve) => {
        const g = globalThis as any
        g.rowAt = {}
        g.rawAt = {}
        new MutationObserver((records) => {
          for (const r of records) {
            for (const n of r.addedNodes) {
              const sig = (n as HTMLElement).dataset?.["signature"]
              if (sig !== undefined) g.rowAt[sig] ??= Date.now()
            }
          }
        }).observe(document.getElementById("feed-rows")!, { childList: true })
        const ws = new WebSocket(wsUrl)
        ws.onopen = () =>
          ws.send(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "transactionSubscribe", params: [{}] }))
        ws.onmessage = (e) => {
          const m = JSON.parse(String(e.data))
          if (m.id === 1) resolve()
          const sig = m.params?.result?.signature
          if (sig !== undefined) g.rawAt[sig] ??= Date.now()
        }
      }), `${emu.url.replace("http", "ws")}/?api-key=${emu.apiKey}`)
  )
  const studio: Array<number> = []
  const raw: Array<number> = []
  for (let i = 0; i < LANDINGS; i++) {
    const sentAt = Date.now()
    const receipt = yield* Effect.promise(() =>
      fetch(`${emu.url}/emulator/world/fund?api-key=${emu.apiKey}`, {
        method: "POST",
        body: JSON.stringify({ address: emu.dataset.address(`bench:studio:${i}`), lamports: "1000" })
      }).then((r) => r.json() as Promise<{ signature: string }>)
    )
    const seen = yield* Effect.promise(() =>
      page.waitForFunction(
        (sig) => {
          const g = globalThis as any
          return g.rowAt[sig] !== undefined && g.rawAt[sig] !== undefined ? [g.rowAt[sig], g.rawAt[sig]] : false
        },
        receipt.signature,
        { timeout: 60_000 }
      ).then((h) => h.jsonValue() as Promise<[number, number]>)
    )
    studio.push(seen[0] - sentAt)
    raw.push(seen[1] - sentAt)
    yield* Effect.sleep("300 millis")
  }
  return {
    weight,
    latency: { studio, raw, liveAfter, browser: `${browser.browserType().name()} ${browser.version()}` }
  }
})))

const targets: Array<Target> = []
const rows = result.latency === undefined ? [] : [
  {
    contender: "studio feed row",
    value: fmtMs(median(result.latency.studio)),
    ratio: fmtRatio(median(result.latency.studio) / Math.max(1, median(result.latency.raw)))
  },
  { contender: "bare WebSocket in the same page (baseline)", value: fmtMs(median(result.latency.raw)), ratio: "1.00×" }
]
log(`studio: ${JSON.stringify(result)}`)

emit({
  id: "studio",
  title: "14. The studio: page weight and time to first feed entry",
  setup:
    `\`GET /studio\` as the emulator serves it (built from the sources on first request), each part gzipped at level 9. ` +
    `Then ${result.latency?.browser ?? "no browser (chromium missing: not measured)"} headless with the studio open ` +
    `(live ${
      result.latency === undefined ? "—" : fmtMs(result.latency.liveAfter)
    } after navigation started, the page's bundling from the sources on that first request included); ` +
    `${LANDINGS} world fundings sent 300 ms apart over HTTP, each timed from the request sent to its row in the feed ` +
    "(a MutationObserver in the page); the baseline is a bare WebSocket in the same page (transactionSubscribe, " +
    "JSON.parse) for the same landing. Medians; the ratio is the studio's over the baseline's.",
  tables: [
    {
      caption: "page weight",
      rows: result.weight.map((w) => ({ contender: w.part, value: `${kb(w.raw)} raw`, note: `${kb(w.gzip)} gzipped` }))
    },
    ...(rows.length === 0 ? [] : [{ caption: "from a landing to the feed (median)", rows }])
  ],
  targets,
  raw: [
    ...result.weight.map((w) => `${w.part}: ${w.raw} bytes, ${w.gzip} gzipped`),
    ...(result.latency === undefined
      ? []
      : [`studio ms: ${result.latency.studio.join(", ")}`, `bare WebSocket ms: ${result.latency.raw.join(", ")}`])
  ],
  findings: [
    "Most of the weight is the SDK itself (effect, Schema, Stream, the transport, the subscriptions' socket): the page's " +
    "own code and style are a few KB of it.",
    "A feed row waits only for the WebSocket notification; its type and token changes are filled in after, by a second " +
    "request (the enhanced transaction).",
    "The studio's row comes before the bare socket's notification: the emulator notifies its sockets in the order they " +
    "opened, and the studio's opened first; the SDK's decoding and the row's DOM work cost less than that turn."
  ]
})
