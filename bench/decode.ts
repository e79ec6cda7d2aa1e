/**
 * Comparison 1: the decode cost of one 1,000-asset getAssetsByAuthority page
 * (the body as the emulator serves it, about 1.3 MB). Contenders, alternated:
 * - `JSON.parse` alone (the reference: what an unvalidated client pays);
 * - the SDK's full decode, the transport's exact path: lossless `Json.parse`,
 *   the JSON-RPC envelope, then `Decode.decodeWith(DigitalAssetList)` at `$.result`
 *   (the compiled fast path, falling back to Schema when it cannot prove the input valid);
 * - the same with the interpretive Schema decoder only (the path before the fast one), for reference.
 */
import * as Decode from "@solfx/core/Decode"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Json from "@solfx/core/Json"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { isDeepStrictEqual } from "node:util"
import * as Emu from "./lib/emulator.js"
import { fmtMs, fmtRatio, log, median } from "./lib/harness.js"
import { type ComparisonResult, emit } from "./lib/result.js"

const SAMPLES = Number(process.env["BENCH_DECODE_SAMPLES"] ?? 25)
const ITERATIONS = 10

const emu = await Emu.start({ latencyMs: 0 })
let text: string
try {
  const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "decode",
      method: "getAssetsByAuthority",
      params: { authorityAddress: emu.samples["dasBigAuthority"], page: 1, limit: 1000 }
    })
  })
  text = await res.text()
} finally {
  await emu.stop()
}

const envelope = (body: unknown) => (body as { result: unknown }).result
const source = { text, select: envelope }

// The transport's path: JSON.parse, the envelope, then the decode with the text as its source
// (which makes integers beyond 2^53 exact where the schema keeps them).
const sdkDecode = () =>
  Effect.runSync(
    Decode.decodeWith(
      DigitalAsset.DigitalAssetList,
      "getAssetsByAuthority",
      envelope(JSON.parse(text)),
      "$.result",
      source
    )
  )

// The same with the lossless parse first (what Decode.decodeWith does without a source).
const losslessDecode = () =>
  Effect.runSync(
    Decode.decodeWith(DigitalAsset.DigitalAssetList, "getAssetsByAuthority", envelope(Json.parse(text)), "$.result")
  )

const schemaOnly = Schema.decodeUnknownEither(DigitalAsset.DigitalAssetList, {
  onExcessProperty: "ignore",
  errors: "first"
})
const schemaDecode = () => {
  const r = schemaOnly(envelope(Json.parse(text)))
  if (Either.isLeft(r)) throw new Error("the page does not decode")
  return r.right
}

// The fast path must give Schema's value, and must not have fallen back (or it would be timing Schema).
const reference = schemaDecode()
const fast = sdkDecode()
if (!isDeepStrictEqual(fast, reference) || !isDeepStrictEqual(losslessDecode(), reference)) {
  throw new Error("fast path and Schema disagree on the page")
}
if (fast.items.length !== 1000) throw new Error(`expected 1000 items, got ${fast.items.length}`)
if (Decode.decodeFast(DigitalAsset.DigitalAssetList, envelope(JSON.parse(text)), text)._tag === "None") {
  throw new Error("the compiled decoder fell back on the page")
}
const large = (text.match(/[:,[]-?\d{16,}(?=[,\]}])/g) ?? []).length

const contenders: Array<[string, () => unknown]> = [
  ["JSON.parse alone", () => JSON.parse(text)],
  ["solfx transport path: JSON.parse + decodeWith (compiled, exact u64)", sdkDecode],
  ["solfx before this change: Json.parse + Schema.decodeUnknown", schemaDecode],
  ["Json.parse (lossless) + decodeWith, for reference", losslessDecode],
  ["Json.parse alone (lossless parse, no decode)", () => Json.parse(text)]
]

for (let w = 0; w < 10; w++) for (const [, f] of contenders) f()
const times = contenders.map((): Array<number> => [])
for (let s = 0; s < SAMPLES; s++) {
  for (let k = 0; k < contenders.length; k++) {
    const i = (k + s) % contenders.length
    const f = contenders[i]![1]
    const t0 = performance.now()
    for (let it = 0; it < ITERATIONS; it++) f()
    times[i]!.push((performance.now() - t0) / ITERATIONS)
  }
}
const medians = times.map(median)
const ref = medians[0]!
contenders.forEach(([name], i) => log(`  ${name}: ${fmtMs(medians[i]!)} (${fmtRatio(medians[i]! / ref)})`))
const ratio = medians[1]! / ref

const result: ComparisonResult = {
  id: "decode",
  title: "1. Decode cost: one 1,000-asset getAssetsByAuthority page",
  setup:
    `Body of page 1 of the emulator's big authority (${
      (text.length / 1e6).toFixed(2)
    } MB, served by the emulator program; ` +
    `${large} of its integers exceed 2^53: the edition supplies of one asset in fifty). ` +
    `${SAMPLES} samples of ${ITERATIONS} decodes each per contender, alternated (rotated order), after 10 warm-up rounds; median of the samples. ` +
    `The transport path is checked to give Schema's value on the lossless parse (deep strict equality) without falling back.`,
  tables: [{
    caption: "median time per page; ratio to JSON.parse alone",
    rows: contenders.map(([name], i) => ({
      contender: name,
      value: fmtMs(medians[i]!),
      ratio: fmtRatio(medians[i]! / ref)
    }))
  }],
  targets: [{
    name: "decode: solfx full decode vs JSON.parse",
    target: "≤ 1.5×",
    measured: fmtRatio(ratio),
    met: ratio <= 1.5
  }],
  raw: contenders.map(([name], i) => `${name}: ${times[i]!.map((t) => t.toFixed(2)).join(", ")} ms`)
}
emit(result)
