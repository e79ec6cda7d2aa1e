/**
 * Comparison 2: every page of a 100,000-asset authority (getAssetsByAuthority,
 * limit 1000), against the emulator in a child process, at 50 ms and at 0 ms of
 * added latency. Contenders, alternated within each repetition:
 * - the SDK stream (validated, typed) at its default concurrency and higher ones;
 * - helius-sdk 3.2.0 pointed at the emulator through `baseUrl`, its page loop as its docs show it;
 * - raw `fetch` + `JSON.parse`, no validation: sequential, and a pool of parallel workers.
 */
import * as Pagination from "@solfx/core/Pagination"
import * as Walk from "@solfx/http/Walk"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { createHelius } from "helius-sdk"
import * as Emu from "./lib/emulator.js"
import { alternate, type Contender, fmtMs, fmtRatio, fmtShort, log, median, type Samples } from "./lib/harness.js"
import { type ComparisonResult, emit, type Row, type Target } from "./lib/result.js"
import * as Sdk from "./lib/sdk.js"

const ASSETS = 100_000
const LIMIT = 1000
const REPS = Number(process.env["BENCH_PAGINATION_REPS"] ?? 3)
const LATENCIES = [50, 0]
const SDK_DEFAULT = Pagination.DEFAULT_CONCURRENCY
const CONCURRENCIES = [SDK_DEFAULT, 8, 16]
/** The warm-up authority: a few pages, so every contender's code is compiled before timing. */
const WARM_ASSETS = 3000
/**
 * The emulator's item cache, in bytes: enough to hold the whole walk (about 137 MB of
 * page bytes), so after one untimed fill walk every contender is served from the cache
 * alike. The default cache (64 MiB) is smaller than the walk and rebuilds every page,
 * about 20 ms of CPU a page taken from the same 2 cores the client runs on: that measured
 * the emulator more than the client (the real service's CPU is not on the client's machine).
 */
const WALK_CACHE_BYTES = 400 * 1024 * 1024

type Walk = (authority: string) => Promise<number>

/** CPU milliseconds per run, by `latency|contender`. */
const cpu = new Map<string, Array<{ client: number; server: number }>>()

const contendersFor = (emu: Emu.RunningEmulator) => {
  const runtime = Sdk.runtime(DigitalAssets.layer, emu)
  // The default contender passes no concurrency: it runs what a caller gets.
  const sdk = (concurrency: number): Walk => (authorityAddress) =>
    runtime.runPromise(
      Effect.flatMap(DigitalAssets.DigitalAssets, (das) =>
        das.getAssetsByAuthorityStream(
          { authorityAddress, limit: LIMIT },
          concurrency === SDK_DEFAULT ? undefined : { concurrency }
        ).pipe(Stream.runCount))
    )

  const helius = createHelius({ apiKey: emu.apiKey, baseUrl: `${emu.url}/` })
  // The loop of the service's pagination guide: page after page until a short one.
  const heliusLoop: Walk = async (authorityAddress) => {
    let page = 1
    let count = 0
    while (true) {
      const result = await helius.getAssetsByAuthority({ authorityAddress, page, limit: LIMIT })
      count += result.items.length
      if (result.items.length < LIMIT) break
      page++
    }
    return count
  }

  const rpcUrl = `${emu.url}/?api-key=${emu.apiKey}`
  const rawPage = async (authorityAddress: string, page: number): Promise<ReadonlyArray<unknown>> => {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "raw",
        method: "getAssetsByAuthority",
        params: { authorityAddress, page, limit: LIMIT }
      })
    })
    const body = JSON.parse(await res.text()) as { result: { items: ReadonlyArray<unknown> } }
    return body.result.items
  }
  const rawSequential: Walk = async (authority) => {
    let count = 0
    for (let page = 1;; page++) {
      const items = await rawPage(authority, page)
      count += items.length
      if (items.length < LIMIT) return count
    }
  }
  // Workers take the next page number until one comes back short; pages past it are not counted.
  const rawParallel = (concurrency: number): Walk => async (authority) => {
    let next = 1
    let last = Infinity
    const counts: Array<number> = []
    const worker = async () => {
      while (next <= last) {
        const page = next++
        const items = await rawPage(authority, page)
        counts[page] = items.length
        if (items.length < LIMIT && page < last) last = page
      }
    }
    await Promise.all(Array.from({ length: concurrency }, worker))
    let count = 0
    for (let p = 1; p <= last; p++) count += counts[p] ?? 0
    return count
  }

  const walks: Array<[string, Walk]> = [
    ...CONCURRENCIES.map((
      c
    ): [string, Walk] => [`solfx stream, concurrency ${c}${c === SDK_DEFAULT ? " (default)" : ""}`, sdk(c)]),
    ["helius-sdk, sequential page loop", heliusLoop],
    ["raw fetch + JSON.parse, sequential", rawSequential],
    ...CONCURRENCIES.map((c): [string, Walk] => [`raw fetch + JSON.parse, ${c} parallel`, rawParallel(c)])
  ]
  return { walks, fill: rawParallel(16), dispose: () => runtime.dispose() }
}

