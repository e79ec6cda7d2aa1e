/**
 * Comparison 4: token metadata for 10,000 mints at concurrency 8 through the
 * SDK (100 requests of 100 mints), against the emulator in a child process, at
 * 50 ms and 0 ms of added latency. Reports the requests sent and the most in
 * flight (the emulator's own counters), and the wall time against the ideal:
 * 13 rounds (ceil(100 / 8)) × the time of one 100-mint request, measured in the
 * same repetition (alternated with the batch).
 */
import { sha256 } from "@noble/hashes/sha2.js"
import { encodeBase58 } from "@solfx/core/Primitives"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Effect from "effect/Effect"
import * as Emu from "./lib/emulator.js"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row, type Target } from "./lib/result.js"
import * as Sdk from "./lib/sdk.js"

const MINTS = 10_000
const PER_REQUEST = 100
const CONCURRENCY = 8
const REQUESTS = MINTS / PER_REQUEST
const ROUNDS = Math.ceil(REQUESTS / CONCURRENCY)
const REPS = Number(process.env["BENCH_BATCH_REPS"] ?? 5)
const SINGLES = 5
const LATENCIES = [50, 0]
const OPERATION = "POST /v0/token-metadata"

const encoder = new TextEncoder()
const mints = Array.from({ length: MINTS }, (_, i) => encodeBase58(sha256(encoder.encode(`bench:mint:${i}`))))

interface Rep {
  readonly wallMs: number
  readonly singleMs: number
  readonly requests: number
  readonly maxInFlight: number
  /** CPU time of the emulator process during the batch, and of this client. */
  readonly serverCpuMs: number
  readonly clientCpuMs: number
}

const runAt = async (latencyMs: number): Promise<Array<Rep>> => {
  const emu = await Emu.start({ latencyMs, control: true })
  const runtime = Sdk.runtime(TokenMetadata.layer, emu)
  const fetchMetadata = (mintAccounts: ReadonlyArray<string>, concurrency: number) =>
    runtime.runPromise(
      Effect.flatMap(TokenMetadata.TokenMetadata, (tm) => tm.getTokenMetadata({ mintAccounts }, { concurrency }))
    )
  try {
    // Warm-up: every mint once (the emulator's metadata cache then answers later rounds alike).
    const warm = await fetchMetadata(mints, CONCURRENCY)
    if (warm.length !== MINTS) throw new Error(`warm-up got ${warm.length} records`)
    const reps: Array<Rep> = []
    log(`batch at ${latencyMs} ms:`)
    for (let r = 0; r < REPS; r++) {
      // One 100-mint request, alone, several times: the unit of the ideal.
      const singles: Array<number> = []
      for (let s = 0; s < SINGLES; s++) {
        const chunk = mints.slice((s * PER_REQUEST) % MINTS, (s * PER_REQUEST) % MINTS + PER_REQUEST)
        const t0 = performance.now()
        const records = await fetchMetadata(chunk, 1)
        singles.push(performance.now() - t0)
        if (records.length !== PER_REQUEST) throw new Error("a single request lost records")
      }
      await emu.resetLog()
      const server0 = await emu.cpuMs()
      const client0 = process.cpuUsage()
      const t0 = performance.now()
      const records = await fetchMetadata(mints, CONCURRENCY)
      const wallMs = performance.now() - t0
      const client = process.cpuUsage(client0)
      const serverCpuMs = (await emu.cpuMs()) - server0
      const counters = await emu.counters()
      if (records.length !== MINTS) throw new Error(`the batch got ${records.length} records`)
      const rep = {
        wallMs,
        singleMs: median(singles),
        requests: counters.byOperation[OPERATION] ?? 0,
        maxInFlight: counters.maxInFlight,
        serverCpuMs,
        clientCpuMs: (client.user + client.system) / 1000
      }
      log(
        `  rep ${r + 1}/${REPS}: ${wallMs.toFixed(0)} ms, single ${
          rep.singleMs.toFixed(1)
        } ms, ${rep.requests} requests, ` +
          `max ${rep.maxInFlight} in flight, CPU server ${serverCpuMs.toFixed(0)} ms, client ${
            rep.clientCpuMs.toFixed(0)
          } ms`
      )
      reps.push(rep)
    }
    return reps
  } finally {
    await runtime.dispose()
    await emu.stop()
  }
}

