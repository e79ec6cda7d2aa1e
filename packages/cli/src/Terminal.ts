/**
 * What reaches the terminal. Everything the CLI prints passes through here:
 * the configured API key is replaced by `<redacted>` wherever it appears, ANSI
 * styling is dropped when the stream is not a terminal or `NO_COLOR` is set,
 * control characters in service data are shown escaped instead of being
 * obeyed by the terminal, and usage errors do not echo long values back (a key
 * pasted into the wrong option stays off the screen).
 *
 * @example
 * Terminal.escapeControl("evil\u001b[2Jname") // "evil\\u001b[2Jname"
 * program.pipe(Terminal.provide(Terminal.make({ secrets: [key] })))
 * @since 0.1.0
 */

import * as Redactor from "@solfx/http/Redactor"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"

/**
 * How output is cleaned for this run.
 *
 * @since 0.1.0
 * @category models
 */
export interface Terminal {
  /** Strings that must never be printed: the configured API key. */
  readonly secrets: ReadonlyArray<string>
  /** Whether stdout and stderr may carry ANSI styling. */
  readonly color: { readonly stdout: boolean; readonly stderr: boolean }
}

/**
 * Whether a stream may be styled: it is a terminal, and `NO_COLOR` is unset or
 * empty (https://no-color.org).
 *
 * @since 0.1.0
 * @category color
 */
export const colorEnabled = (stream: { readonly isTTY?: boolean | undefined }, env: NodeJS.ProcessEnv): boolean =>
  stream.isTTY === true && (env["NO_COLOR"] === undefined || env["NO_COLOR"] === "")

/**
 * The run's terminal: secrets to hide, and color decided per stream.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (options: {
  readonly secrets?: ReadonlyArray<string> | undefined
  readonly env?: NodeJS.ProcessEnv | undefined
  readonly stdout?: { readonly isTTY?: boolean | undefined } | undefined
  readonly stderr?: { readonly isTTY?: boolean | undefined } | undefined
}): Terminal => {
  const env = options.env ?? process.env
  return {
    secrets: (options.secrets ?? []).filter((s) => s.length > 0),
    color: {
      stdout: colorEnabled(options.stdout ?? process.stdout, env),
      stderr: colorEnabled(options.stderr ?? process.stderr, env)
    }
  }
}

// CSI and OSC sequences, and any other ESC-introduced pair.

const ANSI = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-Z\\-_]/g

/**
 * Text without ANSI escape sequences.
 *
 * @since 0.1.0
 * @category cleaning
 */
export const stripAnsi = (text: string): string => text.replace(ANSI, "")

// C0 and C1 controls, DEL, and the bidirectional overrides that reorder what a terminal shows.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g

/**
 * One line of service data made inert: every control character (newlines and
 * tabs included) is written as a visible escape, `\n`, `\t` or `\u001b`.
 *
 * @example
 * escapeControl("a\tb\u001b[31m") // "a\\tb\\u001b[31m"
 * @since 0.1.0
 * @category cleaning
 */
export const escapeControl = (text: string): string =>
  text.replace(CONTROL, (c) =>
    c === "\n"
      ? "\\n"
      : c === "\t"
      ? "\\t"
      : c === "\r"
      ? "\\r"
      : `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)

/**
 * Text with every whole occurrence of a secret replaced by `<redacted>`, by the SDK's one redactor
 * (never a piece of another word: "key" keeps its letters whatever the key).
 *
 * @since 0.1.0
 * @category cleaning
 */
export const redact = (text: string, secrets: ReadonlyArray<string>): string =>
  secrets.reduce((out, secret) => Redactor.make(secret).redact(out), text)

/** Values longer than this are not echoed in usage errors: an API key is 36 characters. */
const ECHO_MAX = 12

/**
 * A usage error that names long values by their length instead of echoing them
 * (`'1f0e…' is not a integer` becomes `'<36 characters>' is not a integer`).
 *
 * @since 0.1.0
 * @category cleaning
 */
export const hideValues = (text: string): string =>
  text.replace(
    /'([^'\n]*)'/g,
    (quoted, value: string) => value.length > ECHO_MAX ? `'<${value.length} characters>'` : quoted
  )

/** The width help is wrapped to. */
const HELP_WIDTH = 100

/**
 * Help text that fits `width` columns: a longer line loses its alignment padding (runs of spaces become
 * two) and is broken at spaces, its continuation indented four more than the line.
 *
 * @example
 * fitWidth("  - emulator [--port integer] ...", 40)
 * @since 0.1.0
 * @category cleaning
 */
export const fitWidth = (text: string, width: number = HELP_WIDTH): string =>
  text.split("\n").flatMap((line) => {
    if (line.length <= width) return [line]
    const indent = /^ */.exec(line)![0]
    const words = line.slice(indent.length).replace(/ {3,}/g, "  ").split(" ")
    const out: Array<string> = []
    let current = indent
    for (const word of words) {
      const lead = out.length === 0 ? indent : indent + "    "
      if (current.trim() !== "" && current.length + 1 + word.length > width) {
        out.push(current.trimEnd())
        current = indent + "    " + word
      } else current = current.length === lead.length && current.trim() === "" ? lead + word : `${current} ${word}`
    }
    out.push(current.trimEnd())
    return out
  }).join("\n")

const clean = (text: string, secrets: ReadonlyArray<string>, color: boolean): string => {
  const redacted = redact(text, secrets)
  return color ? redacted : stripAnsi(redacted)
}

/**
 * The Console that @effect/cli prints help and usage errors through, cleaned for this terminal.
 *
 * @since 0.1.0
 * @category console
 */
export const console = (base: Console.Console, terminal: Terminal): Console.Console => {
  // Console.log carries only help and the version here (command output goes to process.stdout).
  const out = (args: ReadonlyArray<unknown>) =>
    args.map((a) => typeof a === "string" ? fitWidth(clean(a, terminal.secrets, terminal.color.stdout)) : a)
  const err = (args: ReadonlyArray<unknown>) =>
    args.map((a) => typeof a === "string" ? hideValues(clean(a, terminal.secrets, terminal.color.stderr)) : a)
  return {
    ...base,
    log: (...args) => base.log(...out(args)),
    info: (...args) => base.info(...out(args)),
    error: (...args) => base.error(...err(args)),
    warn: (...args) => base.warn(...err(args))
  }
}

/**
 * Runs an effect with its Console cleaned for `terminal`.
 *
 * @since 0.1.0
 * @category console
 */
export const provide = (terminal: Terminal) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) => Effect.withConsole(self, console(base, terminal)))
