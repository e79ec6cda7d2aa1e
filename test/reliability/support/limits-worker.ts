/**
 * One process of the plan-limits tests: streams every asset of one authority
 * through `Solfx.layer` with `rateLimits` shared through Redis, and prints one JSON
 * line: the items it read, and the budget's refusal if it got one.
 *
 * Environment: EMU_URL, EMU_KEY, REDIS_PORT, AUTHORITY, PAGE_SIZE, CONCURRENCY,
 * PLAN (optional), BUDGET (optional credits), MODE (`cursor`: one page after another; default `page`).
 */
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`limits-worker: ${name} is not set`)
  return value
}
const plan = process.env["PLAN"] as "developer" | undefined
const budget = process.env["BUDGET"] === undefined ? undefined : Number(process.env["BUDGET"])

let items = 0
const program = Effect.flatMap(DigitalAssets.DigitalAssets, (das) =>
  das.getAssetsByAuthorityStream(
    { authorityAddress: env("AUTHORITY"), limit: Number(env("PAGE_SIZE")) },
    { concurrency: Number(env("CONCURRENCY")), mode: process.env["MODE"] === "cursor" ? "cursor" : "page" }
  ).pipe(Stream.runForEach(() => Effect.sync(() => items++)))).pipe(
    Effect.as({ refused: undefined as undefined | { readonly budget: number; readonly credits: number } }),
    Effect.catchTag(
      "CreditBudgetExceeded",
      (e) => Effect.succeed({ refused: { budget: e.budget, credits: e.credits } })
    ),
    Effect.map((r) => ({ items, ...r })),
    Effect.provide(Solfx.layer({
      apiKey: env("EMU_KEY"),
      baseUrl: env("EMU_URL"),
      rateLimits: {
        plan,
        creditBudget: budget,
        store: RateLimitsRedis.layerStore({ host: "127.0.0.1", port: Number(env("REDIS_PORT")) })
      }
    }))
  )

process.stdout.write(JSON.stringify(await Effect.runPromise(program)) + "\n")
