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
import { type Breakdown, WALK_END, WALK_START } from "./lib/peak-sampler.js"
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

/** Young-generation collections during the walk, from V8's --trace-gc-nvp lines between the client's marks. */
interface YoungGc {
  readonly scavenges: number
  readonly fullGcs: number
  /** Bytes the scavenges moved to the old generation: what was still reachable when one ran. */
  readonly promotedMb: number
}

const run = async (
  file: string,
  flags: ReadonlyArray<string>,
  emu: Emu.RunningEmulator,
  address: string,
  count: number
) => {
  const child = spawn(process.execPath, [...flags, file, emu.url, emu.apiKey, address, String(count)], {
    stdio: ["ignore", "pipe", "inherit"]
  })
  let out = ""
  child.stdout.on("data", (d: Buffer) => (out += d.toString()))
  const code = await new Promise<number | null>((resolve) => child.on("exit", resolve))
  if (code !== 0) throw new Error(`memory client ${file} exited with ${code}`)
  return out.trim().split("\n")
}

const client = async (file: string, emu: Emu.RunningEmulator, address: string, count: number): Promise<Measure> =>
  JSON.parse((await run(file, ["--expose-gc"], emu, address, count)).pop()!) as Measure

const youngGc = async (file: string, emu: Emu.RunningEmulator, address: string, count: number): Promise<YoungGc> => {
  const lines = await run(file, ["--expose-gc", "--trace-gc-nvp"], emu, address, count)
  const [start, end] = [lines.indexOf(WALK_START), lines.indexOf(WALK_END)]
  if (start < 0 || end < start) throw new Error(`memory client ${file} did not mark its walk`)
  const walk = lines.slice(start, end)
  let scavenges = 0
  let fullGcs = 0
  let promoted = 0
  for (const line of walk) {
    const kind = /\bgc=(\w+)/.exec(line)?.[1]
    if (kind === undefined) continue
    if (kind === "s") scavenges++
    else fullGcs++
    promoted += Number(/\bpromoted=(\d+)/.exec(line)?.[1] ?? 0)
  }
  return { scavenges, fullGcs, promotedMb: promoted / (1024 * 1024) }
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
// A run of its own under --trace-gc-nvp, so the figures above keep default flags.
const young = new Map<string, YoungGc>()
{
  const emu = await Emu.start({ latencyMs: 0, sizes: { "compression.bigAddressSignatures": SHORT } })
  try {
    for (const [name, file] of contenders) {
      const g = await youngGc(file, emu, emu.samples["compressionAddress"]!, SHORT)
      young.set(name, g)
      log(`  ${name} ${SHORT} traced: ${JSON.stringify(g)}`)
    }
  } finally {
    await emu.stop()
  }
}
const youngRows: Array<Row> = contenders.map(([name]) => {
  const g = young.get(name)!
  return {
    contender: `${name}, ${SHORT.toLocaleString("en-US")}`,
    value: `${g.promotedMb.toFixed(1)} MB promoted`,
    note: `${g.scavenges} scavenges, ${g.fullGcs} full GC${g.fullGcs === 1 ? "" : "s"}`
  }
})

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
{
  const g = (name: string) => young.get(name)!.promotedMb.toFixed(1)
  findings.push(
    `In the traced walk of ${SHORT.toLocaleString("en-US")}, scavenges promoted ${g(sdkName!)} MB for solfx ` +
      `(${g(bundledName!)} MB bundled) against ${g(rawName!)} MB for the raw loop. Promoted pages are garbage by ` +
      `then (the heap after a full GC stays flat), but they fill the old generation until a full GC frees them.`
  )
}
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
    `The clients run with --expose-gc only to force one full GC after the peak is read. A second walk of ` +
    `${SHORT.toLocaleString("en-US")} per client, in a run of its own with --trace-gc-nvp, counts the collections ` +
    `between the client's marks around its walk.`,
  tables: [
    { caption: "RSS of the client process", rows },
    {
      caption: `Young-generation collections during the walk of ${
        SHORT.toLocaleString("en-US")
      } (a run of its own with --trace-gc-nvp): what the scavenges found still reachable and moved to the old generation, where only a full GC frees it`,
      rows: youngRows
    }
  ],
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
