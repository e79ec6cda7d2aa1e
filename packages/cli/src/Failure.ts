/**
 * How a run ends: the exit code, and the one line on stderr that says why.
 *
 * - 0: success.
 * - 1: a typed failure, printed as `<Tag>: <one-line message>` (never a stack trace, never the API key).
 * - 2: a usage error: bad options or arguments (@effect/cli's `ValidationError`, reported as
 *   `UsageError: <its text>`), a `UsageError` such as a missing API key, or an `InvalidRequest`:
 *   an argument the SDK refused before sending anything (a malformed address).
 * - 130: interrupted (Ctrl-C).
 *
 * @example
 * Failure.report(Cause.fail(new Failure.UsageError({ message: "no key" })))
 * // { code: 2, line: Option.some("UsageError: no key") }
 * @since 0.1.0
 */

import * as HelpDoc from "@effect/cli/HelpDoc"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import { escapeControl, hideValues, redact, stripAnsi } from "./Terminal.js"

/**
 * Bad use of the command line that @effect/cli cannot see: a missing API key, no
 * mints to read, a malformed `--faults` spec. Exit code 2.
 *
 * @since 0.1.0
 * @category errors
 */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/**
 * What a run's failure becomes: the process's exit code and what stderr says.
 *
 * @since 0.1.0
 * @category models
 */
export interface Report {
  readonly code: 0 | 1 | 2 | 130
  /** The line for stderr, if any. */
  readonly line: Option.Option<string>
}

const MAX_LINE = 400

/**
 * One line: no newlines, no secret, every control character escaped (a message may quote input,
 * such as a mint read from stdin), at most 400 characters.
 *
 * @since 0.1.0
 * @category reporting
 */
export const oneLine = (text: string, secrets: ReadonlyArray<string> = []): string => {
  const out = redact(escapeControl(text.replace(/\s*\n\s*/g, " ").trim()), secrets)
  return out.length > MAX_LINE ? out.slice(0, MAX_LINE - 1) + "…" : out
}

const tagOf = (error: unknown): string =>
  Predicate.hasProperty(error, "_tag") && typeof error._tag === "string"
    ? error._tag
    : error instanceof Error
    ? error.name
    : "Error"

/**
 * Messages that name an SDK option, in the command line's words: the setting a CLI user has is an
 * environment variable or a flag, not the option of `Solfx.layer`.
 */
const inCliWords = (error: unknown): string | undefined =>
  Predicate.isTagged(error, "InsecureTransport") && Predicate.hasProperty(error, "host")
    ? `Refusing to send the API key over plain http:// to ${String(error.host)}; ` +
      "use https or set SOLFX_ALLOW_INSECURE_HTTP=true"
    : undefined

const messageOf = (error: unknown, depth = 0): string => {
  const cliWords = depth === 0 ? inCliWords(error) : undefined
  if (cliWords !== undefined) return cliWords
  if (error instanceof Error || Predicate.hasProperty(error, "message")) {
    const message = String((error as { message: unknown }).message)
    if (message.length > 0 && message !== tagOf(error)) return message
  }
  // Platform errors (ServeError, RequestError...) carry the useful text in their cause.
  if (depth < 3 && Predicate.hasProperty(error, "cause") && error.cause !== undefined) {
    return messageOf(error.cause, depth + 1)
  }
  return typeof error === "string" ? error : tagOf(error)
}

/**
 * The exit code and stderr line of a run's failure.
 *
 * @since 0.1.0
 * @category reporting
 */
export const report = <E>(cause: Cause.Cause<E>, secrets: ReadonlyArray<string> = []): Report => {
  const failure = Cause.failureOption(cause)
  if (Option.isSome(failure)) {
    const error: unknown = failure.value
    if (ValidationError.isValidationError(error)) {
      // @effect/cli's own text, in the one format of every failure; long values it quotes are not echoed.
      // (A config error's text comes in parentheses: "(Invalid data at SOLFX_API_KEY: ...)".)
      const text = hideValues(stripAnsi(HelpDoc.toAnsiText(error.error)).trim().replace(/^\((.*)\)$/s, "$1"))
      return { code: 2, line: Option.some(`UsageError: ${oneLine(text, secrets)}`) }
    }
    // InvalidRequest is the SDK refusing an argument before any request: a bad argument, like a usage error.
    const code = Predicate.isTagged(error, "UsageError") || Predicate.isTagged(error, "InvalidRequest") ? 2 : 1
    return { code, line: Option.some(`${tagOf(error)}: ${oneLine(messageOf(error), secrets)}`) }
  }
  const defect = Cause.dieOption(cause)
  if (Option.isSome(defect)) {
    // Not a typed failure: still one line, named by the error, without its stack.
    return { code: 1, line: Option.some(`${tagOf(defect.value)}: ${oneLine(messageOf(defect.value), secrets)}`) }
  }
  if (Cause.isInterruptedOnly(cause)) return { code: 130, line: Option.none() }
  return {
    code: 1,
    line: Option.some(
      `Error: ${oneLine(Cause.squash(cause) instanceof Error ? messageOf(Cause.squash(cause)) : "failed", secrets)}`
    )
  }
}
