/**
 * A tracer that records every span it opens, over the tracer in context: tests
 * read the spans' names, attributes and how they ended.
 *
 * @example
 * const { tracer, spans } = yield* Spans.recording
 * yield* call.pipe(Effect.withTracer(tracer))
 * for (const span of spans) expect(span.name).not.toContain(KEY)
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Tracer from "effect/Tracer"

/**
 * The recording tracer and the spans it has opened so far, in order.
 *
 * @since 0.1.0
 */
export const recording: Effect.Effect<{
  readonly tracer: Tracer.Tracer
  readonly spans: ReadonlyArray<Tracer.Span>
}> = Effect.map(Effect.tracer, (base) => {
  const spans: Array<Tracer.Span> = []
  const tracer = Tracer.make({
    span: (...args) => {
      const span = base.span(...args)
      spans.push(span)
      return span
    },
    context: (f, fiber) => base.context(f, fiber)
  })
  return { tracer, spans }
})
