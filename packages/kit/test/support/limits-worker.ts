/**
 * One process of the kit limits test: kit's `getBalance` through solfx's plain kit transport
 * (`createSolanaRpcFromTransport(SolanaRpc.transport)`, awaited as any kit user would) and a DAS walk
 * through solfx, at once, both over `Solfx.layer` with `rateLimits` shared through Redis. Prints one
 * JSON line: the balances read and the assets walked.
 *
 * Environment: EMU_URL, EMU_KEY, REDIS_PORT, PLAN, BUDGET, AUTHORITY, ADDRESS, BALANCES (how many getBalance calls).
 */
import { address, createSolanaRpcFromTransport } from "@solana/kit"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { SolanaRpc } from "@solfx/kit"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const env = (name: string): string => {
  const value = process.env[name]
  if (value === undefined) throw new Error(`limits-worker: ${name} is not set`)
  return value
}

const live = Solfx.layer({
  apiKey: env("EMU_KEY"),
  baseUrl: env("EMU_URL"),
  rateLimits: {
    plan: env("PLAN") as "developer",
    creditBudget: Number(env("BUDGET")),
    store: RateLimitsRedis.layerStore({ host: "127.0.0.1", port: Number(env("REDIS_PORT")) })
  }
})

// The kit side, as code not written in Effect: a plain transport, promises.
const transport = SolanaRpc.createTransport(live)
const rpc = createSolanaRpcFromTransport(transport)
const who = address(env("ADDRESS"))
const balances = Promise.all(
  Array.from({ length: Number(env("BALANCES")) }, () => rpc.getBalance(who).send().then((r) => r.value))
)

// The solfx side at the same time: every asset of one authority, pages in parallel.
const items = Effect.runPromise(
  Effect.flatMap(
    DigitalAssets.DigitalAssets,
    (das) => Stream.runCount(das.getAssetsByAuthority.stream({ authorityAddress: env("AUTHORITY"), limit: 100 }))
  ).pipe(
    Effect.provide(live)
  )
)

const [read, walked] = await Promise.all([balances, items])
await transport.dispose()
process.stdout.write(
  JSON.stringify({
    balances: read.length,
    lamports: read.map(String).filter((v, i, a) => a.indexOf(v) === i),
    items: walked
  }) +
    "\n"
)
