/**
 * The read-ahead of numbered pages (`Walk.numberedPages`): a window of pages in flight, emitted in order.
 */
import type { Page } from "@solfx/core/Pagination"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/**
 * Pages `from` to `to` (or until one comes back as the last), fetched at most `concurrency`
 * at a time and emitted in page order; the stream ends after the last page. As with
 * `Stream.mapEffect` and `concurrency`: the first failure fails every page not yet fetched,
 * so the stream fails at the first page in order that had not arrived, and fetches still
 * running when the stream ends are interrupted.
 *
 * Hand-written rather than `Stream.mapEffect(fetch, { concurrency })`: that forks a fiber per
 * page racing an error signal, over twice the CPU a page of this window of one fiber and one
 * Deferred a page (bench §2, "the paging machinery alone"), and it went on starting pages
 * after a failure.
 */
export const readAhead = <P extends Page<unknown, number>, E, R>(
  from: number,
  to: number,
  concurrency: number,
  fetch: (page: number) => Effect.Effect<P, E, R>
): Stream.Stream<P, E, R> =>
  Stream.unwrapScoped(Effect.map(Effect.scope, (scope) => {
    // Fetched or in flight, not yet emitted, in page order: at most `concurrency`.
    const window: Array<Deferred.Deferred<P, E>> = []
    let next = from
    let last = to
    let failed = false
    const start = (n: number): Effect.Effect<void, never, R> =>
      Effect.flatMap(Deferred.make<P, E>(), (slot) => {
        window.push(slot)
        return Effect.asVoid(Effect.forkIn(
          Effect.flatMap(Effect.exit(fetch(n)), (exit) => {
            if (Exit.isSuccess(exit)) {
              if (exit.value.next === undefined) last = Math.min(last, n)
              return Deferred.succeed(slot, exit.value)
            }
            failed = true
            return Effect.forEach([...window], (pending) => Deferred.failCause(pending, exit.cause), { discard: true })
          }),
          scope
        ))
      })
    const fill = Effect.suspend(() => {
      const starts: Array<Effect.Effect<void, never, R>> = []
      while (!failed && window.length + starts.length < concurrency && next <= last) starts.push(start(next++))
      return starts.length === 0 ? Effect.void : Effect.all(starts, { discard: true })
    })
    let done = false
    const pull: Effect.Effect<P, Option.Option<E>, R> = Effect.suspend(() => {
      if (done) return Effect.fail(Option.none())
      return Effect.flatMap(fill, () => {
        // The slot stays in the window until it is emitted, so a failure elsewhere fails it too.
        const slot = window[0]
        if (slot === undefined) return Effect.fail(Option.none())
        return Effect.mapBoth(Deferred.await(slot), {
          onFailure: Option.some,
          onSuccess: (page) => {
            window.shift()
            if (page.next === undefined) done = true
            return page
          }
        })
      })
    })
    return Stream.repeatEffectOption(pull)
  }))
