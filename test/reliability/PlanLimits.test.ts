/**
 * Plan-aware limits end to end: the SDK (`rateLimits`) against the emulator
 * enforcing plan developer, on real sockets. "0 × 429" is the emulator's own count
 * of the 429s it sent (`planLimits.rejected`, and its status counters), never what
 * the client saw after retries; the window is the most DAS requests that ARRIVED
 * at the emulator within any closed second. Several processes are real child
 * processes sharing one real redis-server (skipped, saying why, without one).
 * Wall time and rates are printed, never asserted (the rate is bench/limits.ts').
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Command from "@effect/platform/Command"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Servers from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))
const worker = "test/reliability/support/limits-worker.ts"

interface WorkerResult {
  readonly items: number
  readonly refused?: { readonly budget: number; readonly credits: number } | undefined
}

/** Runs one worker process to its end; its JSON line, or a failure with its output. */
const runWorker = (env: Record<string, string>) =>
  Effect.gen(function*() {
    const command = Command.make(process.execPath, "--conditions=@solfx/source", "--import", "tsx", worker).pipe(
      Command.workingDirectory(root),
      Command.env(env)
    )
    const [out, code] = yield* Effect.all([Command.string(command), Command.exitCode(command)], {
      concurrency: "unbounded"
    }).pipe(Effect.scoped)
    return { code, out }
  })

/** One worker process per batch-job authority (the first `count`), all at once, sharing `redis`. */
const streamEach = (
  emu: Emulator.Emulator,
  redis: Servers.Redis,
  count: number,
  env: Record<string, string>
) =>
  Effect.forEach(emu.samples.dasBatchAuthorities!.split(",").slice(0, count), (authority) =>
    runWorker({
      EMU_URL: emu.url,
      EMU_KEY: emu.apiKey,
      REDIS_PORT: String(redis.port),
      AUTHORITY: authority,
      ...env
    }), { concurrency: "unbounded" })

const noPlan429 = (emu: Emulator.Emulator) => {
  expect(emu.planLimits.rejected).toEqual({})
  expect(emu.counters.byStatus[429] ?? 0).toBe(0)
}

describe("plan limits: one process", () => {
  it.live(
    "plan developer: getAssetsByAuthorityStream at concurrency 16 over 50,000 assets, 0 × 429, ≤ 10 DAS in any second",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ plan: "developer", sizes: { "das.bigAuthorityAssets": 50_000 } })
        const started = Date.now()
        const items = yield* Effect.flatMap(DigitalAssets.DigitalAssets, (das) =>
          das.getAssetsByAuthorityStream({ authorityAddress: emu.samples.dasBigAuthority! }, { concurrency: 16 }).pipe(
            Stream.runCount
          )).pipe(
            Effect.provide(Solfx.layer({ apiKey: emu.apiKey, baseUrl: emu.url, rateLimits: { plan: "developer" } }))
          )
        const seconds = (Date.now() - started) / 1000
        expect(items).toBe(50_000)
        noPlan429(emu)
        expect(emu.planLimits.maxInWindow.das).toBeLessThanOrEqual(10)
        const requests = emu.count("getAssetsByAuthority")
        console.log(
          `[limits] 1 process: ${requests} DAS requests in ${seconds.toFixed(1)} s (${
            (requests / seconds).toFixed(2)
          }/s), at most ${emu.planLimits.maxInWindow.das} in any second at the server`
        )
      }).pipe(Effect.scoped),
    120_000
  )
})

const missing = Servers.unavailable("redis")

describe.skipIf(missing !== undefined)(
  Servers.title("plan limits: processes sharing one redis-server", missing),
  () => {
    it.live(
      "three processes, each streaming another authority, plan developer: 0 × 429 together, ≤ 10 DAS in any second",
      () =>
        Effect.gen(function*() {
          const redis = yield* Servers.redis
          const emu = yield* Emulator.make({ plan: "developer", sizes: { "das.batchAuthorityAssets": 5_000 } })
          const started = Date.now()
          const results = yield* streamEach(emu, redis, 3, { PAGE_SIZE: "250", CONCURRENCY: "16", PLAN: "developer" })
          const seconds = (Date.now() - started) / 1000
          for (const r of results) {
            expect(r.code, r.out).toBe(0)
            expect(JSON.parse(r.out) as WorkerResult).toEqual({ items: 5_000 })
          }
          noPlan429(emu)
          expect(emu.planLimits.maxInWindow.das).toBeLessThanOrEqual(10)
          const requests = emu.count("getAssetsByAuthority")
          console.log(
            `[limits] 3 processes, one Redis: ${requests} DAS requests in ${seconds.toFixed(1)} s (${
              (requests / seconds).toFixed(2)
            }/s with start-up), at most ${emu.planLimits.maxInWindow.das} in any second at the server`
          )
        }).pipe(Effect.scoped, Effect.provide(NodeContext.layer)),
      180_000
    )

    it.live(
      "a budget of 1,000 credits shared by two processes: exactly 100 DAS requests at the emulator, then CreditBudgetExceeded",
      () =>
        Effect.gen(function*() {
          const redis = yield* Servers.redis
          const emu = yield* Emulator.make({ sizes: { "das.batchAuthorityAssets": 5_000 } })
          // 50 assets a page: 100 pages each, more than the budget allows the two together. Cursor pages, one
          // after another: no request is in flight when the budget stops a stream (one cut off in flight keeps
          // its credits, and the server may or may not have counted it).
          const results = yield* streamEach(emu, redis, 2, {
            PAGE_SIZE: "50",
            MODE: "cursor",
            CONCURRENCY: "1",
            BUDGET: "1000"
          })
          for (const r of results) {
            expect(r.code, r.out).toBe(0)
            const parsed = JSON.parse(r.out) as WorkerResult
            expect(parsed.refused).toEqual({ budget: 1_000, credits: 10 })
            expect(parsed.items).toBeLessThan(5_000)
          }
          expect(emu.count("getAssetsByAuthority")).toBe(100)
          expect(emu.usage().creditsUsed).toBe(1_000)
        }).pipe(Effect.scoped, Effect.provide(NodeContext.layer)),
      120_000
    )
  }
)
