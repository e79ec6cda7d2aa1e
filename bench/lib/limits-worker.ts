/**
 * One process of the `limits` comparison: `CALLS` calls of getAssetsByAuthority
 * (pages of one authority, `CONCURRENCY` at once) through `Solfx.layer` on plan
 * developer, the limits shared through Redis. Prints one JSON line at the end: each
 * call's time in ms and how it ended (before it, a line `up` once loaded, `first` when its first call ended). Uses only the public API of the SDK, so that
 * the same file runs against an older checkout (`LIMITS_OLD_ROOT`).
 * Usage: limits-worker.ts <emulator url> <api key> <redis port> <authority>; env CALLS, CONCURRENCY, PAGE_SIZE.
 */
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { DigitalAssets, Solfx } from "@solfx/sdk"
import * as Effect from "effect/Effect"

const [url, apiKey, port, authority] = process.argv.slice(2)
const calls = Number(process.env["CALLS"] ?? "60")
const pageSize = Number(process.env["PAGE_SIZE"] ?? "100")
const pages = Math.max(1, Math.floor(5_000 / pageSize))

// The bench waits for these lines: `up` once loaded, `first` when the first call ended.
process.stdout.write("up\n")
// GO=stdin: loaded and connected, it starts calling only when a line comes on stdin.
if (process.env["GO"] === "stdin") await new Promise((resolve) => process.stdin.once("data", resolve))
let first = true
const results = await Effect.runPromise(
  Effect.flatMap(
    DigitalAssets.DigitalAssets,
    (das) =>
      Effect.forEach(Array.from({ length: calls }, (_, i) => i), (i) => {
        const started = performance.now()
        return das.getAssetsByAuthority({ authorityAddress: authority!, page: 1 + (i % pages), limit: pageSize }).pipe(
          Effect.as("ok"),
          Effect.catchAll((e) => Effect.succeed(`${e._tag}${"sent" in e ? ` sent: ${e.sent}` : ""}: ${e.message}`)),
          Effect.map((outcome) => {
            if (first) process.stdout.write("first\n")
            first = false
            return { ms: performance.now() - started, outcome }
          })
        )
      }, { concurrency: Number(process.env["CONCURRENCY"] ?? "16") })
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
process.stdout.write(JSON.stringify(results) + "\n")
