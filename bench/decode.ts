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
 *
 * Bodies of 10 KB or more also say what the decode's cost above JSON.parse is made
 * of, in a second process (this file with `--breakdown`), alternating four
 * contenders: JSON.parse, the same decode, the decode without the byte-level checks
 * (lib/unchecked.ts) and, when the body holds an integer beyond 2^53, JSON.parse
 * plus the lookup that makes it exact (`Json.largeNumberLookup`). Not in this
 * process: a second set of compiled decoders gives the shared code more shapes to
 * see, which slows the decode the main table measures.
 */
import * as Decode from "@solfx/core/Decode"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Json from "@solfx/core/Json"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { isDeepStrictEqual } from "node:util"
import { record, type Recorded } from "./lib/bodies.js"
import * as Emu from "./lib/emulator.js"
import { fmtBytes, fmtRatio, fmtShort, log, median, worstBy } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row } from "./lib/result.js"
import { withoutByteChecks } from "./lib/unchecked.js"

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

/** CPU milliseconds a run of each contender: `SAMPLES` samples of about `SAMPLE_MS`, alternated; medians, and every sample. */
const timeAlternated = (contenders: ReadonlyArray<() => unknown>) => {
  for (let w = 0; w < 20; w++) for (const f of contenders) f()
  // Runs per sample, from one timed run of the second contender (the decode).
  const t = performance.now()
  contenders[1]!()
  const runs = Math.max(5, Math.min(50_000, Math.round(SAMPLE_MS / Math.max(performance.now() - t, 0.001))))
  // CPU time of this process, not wall time: on a shared machine the wall clock also counts waiting for a core.
  const times: Array<Array<number>> = contenders.map(() => [])
  for (let s = 0; s < SAMPLES; s++) {
    for (let k = 0; k < contenders.length; k++) {
      const i = (k + s) % contenders.length
      const f = contenders[i]!
      const t0 = process.cpuUsage()
      for (let r = 0; r < runs; r++) f()
      const used = process.cpuUsage(t0)
      times[i]!.push((used.user + used.system) / 1000 / runs)
    }
  }
  return { runs, times, medians: times.map(median) }
}

const selectOf = (entry: Recorded["entry"]) =>
  entry._tag === "Rpc" ? (b: unknown) => (b as { result: unknown }).result : (b: unknown) => b

/** The transport's decode of one body with `schema`: JSON.parse, the JSON-RPC result, decodeWith with the text. */
const transportDecode = (entry: Recorded["entry"], text: string, schema: Schema.Schema<unknown, unknown>) => {
  const select = selectOf(entry)
  const root = entry._tag === "Rpc" ? "$.result" : "$"
  return () => Effect.runSync(Decode.decodeWith(schema, entry.name, select(JSON.parse(text)), root, { text, select }))
}

/** The first number of a parsed body at or beyond 2^53, where JSON.parse may have rounded it. */
const firstLarge = (root: unknown): number | undefined => {
  const stack = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v === "number" && Math.abs(v) >= 2 ** 53) return v
    if (typeof v === "object" && v !== null) stack.push(...Object.values(v))
  }
  return undefined
}

/**
 * What the breakdown process prints per body, in units of JSON.parse: the decode, the decode without byte
 * checks, and the lookup alone. Each is the median over repetitions of its time over JSON.parse's in the same
 * repetition, which keeps a slow stretch of the machine from landing on one contender only.
 */
interface Parts {
  readonly name: string
  readonly decode: number
  readonly unchecked: number
  readonly lookup: number | undefined
}

