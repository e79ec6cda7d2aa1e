/**
 * Issue 39: token metadata's decode against JSON.parse of the same 100-mint body (the emulator's answer,
 * without off-chain metadata), CPU per call of this process, the two alternated, median of samples.
 * Not one of `npm run bench`'s comparisons (they run every entry on a one-mint body); run it alone:
 * `node --conditions=@solfx/source --import tsx bench/token-metadata.ts`.
 */
import * as Decode from "@solfx/core/Decode"
import * as TokenMetadataRecord from "@solfx/core/TokenMetadataRecord"
import * as Emu from "./lib/emulator.js"
import { median } from "./lib/harness.js"

const emu = await Emu.start({ latencyMs: 0 })
const text = await (async () => {
  try {
    const mints = Object.entries(emu.samples)
      .filter(([name, value]) => /mint/i.test(name) && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value))
      .map(([, value]) => value)
    const mintAccounts = Array.from({ length: 100 }, (_, i) => mints[i % mints.length]!)
    const response = await fetch(`${emu.url}/v0/token-metadata?api-key=${emu.apiKey}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ mintAccounts })
    })
    return await response.text()
  } finally {
    await emu.stop()
  }
})()

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
