/**
 * Comparison 13 (issue 37): what serving standard RPC reads from the one world costs.
 * - getAccountInfo per call: server CPU per call of the emulator (a seeded token account,
 *   base64 and jsonParsed) against a plain node:http JSON-RPC server answering the same value
 *   (the emulator's own answer, read once, parsed from each request and sent back as it is), both
 *   in processes of their own, sequential calls over loopback, alternated in samples.
 * - Start and RSS at rest: the emulator's bin of this tree against that of `BASE` (the commit
 *   before this round), its `packages/emulator/src` extracted from git into `build/bench-old/`,
 *   run on the same dependencies, alternating which starts first.
 */
import { execSync, spawn } from "node:child_process"
import { once } from "node:events"
import { mkdirSync, readFileSync, rmSync } from "node:fs"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { NODE_ARGS } from "./lib/emulator.js"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { emit, type Row, type Target } from "./lib/result.js"

/** The commit before this round (issue 37). */
const BASE = process.env["BENCH_RPC_BASE"] ?? "ab02169"
const ROUNDS = Number(process.env["BENCH_RPC_ROUNDS"] ?? 3)
const SAMPLES = 7
const CALLS = 300
const MB = 1024 * 1024
const TICK_MS = 1000 / 100

const root = fileURLToPath(new URL("../", import.meta.url))
const oldDir = `${root}build/bench-old-rpc/`
rmSync(oldDir, { recursive: true, force: true })
mkdirSync(oldDir, { recursive: true })
execSync(`git archive ${BASE} packages/emulator/src | tar -x -C ${oldDir}`, { cwd: root })
const BINS = { old: `${oldDir}packages/emulator/src/bin.ts`, new: `${root}packages/emulator/src/bin.ts` } as const
type Version = keyof typeof BINS

interface Running {
  readonly url: string
  readonly apiKey: string
  readonly samples: Record<string, string>
  readonly pid: number
  readonly startMs: number
  readonly stop: () => Promise<void>
}

const post = async (url: string, body: string) => {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${url}: HTTP ${res.status} ${text.slice(0, 200)}`)
  return text
}

const rpcBody = (method: string, params: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })

/** Starts an emulator; `startMs` is process start to its first answer (the DAS owner's first page). */
const start = async (version: Version): Promise<Running> => {
  const t0 = performance.now()
  const child = spawn(process.execPath, [...NODE_ARGS, BINS[version], "--latency-ms", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
    cwd: root
  })
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string]
  const info = JSON.parse(line) as { url: string; apiKey: string; samples: Record<string, string> }
  await post(
    `${info.url}/?api-key=${info.apiKey}`,
    rpcBody("getAssetsByOwner", { ownerAddress: info.samples["dasAssetOwner"], page: 1, limit: 1000 })
  )
  return {
    ...info,
    pid: child.pid!,
    startMs: performance.now() - t0,
    stop: async () => {
      child.kill("SIGINT")
      await once(child, "exit")
    }
  }
}

const rssOf = (pid: number): number =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) * 1024

/** User + system CPU of a process, in milliseconds (clock ticks of 10 ms). */
const cpuOf = (pid: number): number => {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ")
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS
}

/** A plain JSON-RPC server answering every request with `answer` (the id put back), in its own process. */
const plainServer = async (answer: string) => {
  const code = `
    const http = require("node:http")
    const answer = JSON.parse(process.argv[1])
    const server = http.createServer((req, res) => {
      const chunks = []
      req.on("data", (c) => chunks.push(c))
      req.on("end", () => {
        const request = JSON.parse(Buffer.concat(chunks).toString("utf8"))
        const body = '{"jsonrpc":"2.0","result":' + answer + ',"id":' + JSON.stringify(request.id) + '}'
        res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
        res.end(body)
      })
    })
    server.listen(0, "127.0.0.1", () => console.log(server.address().port))
  `
  const child = spawn(process.execPath, ["-e", code, answer], { stdio: ["ignore", "pipe", "inherit"] })
  const [line] = (await once(createInterface({ input: child.stdout! }), "line")) as [string]
  return {
    url: `http://127.0.0.1:${line.trim()}/`,
    pid: child.pid!,
    stop: async () => {
      child.kill("SIGINT")
      await once(child, "exit")
    }
  }
}

/** Server CPU per call of `CALLS` sequential calls. */
const cpuPerCall = async (url: string, pid: number, body: string) => {
  const before = cpuOf(pid)
  for (let i = 0; i < CALLS; i++) await post(url, body)
  return (cpuOf(pid) - before) / CALLS
}

// -- getAccountInfo per call ------------------------------------------------------------

const emu = await start("new")
const account = emu.samples["rpcTokenAccount"]!
const perCall: Record<string, Array<number>> = {}
const encodings = ["base64", "jsonParsed"] as const
for (const encoding of encodings) {
  const body = rpcBody("getAccountInfo", [account, { encoding }])
  const url = `${emu.url}/?api-key=${emu.apiKey}`
  // The emulator's answer, as the plain server sends it back.
  const result = JSON.stringify((JSON.parse(await post(url, body)) as { result: unknown }).result)
  const plain = await plainServer(result)
  for (let i = 0; i < 50; i++) await post(url, body), await post(plain.url, body)
  const e = (perCall[`emulator ${encoding}`] = [] as Array<number>)
  const p = (perCall[`plain ${encoding}`] = [] as Array<number>)
  for (let s = 0; s < SAMPLES; s++) {
    if (s % 2 === 0) {
      e.push(await cpuPerCall(url, emu.pid, body))
      p.push(await cpuPerCall(plain.url, plain.pid, body))
    } else {
      p.push(await cpuPerCall(plain.url, plain.pid, body))
      e.push(await cpuPerCall(url, emu.pid, body))
    }
  }
  await plain.stop()
  if (encoding === "base64") {
    // The floor of any call through the emulator's server (auth, credits, usage, log): getHealth.
    const health = rpcBody("getHealth", [])
    const h = (perCall["emulator getHealth"] = [] as Array<number>)
    for (let s = 0; s < SAMPLES; s++) h.push(await cpuPerCall(url, emu.pid, health))
  }
  log(`rpcreads getAccountInfo ${encoding}: emulator ${fmtMs(median(e))}, plain ${fmtMs(median(p))} CPU per call`)
}
await emu.stop()

