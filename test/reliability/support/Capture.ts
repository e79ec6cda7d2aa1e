/**
 * Runs an effect and keeps every form in which its outcome can be seen: the
 * failure rendered as message, `String`, JSON, `util.inspect` and `Cause.pretty`;
 * the log lines written while it ran (every level, through the logfmt, JSON,
 * string and structured loggers, the outcome logged as a user would log it);
 * and the spans it opened (names, attributes, events, end status), captured by
 * wrapping the current `Effect.tracer`.
 */
import * as NodeSdk from "@effect/opentelemetry/NodeSdk"
import { InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Spans from "@solfx/testing/Spans"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { inspect } from "node:util"

export interface Captured<A, E> {
  readonly exit: Exit.Exit<A, E>
  /** Every rendering: of the outcome, of each log line, of each span. */
  readonly texts: ReadonlyArray<string>
  readonly spans: number
  readonly logs: number
}

const json = (u: unknown): string => {
  try {
    return JSON.stringify(u, (_k, v) => (typeof v === "bigint" ? v.toString() : v)) ?? "undefined"
  } catch (e) {
    return `<JSON.stringify threw: ${String(e)}>`
  }
}

/** The ways a user may print what a call returned or how it failed. */
export const renderExit = <A, E>(exit: Exit.Exit<A, E>): Array<string> => {
  if (Exit.isSuccess(exit)) return [inspect(exit.value, { depth: 10 }), json(exit.value), String(exit.value)]
  const error = Cause.squash(exit.cause) as { message?: unknown }
  return [
    String(error?.message),
    String(error),
    json(error),
    inspect(error, { depth: 10 }),
    Cause.pretty(exit.cause),
    inspect(exit.cause, { depth: 10 }),
    json(exit.cause),
    String(exit.cause)
  ]
}

export const capture = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<Captured<A, E>, never, R> => {
  // An OpenTelemetry SDK under the native tracer: its exporter records every span, event
  // (exception.message, exception.stacktrace) and status as a tracing backend would get them.
  const exporter = new InMemorySpanExporter()
  const otel = NodeSdk.layer(() => ({
    resource: { serviceName: "reliability" },
    spanProcessor: new SimpleSpanProcessor(exporter)
  }))
  return Effect.gen(function*() {
    const { spans, tracer } = yield* Spans.recording
    const lines: Array<string> = []
    const logger = Logger.make((options) => {
      lines.push(
        Logger.logfmtLogger.log(options),
        Logger.jsonLogger.log(options),
        Logger.stringLogger.log(options),
        inspect(Logger.structuredLogger.log(options), { depth: 10 })
      )
    })
    const exit = yield* effect.pipe(
      Effect.tap((value) => Effect.logInfo("call succeeded", value)),
      // Logged as a user would: the whole cause, at error level.
      Effect.tapErrorCause((cause) => Effect.logError("call failed", cause)),
      Effect.withSpan("reliability.capture"),
      Effect.withTracer(tracer),
      Effect.provide(Logger.replace(Logger.defaultLogger, logger)),
      Logger.withMinimumLogLevel(LogLevel.All),
      Effect.exit
    )
    const spanTexts = spans.flatMap((span) => [
      span.name,
      inspect([...span.attributes], { depth: 10 }),
      inspect((span as { events?: unknown }).events ?? [], { depth: 10 }),
      inspect(span.status, { depth: 10 })
    ])
    const exported = exporter.getFinishedSpans().map((span) =>
      json({
        name: span.name,
        attributes: span.attributes,
        events: span.events.map((e) => ({ name: e.name, attributes: e.attributes })),
        status: span.status
      })
    )
    return {
      exit,
      texts: [...renderExit(exit), ...lines, ...spanTexts, ...exported],
      spans: spans.length,
      logs: lines.length / 4
    }
  }).pipe(Effect.provide(otel))
}

/** The secrets found in `texts`, by the whole value or by its random part alone. */
export const leaksIn = (texts: ReadonlyArray<string>, secrets: ReadonlyArray<string>): Array<string> => {
  // Raw, its random part, and the forms a server may echo (URL-encoded, base64).
  const needles = secrets.flatMap((s) => [
    s,
    s.replace(/^[A-Z]+-/, ""),
    encodeURIComponent(s),
    Buffer.from(s).toString("base64").replace(/=+$/, "")
  ])
  const found: Array<string> = []
  for (const text of texts) {
    for (const needle of needles) {
      const at = text.indexOf(needle)
      if (at >= 0) found.push(`${needle.slice(0, 12)}… in: ${text.slice(Math.max(0, at - 80), at + 40)}`)
    }
  }
  return found
}
