/**
 * Under a 20% fault mix (429 with Retry-After, 500, 503, connection resets, slow
 * responses, truncated bodies), over real HTTP to the emulator on loopback, long
 * jobs finish with exactly the right items: none lost, none repeated. A malformed
 * 200 is a DecodeError at once, and a bundle is never sent twice once it may
 * have reached the server.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import * as TokenMetadataArea from "@solfx/emulator/areas/TokenMetadata"
import * as Emulator from "@solfx/emulator/Emulator"
import type { FaultOptions } from "@solfx/emulator/Faults"
import type { RequestRecord } from "@solfx/emulator/RequestLog"
import * as AssetSeed from "@solfx/emulator/seed/DigitalAssets"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Kit from "@solfx/testing/Kit"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { describeFaults, overEmulator, totalFaults } from "./support/Sdk.js"

/** The issue's mix at 20%: every transient fault kind, small delays so real time stays short. */
const FAULTS: FaultOptions = {
  rate: 0.2,
  kinds: ["429", "500", "503", "reset", "slow", "truncate"],
  retryAfterSeconds: 0.005,
  slowMs: 25,
  seed: 20240611 // each test below sets its own
}

const collect = <A, E, R>(stream: Stream.Stream<A, E, R>) =>
  Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

const duplicates = (keys: ReadonlyArray<string>) => keys.length - new Set(keys).size

const report = (label: string, figures: Record<string, unknown>) =>
  console.log(
    `[reliability] ${label}: ${
      Object.entries(figures).map(([k, v]) => `${k}=${typeof v === "string" ? v : JSON.stringify(v)}`).join(" ")
    }`
  )

describe("faults at 20% over loopback HTTP", () => {
  it.live("a 10,000-item cursor stream (compression holders) completes with exactly the right set", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const compression = yield* Compression.Compression
      const job = collect(
        compression.getCompressedMintTokenHoldersStream({ mint: emu.samples.compressedTokenMint, limit: 100 })
      )

      emu.setFaults({ ...FAULTS, seed: 1 })
      const started = Date.now()
      const faulty = yield* job
      const elapsed = Date.now() - started
      const hits = emu.faultsHit
      const attempts = emu.count("getCompressedMintTokenHolders")
      emu.setFaults(undefined)
      emu.resetLog()
      const clean = yield* job

      const owners = faulty.map((h) => h.owner)
      expect(clean).toHaveLength(10_000)
      expect(faulty).toHaveLength(10_000)
      expect(duplicates(owners)).toBe(0)
      // Same items, same order, same exact balances as the fault-free run.
      expect(faulty).toEqual(clean)
      expect(emu.count("getCompressedMintTokenHolders")).toBe(100)
      expect(totalFaults(hits)).toBeGreaterThan(0)
      // Every fault but a slow answer costs one more attempt.
      expect(attempts).toBe(100 + totalFaults(hits) - hits.slow)
      report("cursor stream (10,000 holders, limit 100)", {
        items: faulty.length,
        lost: clean.length - new Set(owners).size,
        repeated: duplicates(owners),
        attempts,
        faultsHit: totalFaults(hits),
        byKind: describeFaults(hits),
        ms: elapsed
      })
    }).pipe(Effect.provide(overEmulator({ sizes: { "compression.mintHolders": 10_000 } }))))

  it.live("a 10,000-item page-parallel stream (DAS assets by authority, concurrency 8) completes with exactly the right set", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const authority = emu.samples.assetAuthority
      const job = collect(
        das.getAssetsByAuthorityStream({ authorityAddress: authority, limit: 100 }, { concurrency: 8 })
      )

      emu.setFaults({ ...FAULTS, seed: 2 })
      const started = Date.now()
      const faulty = yield* job
      const elapsed = Date.now() - started
      const hits = emu.faultsHit
      const attempts = emu.count("getAssetsByAuthority")
      const maxInFlight = emu.counters.maxInFlight
      emu.setFaults(undefined)
      const clean = yield* job

      const ids = faulty.map((a) => a.id)
      // The emulator's own data: asset i of the authority, for i in 0..9,999.
      const expected = new Set(range(10_000).map((i) => AssetSeed.assetId(emu.dataset, authority, i)))
      expect(faulty).toHaveLength(10_000)
      expect(duplicates(ids)).toBe(0)
      expect(ids.filter((id) => !expected.has(id))).toEqual([])
      expect(ids).toEqual(clean.map((a) => a.id))
      expect(faulty).toEqual(clean)
      expect(totalFaults(hits)).toBeGreaterThan(0)
      expect(maxInFlight).toBeGreaterThan(1)
      expect(maxInFlight).toBeLessThanOrEqual(8)
      report("page-parallel stream (10,000 assets, limit 100, concurrency 8)", {
        items: faulty.length,
        lost: [...expected].filter((id) => !new Set<string>(ids).has(id)).length,
        repeated: duplicates(ids),
        attempts,
        faultsHit: totalFaults(hits),
        byKind: describeFaults(hits),
        maxInFlight,
        ms: elapsed
      })
      // A few milliseconds per answer, so that pages really overlap (the emulator shares this process's CPU).
    }).pipe(Effect.provide(overEmulator({ latencyMs: 3 }))))

  it.live("a 2,000-mint token-metadata batch completes with every record, in input order", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const metadata = yield* TokenMetadata.TokenMetadata
      const mints = range(2_000).map((i) => TokenMetadataArea.mintAt(emu.dataset, i))
      const job = metadata.getTokenMetadata({ mintAccounts: mints }, { batchSize: 20, concurrency: 8 })

      emu.setFaults({ ...FAULTS, seed: 3 })
      const started = Date.now()
      const faulty = yield* job
      const elapsed = Date.now() - started
      const hits = emu.faultsHit
      const attempts = emu.count("POST /v0/token-metadata")
      emu.setFaults(undefined)
      const clean = yield* job

      expect(faulty).toHaveLength(2_000)
      expect(faulty.map((r) => r.account)).toEqual(mints)
      expect(faulty).toEqual(clean)
      expect(totalFaults(hits)).toBeGreaterThan(0)
      report("token-metadata batch (2,000 mints, 20 per request, concurrency 8)", {
        items: faulty.length,
        lost: mints.length - faulty.length,
        repeated: duplicates(faulty.map((r) => r.account)),
        attempts,
        faultsHit: totalFaults(hits),
        byKind: describeFaults(hits),
        ms: elapsed
      })
    }).pipe(Effect.provide(overEmulator())))
})

