/**
 * Comparison 7: the plan-aware limits shared by SDK processes through one
 * redis-server, against the emulator enforcing plan developer (DAS 10/s), in three
 * scenes, each timed from the emulator's request log:
 * - contention: 4 processes, 60 calls each, 16 at once: every call's time and outcome;
 * - a kill: one process calling while the emulator answers slowly (1.5 s, so that its
 *   every permit is a lease), SIGKILLed; the emulator fast again and a second process,
 *   loaded before, starting to call: the time from the kill until the emulator sees the
 *   plan's rate again (9 DAS requests in a second: the dead process holds at most one
 *   permit still);
 * - a Redis restart: redis-server stopped for 10 s while both call, then started on the
 *   same port: the time from the restart until that rate again.
 * With `LIMITS_OLD_ROOT` set to a checkout of an older commit (node_modules installed),
 * every scene runs again with that code (the same worker file, copied there), beside.
 */
import * as Emulator from "@solfx/emulator/Emulator"
import * as Servers from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Scope from "effect/Scope"
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { copyFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { NODE_ARGS } from "./lib/emulator.js"
import { fmtMs, log } from "./lib/harness.js"
import { emit, type Row, type Target } from "./lib/result.js"

const LIMIT = 10
/** "The plan's rate again": this many DAS requests within one second at the emulator. */
const BACK = LIMIT - 1
/** How long after a kill or a restart the rate is watched for. */
const HORIZON_MS = 30_000
const worker = fileURLToPath(new URL("./lib/limits-worker.ts", import.meta.url))
const oldRoot = process.env["LIMITS_OLD_ROOT"]

interface Version {
  readonly name: string
  readonly worker: string
}
const versions: Array<Version> = [{ name: "this code", worker }]
if (oldRoot !== undefined) {
  const copy = join(oldRoot, "bench", "lib", "limits-worker-current.ts")
  copyFileSync(worker, copy)
  const commit = execFileSync("git", ["-C", oldRoot, "rev-parse", "--short", "HEAD"]).toString().trim()
  versions.push({ name: `before (${commit})`, worker: copy })
}

interface Call {
  readonly ms: number
  readonly outcome: string
}

const start = (v: Version, args: ReadonlyArray<string>, env: Record<string, string>) => {
  const child = spawn(process.execPath, [...NODE_ARGS, v.worker, ...args], {
    stdio: ["pipe", "pipe", "ignore"],
    env: { ...process.env, ...env }
  })
  let out = ""
  const said = (line: string) =>
    new Promise<void>((resolve) => child.stdout!.on("data", () => out.includes(line) && resolve()))
  child.stdout!.on("data", (chunk: Buffer) => (out += chunk.toString()))
  const up = said("up\n")
  const first = said("first\n")
  const done = new Promise<ReadonlyArray<Call>>((resolve) =>
    // Its last line is the JSON of its calls (a killed one prints none; log lines may come before).
    child.on("exit", () => {
      const last = out.trim().split("\n").pop() ?? ""
      resolve(last.startsWith("[") ? JSON.parse(last) as ReadonlyArray<Call> : [])
    })
  )
  return { child, done, up, first }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

/** ms from `from` until the first second (of DAS request arrivals) holding BACK of them; undefined: not seen. */
const backAfter = (emu: Emulator.Emulator, from: number): number | undefined => {
  // The log is in the order answers ended: arrivals sorted.
  const times = emu.requests.filter((r) => r.operation === "getAssetsByAuthority" && r.startedAt >= from).map((r) =>
    r.startedAt
  ).sort((a, b) => a - b)
  for (let i = BACK - 1; i < times.length; i++) {
    if (times[i]! - times[i - BACK + 1]! <= 1000) return times[i]! - from
  }
  return undefined
}

/** The emulator's latency outside the kill (a page of 100 assets is quick to serve). */
const LATENCY_MS = 50

const kill = (child: ChildProcess) => child.kill("SIGKILL")

const contention = async (v: Version, redis: Servers.Redis, emu: Emulator.Emulator) => {
  const authorities = emu.samples.batchAssetAuthorities.slice(0, 4)
  const runs = authorities.map((a) =>
    start(v, [emu.url, emu.apiKey, String(redis.port), a], { CALLS: "60", CONCURRENCY: "16", PAGE_SIZE: "100" })
  )
  const calls = (await Promise.all(runs.map((r) => r.done))).flat()
  const times = calls.map((c) => c.ms).sort((a, b) => a - b)
  const failed = calls.filter((c) => c.outcome !== "ok")
  // The log is in the order answers ended: arrivals sorted.
  const starts = emu.requests.filter((r) => r.operation === "getAssetsByAuthority").map((r) => r.startedAt).sort((
    a,
    b
  ) => a - b)
  const rate = ((starts.length - 1) * 1000) / (starts[starts.length - 1]! - starts[0]!)
  return { calls: calls.length, times, failed, rate, rejected: emu.planLimits.rejected.das ?? 0 }
}

const killScene = async (v: Version, redis: Servers.Redis, emu: Emulator.Emulator) => {
  const [a, b] = emu.samples.batchAssetAuthorities
  const args = (authority: string) => [emu.url, emu.apiKey, String(redis.port), authority]
  const calls = { CALLS: "100000", CONCURRENCY: "16", PAGE_SIZE: "100" }
  // The survivor loaded but idle; the doomed process holding every permit in flight (slow answers: leases).
  const survivor = start(v, args(b!), { ...calls, GO: "stdin" })
  const doomed = start(v, args(a!), calls)
  await Promise.all([survivor.up, doomed.first])
  emu.setLatency(1_500)
  await sleep(2_000)
  const killedAt = Date.now()
  kill(doomed.child)
  emu.setLatency(LATENCY_MS)
  survivor.child.stdin!.write("go\n")
  await sleep(HORIZON_MS)
  kill(survivor.child)
  return backAfter(emu, killedAt)
}

const restartScene = async (v: Version, emu: Emulator.Emulator) => {
  const first = Effect.runSync(Scope.make())
  const redis = await Effect.runPromise(Scope.extend(Servers.redis, first))
  const [a, b] = emu.samples.batchAssetAuthorities
  const args = (authority: string) => [emu.url, emu.apiKey, String(redis.port), authority]
  const runs = [a!, b!].map((x) => start(v, args(x), { CALLS: "100000", CONCURRENCY: "16", PAGE_SIZE: "100" }))
  await Promise.all(runs.map((r) => r.first))
  await sleep(2_000)
  await Effect.runPromise(Scope.close(first, Exit.void))
  await sleep(10_000)
  const second = Effect.runSync(Scope.make())
  await Effect.runPromise(Scope.extend(Servers.redisOn(redis.port), second))
  const restartedAt = Date.now()
  await sleep(HORIZON_MS)
  for (const r of runs) kill(r.child)
  await Effect.runPromise(Scope.close(second, Exit.void))
  return backAfter(emu, restartedAt)
}

/** Runs `scene` with a fresh emulator (and redis-server, if it takes one), closed after. */
const withServers = async <A>(
  scene: (redis: Servers.Redis, emu: Emulator.Emulator) => Promise<A>,
  options: Emulator.Options = {}
): Promise<A> => {
  const scope = Effect.runSync(Scope.make())
  try {
    const redis = await Effect.runPromise(Scope.extend(Servers.redis, scope))
    const emu = await Effect.runPromise(Scope.extend(Emulator.make({ plan: "developer", ...options }), scope))
    return await scene(redis, emu)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const fmtBack = (ms: number | undefined) => ms === undefined ? `not within ${HORIZON_MS / 1000} s` : fmtMs(ms)

const rows: Array<Row> = []
const recovery: Array<Row> = []
const targets: Array<Target> = []
const raw: Array<string> = []
const missing = Servers.unavailable("redis")
if (missing !== undefined) {
  targets.push({ name: "limits", target: "measured", measured: `not measured (${missing})`, met: undefined })
} else {
  for (const v of versions) {
    const c = await withServers((redis, emu) => contention(v, redis, emu), { latencyMs: LATENCY_MS })
    log(`limits (${v.name}): ${c.calls} calls, ${c.failed.length} failed, p50 ${fmtMs(percentile(c.times, 50))}`)
    raw.push(`${v.name}: failures ${JSON.stringify(c.failed.slice(0, 3))}`)
    rows.push(
      { contender: `${v.name}: call time p50`, value: fmtMs(percentile(c.times, 50)) },
      { contender: `${v.name}: p90`, value: fmtMs(percentile(c.times, 90)) },
      { contender: `${v.name}: p99`, value: fmtMs(percentile(c.times, 99)) },
      { contender: `${v.name}: max`, value: fmtMs(c.times[c.times.length - 1]!) },
      {
        contender: `${v.name}: calls failed`,
        value: `${c.failed.length} of ${c.calls}`,
        note: `${c.rejected} × 429 at the emulator`
      },
      { contender: `${v.name}: DAS rate at the emulator`, value: `${c.rate.toFixed(2)}/s`, note: `limit ${LIMIT}` }
    )
    const killed = await withServers((redis, emu) => killScene(v, redis, emu), { latencyMs: LATENCY_MS })
    const restarted = await withServers((_, emu) => restartScene(v, emu), { latencyMs: LATENCY_MS })
    log(
      `limits (${v.name}): back to the plan's rate ${fmtBack(killed)} after a kill, ${
        fmtBack(restarted)
      } after a restart`
    )
    recovery.push(
      { contender: `${v.name}: from a SIGKILL to the plan's rate again`, value: fmtBack(killed) },
      {
        contender: `${v.name}: from a Redis restart (after 10 s down) to the plan's rate again`,
        value: fmtBack(restarted)
      }
    )
    if (v.worker === worker) {
      targets.push(
        {
          name: "limits: 4 processes contending, no call fails",
          target: "0 failed, 0 × 429",
          measured: `${c.failed.length} failed, ${c.rejected} × 429`,
          met: c.failed.length === 0 && c.rejected === 0
        },
        {
          name: "limits: DAS rate of 4 processes contending, at the emulator",
          target: `≥ 80% of ${LIMIT}/s`,
          measured: `${((100 * c.rate) / LIMIT).toFixed(1)}% (${c.rate.toFixed(2)}/s)`,
          met: c.rate >= 0.8 * LIMIT
        },
        {
          name: "limits: the plan's rate again after a kill and after a Redis restart",
          target: "within 10 s",
          measured: `${fmtBack(killed)}, ${fmtBack(restarted)}`,
          met: killed !== undefined && restarted !== undefined && killed <= 10_000 && restarted <= 10_000
        }
      )
    }
  }
}

emit({
  id: "limits",
  title: "7. Plan limits shared through Redis",
  setup: `Plan developer (DAS 10/s) at the emulator (${LATENCY_MS} ms a request), SDK processes sharing one ` +
    "redis-server on loopback, each " +
    "calling getAssetsByAuthority (100 assets a page, 16 calls at once). Contention: 4 processes × 60 calls. " +
    "Kill: one process holding every permit in flight (answers slowed to 1.5 s), SIGKILLed; a second process, " +
    `loaded before, then starts calling and is watched for ${HORIZON_MS / 1000} s. ` +
    "Restart: redis-server stopped 10 s while two processes call, then started on its port. \"The plan's rate again\": " +
    `the first second holding ${BACK} DAS requests at the emulator (of the limit, ${LIMIT}). ` +
    (oldRoot === undefined ? "Run with LIMITS_OLD_ROOT=<checkout> to measure older code beside." : ""),
  tables: rows.length === 0 ? [] : [
    { caption: "Call times under contention (4 processes)", rows },
    { caption: "Recovery", rows: recovery }
  ],
  targets,
  raw,
  findings: [
    "Defaults: a process's permits outlive it by at most its liveness TTL (5 s) and a 1 s window; while Redis " +
    "is down calls fail at once with TransportError (connect, sent: false); after a restart the client " +
    "reconnects within 2 s and no request queued before it runs."
  ]
})
