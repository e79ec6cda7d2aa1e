/**
 * Comparison 6 (issue 18): what the emulator itself costs, measured in its own process
 * (the control wrapper reports its CPU time, heap after GC and peak RSS).
 * - Page serving: 100 pages of 1,000 assets of the big authority, walked in order, the
 *   emulator's CPU time against `JSON.stringify` of the same 100 pages (parsed from the
 *   bodies it sent) timed here in the same run. Three emulators: one whose item cache
 *   holds the walk (first walk, then repeated walks), one with the cache off (its first
 *   walk derives the compressed assets' PDAs, its second has them: the page cost with
 *   PDAs known), one with the default cache (smaller than the walk).
 * - PDA derivation on its own: the Bubblegum asset address, derived here in-process.
 * - Hardening: server CPU for a keyless 30 MB body against a small valid request, and
 *   the server's heap after GC before and after 1,000 keyless requests of 1 MB method names.
 */
import * as Http from "node:http"
import * as Bubblegum from "../packages/emulator/src/internal/Bubblegum.js"
import * as Emu from "./lib/emulator.js"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { emit, type Row, type Target } from "./lib/result.js"

const ASSETS = 100_000
const PAGES = Number(process.env["BENCH_EMULATOR_PAGES"] ?? 100)
const LIMIT = 1000
/** Enough for the 100-page walk (about 131 MB of page items) with room to spare. */
const BIG_CACHE = 400 * 1024 * 1024
const DEFAULT_CACHE = 64 * 1024 * 1024
const MB = 1024 * 1024

const raw: Array<string> = []
const tables: Array<{ caption: string; rows: Array<Row> }> = []
const targets: Array<Target> = []
const findings: Array<string> = []

const cpuNow = () => {
  const c = process.cpuUsage()
  return (c.user + c.system) / 1000
}