describe("a malformed 200 is not transient", () => {
  it.live("JSON-RPC and REST: a broken 200 body is a DecodeError after exactly one request", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const das = yield* DigitalAssets.DigitalAssets
      const wallet = yield* Wallet.Wallet
      const malformed = (operation: string): FaultOptions => ({ rate: 1, kinds: ["malformed"], only: [operation] })

      emu.setFaults(malformed("getAssetsByAuthority"))
      const rpc = yield* Effect.flip(
        das.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, page: 1, limit: 10 })
      )
      expect(rpc).toMatchObject({ _tag: "DecodeError", operation: "getAssetsByAuthority", path: "$" })
      expect(emu.count("getAssetsByAuthority")).toBe(1)

      const route = "GET /v1/wallet/:wallet/balances"
      emu.setFaults(malformed(route))
      const rest = yield* Effect.flip(wallet.balances(emu.samples["wallet"]!))
      expect(rest).toMatchObject({ _tag: "DecodeError", path: "$" })
      expect(emu.count(route)).toBe(1)
      // The same call without the fault succeeds: the body, not the call, was broken.
      emu.setFaults(undefined)
      expect((yield* wallet.balances(emu.samples["wallet"]!)).balances.length).toBeGreaterThan(0)
      report("malformed 200", { rpcAttempts: 1, restAttempts: 1, errors: `${rpc._tag},${rest._tag}` })
    }).pipe(Effect.provide(overEmulator())))
})

/** The log records of the sendBundle requests, and which of them reached the block engine's handler. */
const bundleRecords = (records: ReadonlyArray<RequestRecord>) => records.filter((r) => r.operation === "sendBundle")
// The server sets the usage category only when it charges, just before the handler runs.
const reachedHandler = (r: RequestRecord) => r.category !== undefined

describe("non-idempotent calls under faults", () => {
  it.live("sendBundle is resent only after a 429: never twice once the request may have been processed", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const bundles = yield* Bundles.Bundles
      const payer = yield* Effect.promise(() => Kit.signer())
      const txs = yield* Effect.promise(() =>
        Promise.all(range(60).map((i) => Kit.buildMemoTip(payer, `reliability bundle ${i}`, 5_000n)))
      )
      emu.setFaults({
        rate: 0.3,
        kinds: ["429", "500", "503", "reset", "slow", "truncate", "malformed"],
        retryAfterSeconds: 0.005,
        slowMs: 25,
        seed: 7
      })
      const outcomes: Array<{ readonly tag: string; readonly records: ReadonlyArray<RequestRecord> }> = []
      for (const tx of txs) {
        const before = bundleRecords(emu.requests).length
        const exit = yield* Effect.either(bundles.sendBundle([tx.base64]))
        const records = bundleRecords(emu.requests).slice(before)
        outcomes.push({ tag: exit._tag === "Right" ? "Success" : exit.left._tag, records })
      }
      const hits = emu.faultsHit

      let attempts = 0
      let reached = 0
      let retried429 = 0
      for (const { records, tag } of outcomes) {
        attempts += records.length
        reached += records.filter(reachedHandler).length
        // At most one attempt per bundle reached the handler...
        expect(records.filter(reachedHandler).length).toBeLessThanOrEqual(1)
        // ...and every attempt but the last was a 429: rejected before processing, so safe to resend.
        for (const r of records.slice(0, -1)) {
          expect({ status: r.status, fault: r.fault }).toEqual({ status: 429, fault: "429" })
        }
        retried429 += records.length - 1
        const last = records.at(-1)!
        if (tag === "Success") expect([last.status, reachedHandler(last)]).toEqual([200, true])
        else expect(["HttpError", "TransportError", "DecodeError", "RateLimited"]).toContain(tag)
      }
      // The block engine's own state: a bundle landed exactly when one attempt reached the handler.
      emu.setFaults(undefined)
      const statuses = yield* bundles.getBundleStatuses(txs.map((tx) => Bundle.bundleId([tx.signature])))
      expect(statuses.map(Option.isSome)).toEqual(outcomes.map((o) => o.records.some(reachedHandler)))
      expect(totalFaults(hits)).toBeGreaterThan(10)
      expect(retried429).toBeGreaterThan(0)
      expect(outcomes.some((o) => o.tag === "TransportError")).toBe(true)
      report("sendBundle under faults (60 bundles, 30% faults)", {
        bundles: outcomes.length,
        attempts,
        reachedHandler: reached,
        resentAfter429: retried429,
        sentTwiceAfterProcessing: 0,
        succeeded: outcomes.filter((o) => o.tag === "Success").length,
        failedTyped: outcomes.filter((o) => o.tag !== "Success").length,
        faultsHit: totalFaults(hits),
        byKind: describeFaults(hits)
      })
    }).pipe(Effect.provide(overEmulator())))
})
