/**
 * Comparison: getTransactionsForAddress walked whole by the SDK's stream (`AddressHistory`,
 * validated and typed, following `paginationToken`) against a raw loop of `fetch` + `JSON.parse`
 * following the same token, on the same emulator (another process, latency 0). Client CPU per
 * page (user + system of this process over a walk, divided by its pages), median of samples,
 * contenders alternated within each sample in a rotated order. Two walks: signatures (pages of
 * 1,000, the seeded sample wallet's whole history) and full transactions (pages of 100, with their
 * meta: `FULL_PAGES` pages of transfers landed through the world API before timing).
 */
import * as Dataset from "@solfx/emulator/Dataset"
import * as AddressHistory from "@solfx/rpc/AddressHistory"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import * as Emu from "./lib/emulator.js"
import { fmtRatio, fmtShort, log, median } from "./lib/harness.js"
import { type ComparisonResult, emit } from "./lib/result.js"
import * as Sdk from "./lib/sdk.js"

const SAMPLES = Number(process.env["BENCH_HISTORY_SAMPLES"] ?? 7)
/** The sample wallet's seeded transfers: its history, about this many signatures. */
const HISTORY = Number(process.env["BENCH_HISTORY_SIZE"] ?? 10_000)
const FULL_PAGES = 20
const TARGET = 1.5

