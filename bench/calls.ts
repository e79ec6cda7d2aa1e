/**
 * Comparison: client CPU per call, every entry of the endpoint table, against a
 * raw `fetch` + `JSON.parse` of the same body. Each body is the emulator's answer
 * to the SDK's own call (lib/bodies.ts), then served pre-encoded by a static
 * loopback server in another process (lib/static-server.ts), so the server costs
 * next to nothing and the figure is the client's. Contenders alternated in this
 * process; CPU time of this process (user + system) per call, median of samples.
 * Bodies under 10 KB give the fixed cost of a call: solfx minus raw, in µs.
 * A third contender, the platform's HttpClient alone (the undici layer solfx runs
 * on by default: execute, text, JSON.parse), shows how much of the gap is the
 * layer solfx is built on and how much is solfx's own (transport, checks, decode).
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientRequest from "@effect/platform/HttpClientRequest"
import * as Config from "@solfx/core/Config"
import * as Derive from "@solfx/http/Derive"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import { spawn } from "node:child_process"
import { mkdtempSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { record, type Recorded } from "./lib/bodies.js"
import * as Emu from "./lib/emulator.js"
import { fmtBytes, fmtRatio, fmtShort, log, median, worstBy } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row } from "./lib/result.js"

const SAMPLES = Number(process.env["BENCH_CALLS_SAMPLES"] ?? 9)
/** CPU per sample and contender, about: long enough to hold several GCs (see bench/decode.ts). */
const SAMPLE_MS = 100
const SMALL = 10_000
const TARGET = 1.5
const API_KEY = "bench-static-key"

const emu = await Emu.start({ latencyMs: 0 })
const recorded = await (async () => {
  try {
    return await record(emu)
  } finally {
    await emu.stop()
  }
})()

// Only what answered 200: the static server replays bodies, not failures.
const only = process.env["BENCH_CALLS_ONLY"]
const bodies = [...recorded.bodies.values()].filter((r) =>
  r.status === 200 && (only === undefined || r.entry.name === only)
)
const keyOf = (r: Recorded) => (r.entry._tag === "Rpc" ? r.entry.method : `${r.method} ${r.url.split("?")[0]}`)
const file = join(mkdtempSync(join(tmpdir(), "solfx-calls-")), "answers.json")
writeFileSync(file, JSON.stringify(bodies.map((r) => ({ key: keyOf(r), status: r.status, text: r.text }))))

const server = spawn(
  process.execPath,
  [...Emu.NODE_ARGS, fileURLToPath(new URL("./lib/static-server.ts", import.meta.url)), file],
  { stdio: ["ignore", "pipe", "inherit"] }
)
const [line] =
  (await new Promise<Array<string>>((resolve) =>
    createInterface({ input: server.stdout! }).once("line", (l) => resolve([l]))
  )) as [string]
const url = (JSON.parse(line) as { url: string }).url

const runtime = ManagedRuntime.make(
  HttpTransport.layer.pipe(
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provide(Layer.succeed(Config.SolfxConfig, Config.make({ apiKey: API_KEY, baseUrl: url })))
  )
)

const platformRuntime = ManagedRuntime.make(NodeHttpClient.layerUndici)

const cpuMs = async (f: () => Promise<unknown>, runs: number): Promise<number> => {
  const t0 = process.cpuUsage()
  for (let i = 0; i < runs; i++) await f()
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / 1000 / runs
}

interface Measured {
  readonly name: string
  readonly bytes: number
  readonly raw: number
  readonly platform: number
  readonly solfx: number
  readonly samples: string
}

const measured: Array<Measured> = []
const failed: Array<readonly [string, string]> = [...recorded.missing]
for (const r of recorded.bodies.values()) if (r.status !== 200) failed.push([r.entry.name, `answered ${r.status}`])

