/**
 * Comparison 1: decode cost of every response schema of the endpoint table, one
 * row per entry of `Endpoints.all` (a new entry is a new row; one without a body
 * is a row saying why). Each body is the emulator's answer to the SDK's own call
 * (see lib/bodies.ts), paged entries at their largest page. Contenders, alternated
 * per body:
 * - `JSON.parse` of the text alone (the reference: what an unvalidated client pays);
 * - the SDK's decode as the transport runs it: `JSON.parse`, the JSON-RPC result
 *   if any, then `Decode.decodeWith(result schema)` with the text as its source
 *   (compiled fast path, exact u64).
 * The decode is checked to give Schema's value on the lossless parse, and not to
 * fall back (which would time Schema). Bodies under 10 KB are reported with the
 * decode's fixed cost above JSON.parse, in µs.
 */
import * as Decode from "@solfx/core/Decode"
import * as Json from "@solfx/core/Json"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isDeepStrictEqual } from "node:util"
import { record } from "./lib/bodies.js"
import * as Emu from "./lib/emulator.js"
import { fmtBytes, fmtRatio, fmtShort, log, median, worstBy } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row } from "./lib/result.js"

const SAMPLES = Number(process.env["BENCH_DECODE_SAMPLES"] ?? 11)
/**
 * Work per sample: enough decodes of a body to take about this long, so small bodies are timed over many runs.
 * Samples of 20 ms held about one young-generation GC of a large body, paid by whichever contender it fell
 * in: one body's decode/parse ratio went from 1.0 to 5.3 between neighbouring samples, and a row moved by
 * ±0.5× between runs. Samples of 100 ms hold several, so each contender pays about its own share.
 */
const SAMPLE_MS = 100
const SMALL = 10_000
const TARGET = 1.5

const emu = await Emu.start({ latencyMs: 0 })
const recorded = await (async () => {
  try {
    return await record(emu)
  } finally {
    await emu.stop()
  }
})()

interface Measured {
  readonly name: string
  readonly bytes: number
  readonly items: number | undefined
  readonly parse: number
  readonly decode: number
  readonly raw: string
}

const measured: Array<Measured> = []
const failed: Array<readonly [string, string]> = [...recorded.missing]

for (const [name, { entry, text }] of recorded.bodies) {
  const schema = entry.result as Schema.Schema<unknown, unknown>
  const select = entry._tag === "Rpc" ? (b: unknown) => (b as { result: unknown }).result : (b: unknown) => b
  const root = entry._tag === "Rpc" ? "$.result" : "$"
  const decode = () => Effect.runSync(Decode.decodeWith(schema, name, select(JSON.parse(text)), root, { text, select }))
  const reference = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore", errors: "first" })(
    select(Json.parse(text))
  )
  if (Either.isLeft(reference)) {
    failed.push([name, "the body does not decode"])
    continue
  }
  if (!isDeepStrictEqual(decode(), reference.right)) {
    failed.push([name, "the fast path and Schema disagree"])
    continue
  }
  if (Decode.decodeFast(schema, select(JSON.parse(text)), text)._tag === "None") {
    failed.push([name, "the compiled decoder fell back on the body"])
    continue
  }
  const contenders = [() => JSON.parse(text), decode]
  for (let w = 0; w < 20; w++) for (const f of contenders) f()
  // Runs per sample, from one timed run of the slower contender.
  const t = performance.now()
  decode()
  const runs = Math.max(5, Math.min(50_000, Math.round(SAMPLE_MS / Math.max(performance.now() - t, 0.001))))
  // CPU time of this process, not wall time: on a shared machine the wall clock also counts waiting for a core.
  const times: [Array<number>, Array<number>] = [[], []]
  for (let s = 0; s < SAMPLES; s++) {
    for (let k = 0; k < 2; k++) {
      const i = (k + s) % 2
      const f = contenders[i]!
      const t0 = process.cpuUsage()
      for (let r = 0; r < runs; r++) f()
      const used = process.cpuUsage(t0)
      times[i]!.push((used.user + used.system) / 1000 / runs)
    }
  }
  const paging = entry.paging
  const value = reference.right
  const items = paging !== undefined && paging._tag !== "None" ? paging.items(value).length : undefined
  const [parse, dec] = [median(times[0]), median(times[1])]
  measured.push({
    name,
    bytes: Buffer.byteLength(text),
    items,
    parse,
    decode: dec,
    raw: `${name} (${runs} runs/sample): parse ${times[0].map((x) => x.toFixed(4)).join(", ")}; decode ${
      times[1].map((x) => x.toFixed(4)).join(", ")
    } ms`
  })
  log(
    `  ${name}: ${(text.length / 1000).toFixed(1)} KB, parse ${fmtShort(parse)}, decode ${fmtShort(dec)} (${
      fmtRatio(dec / parse)
    })`
  )
}

const rows: Array<Row> = measured.map((m) => ({
  contender: `${m.name} (${fmtBytes(m.bytes)}${m.items === undefined ? "" : `, ${m.items} items`})`,
  value: `parse ${fmtShort(m.parse)}, solfx ${fmtShort(m.decode)}`,
  ratio: fmtRatio(m.decode / m.parse),
  note: m.bytes < SMALL ? `small body: fixed cost ${fmtShort(m.decode - m.parse)} above JSON.parse` : undefined
}))
for (const [name, why] of failed) rows.push({ contender: name, value: "not measured", note: why })

const large = measured.filter((m) => m.bytes >= SMALL)
const worst = worstBy(large, (m) => m.decode / m.parse)
const result: ComparisonResult = {
  id: "decode",
  title: "1. Decode cost of every response schema of the endpoint table",
  setup: `One body per entry of Endpoints.all: the emulator's answer to the SDK's own call (paged entries at their ` +
    `largest page). Per body, ${SAMPLES} samples of about ${SAMPLE_MS} ms of decodes per contender, alternated, ` +
    `timed in process CPU time (user + system), ` +
    `after 20 warm-up runs; median. "solfx" is the transport's path: JSON.parse, the JSON-RPC result, then ` +
    `Decode.decodeWith with the text as source; checked to give Schema's value without falling back.`,
  tables: [{ caption: "median CPU time per body; ratio solfx / JSON.parse", rows }],
  targets: [{
    name: `decode ≤ ${TARGET}× JSON.parse for every body of 10 KB or more (${large.length} bodies), no row missing`,
    target: `≤ ${TARGET}×`,
    measured: worst === undefined
      ? "no body"
      : `worst ${fmtRatio(worst.decode / worst.parse)} (${worst.name})${
        failed.length > 0 ? `; ${failed.length} rows missing` : ""
      }`,
    met: worst !== undefined && failed.length === 0 && worst.decode / worst.parse <= TARGET
  }],
  raw: measured.map((m) => m.raw)
}
emit(result)