const runAt = async (latencyMs: number) => {
  const emu = await Emu.start({
    latencyMs,
    sizes: { "das.bigAuthorityAssets": ASSETS, "das.authorityAssets": WARM_ASSETS },
    control: true,
    flags: ["--item-cache-chars", String(WALK_CACHE_BYTES)]
  })
  try {
    const { walks, fill, dispose } = contendersFor(emu)
    const big = emu.samples.bigAssetAuthority
    const small = emu.samples.assetAuthority
    for (const [name, walk] of walks) {
      const n = await walk(small)
      if (n !== WARM_ASSETS) throw new Error(`${name}: warm-up saw ${n} assets, expected ${WARM_ASSETS}`)
    }
    // One untimed walk of the big authority fills the item cache before any contender is timed.
    const filled = await fill(big)
    if (filled !== ASSETS) throw new Error(`the fill walk saw ${filled} assets, expected ${ASSETS}`)
    const contenders: Array<Contender<number>> = walks.map(([name, walk]) => ({ name, run: () => walk(big) }))
    log(`pagination at ${latencyMs} ms:`)
    // CPU time of the client (this process) and of the server, per run, outside the timed region.
    let client0 = process.cpuUsage()
    let server0 = 0
    const samples = await alternate(contenders, {
      reps: REPS,
      log,
      before: async () => {
        server0 = await emu.cpuMs()
        client0 = process.cpuUsage()
      },
      after: async (name) => {
        const c = process.cpuUsage(client0)
        const server = (await emu.cpuMs()) - server0
        const list = cpu.get(`${latencyMs}|${name}`) ?? []
        list.push({ client: (c.user + c.system) / 1000, server })
        cpu.set(`${latencyMs}|${name}`, list)
      },
      check: (name, n) => {
        if (n !== ASSETS) throw new Error(`${name} saw ${n} assets, expected ${ASSETS}`)
      }
    })
    await dispose()
    return samples
  } finally {
    await emu.stop()
  }
}

const byName = (samples: ReadonlyArray<Samples>, prefix: string) => samples.filter((s) => s.name.startsWith(prefix))
const best = (samples: ReadonlyArray<Samples>) => samples.reduce((a, b) => (b.median < a.median ? b : a))

const results = new Map<number, Array<Samples>>()
for (const latency of LATENCIES) results.set(latency, await runAt(latency))

// The paging machinery alone: pages that answer on the next turn of the event loop with
// nothing to decode, so the CPU a page is what the stream itself costs, against the same
// walk through Stream.mapEffect with `concurrency` (how numberedPages read ahead before).
const MACHINERY_WALKS = 10
const machinery = async () => {
  const items = Array.from({ length: LIMIT }, (_, i) => i)
  const fetch = (_page: number) =>
    Effect.async<{ readonly items: ReadonlyArray<number>; readonly total: number }>((resume) => {
      setImmediate(() => resume(Effect.succeed({ items, total: ASSETS })))
    })
  const walks: Array<[string, () => Effect.Effect<number>]> = [
    [
      `Walk.numberedItems, concurrency ${SDK_DEFAULT} (default)`,
      () => Stream.runCount(Walk.numberedItems(fetch, { limit: LIMIT }))
    ],
    [
      `Stream.mapEffect, concurrency ${SDK_DEFAULT}`,
      () =>
        Stream.range(1, pages).pipe(
          Stream.mapEffect(fetch, { concurrency: SDK_DEFAULT }),
          Stream.mapChunks(Chunk.flatMap((page) => Chunk.unsafeFromArray(page.items as Array<number>))),
          Stream.runCount
        )
    ]
  ]
  const cpuPerPage = new Map<string, Array<number>>()
  const contenders: Array<Contender<number>> = walks.map(([name, walk]) => ({
    name,
    run: async () => {
      const c0 = process.cpuUsage()
      let n = 0
      for (let k = 0; k < MACHINERY_WALKS; k++) n += await Effect.runPromise(walk())
      const c = process.cpuUsage(c0)
      const list = cpuPerPage.get(name) ?? []
      list.push((c.user + c.system) / 1000 / (MACHINERY_WALKS * pages))
      cpuPerPage.set(name, list)
      return n / MACHINERY_WALKS
    }
  }))
  log("paging machinery:")
  await alternate(contenders, {
    reps: 7,
    warmup: 2,
    log,
    check: (name, n) => {
      if (n !== ASSETS) throw new Error(`${name} saw ${n} items, expected ${ASSETS}`)
    }
  })
  return walks.map(([name]) => ({ name, ms: median(cpuPerPage.get(name)!.slice(2)) }))
}

