/**
 * Example 6: a durable batch job across worker processes. It indexes every asset
 * of many authorities into PostgreSQL; any number of workers share the work, and a
 * worker that dies mid-walk loses nothing and repeats nothing.
 *
 * The engine is `@effect/experimental`'s `PersistedQueue`, stored in PostgreSQL by
 * `@effect/sql`'s `SqlPersistedQueue`: one queue element per authority, delivered
 * at least once (an element whose worker stops answering is taken by another
 * worker once its lock expires). Exactly-once output comes from PostgreSQL too: a
 * page's rows and the walk's checkpoint (the page's `next` position) are written
 * in ONE transaction, guarded by the page count the walk was at, so a redelivered
 * authority resumes after its last committed page, and two workers holding the
 * same authority cannot both commit the same page.
 *
 * Run it: see "Scaling past one process" in the README, or `main.ts`.
 */
import * as PersistedQueue from "@effect/experimental/PersistedQueue"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqlPersistedQueue from "@effect/sql/SqlPersistedQueue"
import { DigitalAssets } from "@solfx/sdk"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { createHash } from "node:crypto"

/**
 * How long a dead worker keeps its authorities: a queue element is handed to
 * another worker once `lockExpiration` has passed since it was taken. (In
 * @effect/sql 0.52.1 the store never refreshes the locks of elements in progress,
 * so a walk longer than this is delivered a second time; the checkpoint guard makes
 * that harmless: one of the two walkers gets `WalkMoved` and its element is retried.)
 */
export const queueTiming = {
  // Longer than a walk of 20 pages paced at a share of a developer plan's 10 DAS/s.
  lockExpiration: Duration.seconds(30),
  poll: Duration.millis(200)
}

/** The queue and the SQL client of a worker or a submitter, both on the PostgreSQL at `databaseUrl`. */
export const layer = (databaseUrl: string) => {
  const sql = PgClient.layer({ url: Redacted.make(databaseUrl) })
  const store = SqlPersistedQueue.layerStore({
    tableName: "indexer_queue",
    lockExpiration: queueTiming.lockExpiration,
    pollInterval: queueTiming.poll
  })
  return PersistedQueue.layer.pipe(Layer.provide(store), Layer.provideMerge(sql))
}

/** The work queue of job `job`: one element per authority. */
const queueOf = (job: string) => PersistedQueue.make({ name: `indexer:${job}`, schema: Schema.String })

/** The element id of an authority: offered twice, queued once (the store's ids are at most 36 characters). */
const elementId = (job: string, authority: string) =>
  createHash("sha256").update(`${job}/${authority}`).digest("hex").slice(0, 32)

/** Deliveries of one authority before the queue gives up on it. */
const maxAttempts = 50

/** The tables, created when missing. */
export const migrate = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One row per (job, authority): where its walk resumes and who committed last.
  yield* sql`CREATE TABLE IF NOT EXISTS indexer_walks (
    job text NOT NULL,
    authority text NOT NULL,
    next jsonb,
    pages integer NOT NULL DEFAULT 0,
    items integer NOT NULL DEFAULT 0,
    done boolean NOT NULL DEFAULT false,
    worker text,
    PRIMARY KEY (job, authority)
  )`
  // Deliberately no unique key: every write is a row, so a duplicate would show up
  // as a second row (the test counts them). A production table would add
  // UNIQUE (job, asset_id) as a safety net.
  yield* sql`CREATE TABLE IF NOT EXISTS indexer_assets (
    job text NOT NULL,
    authority text NOT NULL,
    asset_id text NOT NULL,
    page integer NOT NULL,
    worker text NOT NULL
  )`
}).pipe(Effect.withSpan("Indexer.migrate"))

/** Registers job `job` over `authorities` (again is harmless): a walk row each, then a queue element each. */
export const submit = (job: string, authorities: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* migrate
    if (authorities.length > 0) {
      yield* sql`INSERT INTO indexer_walks ${
        sql.insert(authorities.map((authority) => ({ job, authority })))
      } ON CONFLICT DO NOTHING`
    }
    const queue = yield* queueOf(job)
    // Rows first: a worker that takes an authority always finds its walk.
    yield* Effect.forEach(authorities, (authority) => queue.offer(authority, { id: elementId(job, authority) }), {
      discard: true
    })
  }).pipe(Effect.withSpan("Indexer.submit", { attributes: { job, authorities: authorities.length } }))

/** Another worker committed this walk's page first (the same authority was delivered twice). */
export class WalkMoved extends Data.TaggedError("WalkMoved")<{
  readonly authority: string
  readonly expectedPages: number
}> {}