const call = async (emu: Emu.RunningEmulator, method: string, params: unknown): Promise<string> => {
  const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method}: HTTP ${res.status} ${text.slice(0, 200)}`)
  return text
}

/** Walks the 100 pages in order; the emulator's CPU time over the walk, and the bodies. */
const walk = async (emu: Emu.RunningEmulator) => {
  const authorityAddress = emu.samples.bigAssetAuthority
  const before = await emu.cpuMs()
  const bodies: Array<string> = []
  for (let page = 1; page <= PAGES; page++) {
    bodies.push(await call(emu, "getAssetsByAuthority", { authorityAddress, page, limit: LIMIT }))
  }
  return { cpu: (await emu.cpuMs()) - before, bodies }
}

const startEmu = (cacheChars: number, exposeGc = false) =>
  Emu.start({
    latencyMs: 0,
    control: true,
    exposeGc,
    sizes: { "das.bigAuthorityAssets": ASSETS },
    flags: ["--item-cache-chars", String(cacheChars)]
  })

// -- page serving --------------------------------------------------------------------

const held = await startEmu(BIG_CACHE)
const heldWalks: Array<number> = []
let bodies: Array<string> = []
for (let k = 0; k < 3; k++) {
  const w = await walk(held)
  heldWalks.push(w.cpu)
  bodies = w.bodies
  log(`cache holds the walk, walk ${k + 1}: emulator CPU ${fmtMs(w.cpu)}`)
}
const peakRss = await held.peakRss()
await held.stop()

const off = await startEmu(0)
const offWalks: Array<number> = []
for (let k = 0; k < 3; k++) {
  offWalks.push((await walk(off)).cpu)
  log(`cache off, walk ${k + 1}: emulator CPU ${fmtMs(offWalks.at(-1)!)}`)
}
await off.stop()

const dflt = await startEmu(DEFAULT_CACHE)
const defaultWalks: Array<number> = []
for (let k = 0; k < 2; k++) {
  defaultWalks.push((await walk(dflt)).cpu)
  log(`default cache, walk ${k + 1}: emulator CPU ${fmtMs(defaultWalks.at(-1)!)}`)
}
await dflt.stop()

// The baseline: JSON.stringify of the same 100 pages, here, CPU time, median of 5 rounds.
const pages = bodies.map((b) => JSON.parse(b) as unknown)
const stringifyRounds: Array<number> = []
for (let round = 0; round < 6; round++) {
  const t0 = cpuNow()
  let chars = 0
  for (const page of pages) chars += JSON.stringify(page).length
  if (round > 0) stringifyRounds.push(cpuNow() - t0) // round 0 warms up
  if (chars === 0) throw new Error("empty pages")
}
const stringify = median(stringifyRounds)
log(`JSON.stringify of the same pages: ${fmtMs(stringify)}`)
const bodyChars = bodies.reduce((s, b) => s + b.length, 0)

// PDA derivation on its own.
const trees = Array.from({ length: 8 }, (_, t) => Bubblegum.assetId("BGUMAp9Gq7iTEuizy4pqaxsTyUCBK68MDfK752saRPUY", t))
const PDA_N = 2000
for (let i = 0; i < 200; i++) Bubblegum.assetId(trees[i % 8]!, i)
const pdaT0 = cpuNow()
for (let i = 0; i < PDA_N; i++) Bubblegum.assetId(trees[i % 8]!, 1000 + i)
const pdaUs = ((cpuNow() - pdaT0) / PDA_N) * 1000
const compressed = ASSETS / 4 // one asset in four

const ratio = (ms: number) => ms / stringify
const firstWithPdas = heldWalks[0]!
const firstPdasKnown = median(offWalks.slice(1))
const repeatedHeld = median(heldWalks.slice(1))
raw.push(
  `JSON.stringify of the ${PAGES} pages, CPU ms per round: ${stringifyRounds.map((x) => x.toFixed(1)).join(", ")}`,
  `emulator CPU ms per walk, cache holds the walk: ${heldWalks.map((x) => x.toFixed(0)).join(", ")}`,
  `emulator CPU ms per walk, cache off: ${offWalks.map((x) => x.toFixed(0)).join(", ")}`,
  `emulator CPU ms per walk, default cache: ${defaultWalks.map((x) => x.toFixed(0)).join(", ")}`,
  `PDA derivation: ${PDA_N} in ${(pdaUs * PDA_N / 1000).toFixed(1)} ms CPU`
)
tables.push({
  caption: `CPU time over ${PAGES} pages of ${LIMIT} assets (${
    (bodyChars / MB).toFixed(0)
  } MB of JSON); ratio to JSON.stringify of the same pages`,
  rows: [
    { contender: "JSON.stringify of the same 100 pages (this process)", value: fmtMs(stringify), ratio: "1.00×" },
    {
      contender: "emulator, first walk, PDAs derived on the way",
      value: fmtMs(firstWithPdas),
      ratio: fmtRatio(ratio(firstWithPdas)),
      note: `includes ${compressed.toLocaleString("en")} PDA derivations`
    },
    {
      contender: "emulator, first walk with PDAs known (cache off, second walk)",
      value: fmtMs(firstPdasKnown),
      ratio: fmtRatio(ratio(firstPdasKnown)),
      note: "builds and serialises every asset"
    },
    {
      contender: "emulator, repeated walk, cache holding the walk",
      value: fmtMs(repeatedHeld),
      ratio: fmtRatio(ratio(repeatedHeld)),
      note: `--item-cache-chars ${BIG_CACHE}`
    },
    {
      contender: "emulator, repeated walk, default cache (64 MiB, smaller than the walk)",
      value: fmtMs(defaultWalks[1]!),
      ratio: fmtRatio(ratio(defaultWalks[1]!)),
      note: "LRU: a walk in order evicts what the next walk needs first"
    }
  ]
})
tables.push({
  caption: "PDA derivation and memory",
  rows: [
    { contender: "Bubblegum asset PDA, one derivation (in-process)", value: `${pdaUs.toFixed(0)} µs` },
    {
      contender: "PDA share of the first walk (cache off: walk 1 − walk 2)",
      value: fmtMs(offWalks[0]! - firstPdasKnown),
      note: `${((offWalks[0]! - firstPdasKnown) / compressed * 1000).toFixed(0)} µs per compressed asset`
    },
    {
      contender: "emulator peak RSS, three walks with the cache holding the walk",
      value: `${(peakRss / MB).toFixed(0)} MB`
    },
    {
      contender: "item cache default bound",
      value: "64 MiB",
      note: `about ${Math.floor(DEFAULT_CACHE / (bodyChars / PAGES))} pages of ${LIMIT} assets (encoded JSON)`
    }
  ]
})
targets.push(
  {
    name: "emulator: first walk (PDAs known) vs JSON.stringify",
    target: "≤ 4×",
    measured: fmtRatio(ratio(firstPdasKnown)),
    met: ratio(firstPdasKnown) <= 4
  },
  {
    name: "emulator: repeated walk, cache holding it, vs JSON.stringify",
    target: "≤ 2×",
    measured: fmtRatio(ratio(repeatedHeld)),
    met: ratio(repeatedHeld) <= 2
  }
)

// -- hardening ------------------------------------------------------------------------

/** POSTs `size` bytes; resolves with the status when the answer comes, the body possibly unsent. */
const postBig = (url: string, size: number, chunk: Buffer): Promise<number> =>
  new Promise((resolve, reject) => {
    const req = Http.request(url, {
      method: "POST",
      agent: false,
      headers: { "content-type": "application/json", "content-length": String(size) }
    })
    let answered = false
    // The server may close while the body is still going out: that write error is expected.
    req.on("socket", (socket) => socket.on("error", () => undefined))
    req.on("response", (res) => {
      answered = true
      res.resume()
      // The server closes the connection after its answer: any of these ends it.
      res.on("end", () => resolve(res.statusCode ?? 0))
      res.on("error", () => resolve(res.statusCode ?? 0))
      res.on("close", () => resolve(res.statusCode ?? 0))
    })
    req.on("error", (e) => {
      if (!answered) reject(e)
    })
    let sent = 0
    const pump = () => {
      while (sent < size && !req.destroyed) {
        const n = Math.min(chunk.length, size - sent)
        sent += n
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) return void req.once("drain", pump)
      }
      if (!req.destroyed) req.end()
    }
    pump()
  })

log("hardening: starting the emulator")
const guard = await Emu.start({ latencyMs: 0, control: true, exposeGc: true })
log("hardening: started")
const digits = Buffer.alloc(64 * 1024, "1")
const big: Array<number> = []
for (let k = 0; k < 5; k++) {
  const before = await guard.cpuMs()
  const status = await postBig(`${guard.url}/`, 30 * MB, digits)
  log(`keyless 30 MB body: HTTP ${status}`)
  await new Promise((r) => setTimeout(r, 300))
  big.push((await guard.cpuMs()) - before)
  if (status !== 401) throw new Error(`keyless 30 MB body: HTTP ${status}`)
}
log(`keyless 30 MB body: server CPU ${big.map((x) => fmtMs(x)).join(", ")}`)
const small: Array<number> = []
const params = { authorityAddress: guard.samples.assetAuthority, page: 1, limit: 1 }
for (let k = 0; k < 10; k++) await call(guard, "getAssetsByAuthority", params)
for (let k = 0; k < 5; k++) {
  const before = await guard.cpuMs()
  for (let j = 0; j < 20; j++) await call(guard, "getAssetsByAuthority", params)
  small.push(((await guard.cpuMs()) - before) / 20)
}
log(`small request: server CPU ${small.map((x) => fmtMs(x)).join(", ")}`)
await guard.resetLog()
const heapBefore = await guard.heapAfterGc()
const body = Buffer.from(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "m".repeat(MB), params: {} }))
for (let batch = 0; batch < 100; batch++) {
  const statuses = await Promise.all(Array.from({ length: 10 }, () => postBig(`${guard.url}/`, body.length, body)))
  if (statuses.some((s) => s !== 401)) throw new Error(`keyless flood: ${statuses.join(",")}`)
}
const heapAfter = await guard.heapAfterGc()
log(`heap after GC: ${(heapBefore / MB).toFixed(1)} MB before, ${(heapAfter / MB).toFixed(1)} MB after the flood`)
const counted = (await guard.counters()).total
const guardRss = await guard.peakRss()
await guard.stop()
raw.push(
  `server CPU ms, keyless 30 MB body: ${big.map((x) => x.toFixed(2)).join(", ")}`,
  `server CPU ms per small valid request (20 each): ${small.map((x) => x.toFixed(2)).join(", ")}`
)
tables.push({
  caption: "Hardening: server CPU per request, ratio to a small valid request; heap after GC",
  rows: [
    { contender: "small valid request (getAssetsByAuthority, limit 1)", value: fmtMs(median(small)), ratio: "1.00×" },
    {
      contender: "keyless 30 MB body (401 before the body is read)",
      value: fmtMs(median(big)),
      ratio: fmtRatio(median(big) / median(small))
    },
    { contender: "heap after GC before 1,000 keyless 1 MB requests", value: `${(heapBefore / MB).toFixed(1)} MB` },
    {
      contender: "heap after GC after them",
      value: `${(heapAfter / MB).toFixed(1)} MB`,
      note: `${((heapAfter - heapBefore) / MB).toFixed(1)} MB more; ${counted} requests counted; peak RSS ${
        (guardRss / MB).toFixed(0)
      } MB`
    }
  ]
})
findings.push(
  "The first-walk target is read on the walk with PDAs known; deriving them is reported on its own line " +
    "(issue 18): each compressed asset's id costs one derivation, once per emulator."
)

emit({
  id: "emulator",
  title: "6. The emulator's own cost (issue 18)",
  setup: `The emulator in its own process (control wrapper, latency 0), \`das.bigAuthorityAssets=${ASSETS}\`; ` +
    `pages 1..${PAGES} of ${LIMIT} walked in order with fetch, one at a time. CPU times are the emulator process's ` +
    "user + system time over the walk; JSON.stringify is timed in the bench process on the same pages (median of " +
    "5 rounds after one warm-up). Hardening figures: medians of 5 runs.",
  tables,
  targets,
  raw,
  findings
})
