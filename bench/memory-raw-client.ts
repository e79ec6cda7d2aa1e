/**
 * The raw reference of comparison 3, in a process of its own: the same
 * signatures with a hand-written cursor loop of `fetch` + `JSON.parse`, no
 * validation, counting items. Arguments and output as memory-client.ts.
 */
import * as Peak from "./lib/peak-sampler.js"

const [url, apiKey, address, expected] = process.argv.slice(2) as [string, string, string, string]
const MB = 1024 * 1024
const rpc = `${url}/?api-key=${apiKey}`

const page = async (cursor: string | undefined, limit: number) => {
  const res = await fetch(rpc, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: "raw",
      method: "getCompressionSignaturesForAddress",
      params: cursor === undefined ? { address, limit } : { address, limit, cursor }
    })
  })
  return (JSON.parse(await res.text()) as { result: { value: { items: Array<unknown>; cursor: string | null } } })
    .result.value
}

await page(undefined, 10)
const baselineRss = process.memoryUsage().rss
const atRest = Peak.breakdown()
const sampler = Peak.start()
// Marks the walk for a run under --trace-gc-nvp (memory.ts counts the collections between the marks).
process.stdout.write(`${Peak.WALK_START}\n`)
const t0 = performance.now()
let count = 0
let cursor: string | undefined
do {
  const value = await page(cursor, 1000)
  count += value.items.length
  cursor = value.cursor ?? undefined
} while (cursor !== undefined && cursor !== "")
const ms = performance.now() - t0
process.stdout.write(`${Peak.WALK_END}\n`)
const atPeak = sampler.stop()
const peakRssMb = process.resourceUsage().maxRSS / 1024
global.gc?.()
const retainedHeapMb = process.memoryUsage().heapUsed / MB
if (count !== Number(expected)) throw new Error(`streamed ${count} signatures, expected ${expected}`)
process.stdout.write(
  JSON.stringify({
    count,
    ms,
    baselineRssMb: baselineRss / MB,
    peakRssMb,
    sampledPeakRssMb: atPeak.rssMb,
    atRest,
    atPeak,
    retainedHeapMb
  }) + "\n"
)
