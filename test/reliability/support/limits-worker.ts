/**
 * One process of the plan-limits tests: streams every asset of one authority
 * through `Solfx.layer` with `rateLimits` shared through Redis, and prints one JSON
 * line: the items it read, the budget's refusal if it got one, and (RECORD) the
 * ticket and grant number of every permit it was granted.
 *
 * Environment: EMU_URL, EMU_KEY, REDIS_PORT, AUTHORITY, PAGE_SIZE, CONCURRENCY,
 * PLAN (optional), BUDGET (optional credits), MODE (`cursor`: one page after another; default `page`),
 * LIVENESS_TTL_MS (optional), RECORD (`1`: record the grants), TAKE (optional n: instead, 10 streams at
 * once, each cut short by `Stream.take(n)`, then exit).
 */
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import * as WindowStore from "@solfx/http/WindowStore"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Stream from "effect/Stream"

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`limits-worker: ${name} is not set`)
  return value
}
const optional = (name: string) => process.env[name] === undefined ? undefined : Number(process.env[name])
const plan = process.env["PLAN"] as "developer" | undefined
const take = optional("TAKE")

const grants: Array<readonly [ticket: number, grant: number]> = []
const redis = RateLimitsRedis.layerStore({ host: "127.0.0.1", port: Number(env("REDIS_PORT")) }, {
  livenessTtlMs: optional("LIVENESS_TTL_MS")
})
/** The Redis stores, the windows' recording each permit granted. */
const recording: Layer.Layer<RateLimits.Stores> = Layer.effectContext(
  Effect.map(Effect.context<RateLimits.Stores>(), (ctx) => {
    const store = Context.get(ctx, WindowStore.WindowStore)
    return Context.add(ctx, WindowStore.WindowStore, {
      ...store,
      acquire: (slots, id, timing) =>
        Effect.tap(store.acquire(slots, id, timing), (a) => a.granted && grants.push([a.ticket, a.grant]))
    })
  })
).pipe(Layer.provide(redis))

let items = 0
const stream = Effect.flatMap(DigitalAssets.DigitalAssets, (das) => {
  const assets = das.getAssetsByAuthorityStream(
    { authorityAddress: env("AUTHORITY"), limit: Number(env("PAGE_SIZE")) },
    { concurrency: Number(env("CONCURRENCY")), mode: process.env["MODE"] === "cursor" ? "cursor" : "page" }
  )
  return take === undefined
    ? Stream.runForEach(assets, () => Effect.sync(() => items++))
    : Effect.forEach(
      Array.from({ length: 10 }),
      () => Stream.runForEach(Stream.take(assets, take), () => Effect.sync(() => items++)),
      { concurrency: "unbounded", discard: true }
    )
})
const program = stream.pipe(
  Effect.as({ refused: undefined as undefined | { readonly budget: number; readonly credits: number } }),
  Effect.catchTag(
    "CreditBudgetExceeded",
    (e) => Effect.succeed({ refused: { budget: e.budget, credits: e.credits } })
  ),
  Effect.map((r) => ({ items, ...r, ...(process.env["RECORD"] === "1" ? { grants } : {}) })),
  Effect.provide(Solfx.layer({
    apiKey: env("EMU_KEY"),
    baseUrl: env("EMU_URL"),
    rateLimits: { plan, creditBudget: optional("BUDGET"), store: process.env["RECORD"] === "1" ? recording : redis }
  }))
)

process.stdout.write(JSON.stringify(await Effect.runPromise(program)) + "\n")
