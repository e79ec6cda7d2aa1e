/**
 * Comparison 5: the admin rate limiter. 100 getProjectUsage calls from 50
 * concurrent fibers through one SDK Admin service (its sliding-window limiter:
 * 5 per second per project), against the emulator in a child process. Reports
 * the 429s the emulator answered (its own status counts: the SDK would retry
 * them silently) and the achieved rate of calls against 5 per second.
 */
import * as Admin from "@solfx/admin/Admin"
import * as Effect from "effect/Effect"
import * as Emu from "./lib/emulator.js"
import { fmtMs, log } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row, type Target } from "./lib/result.js"
import * as Sdk from "./lib/sdk.js"

const CALLS = 100
const FIBERS = 50
const RATE = 5
const LATENCIES = (process.env["BENCH_ADMIN_LATENCIES"] ?? "0,50").split(",").map(Number)

interface Run {
  readonly latencyMs: number
  readonly wallMs: number
  readonly served: number
  readonly status429: number
  readonly byStatus: Readonly<Record<string, number>>
}

const runAt = async (latencyMs: number): Promise<Run | undefined> => {
  const emu = await Emu.start({ latencyMs, control: true })
  const runtime = Sdk.runtime(Admin.layer, emu)
  try {
    // Is the endpoint served? An unknown path answers 400 "invalid path".
    const probe = await fetch(`${emu.url}/v0/admin/projects/${emu.projectId}/usage`, {
      headers: { "x-api-key": emu.apiKey }
    })
    const body = await probe.text()
    if (probe.status === 400 && body.includes("invalid path")) return undefined
    // Let the probe's request leave the server's sliding window before the measured run.
    await new Promise((r) => setTimeout(r, 1100))
    await emu.resetLog()
    const t0 = performance.now()
    const results = await runtime.runPromise(Effect.flatMap(Admin.Admin, (admin) =>
      Effect.forEach(
        Array.from({ length: CALLS }, (_, i) => i),
        () => admin.getProjectUsage(emu.projectId),
        { concurrency: FIBERS }
      )))
    const wallMs = performance.now() - t0
    const counters = await emu.counters()
    if (results.length !== CALLS) throw new Error(`got ${results.length} usage records`)
    const run = {
      latencyMs,
      wallMs,
      served: counters.total,
      status429: counters.byStatus["429"] ?? 0,
      byStatus: counters.byStatus
    }
    log(
      `admin at ${latencyMs} ms: ${wallMs.toFixed(0)} ms, ${run.served} requests, ${run.status429} × 429, ${
        JSON.stringify(run.byStatus)
      }`
    )
    return run
  } finally {
    await runtime.dispose()
    await emu.stop()
  }
}

const runs: Array<Run> = []
for (const latency of LATENCIES) {
  const run = await runAt(latency)
  if (run !== undefined) runs.push(run)
}

const rows: Array<Row> = []
const targets: Array<Target> = []
const findings: Array<string> = []
for (const run of runs) {
  const rate = CALLS / (run.wallMs / 1000)
  // The first window's 5 calls go at once: the sustained rate is over the other 95 calls' windows.
  rows.push(
    { contender: `${run.latencyMs} ms: ${CALLS} calls from ${FIBERS} fibers, wall time`, value: fmtMs(run.wallMs) },
    {
      contender: `${run.latencyMs} ms: achieved rate`,
      value: `${rate.toFixed(2)}/s`,
      ratio: `${((100 * rate) / RATE).toFixed(1)}% of ${RATE}/s`
    },
    {
      contender: `${run.latencyMs} ms: 429 answers (emulator count)`,
      value: String(run.status429),
      note: `${run.served} requests served in all`
    }
  )
  const primary = run.latencyMs === LATENCIES[0]
  targets.push({
    name: `admin @ ${run.latencyMs} ms: 429s`,
    target: "0",
    measured: String(run.status429),
    met: run.status429 === 0
  })
  targets.push({
    name: `admin @ ${run.latencyMs} ms: achieved rate${primary ? "" : " (informative)"}`,
    target: `≥ 95% of ${RATE}/s`,
    measured: `${((100 * rate) / RATE).toFixed(1)}% (${rate.toFixed(2)}/s)`,
    met: primary ? rate >= 0.95 * RATE : undefined
  })
}
if (runs.length === 0) {
  findings.push(
    "Not measured: the emulator does not serve GET /v0/admin/projects/{id}/usage in this checkout (it answers 400 invalid path). " +
      "The comparison runs as soon as the admin area is registered in packages/emulator/src/areas/index.ts."
  )
  targets.push({ name: "admin: 429s", target: "0", measured: "not measured", met: undefined })
  targets.push({ name: "admin: achieved rate", target: `≥ 95% of ${RATE}/s`, measured: "not measured", met: undefined })
} else {
  findings.push(
    "The limiter holds each permit from a request's start until one window after its response, so the steady rate is " +
      `${RATE} / (1 s + round trip): the added latency costs rate by design, in exchange for never exceeding the server's window.`
  )
}

const result: ComparisonResult = {
  id: "admin",
  title: "5. Admin limiter: 100 usage calls from 50 fibers",
  setup:
    `Emulator in its own process (bench/lib/emulator-control.ts, with an IPC channel for its status counts), at ${
      LATENCIES.join(" and ")
    } ms of added latency. ` +
    `One Admin service (one limiter) serves Effect.forEach(100 calls, getProjectUsage, { concurrency: ${FIBERS} }). ` +
    `The achieved rate is ${CALLS} calls / wall time; the first window's calls start at once, so a perfect limiter slightly exceeds ${RATE}/s.`,
  tables: [{ caption: "one run per latency (a run takes about 20 s)", rows }],
  targets,
  raw: runs.map((r) => `${r.latencyMs} ms | ${r.wallMs.toFixed(0)} ms, statuses ${JSON.stringify(r.byStatus)}`),
  findings
}
emit(result)
