/**
 * Example 3: a resumable batch job. After each page, the page's output and the
 * position after it are saved to a KeyValueStore in one uninterruptible step, so a
 * stopped job, restarted, continues from there: nothing missing, nothing repeated.
 *
 * Run: node --conditions=@solfx/source --import tsx examples/resumable.ts
 */
import * as KeyValueStore from "@effect/platform/KeyValueStore"
import { DigitalAssets, type Pagination } from "@solfx/sdk"
import * as Console from "effect/Console"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { isMain, runExample } from "./support/run.js"

/** What is saved after each page: where to resume, and what is done so far. */
export interface Checkpoint<P> {
  readonly next: P | undefined
  readonly pages: number
  readonly items: number
  readonly done: boolean
}

/** The saved checkpoint of job `name` (a fresh one when it never ran). */
export const checkpoint = <P>(name: string) =>
  Effect.flatMap(KeyValueStore.KeyValueStore, (kv) => kv.get(`${name}/checkpoint`)).pipe(Effect.map(Option.match({
    onNone: (): Checkpoint<P> => ({ next: undefined, pages: 0, items: 0, done: false }),
    onSome: (json) => JSON.parse(json) as Checkpoint<P>
  })))

/** Runs job `name` from its checkpoint over any paged Stream that can start at a saved `next`. */
export const runJob = <A, P, E, R>(
  name: string,
  pages: (start: P | undefined) => Stream.Stream<Pagination.Page<A, P>, E, R>,
  record: (item: A) => string,
  onCommit: (saved: Checkpoint<P>) => Effect.Effect<void> = () => Effect.void
) =>
  Effect.gen(function*() {
    const kv = yield* KeyValueStore.KeyValueStore
    const from = yield* checkpoint<P>(name)
    if (from.done) return from
    return yield* pages(from.next).pipe(Stream.runFoldEffect(from, (saved, page) => {
      const next = { next: page.next, pages: saved.pages + 1, items: saved.items + page.items.length, done: !page.next }
      // Output keyed by page index: even a crash between the two writes only rewrites that page.
      const write = Effect.zipRight(
        kv.set(`${name}/page/${saved.pages}`, JSON.stringify(page.items.map(record))),
        kv.set(`${name}/checkpoint`, JSON.stringify(next))
      )
      return write.pipe(Effect.uninterruptible, Effect.zipRight(onCommit(next)), Effect.as(next))
    }))
  })

/** Every record job `name` saved, in order. */
export const results = (name: string) =>
  Effect.gen(function*() {
    const kv = yield* KeyValueStore.KeyValueStore
    const { pages } = yield* checkpoint(name)
    const saved = yield* Effect.forEach(Array.from({ length: pages }, (_, i) => i), (i) => kv.get(`${name}/page/${i}`))
    return saved.flatMap((page) => JSON.parse(Option.getOrThrow(page)) as Array<string>)
  })

/** Indexes every asset id of an authority: stopped after `stopAfter` pages, then resumed to the end. */
export const main = (authority: string, stopAfter = 3) =>
  Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const name = `asset-ids/${authority}`
    const stopped = yield* Deferred.make<void>()
    const assets = (start: DigitalAssets.Position | undefined) =>
      das.getAssetsByAuthority.pages({ authorityAddress: authority, limit: 1000 }, { start })
    // The stop comes right after page `stopAt` is saved: the job waits there to be interrupted, as a process
    // would be killed there. Read-ahead may already hold the next pages, so without the wait the job could
    // save them all before the interruption arrives.
    const job = (stopAt: number) =>
      runJob(name, assets, (a) => a.id, (s) =>
        Console.log(`page ${s.pages} saved, ${s.items} ids`).pipe(
          Effect.zipRight(
            s.pages >= stopAt ? Effect.zipRight(Deferred.succeed(stopped, undefined), Effect.never) : Effect.void
          )
        ))
    const first = yield* Effect.fork(job(stopAfter))
    yield* Effect.raceFirst(Deferred.await(stopped), Fiber.await(first))
    yield* Fiber.interrupt(first) // as a deploy or Ctrl-C would stop it
    const interrupted = yield* checkpoint<DigitalAssets.Position>(name)
    yield* Console.log(`stopped after ${interrupted.pages} pages; resuming at ${JSON.stringify(interrupted.next)}`)
    const finished = yield* job(Infinity)
    return { interrupted, finished, ids: yield* results(name) }
  })

if (isMain(import.meta.url)) {
  const store = KeyValueStore.layerFileSystem(mkdtempSync(`${tmpdir()}/solfx-job-`)) // survives a restart
  runExample((emulator) => main(emulator.samples.assetAuthority).pipe(Effect.provide(store)))
}