// -- start and RSS at rest --------------------------------------------------------------

const figures: Record<Version, { start: Array<number>; rss: Array<number> }> = {
  old: { start: [], rss: [] },
  new: { start: [], rss: [] }
}
for (let round = 0; round < ROUNDS; round++) {
  for (const version of (round % 2 === 0 ? ["old", "new"] : ["new", "old"]) as Array<Version>) {
    const running = await start(version)
    await new Promise((r) => setTimeout(r, 1_000))
    const rss = rssOf(running.pid)
    await running.stop()
    figures[version].start.push(running.startMs)
    figures[version].rss.push(rss)
    log(`rpcreads ${version} round ${round + 1}: start ${fmtMs(running.startMs)}, rss ${(rss / MB).toFixed(1)} MB`)
  }
}
rmSync(oldDir, { recursive: true, force: true })

const m = (v: Version, k: "start" | "rss") => median(figures[v][k])
const mb = (x: number) => `${(x / MB).toFixed(1)} MB`
const limit = (name: string, k: "start" | "rss"): Target => ({
  name: `${name}: this round ≤ 1.2× before (${BASE})`,
  target: "≤ 1.20×",
  measured: fmtRatio(m("new", k) / m("old", k)),
  met: m("new", k) / m("old", k) <= 1.2
})
const callRows = encodings.flatMap((encoding): Array<Row> => {
  const plain = median(perCall[`plain ${encoding}`]!)
  const emulator = median(perCall[`emulator ${encoding}`]!)
  return [
    { contender: `plain node:http JSON-RPC, the same ${encoding} value`, value: fmtMs(plain), ratio: "1.00×" },
    { contender: `emulator getAccountInfo, ${encoding}`, value: fmtMs(emulator), ratio: fmtRatio(emulator / plain) },
    ...(encoding === "base64"
      ? [{
        contender: "emulator getHealth (its server's floor per call)",
        value: fmtMs(median(perCall["emulator getHealth"]!)),
        ratio: fmtRatio(median(perCall["emulator getHealth"]!) / plain),
        note: "auth, credits, usage, request log: what every method pays"
      }]
      : [])
  ]
})

emit({
  id: "rpcreads",
  title: "13. Standard RPC reads (issue 37): getAccountInfo per call, start and memory",
  setup: `getAccountInfo of a seeded token account (165 bytes; the sample \`rpcTokenAccount\`), base64 and ` +
    `jsonParsed: the emulator's bin (latency 0) against a plain node:http server that parses each JSON-RPC ` +
    `request and answers the emulator's own result for it, each in its own process; ${SAMPLES} samples of ` +
    `${CALLS} sequential calls per contender, alternated, after 50 warm-up calls; server process CPU (user + ` +
    `system, /proc, 10 ms ticks) per call, median. Start and RSS: the emulator's bin of this tree and of ${BASE} ` +
    `(before this round), ${ROUNDS} rounds alternating which starts first; start is spawn to the first answer ` +
    "(start line, then page 1 of 1,000 assets of the 100,000-asset owner), RSS is /proc VmRSS 1 s after it.",
  tables: [
    { caption: "server CPU per getAccountInfo; ratio to plain JSON-RPC handling of the same value", rows: callRows },
    {
      caption: `Before this round (${BASE}) and now, same run (medians)`,
      rows: [
        { contender: `start to first answer, before (${BASE})`, value: fmtMs(m("old", "start")), ratio: "1.00×" },
        {
          contender: "start to first answer, now",
          value: fmtMs(m("new", "start")),
          ratio: fmtRatio(m("new", "start") / m("old", "start"))
        },
        { contender: `RSS at rest, before (${BASE})`, value: mb(m("old", "rss")), ratio: "1.00×" },
        {
          contender: "RSS at rest, now",
          value: mb(m("new", "rss")),
          ratio: fmtRatio(m("new", "rss") / m("old", "rss"))
        }
      ]
    }
  ],
  targets: [limit("start time", "start"), limit("RSS at rest", "rss")],
  raw: [
    ...Object.entries(perCall).map(([k, xs]) => `${k}: ${xs.map((x) => x.toFixed(3)).join(", ")} ms CPU per call`),
    ...(["old", "new"] as const).map((v) =>
      `${v}: start ms ${figures[v].start.map((x) => x.toFixed(0)).join(", ")}; rss MB ${
        figures[v].rss.map((x) => (x / MB).toFixed(1)).join(", ")
      }`
    )
  ],
  findings: [
    "Measured on the shared 2-core machine while other work ran: absolute times (start above all) are far " +
    "from an idle machine's and vary between samples; the ratios are of contenders measured alternately in one run.",
    "The first getAccountInfo of a seeded token account builds the emulator's index of seeded token accounts " +
    "(DAS owners and holders, wallets, small authorities' NFT accounts): about 2 s once, in the warm-up here; " +
    "an address that index does not hold also indexes the large authorities' NFT accounts once."
  ]
})