const pages = ASSETS / LIMIT
/** Median CPU milliseconds a page of one contender's runs, client (this process) and server (the emulator process). */
const cpuOf = (latency: number, s: Samples) => {
  const list = cpu.get(`${latency}|${s.name}`) ?? []
  return { client: median(list.map((c) => c.client)) / pages, server: median(list.map((c) => c.server)) / pages }
}

const tables: Array<{ caption: string; rows: Array<Row> }> = []
{
  const [ours, mapEffect] = await machinery()
  tables.push({
    caption: `The paging machinery alone (${pages} pages of ${LIMIT} that answer at once, ${MACHINERY_WALKS} walks a ` +
      `sample, 7 samples alternated): median client CPU a page; ratio to Stream.mapEffect`,
    rows: [ours!, mapEffect!].map((m) => ({
      contender: m.name,
      value: fmtShort(m.ms),
      ratio: fmtRatio(m.ms / mapEffect!.ms)
    }))
  })
}
const targets: Array<Target> = []
const raw: Array<string> = []
const findings: Array<string> = []
for (const latency of LATENCIES) {
  const samples = results.get(latency)!
  const helius = byName(samples, "helius-sdk")[0]!
  const sdkBest = best(byName(samples, "solfx"))
  const sdkDefault = samples.find((x) => x.name.includes("(default)"))!
  const rawSame = samples.find((x) => x.name === `raw fetch + JSON.parse, ${SDK_DEFAULT} parallel`)!
  const rawBest = best(byName(samples, "raw fetch + JSON.parse, ").filter((s) => s.name.includes("parallel")))
  const rows: Array<Row> = samples.map((s) => {
    const c = cpuOf(latency, s)
    return {
      contender: s.name,
      value: fmtMs(s.median),
      ratio: fmtRatio(s.median / rawBest.median),
      note: `CPU a page: client ${c.client.toFixed(1)} ms, emulator ${c.server.toFixed(1)} ms` +
        (s === sdkBest ? "; solfx best" : s === rawBest ? "; raw parallel best (reference)" : "")
    }
  })
  tables.push({
    caption: `${latency} ms added latency: median wall time for all ${
      ASSETS.toLocaleString("en-US")
    } assets; ratio to the best raw parallel loop`,
    rows
  })
  for (const s of samples) raw.push(`${latency} ms | ${s.name}: ${s.ms.map((m) => m.toFixed(0)).join(", ")} ms`)
  const speedup = helius.median / sdkDefault.median
  const overRaw = sdkDefault.median / rawBest.median
  const applies = latency === 50
  targets.push({
    name: `pagination @ ${latency} ms: solfx at its default concurrency (${SDK_DEFAULT}) vs helius-sdk sequential${
      applies ? "" : " (informative)"
    }`,
    target: "≥ 3× faster",
    measured: `${speedup.toFixed(2)}× faster (best solfx: ${sdkBest.name.replace("solfx stream, ", "")}, ${
      (helius.median / sdkBest.median).toFixed(2)
    }×)`,
    met: applies ? speedup >= 3 : undefined
  })
  targets.push({
    name: `pagination @ ${latency} ms: solfx at its default concurrency vs the best raw parallel loop${
      applies ? "" : " (informative)"
    }`,
    target: "≤ 1.1×",
    measured: `${overRaw.toFixed(2)}× (${rawBest.name.replace("raw fetch + JSON.parse, ", "raw ")})`,
    met: applies ? overRaw <= 1.1 : undefined
  })
  const cpuSdk = cpuOf(latency, sdkDefault).client
  const cpuRaw = cpuOf(latency, rawSame).client
  targets.push({
    name:
      `stream client CPU a page @ ${latency} ms: solfx at its default concurrency vs raw fetch + JSON.parse at the same${
        applies ? "" : " (informative)"
      }`,
    target: "≤ 1.3×",
    measured: `${cpuSdk.toFixed(1)} ms vs ${cpuRaw.toFixed(1)} ms (${fmtRatio(cpuSdk / cpuRaw)})`,
    met: applies ? cpuSdk / cpuRaw <= 1.3 : undefined
  })
  const rawSeq = byName(samples, "raw fetch + JSON.parse, sequential")[0]!
  findings.push(
    `At ${latency} ms, one sequential page costs ${fmtMs(rawSeq.median / (pages + 1))} with raw fetch ` +
      `and ${fmtMs(helius.median / (pages + 1))} with helius-sdk; the best raw parallel loop covers all ` +
      `${pages} pages in ${fmtMs(rawBest.median)} (${fmtMs(rawBest.median / pages)} a page), solfx's best in ${
        fmtMs(sdkBest.median)
      }.`
  )
}

