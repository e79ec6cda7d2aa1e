/**
 * One process of the `limits` comparison: streams every asset of one authority
 * through `Solfx.layer` on plan developer, its limits shared through Redis, and
 * prints the number of assets (one JSON line on stdout).
 * Usage: limits-worker.ts <emulator url> <api key> <redis port> <authority>
 */
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const [url, apiKey, port, authority] = process.argv.slice(2)
const items = await Effect.runPromise(
  Effect.flatMap(
    DigitalAssets.DigitalAssets,
    (das) =>
      das.getAssetsByAuthorityStream({ authorityAddress: authority!, limit: 250 }, { concurrency: 16 }).pipe(
        Stream.runCount
      )
  ).pipe(
    Effect.provide(Solfx.layer({
      apiKey: apiKey!,
      baseUrl: url!,
      rateLimits: {
        plan: "developer",
        store: RateLimitsRedis.layerStore({ host: "127.0.0.1", port: Number(port) })
      }
    }))
  )
)
process.stdout.write(JSON.stringify({ items }) + "\n")
