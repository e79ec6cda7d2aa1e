/**
 * `Effect.timeoutFail`, for the transport's hot path. On the live Clock it forks
 * only the effect and waits for it or a `setTimeout`, as the live Clock's own
 * `sleep` does: `timeoutFail` also forks a fiber to sleep in, and the two forks,
 * the race and the loser's interruption were the largest single cost of a small
 * call. On any other Clock (a `TestClock`) it is `Effect.timeoutFail` itself.
 */

import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as DefaultServices from "effect/DefaultServices"
import * as Effect from "effect/Effect"
import type * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import { aside } from "./aside.js"

const live = Context.get(DefaultServices.liveServices, Clock.Clock)

/** The live Clock never fires a timer longer than this (setTimeout's limit): nor does this one. */
const MAX_TIMER_MILLIS = 2 ** 31 - 1

/**
 * `self`, failing with `onTimeout()` (and interrupted) if it has not ended within
 * `millis` on the Clock; with the effect's exit and fiber refs as `Effect.timeoutFail` gives them.
 */
export const within = <A, E, R, E2>(
  self: Effect.Effect<A, E, R>,
  millis: number,
  onTimeout: () => E2
): Effect.Effect<A, E | E2, R> =>
  Effect.clockWith((clock) => {
    if (clock !== live) return Effect.timeoutFail(self, { duration: millis, onTimeout })
    // The child's value is kept aside (see `aside`): its exit would hold a whole response.
    return aside<A, E | E2, R>((keep) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(Effect.fork(restore(Effect.map(self, keep))), (child) =>
          restore(Effect.async<void, E | E2>((resume) => {
            let done = false
            const observer = (exit: Exit.Exit<void, E>) => {
              if (done) {
                return
              }
              done = true
              clearTimeout(handle)
              resume(exit._tag === "Success" ? child.inheritAll : exit)
            }
            const handle = millis > MAX_TIMER_MILLIS ? undefined : setTimeout(() => {
              if (done) {
                return
              }
              done = true
              child.removeObserver(observer)
              resume(Effect.zipRight(Fiber.interrupt(child), Effect.fail(onTimeout())))
            }, millis)
            child.addObserver(observer)
            // The caller interrupted: so is the effect, as when a race is interrupted.
            return Effect.suspend(() => {
              if (!done) {
                done = true
                clearTimeout(handle)
                child.removeObserver(observer)
              }
              return Fiber.interrupt(child)
            })
          })))
      )
    )
  })
