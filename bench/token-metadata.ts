/**
 * Issue 39: token metadata, 100 mints (the emulator's answer, without off-chain metadata), CPU per call
 * of this process, contenders alternated, median of samples:
 * - the decode alone against `JSON.parse` of the same body;
 * - the whole call, `TokenMetadata.getTokenMetadata` through the SDK against a raw `fetch` + `JSON.parse`
 *   of the same request, the emulator in its own process (target: 1.6×).
 * Not one of `npm run bench`'s comparisons (they run every entry on a one-mint body); run it alone:
 * `node --conditions=@solfx/source --import tsx bench/token-metadata.ts`.
 */
import * as Decode from "@solfx/core/Decode"
import * as TokenMetadataRecord from "@solfx/core/TokenMetadataRecord"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Effect from "effect/Effect"
import * as Emu from "./lib/emulator.js"
import { median } from "./lib/harness.js"
import * as Sdk from "./lib/sdk.js"

const emu = await Emu.start({ latencyMs: 0 })
// 100 distinct mints of the world (the SDK sends each mint once: repeats would shrink its request, not the
// raw one's): the sample wallet's first 100 balances.
const balances = await fetch(`${emu.url}/v1/wallet/${emu.samples["wallet"]}/balances?api-key=${emu.apiKey}&limit=100`)
const mintAccounts = ((await balances.json()) as { balances: Array<{ mint: string }> }).balances.map((b) => b.mint)
if (new Set(mintAccounts).size !== 100) {
  throw new Error(`expected 100 distinct mints, got ${new Set(mintAccounts).size}`)
}
const raw = async () => {
  const response = await fetch(`${emu.url}/v0/token-metadata?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ mintAccounts })
  })
  return await response.text()
}
const text = await raw()
const runtime = Sdk.runtime(TokenMetadata.layer, emu)
const sdk = () =>
  runtime.runPromise(Effect.flatMap(TokenMetadata.TokenMetadata, (t) => t.getTokenMetadata({ mintAccounts })))
const callCpu = async (f: () => Promise<unknown>, runs: number): Promise<number> => {
  const start = process.cpuUsage()
  for (let i = 0; i < runs; i++) await f()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / runs
}
const rawParse = async () => JSON.parse(await raw()) as unknown
try {
  const first = await sdk()
  if (first.length !== 100) throw new Error(`the SDK decoded ${first.length} records of 100`)
  await callCpu(rawParse, 30)
  await callCpu(sdk, 30)
  const raws: Array<number> = []
  const sdks: Array<number> = []
  for (let sample = 0; sample < 9; sample++) {
    raws.push(await callCpu(rawParse, 40))
    sdks.push(await callCpu(sdk, 40))
  }
  const [r, s] = [median(raws), median(sdks)]
  console.log(
    `token metadata, 100 mints, whole call: raw fetch + JSON.parse ${r.toFixed(0)} µs, ` +
      `solfx getTokenMetadata ${s.toFixed(0)} µs, ${(s / r).toFixed(2)}× (target 1.6×)`
  )
} finally {
  await runtime.dispose()
  await emu.stop()
}

const perCall = (f: () => unknown, runs: number): number => {
  const start = process.cpuUsage()
  for (let i = 0; i < runs; i++) f()
  const used = process.cpuUsage(start)
  return (used.user + used.system) / runs
}
const parse = () => JSON.parse(text)
const decode = () =>
  Decode.decodeWith(TokenMetadataRecord.TokenMetadataResponse, "POST /v0/token-metadata", JSON.parse(text), "$", {
    text,
    select: (body) => body
  })
perCall(parse, 200)
perCall(decode, 200)
const parses: Array<number> = []
const decodes: Array<number> = []
for (let sample = 0; sample < 9; sample++) {
  parses.push(perCall(parse, 300))
  decodes.push(perCall(decode, 300))
}
const [p, d] = [median(parses), median(decodes)]
console.log(
  `token metadata, 100 mints (${(text.length / 1024).toFixed(1)} KB): JSON.parse ${p.toFixed(0)} µs, ` +
    `solfx decode ${d.toFixed(0)} µs, ${(d / p).toFixed(2)}×`
)
