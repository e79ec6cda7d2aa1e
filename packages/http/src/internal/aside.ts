/**
 * An effect whose value is kept aside while its wrapper ends: `body` gets `keep`
 * and runs to `void`; the result is what it kept. A span keeps its exit for the
 * tracer, and an ended span or fiber can outlive its use (a context names the
 * span as parent; a scavenge still finds an ended fiber): with the value kept
 * aside, neither holds a whole body, nor shows a tracer an answer that may echo
 * the key. The slot is made per run and emptied as it is read.
 */
import * as Effect from "effect/Effect"

export const aside = <A, E, R>(body: (keep: (value: A) => void) => Effect.Effect<void, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    let out: { readonly value: A } | undefined
    return Effect.map(
      body((value) => {
        out = { value }
      }),
      () => {
        const { value } = out!
        out = undefined
        return value
      }
    )
  })