type Position = DigitalAssets.Position

interface WalkRow {
  readonly next: Position | null
  readonly pages: number
  readonly done: boolean
}

/** What a worker is told to do. */
export interface WorkerOptions {
  readonly job: string
  /** Its name, recorded with every row it writes. */
  readonly worker: string
  /** Authorities walked at once (default 2). */
  readonly concurrency?: number | undefined
  /** Assets per request, 1 to 1000 (default 1000). */
  readonly pageSize?: number | undefined
  /** Called after each committed page (the CLI prints a line). */
  readonly onCommit?: ((commit: Commit) => Effect.Effect<void>) | undefined
}

/** One committed page. */
export interface Commit {
  readonly authority: string
  readonly page: number
  readonly items: number
  readonly done: boolean
}

/** Walks one authority from its checkpoint to its end, one transaction per page. */
const walk = (authority: string, options: WorkerOptions) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const das = yield* DigitalAssets.DigitalAssets
    const { job, worker } = options
    const [from] = yield* sql<WalkRow>`SELECT next, pages, done FROM indexer_walks
      WHERE job = ${job} AND authority = ${authority}`
    if (from === undefined || from.done) return
    const commit = (
      pages: number,
      page: { readonly items: ReadonlyArray<{ readonly id: string }>; readonly next: Position | undefined }
    ) =>
      Effect.gen(function*() {
        const done = page.next === undefined
        // The guard `pages = ${pages}` makes the commit a compare-and-set on the checkpoint.
        const moved = yield* sql`UPDATE indexer_walks
          SET next = ${page.next === undefined ? null : JSON.stringify(page.next)}::jsonb,
              pages = pages + 1, items = items + ${page.items.length}, done = ${done}, worker = ${worker}
          WHERE job = ${job} AND authority = ${authority} AND pages = ${pages} AND NOT done
          RETURNING pages`
        if (moved.length === 0) return yield* new WalkMoved({ authority, expectedPages: pages })
        if (page.items.length > 0) {
          yield* sql`INSERT INTO indexer_assets ${
            sql.insert(page.items.map((a) => ({ job, authority, asset_id: a.id, page: pages, worker })))
          }`
        }
        return done
      }).pipe(sql.withTransaction)
    const pages = yield* das.getAssetsByAuthorityPages(
      { authorityAddress: authority, limit: options.pageSize ?? 1000 },
      { start: from.next ?? undefined }
    ).pipe(
      Stream.runFoldEffect(from.pages, (pages, page) =>
        commit(pages, page).pipe(
          Effect.tap((done) =>
            options.onCommit?.({ authority, page: pages, items: page.items.length, done }) ?? Effect.void
          ),
          Effect.as(pages + 1)
        ))
    )
    // A walk whose stream ended without a last page (an authority with no assets) is done too.
    yield* sql`UPDATE indexer_walks SET done = true, worker = ${worker}
      WHERE job = ${job} AND authority = ${authority} AND pages = ${pages}`
  }).pipe(Effect.withSpan("Indexer.walk", { attributes: { authority } }))

/** How many walks of job `job` are not done yet. */
export const remaining = (job: string) =>
  Effect.flatMap(
    SqlClient.SqlClient,
    (sql) => sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM indexer_walks WHERE job = ${job} AND NOT done`
  ).pipe(
    Effect.map(([row]) => row?.n ?? 0)
  )

/**
 * Takes authorities from the queue and walks them, `concurrency` at once, until
 * every walk of the job is done. A failed walk goes back to the queue (retried
 * up to `maxAttempts` deliveries) and this worker takes the next one.
 */
export const work = (options: WorkerOptions) =>
  Effect.gen(function*() {
    // No migrate here: `submit` made the tables (concurrent CREATE TABLE IF NOT EXISTS can collide).
    const queue = yield* queueOf(options.job)
    const taker = queue.take((authority) => walk(authority, options), { maxAttempts }).pipe(
      Effect.catchAll((e) => Effect.logWarning(`${options.worker}: walk failed, requeued`, e)),
      Effect.forever
    )
    const allDone = remaining(options.job).pipe(
      Effect.repeat({ schedule: Schedule.spaced("500 millis"), until: (n) => n === 0 })
    )
    yield* Effect.raceFirst(
      Effect.all(Array.from({ length: options.concurrency ?? 2 }, () => taker), { concurrency: "unbounded" }),
      allDone
    )
  }).pipe(Effect.withSpan("Indexer.work", { attributes: { job: options.job, worker: options.worker } }))
