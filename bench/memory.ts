/**
 * Comparison 3: RSS of a client streaming 100,000 and 1,000,000 compression
 * signatures (getCompressionSignaturesForAddress, cursor pages of 1,000): at rest,
 * at peak, and peak minus rest (what the stream itself costs). Contenders: the SDK
 * with its npm packages from node_modules, the SDK bundled whole (one tree-shaken
 * file, as an application ships it), and a raw fetch + JSON.parse cursor loop.
 * Each client runs in a process of its own, compiled to plain JavaScript, against
 * the emulator in another.
 */
import { spawn } from "node:child_process"
import { bundle } from "./lib/bundle.js"
import * as Emu from "./lib/emulator.js"
import { fmtMs, fmtRatio, log } from "./lib/harness.js"
import type { Breakdown } from "./lib/peak-sampler.js"
import { type ComparisonResult, emit, type Row } from "./lib/result.js"

const SIGNATURES = 1_000_000
const SHORT = 100_000
const TARGET_MB = 120

interface Measure {
  readonly count: number
  readonly ms: number
  readonly baselineRssMb: number
  readonly peakRssMb: number
  readonly sampledPeakRssMb: number
  readonly retainedHeapMb: number
  readonly atRest: Breakdown
  readonly atPeak: Breakdown
}

/** What grew from rest to the highest RSS sample, by part: V8's spaces, then memory outside the heap. */
const grewBy = (m: Measure): string => {
  const space = (b: Breakdown, ...names: Array<string>) => names.reduce((n, k) => n + (b.spacesMb[k] ?? 0), 0)
  const parts: Array<[string, (b: Breakdown) => number]> = [
    ["new space", (b) => space(b, "new")],
    ["old space", (b) => space(b, "old")],
    ["large objects", (b) => space(b, "large_object", "new_large_object")],
    ["code", (b) => space(b, "code", "code_large_object")],
    ["array buffers", (b) => b.arrayBuffersMb],
    ["other external", (b) => b.otherExternalMb]
  ]
  const sign = (x: number) => (x >= 0 ? "+" : "−") + Math.abs(x).toFixed(0)
  return `at the highest sample (${m.atPeak.rssMb.toFixed(0)} MB) vs rest: ` +
    parts.map(([name, of]) => `${name} ${sign(of(m.atPeak) - of(m.atRest))}`).join(", ") + " MB"
}

