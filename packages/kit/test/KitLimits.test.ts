/**
 * kit's calls and solfx's under one plan, end to end: 4 real child processes sharing one real
 * redis-server each read balances through kit's transport (`SolanaRpc.createTransport`,
 * `createSolanaRpcFromTransport`) and walk a DAS authority through solfx at the same time, against
 * the emulator enforcing plan developer. "0 × 429" is the emulator's own count of the 429s it sent;
 * the windows are the most requests of a bucket that arrived within any closed second; the budget's
 * count in Redis is read after, and equals what the emulator served: 1 credit a getBalance, 10 a DAS page.
 * Skipped, saying why, without a redis-server.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as Command from "@effect/platform/Command"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import * as Servers from "@solfx/testing/Servers"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const worker = "packages/kit/test/support/limits-worker.ts"

const runWorker = (env: Record<string, string>) =>
  Effect.flatMap(
    Command.start(
      Command.make(process.execPath, "--conditions=@solfx/source", "--import", "tsx", worker).pipe(
        Command.workingDirectory(root),
        Command.env(env),
        Command.stderr("inherit")
      )
    ),
    (proc) => Effect.all([Stream.mkString(Stream.decodeText(proc.stdout)), proc.exitCode], { concurrency: "unbounded" })
  ).pipe(Effect.scoped, Effect.map(([out, code]) => ({ out, code })))

const missing = Servers.unavailable("redis")

describe.skipIf(missing !== undefined)(
  Servers.title("kit and solfx under one plan, 4 processes, one Redis", missing),
  () => {
    it.live(
      "kit getBalance and solfx DAS at once, plan developer: 0 × 429, each bucket within its limit, the budget counts both",
      () =>
        Effect.gen(function*() {
          const redis = yield* Servers.redis
          const emu = yield* Emulator.make({ plan: "developer", sizes: { "das.batchAuthorityAssets": 1_000 } })
          const BUDGET = 1_000_000
          const results = yield* Effect.forEach(
            emu.samples.batchAssetAuthorities.slice(0, 4),
            (authority) =>
              runWorker({
                EMU_URL: emu.url,
                EMU_KEY: emu.apiKey,
                REDIS_PORT: String(redis.port),
                PLAN: "developer",
                BUDGET: String(BUDGET),
                AUTHORITY: authority,
                ADDRESS: emu.samples.wallet,
                BALANCES: "120"
              }),
            { concurrency: "unbounded" }
          )
          for (const r of results) {
            expect(r.code, r.out).toBe(0)
            expect(JSON.parse(r.out)).toMatchObject({ balances: 120, items: 1_000 })
          }
          // The emulator sent no 429, and no second saw more than a bucket's limit arrive.
          expect(emu.planLimits.rejected).toEqual({})
          expect(emu.counters.byStatus[429] ?? 0).toBe(0)
          expect(emu.planLimits.maxInWindow.rpc).toBeLessThanOrEqual(50)
          expect(emu.planLimits.maxInWindow.das).toBeLessThanOrEqual(10)
          const balances = emu.count("getBalance")
          const pages = emu.count("getAssetsByAuthority")
          expect(balances).toBe(480)
          // One budget for both: what Redis counted is what the emulator served, at each method's price.
          const spent = yield* Effect.flatMap(
            Layer.build(
              RateLimitsRedis.layer(
                { plan: "developer", scope: RateLimits.fingerprint(emu.apiKey), creditBudget: BUDGET },
                { host: "127.0.0.1", port: redis.port }
              )
            ),
            (ctx) => Context.get(ctx, RateLimits.RateLimits).spent
          )
          expect(spent).toBe(balances * 1 + pages * 10)
          console.log(
            `[kit limits] 4 processes: ${balances} getBalance (at most ${emu.planLimits.maxInWindow.rpc} in any second) and ${pages} DAS pages (at most ${emu.planLimits.maxInWindow.das}), ${spent} credits counted`
          )
        }).pipe(Effect.scoped, Effect.provide(NodeContext.layer)),
      240_000
    )
  }
)