const BREAKDOWN = "--breakdown"
if (process.argv[2] === BREAKDOWN) {
  const bodies = JSON.parse(readFileSync(process.argv[3]!, "utf8")) as Array<{ name: string; text: string }>
  const parts: Array<Parts> = []
  for (const { name, text } of bodies) {
    const entry = Endpoints.all.find((e) => e.name === name)!
    const schema = entry.result as Schema.Schema<unknown, unknown>
    const select = selectOf(entry)
    const unchecked = withoutByteChecks(schema)
    const decodeUnchecked = transportDecode(entry, text, unchecked)
    // Only a decode that gives Schema's value without falling back says anything about the checks.
    const reference = Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(select(Json.parse(text)))
    if (
      Either.isLeft(reference) || Decode.decodeFast(unchecked, select(JSON.parse(text)), text)._tag === "None" ||
      !isDeepStrictEqual(decodeUnchecked(), reference.right)
    ) continue
    const big = firstLarge(JSON.parse(text))
    const contenders = [() => JSON.parse(text), transportDecode(entry, text, schema), decodeUnchecked]
    if (big !== undefined) {
      contenders.push(() => {
        JSON.parse(text)
        return Json.largeNumberLookup(text)(big)
      })
    }
    const { times } = timeAlternated(contenders)
    const ratio = (i: number) => median(times[i]!.map((t, s) => t / times[0]![s]!))
    parts.push({
      name,
      decode: ratio(1),
      unchecked: ratio(2),
      lookup: big === undefined ? undefined : ratio(3) - 1
    })
  }
  process.stdout.write(JSON.stringify(parts) + "\n")
  process.exit(0)
}

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
  readonly text: string
  readonly raw: string
}

const measured: Array<Measured> = []
const failed: Array<readonly [string, string]> = [...recorded.missing]

for (const [name, { entry, text }] of recorded.bodies) {
  const schema = entry.result as Schema.Schema<unknown, unknown>
  const select = selectOf(entry)
  const decode = transportDecode(entry, text, schema)
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
  const { medians, runs, times } = timeAlternated([() => JSON.parse(text), decode])
  const paging = entry.paging
  const value = reference.right
  const items = paging !== undefined && paging._tag !== "None" ? paging.items(value).length : undefined
  const [parse, dec] = [medians[0]!, medians[1]!]
  measured.push({
    name,
    bytes: Buffer.byteLength(text),
    items,
    parse,
    decode: dec,
    text,
    raw: `${name} (${runs} runs/sample): parse ${times[0]!.map((x) => x.toFixed(4)).join(", ")}; decode ${
      times[1]!.map((x) => x.toFixed(4)).join(", ")
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

// The breakdown, in a process of its own (see the top of this file).
const bodiesFile = join(mkdtempSync(join(tmpdir(), "solfx-decode-")), "bodies.json")
writeFileSync(bodiesFile, JSON.stringify(large.map(({ name, text }) => ({ name, text }))))
const breakdown = JSON.parse(
  execFileSync(process.execPath, [...Emu.NODE_ARGS, fileURLToPath(import.meta.url), BREAKDOWN, bodiesFile], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"]
  })
) as Array<Parts>
const units = (x: number) => `${x.toFixed(2)}×`
const parts: Array<Row> = large.map((m) => {
  const b = breakdown.find((p) => p.name === m.name)
  if (b === undefined) {
    return { contender: m.name, value: "not measured", note: "the decode without byte checks fell back" }
  }
  return {
    contender: m.name,
    value: `solfx ${units(b.decode)}, without byte checks ${units(b.unchecked)}, exact-u64 lookup ${
      b.lookup === undefined ? "none" : units(b.lookup)
    }`,
    ratio: fmtRatio(b.unchecked),
    note: m.decode / m.parse > TARGET && b.unchecked <= TARGET
      ? "within the target without byte checks"
      : undefined
  }
})
const worst = worstBy(large, (m) => m.decode / m.parse)
const result: ComparisonResult = {
  id: "decode",
  title: "1. Decode cost of every response schema of the endpoint table",
  setup: `One body per entry of Endpoints.all: the emulator's answer to the SDK's own call (paged entries at their ` +
    `largest page). Per body, ${SAMPLES} samples of about ${SAMPLE_MS} ms of decodes per contender, alternated, ` +
    `timed in process CPU time (user + system), ` +
    `after 20 warm-up runs; median. "solfx" is the transport's path: JSON.parse, the JSON-RPC result, then ` +
    `Decode.decodeWith with the text as source; checked to give Schema's value without falling back.`,
  tables: [
    { caption: "median CPU time per body; ratio solfx / JSON.parse", rows },
    {
      caption: "bodies of 10 KB or more, in a second process, against its JSON.parse: the decode; the same " +
        "decode without the byte checks (base58 and base64: alphabet and decoded length); and the cost of the " +
        "lookup that makes integers beyond 2^53 exact, for a body holding one (it is part of both decodes). Each " +
        "figure is the median over repetitions of its time over JSON.parse's in the same repetition. Ratio: the " +
        "decode without byte checks / JSON.parse",
      rows: parts
    }
  ],
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
