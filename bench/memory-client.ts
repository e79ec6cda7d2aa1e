/**
 * The client of comparison 3, in a process of its own so its RSS is the SDK's
 * alone: streams every compression signature of an address through the SDK and
 * reports its peak RSS. Arguments: url apiKey address expectedCount.
 * Run with --expose-gc: one full GC runs after the stream (after the peak is
 * recorded) to show what the stream left behind.
 * Prints one JSON line: { count, ms, baselineRssMb, peakRssMb, sampledPeakRssMb, atRest, atPeak, retainedHeapMb },
 * where atRest and atPeak break the RSS down by heap space (bench/lib/peak-sampler.ts).
 */
import * as Compression from "@solfx/rpc/Compression"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Peak from "./lib/peak-sampler.js"
import * as Sdk from "./lib/sdk.js"

const [url, apiKey, address, expected] = process.argv.slice(2) as [string, string, string, string]
const MB = 1024 * 1024

const runtime = Sdk.runtime(Compression.layer, { url, apiKey })
// Build the layers and load every module before the baseline is taken.
await runtime.runPromise(
  Effect.flatMap(
    Compression.Compression,
    (c) => c.getCompressionSignaturesForAddressStream({ address, limit: 10 }).pipe(Stream.take(1), Stream.runDrain)
  )
)
const baselineRss = process.memoryUsage().rss

const atRest = Peak.breakdown()
const sampler = Peak.start()

// Marks the walk for a run under --trace-gc-nvp (memory.ts counts the collections between the marks).
process.stdout.write(`${Peak.WALK_START}\n`)
const t0 = performance.now()
const count = await runtime.runPromise(
  Effect.flatMap(
    Compression.Compression,
    (c) => c.getCompressionSignaturesForAddressStream({ address, limit: 1000 }).pipe(Stream.runCount)
  )
)
const ms = performance.now() - t0
process.stdout.write(`${Peak.WALK_END}\n`)
const atPeak = sampler.stop()
// The kernel's high-water mark for the whole process life (KiB on Linux), read before anything else runs.
const peakRssMb = process.resourceUsage().maxRSS / 1024
global.gc?.()
const retainedHeapMb = process.memoryUsage().heapUsed / MB
await runtime.dispose()

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