// The emulator and the client each answer on one event loop, sharing 2 cores: the fastest
// run is the machine's throughput for this walk, a floor at any latency, and a client's CPU
// a page times the pages is its own floor (its JavaScript runs on one thread).
{
  const at0 = results.get(0)
  const at50 = results.get(50)
  if (at0 !== undefined && at50 !== undefined) {
    // The fastest run at either latency (on a loaded machine a 50 ms run can beat every 0 ms one).
    const floor = best([...at0, ...at50])
    const helius50 = byName(at50, "helius-sdk")[0]!
    const sdk50 = best(byName(at50, "solfx"))
    const sdkDefault50 = at50.find((x) => x.name.includes("(default)"))!
    const rawBest50 = best(byName(at50, "raw fetch + JSON.parse, ").filter((s) => s.name.includes("parallel")))
    const serverCpu = median(at50.map((s) => cpuOf(50, s).server))
    const clientSdk = cpuOf(50, sdkDefault50).client
    const clientRaw = cpuOf(50, rawBest50).client
    findings.push(
      `At 50 ms the emulator used about ${serverCpu.toFixed(1)} ms of CPU a page (its whole process, GC threads ` +
        `included). The fastest run (${floor.name}${at0.includes(floor) ? " at 0 ms" : " at 50 ms"}: ${
          fmtMs(floor.median)
        } for the ${pages} pages) is this ` +
        `machine's floor for the walk: against helius-sdk's ${fmtMs(helius50.median)} at 50 ms no client can be ` +
        `much more than ${fmtRatio(helius50.median / floor.median)} faster here; solfx's best is ${
          fmtRatio(helius50.median / sdk50.median)
        } faster. A client's own floor is its CPU a page times the pages: solfx at its default concurrency ` +
        `${clientSdk.toFixed(1)} ms a page (${fmtMs(clientSdk * pages)}), the best raw loop ${
          clientRaw.toFixed(1)
        } ms (${fmtMs(clientRaw * pages)}); once the server is this cheap, the wall-time ratio tends to that CPU ratio.`
    )
  }
}

const result: ComparisonResult = {
  id: "pagination",
  title: "2. Pagination: 100,000 assets by authority (100 pages of 1,000)",
  setup:
    `Emulator in its own process (bench/lib/emulator-control.ts: the program of packages/emulator/src/bin.ts, same flags ` +
    `--latency-ms N --sizes das.bigAuthorityAssets=${ASSETS}, plus an IPC channel for its CPU time), ` +
    `with --item-cache-chars ${WALK_CACHE_BYTES}: a cache that holds the whole walk, filled by one untimed walk ` +
    `(raw, 16 parallel) before any contender is timed, so every contender is served the same cached pages and the ` +
    `emulator takes less of the 2 cores the client runs on (the default 64 MiB cache, smaller than the walk, ` +
    `rebuilt every page: about 20 ms of emulator CPU a page, which measured the emulator more than the client). ` +
    `${REPS} repetitions per latency, contenders alternated (rotated order each repetition) in one client process, after one warm-up walk of ${WARM_ASSETS} assets each. ` +
    `Every run must count exactly ${ASSETS} assets. helius-sdk ${"3.2.0"} is created with createHelius({ apiKey, baseUrl }) and paged with its documented loop ` +
    `(page += 1 until a page has fewer than limit items); items are counted, not kept, by every contender.`,
  tables,
  targets,
  raw,
  findings
}
emit(result)
