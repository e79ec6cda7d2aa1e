/**
 * Comparison: @solana/kit's `getBalance` through solfx's transport against kit's own default
 * transport, on the same emulator (another process, latency 0), client CPU per call. Three
 * contenders, alternated within each sample: kit's `createSolanaRpc(url)`; kit's RPC over
 * `SolanaRpc.transport` (`createSolanaRpcFromTransport`, awaited as plain kit code: the like-for-like
 * one, the target's); and `SolanaRpc.call(rpc.getBalance(a))` run as an Effect. CPU time of this
 * process (user + system) per call, median of samples.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { address, createSolanaRpc, createSolanaRpcFromTransport } from "@solana/kit"
import * as Config from "@solfx/core/Config"
import * as HttpTransport from "@solfx/http/HttpTransport"
import { SolanaRpc } from "@solfx/kit"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"
import * as Emu from "./lib/emulator.js"
import { fmtRatio, fmtShort, log, median } from "./lib/harness.js"
import { type ComparisonResult, emit } from "./lib/result.js"

const SAMPLES = Number(process.env["BENCH_KIT_SAMPLES"] ?? 9)
/** CPU per sample and contender, about. */
const SAMPLE_MS = 150
const TARGET = 1.3

const emu = await Emu.start({ latencyMs: 0 })
const who = address(emu.samples["wallet"]!)

const runtime = ManagedRuntime.make(
  SolanaRpc.layer.pipe(
    Layer.provideMerge(HttpTransport.layer),
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provide(Layer.succeed(Config.SolfxConfig, Config.make({ apiKey: emu.apiKey, baseUrl: emu.url })))
  )
)

const cpuMs = async (f: () => Promise<unknown>, runs: number): Promise<number> => {
  const t0 = process.cpuUsage()
  for (let i = 0; i < runs; i++) await f()
  const used = process.cpuUsage(t0)
  return (used.user + used.system) / 1000 / runs
}

let result: ComparisonResult
try {
  const solana = await runtime.runPromise(SolanaRpc.SolanaRpc)
  const kitDefault = createSolanaRpc(`${emu.url}/?api-key=${emu.apiKey}`)
  const overSolfx = createSolanaRpcFromTransport(solana.transport)
  const contenders = {
    kit: () => kitDefault.getBalance(who).send(),
    solfx: () => overSolfx.getBalance(who).send(),
    effect: () => runtime.runPromise(solana.call(solana.rpc.getBalance(who)))
  }
  const names = Object.keys(contenders) as Array<keyof typeof contenders>
  // The same answer each way, before anything is timed.
  const answers = await Promise.all(names.map((n) => contenders[n]().then((r) => String(r.value))))
  if (new Set(answers).size !== 1) throw new Error(`the contenders disagree: ${answers.join(", ")}`)
  for (let w = 0; w < 50; w++) for (const n of names) await contenders[n]()
  const probe = await cpuMs(contenders.kit, 20)
  const runs = Math.max(10, Math.min(2000, Math.round(SAMPLE_MS / Math.max(probe, 0.01))))
  const times: Record<keyof typeof contenders, Array<number>> = { kit: [], solfx: [], effect: [] }
  for (let s = 0; s < SAMPLES; s++) {
    for (let k = 0; k < names.length; k++) {
      const n = names[(k + s) % names.length]!
      times[n].push(await cpuMs(contenders[n], runs))
    }
  }
  const m = { kit: median(times.kit), solfx: median(times.solfx), effect: median(times.effect) }
  const all = (xs: Array<number>) => xs.map((x) => x.toFixed(3)).join(", ")
  log(`  kit ${m.kit.toFixed(3)} ms, over solfx ${m.solfx.toFixed(3)} ms, as an Effect ${m.effect.toFixed(3)} ms`)
  result = {
    id: "kit",
    title: "12. kit's getBalance through solfx's transport against kit's default transport",
    setup: `The emulator in another process (latency 0), one wallet's getBalance. ${SAMPLES} samples of about ` +
      `${SAMPLE_MS} ms of CPU of sequential calls per contender (${runs} calls a sample), alternated, after 50 ` +
      `warm-up calls each; client process CPU (user + system) per call, median. kit: createSolanaRpc(url) (fetch, ` +
      `kit's bigint JSON parser). over solfx: createSolanaRpcFromTransport(SolanaRpc.transport), awaited as kit code ` +
      `(undici client, the transport's retry, permit hooks, span, redaction, exact-integer read). as an Effect: ` +
      `SolanaRpc.call(rpc.getBalance(a)) run by ManagedRuntime.runPromise.`,
    tables: [{
      caption: "client CPU per getBalance; ratio to kit's default transport",
      rows: [
        { contender: "kit's default transport", value: fmtShort(m.kit), ratio: "1.00×" },
        { contender: "kit over solfx's transport", value: fmtShort(m.solfx), ratio: fmtRatio(m.solfx / m.kit) },
        { contender: "SolanaRpc.call, as an Effect", value: fmtShort(m.effect), ratio: fmtRatio(m.effect / m.kit) }
      ]
    }],
    targets: [{
      name: "kit getBalance through solfx's transport, client CPU per call vs kit's default transport",
      target: `≤ ${TARGET}×`,
      measured: fmtRatio(m.solfx / m.kit),
      met: m.solfx / m.kit <= TARGET
    }],
    raw: [`kit ${all(times.kit)} ms`, `over solfx ${all(times.solfx)} ms`, `as an Effect ${all(times.effect)} ms`]
  }
} finally {
  await runtime.dispose()
  await emu.stop()
}
emit(result)