const tables: Array<{ caption: string; rows: Array<Row> }> = []
const targets: Array<Target> = []
const raw: Array<string> = []
const findings: Array<string> = []
for (const latency of LATENCIES) {
  const reps = await runAt(latency)
  const wall = median(reps.map((r) => r.wallMs))
  const single = median(reps.map((r) => r.singleMs))
  const ideal = ROUNDS * single
  const ratio = median(reps.map((r) => r.wallMs / (ROUNDS * r.singleMs)))
  const requests = Math.max(...reps.map((r) => r.requests))
  const maxInFlight = Math.max(...reps.map((r) => r.maxInFlight))
  const serverPerRequest = median(reps.map((r) => r.serverCpuMs)) / REQUESTS
  const clientPerRequest = median(reps.map((r) => r.clientCpuMs)) / REQUESTS
  tables.push({
    caption: `${latency} ms added latency: ${MINTS.toLocaleString("en-US")} mints, concurrency ${CONCURRENCY}`,
    rows: [
      {
        contender: "solfx getTokenMetadata, batch wall time (median)",
        value: fmtMs(wall),
        ratio: fmtRatio(ratio),
        note: "ratio: wall / ideal, median of the repetitions"
      },
      { contender: "one 100-mint request alone (median)", value: fmtMs(single) },
      { contender: `ideal: ${ROUNDS} rounds × one request`, value: fmtMs(ideal) },
      { contender: "requests sent (emulator count, per batch)", value: String(requests), note: `expected ${REQUESTS}` },
      {
        contender: "most requests in flight (emulator maxInFlight)",
        value: String(maxInFlight),
        note: `limit ${CONCURRENCY}`
      },
      {
        contender: "CPU a request during the batch (median)",
        value: `${serverPerRequest.toFixed(1)} ms`,
        note: `emulator ${serverPerRequest.toFixed(1)} ms, client ${clientPerRequest.toFixed(1)} ms; ` +
          `the emulator alone needs ${fmtMs(serverPerRequest * REQUESTS)} of CPU for the batch on its one event loop`
      }
    ]
  })
  findings.push(
    `At ${latency} ms the batch took ${fmtMs(wall)} against an ideal of ${fmtMs(ideal)}. The emulator spent ` +
      `${serverPerRequest.toFixed(1)} ms of CPU on each 100-mint request, serially on one event loop: ${
        fmtMs(serverPerRequest * REQUESTS)
      } ` +
      `for the ${REQUESTS} requests, ${fmtRatio((serverPerRequest * REQUESTS) / ideal)} the ideal by itself. ` +
      `The ideal assumes a server that answers 8 requests in the time of one.`
  )
  const applies = latency === 50
  targets.push({
    name: `batch @ ${latency} ms: wall time vs ${ROUNDS} × one request${applies ? "" : " (informative)"}`,
    target: "≤ 1.2×",
    measured: fmtRatio(ratio),
    met: applies ? ratio <= 1.2 : undefined
  })
  targets.push({
    name: `batch @ ${latency} ms: most requests in flight`,
    target: `≤ ${CONCURRENCY} (and ${REQUESTS} requests)`,
    measured: `${maxInFlight} (${requests} requests)`,
    met: maxInFlight <= CONCURRENCY && requests === REQUESTS
  })
  for (const r of reps) {
    raw.push(
      `${latency} ms | batch ${r.wallMs.toFixed(0)} ms, single ${r.singleMs.toFixed(1)} ms, ${r.requests} requests, ` +
        `max in flight ${r.maxInFlight}, CPU server ${r.serverCpuMs.toFixed(0)} ms, client ${
          r.clientCpuMs.toFixed(0)
        } ms`
    )
  }
}

const result: ComparisonResult = {
  id: "batch",
  title: "4. Batch: token metadata for 10,000 mints at concurrency 8",
  setup:
    `Emulator in its own process (bench/lib/emulator-control.ts, the emulator program with an IPC channel for its counters). ` +
    `getTokenMetadata({ mintAccounts: 10,000 }, { concurrency: ${CONCURRENCY} }) sends ${REQUESTS} requests of ${PER_REQUEST}. ` +
    `${REPS} repetitions per latency after one warm-up batch; each repetition first times ${SINGLES} single 100-mint requests ` +
    `(their median is the unit), then the batch, then reads the emulator's counters (reset before the batch).`,
  tables,
  targets,
  raw,
  findings
}
emit(result)