const emu = await Emu.start({ latencyMs: 0, sizes: { "wallet.bigTransfers": HISTORY } })
const address = emu.samples["wallet"]!
const runtime = Sdk.runtime(AddressHistory.layer, emu)
const rpcUrl = `${emu.url}/?api-key=${emu.apiKey}`
const world = (call: string, body: unknown) =>
  fetch(`${emu.url}/emulator/world/${call}?api-key=${emu.apiKey}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  }).then(async (r) => {
    if (!r.ok) throw new Error(`world ${call}: ${r.status} ${await r.text()}`)
  })
// The full walk's address: landed transfers, each a whole transaction with its meta (not a seeded entry).
const labels = Dataset.make(1)
const payer = labels.address("bench:history:payer")
const recipient = labels.address("bench:history:recipient")
await world("fund", { address: payer, lamports: "1000000000000" })
for (let i = 0; i < FULL_PAGES * 100; i++) await world("transfer", { from: payer, to: recipient, lamports: 1_000 + i })
// Finalized, as the walk's default commitment reads.
await world("advanceSlots", { slots: 40 })
// The world keeps landing meanwhile: every walk reads the history up to the slot it had at start.
const slot = (await fetch(rpcUrl, {
  method: "POST",
  headers: { "content-type": "application/json" },
  body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "getSlot", params: [] })
}).then((r) => r.json()) as { result: number }).result
const filters = { slot: { lte: slot } }

interface Walked {
  readonly items: number
  readonly pages: number
}

type Detail = "signatures" | "full"

const addressOf = (detail: Detail) => detail === "full" ? recipient : address
const limitOf = (detail: Detail) => detail === "full" ? 100 : 1000
const maxItems = (detail: Detail) => detail === "full" ? FULL_PAGES * 100 : Infinity

/** The SDK: the operation's stream, as an app writes it; pages counted from the items. */
const sdk = (detail: Detail) => (): Promise<Walked> =>
  runtime.runPromise(Effect.flatMap(AddressHistory.AddressHistory, (history) => {
    const stream = history.getTransactionsForAddress.stream({
      address: addressOf(detail),
      transactionDetails: detail,
      limit: limitOf(detail),
      filters
    })
    const cap = maxItems(detail)
    return (cap === Infinity ? stream : Stream.take(stream, cap)).pipe(
      Stream.runCount,
      Effect.map((items) => ({ items, pages: Math.ceil(items / limitOf(detail)) }))
    )
  }))

/** Raw: fetch, JSON.parse, follow the token; no validation. */
const raw = (detail: Detail) => async (): Promise<Walked> => {
  let paginationToken: string | null | undefined
  let items = 0
  let pages = 0
  const cap = maxItems(detail)
  do {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: "raw",
        method: "getTransactionsForAddress",
        params: [addressOf(detail), {
          transactionDetails: detail,
          limit: limitOf(detail),
          filters,
          ...(paginationToken ? { paginationToken } : {})
        }]
      })
    })
    const body = JSON.parse(await res.text()) as {
      result?: { data: ReadonlyArray<unknown>; paginationToken: string | null }
      error?: unknown
    }
    if (body.result === undefined) throw new Error(`raw walk failed: ${JSON.stringify(body.error)}`)
    items += body.result.data.length
    pages++
    paginationToken = body.result.paginationToken
  } while (paginationToken !== null && items < cap)
  return { items, pages }
}

const cpuOf = async (f: () => Promise<Walked>): Promise<{ perPage: number; walked: Walked }> => {
  const t0 = process.cpuUsage()
  const walked = await f()
  const used = process.cpuUsage(t0)
  return { perPage: (used.user + used.system) / 1000 / walked.pages, walked }
}

let result: ComparisonResult
try {
  const rows: Array<{ detail: Detail; sdk: Array<number>; raw: Array<number>; walked: Walked }> = []
  for (const detail of ["signatures", "full"] as const) {
    const contenders = { sdk: sdk(detail), raw: raw(detail) }
    // The same walk each way, before anything is timed (and a warm-up of each).
    const a = await contenders.sdk()
    const b = await contenders.raw()
    if (a.items !== b.items || a.pages !== b.pages) {
      throw new Error(`${detail}: the contenders disagree: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`)
    }
    log(`  ${detail}: ${a.items} items in ${a.pages} pages`)
    const times = { sdk: [] as Array<number>, raw: [] as Array<number> }
    for (let s = 0; s < SAMPLES; s++) {
      const order: ReadonlyArray<"sdk" | "raw"> = s % 2 === 0 ? ["sdk", "raw"] : ["raw", "sdk"]
      for (const n of order) {
        const { perPage, walked } = await cpuOf(contenders[n])
        if (walked.items !== a.items) throw new Error(`${detail} ${n}: ${walked.items} items, expected ${a.items}`)
        times[n].push(perPage)
      }
      log(
        `  ${detail} sample ${s + 1}/${SAMPLES}: sdk ${times.sdk.at(-1)!.toFixed(3)} ms/page, raw ${
          times.raw.at(-1)!.toFixed(3)
        } ms/page`
      )
    }
    rows.push({ detail, ...times, walked: a })
  }
  const m = rows.map((r) => ({ ...r, mSdk: median(r.sdk), mRaw: median(r.raw) }))
  const all = (xs: Array<number>) => xs.map((x) => x.toFixed(3)).join(", ")
  result = {
    id: "history",
    title: "15. getTransactionsForAddress streamed against raw fetch + JSON.parse",
    setup:
      `The emulator in another process (latency 0), the seeded sample wallet with wallet.bigTransfers=${HISTORY}. ` +
      `Signatures: its whole history, ${m[0]!.walked.items} signatures in ${m[0]!.walked.pages} pages of 1,000; ` +
      `full: ${m[1]!.walked.items} System transfers landed through the world API (whole, with their meta), ` +
      `${m[1]!.walked.pages} pages of 100. SDK: ` +
      `AddressHistory's getTransactionsForAddress.stream (undici client, Schema decode, paginationToken followed) ` +
      `run to the end by ManagedRuntime.runPromise; raw: fetch, JSON.parse of the text, the same token followed. ` +
      `${SAMPLES} walks per contender, alternated; client process CPU (user + system) per page, median.`,
    tables: [{
      caption: "client CPU per page; ratio to raw fetch + JSON.parse",
      rows: m.flatMap((r) => [
        { contender: `raw fetch + JSON.parse, ${r.detail}`, value: fmtShort(r.mRaw), ratio: "1.00×" },
        { contender: `SDK stream, ${r.detail}`, value: fmtShort(r.mSdk), ratio: fmtRatio(r.mSdk / r.mRaw) }
      ])
    }],
    targets: m.map((r) => ({
      name: `getTransactionsForAddress streamed (${r.detail}), client CPU a page vs raw fetch + JSON.parse`,
      target: `≤ ${TARGET}×`,
      measured: fmtRatio(r.mSdk / r.mRaw),
      met: r.mSdk / r.mRaw <= TARGET
    })),
    raw: m.flatMap((r) => [`${r.detail} sdk ${all(r.sdk)} ms/page`, `${r.detail} raw ${all(r.raw)} ms/page`])
  }
} finally {
  await runtime.dispose()
  await emu.stop()
}
emit(result)
