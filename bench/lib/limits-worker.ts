/**
 * One process of the `limits` comparison: takes `count` DAS permits, 16 at a
 * time, from the plan-developer limiter shared through Redis, and prints the
 * wall-clock time each permit was granted (one JSON array on stdout).
 * Usage: limits-worker.ts <redis port> <scope> <count>
 */
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import * as Effect from "effect/Effect"

const [port, scope, count] = process.argv.slice(2)
const starts: Array<number> = []
await Effect.runPromise(
  Effect.flatMap(RateLimits.RateLimits, (limits) =>
    Effect.forEach(
      Array.from({ length: Number(count) }),
      () => limits.aroundAttempt("das", 10)(Effect.sync(() => starts.push(Date.now()))),
      { concurrency: 16, discard: true }
    )).pipe(
      Effect.provide(
        RateLimitsRedis.layer({ plan: "developer", scope: scope! }, { host: "127.0.0.1", port: Number(port) })
      )
    )
)
process.stdout.write(JSON.stringify(starts) + "\n")
