/**
 * Comparison 10 (issue 29): what making the emulator one world costs, against the emulator of
 * the commit before that change (`BASE`, its `packages/emulator/src` extracted from git into
 * `build/bench-old/`, run on the same dependencies), both measured in this run, alternating.
 * - Start: process start to the first answer (the start line, then one getAssetsByOwner page).
 * - RSS at rest: the process's resident memory after that first answer and a pause.
 * - A landed bundle's effects on the 100,000-asset owner: sendBundle of a kit-signed SOL transfer
 *   to that owner and a tip (the new emulator applies it to the world; its payer is funded first
 *   through the world API, not timed), then that owner's next page of 1,000 assets.
 */
import * as kit from "@solana/kit"
import * as Kit from "@solfx/testing/Kit"
import { execSync, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { NODE_ARGS } from "./lib/emulator.js"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { emit, type Row, type Target } from "./lib/result.js"

/** The last commit before the world (issue 29) landed. */
const BASE = process.env["BENCH_WORLD_BASE"] ?? "81b08d8"
const ROUNDS = Number(process.env["BENCH_WORLD_ROUNDS"] ?? 3)
const BUNDLES = 5
const MB = 1024 * 1024

const root = fileURLToPath(new URL("../", import.meta.url))
const oldDir = `${root}build/bench-old/`
rmSync(oldDir, { recursive: true, force: true })
mkdirSync(oldDir, { recursive: true })
execSync(`git archive ${BASE} packages/emulator/src | tar -x -C ${oldDir}`, { cwd: root })
const BINS = {
  old: `${oldDir}packages/emulator/src/bin.ts`,
  new: `${root}packages/emulator/src/bin.ts`
} as const
type Version = keyof typeof BINS

interface Running {
  readonly url: string
  readonly apiKey: string
  readonly samples: Record<string, string>
  readonly pid: number
  readonly startMs: number
  readonly stop: () => Promise<void>
}

const post = async (url: string, body: unknown) => {
  const res = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`)
  return JSON.parse(text)
}

const rpc = (emu: Running, method: string, params: unknown) =>
  post(`${emu.url}/?api-key=${emu.apiKey}`, { jsonrpc: "2.0", id: 1, method, params })

const ownerPage = (emu: Running) =>
  rpc(emu, "getAssetsByOwner", { ownerAddress: emu.samples["dasAssetOwner"], page: 1, limit: 1000 })

/** Starts an emulator; `startMs` is process start to its first answer (a page of the big owner). */
const start = async (version: Version): Promise<Running> => {
  const t0 = performance.now()
  const child = spawn(process.execPath, [...NODE_ARGS, BINS[version], "--latency-ms", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: root
  })
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string]
  const info = JSON.parse(line) as { url: string; apiKey: string; samples: Record<string, string> }
  const partial = { ...info, pid: child.pid!, startMs: 0, stop: async () => {} }
  await ownerPage(partial)
  return {
    ...partial,
    startMs: performance.now() - t0,
    stop: async () => {
      child.kill("SIGINT")
      await once(child, "exit")
    }
  }
}

const rssOf = (pid: number): number => {
  const status = readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024
}

const signedBundle = async (owner: string) => {
  const payer = await Kit.signer()
  const tx = await Kit.build({
    version: 0,
    payer,
    instructions: [Kit.transfer(payer, kit.address(owner), 1_000_000n), Kit.transfer(payer, Kit.TIP, 10_000n)]
  })
  return { payer: payer.address, wire: tx.base64 }
}

/** Milliseconds of sendBundle, and of the owner's next page, per bundle. */
const bundleEffects = async (emu: Running, version: Version) => {
  const send: Array<number> = []
  const page: Array<number> = []
  for (let i = 0; i < BUNDLES; i++) {
    const b = await signedBundle(emu.samples["dasAssetOwner"]!)
    if (version === "new") {
      await post(`${emu.url}/emulator/world/fund?api-key=${emu.apiKey}`, { address: b.payer, lamports: "1000000000" })
    }
    let t = performance.now()
    const sent = await rpc(emu, "sendBundle", [[b.wire], { encoding: "base64" }])
    if (sent.error !== undefined) throw new Error(`sendBundle: ${JSON.stringify(sent.error)}`)
    send.push(performance.now() - t)
    t = performance.now()
    await ownerPage(emu)
    page.push(performance.now() - t)
  }
  return { send: median(send), page: median(page) }
}

const figures: Record<Version, { start: Array<number>; rss: Array<number>; send: Array<number>; page: Array<number> }> =
  {
    old: { start: [], rss: [], send: [], page: [] },
    new: { start: [], rss: [], send: [], page: [] }
  }

for (let round = 0; round < ROUNDS; round++) {
  for (const version of (round % 2 === 0 ? ["old", "new"] : ["new", "old"]) as Array<Version>) {
    const emu = await start(version)
    await new Promise((r) => setTimeout(r, 1_000))
    const rss = rssOf(emu.pid)
    const effects = await bundleEffects(emu, version)
    await emu.stop()
    const f = figures[version]
    f.start.push(emu.startMs)
    f.rss.push(rss)
    f.send.push(effects.send)
    f.page.push(effects.page)
    log(
      `world ${version} round ${round + 1}: start ${fmtMs(emu.startMs)}, rss ${(rss / MB).toFixed(1)} MB, ` +
        `sendBundle ${fmtMs(effects.send)}, next page ${fmtMs(effects.page)}`
    )
  }
}
rmSync(oldDir, { recursive: true, force: true })

const m = (v: Version, k: keyof typeof figures["old"]) => median(figures[v][k])
const row = (contender: string, k: keyof typeof figures["old"], fmt: (x: number) => string): Array<Row> => [
  { contender: `${contender}, before (${BASE})`, value: fmt(m("old", k)), ratio: "1.00×" },
  { contender: `${contender}, one world`, value: fmt(m("new", k)), ratio: fmtRatio(m("new", k) / m("old", k)) }
]
const mb = (x: number) => `${(x / MB).toFixed(1)} MB`
const limit = (name: string, k: keyof typeof figures["old"]): Target => ({
  name: `${name}: one world ≤ 1.2× before`,
  target: "≤ 1.20×",
  measured: fmtRatio(m("new", k) / m("old", k)),
  met: m("new", k) / m("old", k) <= 1.2
})

emit({
  id: "world",
  title: "10. The emulator as one world (issue 29): start, memory, a landed bundle",
  setup:
    `The emulator's bin (latency 0, default sizes: the owner sample has 100,000 assets) of this tree and of ${BASE} ` +
    `(the commit before the world), ${ROUNDS} rounds alternating which starts first. Start: spawn to the first answer ` +
    "(start line, then page 1 of 1,000 assets of the owner). RSS: /proc VmRSS 1 s after that answer. Bundle: " +
    `${BUNDLES} kit-signed bundles (a SOL transfer to the 100,000-asset owner and a tip), each sendBundle timed, then ` +
    "that owner's page of 1,000 assets; medians per round, then across rounds.",
  tables: [
    {
      caption: "Before the world and one world, same run (medians)",
      rows: [
        ...row("start to first answer", "start", fmtMs),
        ...row("RSS at rest", "rss", mb),
        ...row("sendBundle (lands; one world applies its transfers)", "send", fmtMs),
        ...row("the owner's next page of 1,000 assets", "page", fmtMs)
      ]
    }
  ],
  targets: [limit("start time", "start"), limit("RSS at rest", "rss")],
  raw: (["old", "new"] as const).map((v) =>
    `${v}: start ms ${figures[v].start.map((x) => x.toFixed(0)).join(", ")}; rss MB ${
      figures[v].rss.map((x) => (x / MB).toFixed(1)).join(", ")
    }; sendBundle ms ${figures[v].send.map((x) => x.toFixed(2)).join(", ")}; page ms ${
      figures[v].page.map((x) => x.toFixed(1)).join(", ")
    }`
  ),
  findings: [
    "Before the world a bundle landed without changing anything; its figures are what landing cost then."
  ]
})