try {
  for (const r of bodies) {
    const client = await runtime.runPromise(Derive.client(r.entry))
    const solfx = () => runtime.runPromise(client.call(r.input as never))
    const target = url + r.url.split("{key}").join(API_KEY)
    const headers = Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, v.split("{key}").join(API_KEY)]))
    const raw = async () => {
      const res = await fetch(target, {
        method: r.method,
        headers,
        ...(r.requestBody === undefined ? {} : { body: r.requestBody })
      })
      return JSON.parse(await res.text()) as unknown
    }
    // The platform's client as solfx gets it (same layer, tracer off as solfx turns it off), reading as solfx does.
    const request = HttpClientRequest.make(r.method as "GET" | "POST")(target).pipe(
      HttpClientRequest.setHeaders(headers),
      (req) => r.requestBody === undefined ? req : HttpClientRequest.bodyText(req, r.requestBody, "application/json")
    )
    const exchange = Effect.flatMap(
      HttpClient.HttpClient,
      (client) =>
        client.pipe(HttpClient.withTracerDisabledWhen(() => true)).execute(request).pipe(
          Effect.flatMap((res) => res.text),
          Effect.map((text) => JSON.parse(text) as unknown)
        )
    )
    const platform = () => platformRuntime.runPromise(exchange)
    try {
      await solfx()
    } catch (e) {
      failed.push([r.entry.name, `the SDK call failed on the replayed body: ${String(e).slice(0, 160)}`])
      continue
    }
    for (let w = 0; w < 20; w++) {
      await solfx()
      await raw()
      await platform()
    }
    const probe = await cpuMs(solfx, 5)
    const runs = Math.max(3, Math.min(2000, Math.round(SAMPLE_MS / Math.max(probe, 0.01))))
    const times: [Array<number>, Array<number>, Array<number>] = [[], [], []]
    const contenders = [raw, platform, solfx]
    for (let s = 0; s < SAMPLES; s++) {
      for (let k = 0; k < contenders.length; k++) {
        const i = (k + s) % contenders.length
        times[i]!.push(await cpuMs(contenders[i]!, runs))
      }
    }
    const all = (xs: Array<number>) => xs.map((x) => x.toFixed(3)).join(", ")
    const m = {
      name: r.entry.name,
      bytes: Buffer.byteLength(r.text),
      raw: median(times[0]),
      platform: median(times[1]),
      solfx: median(times[2]),
      samples: `${r.entry.name} (${runs} calls/sample): raw ${all(times[0])}; platform ${all(times[1])}; solfx ${
        all(times[2])
      } ms`
    }
    measured.push(m)
    log(
      `  ${m.name}: ${(m.bytes / 1000).toFixed(1)} KB raw ${m.raw.toFixed(3)} ms, platform ${
        m.platform.toFixed(3)
      } ms, solfx ${m.solfx.toFixed(3)} ms (${fmtRatio(m.solfx / m.raw)})`
    )
  }
} finally {
  await runtime.dispose()
  await platformRuntime.dispose()
  server.kill()
}

const small = measured.filter((m) => m.bytes < SMALL)
const fixed = median(small.map((m) => m.solfx - m.raw))
const rows: Array<Row> = measured.map((m) => ({
  contender: `${m.name} (${fmtBytes(m.bytes)})`,
  value: `raw ${fmtShort(m.raw)}, platform ${fmtShort(m.platform)}, solfx ${fmtShort(m.solfx)}`,
  ratio: fmtRatio(m.solfx / m.raw),
  note: `solfx / platform ${fmtRatio(m.solfx / m.platform)}` +
    (m.bytes < SMALL ? `; fixed cost ${fmtShort(m.solfx - m.raw)} above raw` : "")
}))
for (const [name, why] of failed) rows.push({ contender: name, value: "not measured", note: why })
const large = measured.filter((m) => m.bytes >= SMALL)
const worst = worstBy(large, (m) => m.solfx / m.raw)

const result: ComparisonResult = {
  id: "calls",
  title: "1b. Client CPU per call, every entry, against raw fetch + JSON.parse of the same body",
  setup: `One body per entry of Endpoints.all (the emulator's answer to the SDK's call), replayed pre-encoded by a ` +
    `static loopback server in another process. Per entry, ${SAMPLES} samples of about ${SAMPLE_MS} ms of CPU of ` +
    `sequential calls per contender, alternated, after 20 warm-up calls; client process CPU (user + system) per ` +
    `call, median. solfx: the derived client's call (validation, transport, decode). raw: fetch, text, JSON.parse. ` +
    `platform: the @effect/platform HttpClient solfx runs on (NodeHttpClient.layerUndici, tracer off): execute, ` +
    `text, JSON.parse; no solfx code.`,
  tables: [{ caption: "client CPU per call; ratio solfx / raw", rows }],
  targets: [
    {
      name: `per call ≤ ${TARGET}× raw for every body of 10 KB or more (${large.length} bodies)`,
      target: `≤ ${TARGET}×`,
      measured: worst === undefined ? "no body" : `worst ${fmtRatio(worst.solfx / worst.raw)} (${worst.name})`,
      met: worst !== undefined && failed.length === 0 && worst.solfx / worst.raw <= TARGET
    },
    {
      name: `per call, bodies of 10 KB or more: the platform HttpClient alone / raw, and solfx / the platform`,
      target: "reported",
      measured: large.length === 0
        ? "no body"
        : `platform / raw median ${fmtRatio(median(large.map((m) => m.platform / m.raw)))}; solfx / platform ` +
          `median ${fmtRatio(median(large.map((m) => m.solfx / m.platform)))}, worst ${
            fmtRatio(Math.max(...large.map((m) => m.solfx / m.platform)))
          }`,
      met: undefined
    },
    {
      name: `fixed cost of a call (small bodies, ${small.length}): median of solfx − raw`,
      target: "reported",
      measured: small.length === 0 ? "no small body" : fmtShort(fixed),
      met: undefined
    }
  ],
  raw: measured.map((m) => m.samples)
}
emit(result)
