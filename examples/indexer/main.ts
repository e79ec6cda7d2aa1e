/**
 * The indexer's command line.
 *
 *   main.ts submit <authority>...   registers the job's authorities (tables + queue)
 *   main.ts work                    walks authorities from the queue until the job is done
 *
 * Environment: INDEXER_DATABASE_URL (PostgreSQL), INDEXER_JOB (default
 * "assets"), INDEXER_WORKER (default: the pid), INDEXER_CONCURRENCY,
 * INDEXER_PAGE_SIZE, and the SDK's SOLFX_API_KEY, SOLFX_RPC_URL, ...
 *
 * Run: node --conditions=@solfx/source --import tsx examples/indexer/main.ts work
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Solfx } from "@solfx/sdk"
import * as Config from "effect/Config"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Indexer from "./Indexer.js"

const settings = Config.all({
  databaseUrl: Config.string("INDEXER_DATABASE_URL"),
  job: Config.string("INDEXER_JOB").pipe(Config.withDefault("assets")),
  worker: Config.string("INDEXER_WORKER").pipe(Config.withDefault(`worker-${process.pid}`)),
  concurrency: Config.integer("INDEXER_CONCURRENCY").pipe(Config.withDefault(2)),
  pageSize: Config.integer("INDEXER_PAGE_SIZE").pipe(Config.withDefault(1000))
})

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
    }).pipe(Effect.provide(Layer.merge(stores, Solfx.layerConfig)))
    return yield* Console.log(`${s.worker}: job ${s.job} done`)
  }
  return yield* Effect.dieMessage("usage: main.ts submit <authority>... | main.ts work")
})

NodeRuntime.runMain(program)