const client = async (file: string, emu: Emu.RunningEmulator, address: string, count: number): Promise<Measure> => {
  const child = spawn(process.execPath, ["--expose-gc", file, emu.url, emu.apiKey, address, String(count)], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  let out = ""
  child.stdout.on("data", (d: Buffer) => (out += d.toString()))
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
  if (code !== 0) throw new Error(`memory client ${file} exited with ${code}`)
  return JSON.parse(out.trim().split("\n").pop()!) as Measure
}

const sdkFile = await bundle("memory-client.ts", "memory-client")
const rawFile = await bundle("memory-raw-client.ts", "memory-raw-client")
const bundledFile = await bundle("memory-client.ts", "memory-client-all", { all: true })

const runFor = async (count: number, file: string) => {
  const emu = await Emu.start({ latencyMs: 0, sizes: { "compression.bigAddressSignatures": count } })
  try {
    return await client(file, emu, emu.samples["compressionAddress"]!, count)
  } finally {
    await emu.stop()
  }
}

const contenders = [
  ["solfx (workspace bundled, npm packages from node_modules)", sdkFile],
  ["solfx bundled with its npm packages (one tree-shaken file)", bundledFile],
  ["raw fetch + JSON.parse cursor loop", rawFile]
] as const
const counts = [SHORT, SIGNATURES]

log("memory:")
const measured = new Map<string, Measure>()
for (const count of counts) {
  for (const [name, file] of contenders) {
    const m = await runFor(count, file)
    measured.set(`${name}|${count}`, m)
    log(`  ${name} ${count}: ${JSON.stringify(m)}`)
  }
}
const at = (name: string, count: number) => measured.get(`${name}|${count}`)!
const growth = (m: Measure) => m.peakRssMb - m.baselineRssMb
const [sdkName, bundledName, rawName] = contenders.map(([name]) => name)
const sdk = at(sdkName!, SIGNATURES)
const sdkShort = at(sdkName!, SHORT)
const raw = at(rawName!, SIGNATURES)
const bundled = at(bundledName!, SIGNATURES)

const rows: Array<Row> = counts.flatMap((count) =>
  contenders.map(([name]) => {
    const m = at(name, count)
    return {
      contender: `${name}, ${count.toLocaleString("en-US")}`,
      value: `rest ${m.baselineRssMb.toFixed(0)} MB, peak ${m.peakRssMb.toFixed(0)} MB, peak − rest ${
        growth(m).toFixed(0)
      } MB`,
      note: `${fmtMs(m.ms)}; heap after a full GC ${m.retainedHeapMb.toFixed(0)} MB; ${grewBy(m)}`
    }
  })
)

// Where the rest itself differs: V8 grows the young generation while a process allocates
// a lot that survives (loading modules, building layers), and RSS keeps what it touched.
const newSpace = (b: Breakdown) => b.spacesMb["new"] ?? 0
const findings = [
  `At rest (after loading and one first request) V8's new space is already ${
    newSpace(sdk.atRest).toFixed(0)
  } MB for solfx and ${newSpace(bundled.atRest).toFixed(0)} MB bundled, against ${
    newSpace(raw.atRest).toFixed(0)
  } MB for the raw loop, whose new space reaches ${
    newSpace(raw.atPeak).toFixed(0)
  } MB only during its 1M walk: part of solfx's rest is young-generation room the raw loop claims ` +
  `later, inside its own peak − rest. What grew to each highest sample is in the notes, by part.`
]
const vsRaw = growth(sdk) / growth(raw)
const flat = growth(sdk) / growth(sdkShort)
const result: ComparisonResult = {
  id: "memory",
  title: "3. Memory: compression signatures streamed, 100,000 and 1,000,000",
  setup:
    `Emulator program (packages/emulator/src/bin.ts --latency-ms 0 --sizes compression.bigAddressSignatures=N) in its own process; ` +
    `each client in its own process, bundled to plain JavaScript by esbuild (bench/build/), default Node flags: ` +
    `the workspace packages bundled and npm packages loaded from node_modules, or everything in one tree-shaken ` +
    `file (the "bundled" rows, as an application ships). Peak RSS is the kernel's high-water mark of the client ` +
    `process (process.resourceUsage().maxRSS); "rest" its RSS after loading and one first request. One run each. ` +
    `Every 20 ms the client also samples its RSS with V8's heap spaces (committed sizes, v8.getHeapSpaceStatistics()) ` +
    `and its memory outside the heap; the note gives what grew from rest to the highest sample, by part. ` +
    `The clients run with --expose-gc only to force one full GC after the peak is read.`,
  tables: [{ caption: "RSS of the client process", rows }],
  targets: [
    {
      name: "memory: solfx peak − rest at 1M within 1.1× of the raw loop's",
      target: "≤ 1.1×",
      measured: `${growth(sdk).toFixed(0)} MB vs ${growth(raw).toFixed(0)} MB (${fmtRatio(vsRaw)})`,
      met: vsRaw <= 1.1
    },
    {
      name: "memory: solfx peak − rest at 1M within 10% of 100k (flat in N)",
      target: "≤ 1.1×",
      measured: `${growth(sdk).toFixed(0)} MB vs ${growth(sdkShort).toFixed(0)} MB (${fmtRatio(flat)})`,
      met: flat <= 1.1
    },
    {
      name: "memory: bundled client peak at 1M",
      target: `< ${TARGET_MB} MB`,
      measured: `${bundled.peakRssMb.toFixed(0)} MB`,
      met: bundled.peakRssMb < TARGET_MB
    }
  ],
  raw: [...measured].map(([k, m]) => `${k}: ${JSON.stringify(m)}`),
  findings
}
emit(result)
