/**
 * The indexer's command line.
 *
 *   main.ts submit <authority>...   registers the job's authorities (tables + queue)
 *   main.ts work                    walks authorities from the queue until the job is done
 *
 * Environment: INDEXER_DATABASE_URL (PostgreSQL), INDEXER_JOB (default
 * "assets"), INDEXER_WORKER (default: the pid), INDEXER_CONCURRENCY,
 * INDEXER_PAGE_SIZE, INDEXER_PLAN (the project's plan: every worker paces its calls
 * by it), INDEXER_REDIS_URL (e.g. redis://127.0.0.1:6379: the workers share the
 * plan's limits there; without it each worker has the whole limit to itself), and
 * the SDK's SOLFX_API_KEY, SOLFX_RPC_URL, ...
 *
 * Run: node --conditions=@solfx/source --import tsx examples/indexer/main.ts work
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as SolfxConfig from "@solfx/core/Config"
import * as RateLimits from "@solfx/http/RateLimits"
import * as RateLimitsRedis from "@solfx/http/RateLimitsRedis"
import { Solfx } from "@solfx/sdk"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Indexer from "./Indexer.js"

const settings = Config.all({
  databaseUrl: Config.string("INDEXER_DATABASE_URL"),
  job: Config.string("INDEXER_JOB").pipe(Config.withDefault("assets")),
  worker: Config.string("INDEXER_WORKER").pipe(Config.withDefault(`worker-${process.pid}`)),
  concurrency: Config.integer("INDEXER_CONCURRENCY").pipe(Config.withDefault(2)),
  pageSize: Config.integer("INDEXER_PAGE_SIZE").pipe(Config.withDefault(1000)),
  plan: Config.literal("free", "developer", "business", "professional")("INDEXER_PLAN").pipe(Config.option),
  redisUrl: Config.url("INDEXER_REDIS_URL").pipe(Config.option)
})

/** The SDK from the environment, its calls paced by the plan, shared through Redis when given. */
const sdk = (s: Effect.Effect.Success<typeof settings>) =>
  Solfx.layerNode.pipe(
    Layer.provide(
      Option.isNone(s.plan) ? Layer.empty : RateLimits.layerConfig({
        plan: s.plan.value,
        store: Option.match(s.redisUrl, {
          onNone: () => RateLimits.layerStoreMemory,
          onSome: (url) => RateLimitsRedis.layerStore({ host: url.hostname, port: Number(url.port || 6379) })
        })
      })
    ),
    Layer.provideMerge(SolfxConfig.layerConfig)
  )

const [command, ...args] = process.argv.slice(2)

const program = Effect.gen(function*() {
  const s = yield* settings
  const stores = Indexer.layer(s.databaseUrl)
  if (command === "submit") {
    yield* Indexer.submit(s.job, args).pipe(Effect.provide(stores))
    return yield* Console.log(`submitted ${args.length} authorities to job ${s.job}`)
  }
  if (command === "work") {
    yield* Indexer.work({
      ...s,
      // One line per committed page: the test reads them to see the job move.
      onCommit: (c) => Console.log(JSON.stringify({ worker: s.worker, ...c }))
    }).pipe(Effect.provide(Layer.merge(stores, sdk(s))))
    return yield* Console.log(`${s.worker}: job ${s.job} done`)
  }
  return yield* Effect.dieMessage("usage: main.ts submit <authority>... | main.ts work")
})

NodeRuntime.runMain(program)
