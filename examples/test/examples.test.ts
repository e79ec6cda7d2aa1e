/**
 * Every example, run in-process against an in-process emulator (a real HTTP
 * server on loopback), its output checked against what the emulator seeded or
 * logged. Example 5 (`app.test.ts`) is a test itself.
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { afterAll, describe, expect, it } from "@effect/vitest"
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base"
import * as kit from "@solana/kit"
import * as Emulator from "@solfx/emulator/Emulator"
import * as CompressedState from "@solfx/emulator/seed/CompressedState"
import * as Wallets from "@solfx/emulator/seed/Wallets"
import { Bundle, Compression, DigitalAssets, type Pagination, Wallet } from "@solfx/sdk"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import * as bundleExample from "../bundle.js"
import * as holdersCsv from "../holders-csv.js"
import * as portfolio from "../portfolio.js"
import * as resumable from "../resumable.js"
import { emulatorLayer } from "../support/run.js"
import * as tracingExample from "../tracing.js"

const dirs: Array<string> = []
const tempDir = () => {
  const dir = mkdtempSync(join(tmpdir(), "solfx-examples-"))
  dirs.push(dir)
  return dir
}
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

describe("examples", () => {
  it.live("1. holders-csv: every holder of 3 mints, once each, at most 2 mints in flight", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const mints = [0, 1, 2].map((k) => CompressedState.mintAt(emu.dataset, k))
      const file = join(tempDir(), "holders.csv")
      emu.resetLog()

      const summary = yield* holdersCsv.main(mints, file, 2)

      const [header, ...lines] = readFileSync(file, "utf8").trimEnd().split("\n")
      expect(header).toBe("mint,owner,balance")
      expect(new Set(lines).size).toBe(lines.length)
      mints.forEach((mint, k) => {
        const rows = lines.filter((l) => l.startsWith(`${mint},`))
        expect(rows).toHaveLength(CompressedState.holderCount(emu.dataset, k))
        expect(summary.holders[mint]).toBe(rows.length)
      })
      expect(summary.rows).toBe(lines.length)
      expect(lines.some((l) => BigInt(l.split(",")[2]!) > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true)
      expect(emu.counters.maxInFlight).toBe(2)
    }).pipe(Effect.provide(emulatorLayer({ sizes: { "compression.mintHolders": 3_000 }, latencyMs: 30 }))))

  it("1. holders-csv run as a program from the repository root writes to the temp folder, nothing in the tree", () => {
    const root = fileURLToPath(new URL("../..", import.meta.url))
    const tmp = tempDir()
    const run = spawnSync(
      process.execPath,
      ["--conditions=@solfx/source", "--import", "tsx", "examples/holders-csv.ts"],
      { cwd: root, encoding: "utf8", env: { ...process.env, TMPDIR: tmp } }
    )
    expect(run.status, run.stderr).toBe(0)
    expect(run.stdout).toContain(`to ${join(tmp, "solfx-holders.csv")}`)
    expect(readFileSync(join(tmp, "solfx-holders.csv"), "utf8").startsWith("mint,owner,balance\n")).toBe(true)
    expect(existsSync(join(root, "holders.csv"))).toBe(false)
  }, 240_000)

  it.live("2. portfolio: 300 wallets, identities in 3 batch requests, the total of every balance page", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const wallet = yield* Wallet.Wallet
      const wallets = Array.from({ length: 300 }, (_, i) => Wallets.walletAt(emu.dataset, i))
      emu.resetLog()

      const report = yield* portfolio.main(wallets)

      expect(report.rows.map((r) => r.wallet)).toEqual(wallets)
      expect(report.identified).toBe(wallets.filter((_, i) => Wallets.hasIdentity(i)).length)
      expect(report.rows.map((r) => Option.isSome(r.name))).toEqual(wallets.map((_, i) => Wallets.hasIdentity(i)))
      expect(emu.count("POST /v1/wallet/batch-identity")).toBe(3)
      // The oracle: the same balances read page by page, without streams.
      let expected = 0
      for (const w of wallets) {
        for (let page = 1;; page++) {
          const p = yield* wallet.balances(w, { page, limit: 100 })
          expected += p.balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0)
          if (!p.pagination.hasMore) break
        }
      }
      expect(report.totalUsd).toBeGreaterThan(0)
      expect(report.totalUsd).toBeCloseTo(expected, 2)
    }).pipe(Effect.provide(emulatorLayer())))

  it.live("3. resumable: interrupted after 2 of 5 pages, resumed, every asset id exactly once", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const authority = emu.samples.assetAuthority
      const all = yield* das.getAssetsByAuthorityStream({ authorityAddress: authority, limit: 1000 }).pipe(
        Stream.map((a) => a.id),
        Stream.runCollect
      )
      expect(all.length).toBe(5_000)

      const run = yield* resumable.main(authority, 2).pipe(Effect.provide(KeyValueStore.layerMemory))

      expect(run.interrupted.done).toBe(false)
      expect(run.interrupted.pages).toBe(2)
      expect(run.finished).toMatchObject({ done: true, pages: 5, items: 5_000 })
      expect(run.ids).toEqual(Chunk.toArray(all))
    }).pipe(Effect.provide(emulatorLayer({ sizes: { "das.authorityAssets": 5_000 } }))))

  /**
   * Runs a job until `stopAfter` pages are saved and interrupts it there (it waits at that point, as
   * examples/resumable.ts does); then, as after a restart, every step builds a new file-system store
   * over `dir`: only what was written survives.
   */
  const interruptedThenResumed = <A, P, E, R>(
    dir: string,
    name: string,
    pages: (start: P | undefined) => Stream.Stream<Pagination.Page<A, P>, E, R>,
    record: (a: A) => string,
    stopAfter: number
  ) =>
    Effect.gen(function*() {
      const store = () => KeyValueStore.layerFileSystem(dir)
      const saved = yield* Deferred.make<void>()
      const first = yield* Effect.fork(
        resumable.runJob(
          name,
          pages,
          record,
          (s) => s.pages >= stopAfter ? Effect.zipRight(Deferred.succeed(saved, undefined), Effect.never) : Effect.void
        ).pipe(Effect.provide(store()))
      )
      yield* Deferred.await(saved)
      yield* Fiber.interrupt(first)
      const interrupted = yield* resumable.checkpoint<P>(name).pipe(Effect.provide(store()))
      const finished = yield* resumable.runJob(name, pages, record).pipe(Effect.provide(store()))
      const ids = yield* resumable.results(name).pipe(Effect.provide(store()))
      return { interrupted, finished, ids }
    })

  it.live("3. resumable, after a restart: cursor pages (compression) and nextCursor pages (wallet transfers)", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const compression = yield* Compression.Compression
      const wallet = yield* Wallet.Wallet
      const dir = tempDir()

      const mint = CompressedState.mintAt(emu.dataset, 0)
      const holders = (cursor: string | undefined) =>
        compression.getCompressedMintTokenHolders.pages({ mint, limit: 500 }, { start: cursor })
      const expectedHolders = yield* Stream.runCollect(
        compression.getCompressedMintTokenHolders.stream({ mint, limit: 500 })
      )
      const h = yield* interruptedThenResumed(dir, "holders", holders, (x) => x.owner, 3)
      expect(h.interrupted.pages).toBe(3)
      expect(typeof h.interrupted.next).toBe("string")
      expect(h.finished).toMatchObject({ done: true, pages: 8, items: 4_000 })
      expect(h.ids).toEqual(Chunk.toArray(expectedHolders).map((x) => x.owner))

      const address = emu.samples.wallet
      const transfers = (cursor: string | undefined) => wallet.transfers.pages(address, { limit: 100, start: cursor })
      const expectedTransfers = yield* Stream.runCollect(wallet.transfers.stream(address, { limit: 100 }))
      const key = (t: unknown) => JSON.stringify(t, (_, v) => typeof v === "bigint" ? v.toString() : v)
      const t = yield* interruptedThenResumed(dir, "transfers", transfers, key, 5)
      expect(t.interrupted.pages).toBe(5)
      expect(t.finished).toMatchObject({ done: true, pages: 13, items: 1_234 })
      expect(t.ids).toEqual(Chunk.toArray(expectedTransfers).map(key))
    }).pipe(Effect.provide(emulatorLayer({ sizes: { "compression.mintHolders": 4_000 } }))))

  it.live("4. bundle: two kit-built transactions and a tip land as one bundle under their local id", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      emu.resetLog()

      const payer = yield* Effect.promise(() => kit.generateKeyPairSigner())
      yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })
      const sent = yield* bundleExample.main(payer, emu.samples.wallet, emu.ledger.bank.blockhash().blockhash)

      expect(sent.id).toBe(Bundle.bundleId(sent.signatures))
      expect(sent.outcome._tag).toBe("Landed")
      if (sent.outcome._tag === "Landed") expect(sent.outcome.bundle.transactions).toEqual(sent.signatures)
      expect(emu.count("sendBundle")).toBe(1)
      // Slots of 200 ms: a blockhash lives 30 s (150 blocks), time enough to sign under load.
    }).pipe(Effect.provide(emulatorLayer({ slotMs: 200, sizes: { "bundles.confirmDepth": 1 } }))))

  it.live("6. tracing: one span per request, under the app's span, no key in any attribute", () => {
    const exporter = new InMemorySpanExporter()
    const apiKey = "example-secret-key-6f1d2a"
    return Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      emu.resetLog()

      // Read inside the layer: shutting the SDK down empties the in-memory exporter.
      const [report, spans] = yield* tracingExample.main(emu.samples.wallet, emu.samples.tokenAccountOwner).pipe(
        Effect.zip(Effect.sync(() => exporter.getFinishedSpans())),
        Effect.provide(tracingExample.tracing(exporter))
      )

      expect(report.accounts).toBe(10)
      const root = spans.find((s) => s.name === "wallet-report")!
      const calls = spans.filter((s) => s.name.startsWith("solfx "))
      expect(calls).toHaveLength(emu.count())
      expect(emu.count()).toBe(4)
      for (const span of calls) {
        // Under the derived method's spans (solfx.<area>.<method>), themselves under the app's span.
        const ancestors: Array<string> = []
        let parent = span.parentSpanContext?.spanId
        while (parent !== undefined && parent !== root.spanContext().spanId) {
          const up = spans.find((s) => s.spanContext().spanId === parent)
          if (up === undefined) break
          ancestors.push(up.name)
          parent = up.parentSpanContext?.spanId
        }
        expect(parent).toBe(root.spanContext().spanId)
        for (const name of ancestors) expect(name).toMatch(/^solfx\./)
        expect(span.attributes["solfx.operation"]).toBeTypeOf("string")
        expect(span.attributes["http.response.status_code"]).toBe(200)
      }
      const everything = JSON.stringify(
        spans.map((s) => [s.name, s.attributes, s.events, s.status, s.resource.attributes])
      )
      expect(everything).toContain("solfx.host")
      expect(everything).not.toContain(apiKey)
      expect(everything).not.toContain("api-key=")
    }).pipe(Effect.provide(emulatorLayer({ apiKey })))
  })
})
