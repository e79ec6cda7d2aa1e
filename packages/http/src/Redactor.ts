/**
 * The one redactor: it knows the API key in every form a server can echo it and
 * replaces each with `<redacted>`. Every error and span attribute the SDK builds
 * passes through it where it is made; nothing is scrubbed afterwards.
 *
 * Forms: raw; URL-encoded (`encodeURIComponent`, and form encoding with `+` for a
 * space, in either hex case); base64 and base64url of the key. Only whole occurrences
 * are replaced: a form with a letter or digit right beside it is part of another word
 * ("key" is not redacted for the key "k"), and a key too short to tell from a word is
 * refused where the config is made (`Config.MIN_KEY_LENGTH`). An excerpt cut in the
 * middle of the key leaves no piece of it: at an excerpt's ends, a start or an end of
 * any form, four characters or more, standing alone there, is redacted too.
 *
 * @example
 * const r = Redactor.make("a&b=c#d%20")
 * r.redact("echo a%26b%3Dc%23d%2520") // "echo <redacted>"
 * @since 0.1.0
 */

import * as Encoding from "effect/Encoding"

/**
 * What `make` gives: a string redactor and a deep one for JSON-like values.
 *
 * @since 0.1.0
 * @category models
 */
export interface Redactor {
  readonly redact: (text: string) => string
  /** Strings inside arrays and objects redacted; other values as they are. */
  readonly redactValue: (value: unknown) => unknown
  /** A short, single-line, redacted excerpt of a body (at most `max` characters). */
  readonly excerpt: (text: string, max?: number) => string
}

/**
 * The placeholder a redacted key becomes.
 *
 * @since 0.1.0
 * @category constants
 */
export const PLACEHOLDER = "<redacted>"

/** The shortest piece of a cut key that is still redacted: shorter ones are ordinary text. */
const MIN_PIECE = 4

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** Every form a server may echo the key in. */
const formsOf = (key: string): ReadonlyArray<string> => {
  const bytes = new TextEncoder().encode(key)
  const forms = new Set<string>([
    key,
    encodeURIComponent(key),
    new URLSearchParams({ k: key }).toString().slice(2),
    encodeURI(key),
    Encoding.encodeBase64(bytes),
    Encoding.encodeBase64(bytes).replace(/=+$/, ""),
    Encoding.encodeBase64Url(bytes)
  ])
  return [...forms].filter((f) => f.length > 0).sort((a, b) => b.length - a.length)
}

/** A letter or digit: a form with one right beside it is inside another word, not the key. */
const WORD = /[A-Za-z0-9]/

/** Whether `neighbour` glues to the form's `edge` character into one word. */
const glued = (neighbour: string, edge: string): boolean => WORD.test(neighbour) && WORD.test(edge)

/**
 * A form as a pattern: percent escapes match in either hex case (servers differ), and where the form
 * begins or ends with a letter or digit, none may stand right beside it (whole occurrences only).
 */
const patternOf = (form: string): string => {
  const body = form.split(/(%[0-9A-Fa-f]{2})/).map((part) =>
    /^%[0-9A-Fa-f]{2}$/.test(part)
      ? `%${[...part.slice(1)].map((c) => `[${c.toUpperCase()}${c.toLowerCase()}]`).join("")}`
      : escapeRegExp(part)
  ).join("")
  const before = WORD.test(form.charAt(0)) ? "(?<![A-Za-z0-9])" : ""
  const after = WORD.test(form.charAt(form.length - 1)) ? "(?![A-Za-z0-9])" : ""
  return `${before}(?:${body})${after}`
}

/**
 * The redactor of `key`. An empty key redacts nothing.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (key: string): Redactor => {
  const forms = key.length === 0 ? [] : formsOf(key)
  const whole = forms.length === 0 ? undefined : new RegExp(forms.map(patternOf).join("|"), "g")
  // Case-blind: percent escapes come in either hex case; a few more characters redacted is harmless.
  const lowerForms = forms.map((f) => f.toLowerCase())
  const cutEnds = (text: string): string => {
    let out = text
    for (const form of lowerForms) {
      const lower = out.toLowerCase()
      for (let n = Math.min(form.length - 1, out.length); n >= MIN_PIECE; n--) {
        // A piece at the end stands alone there: nothing word-like just before it.
        if (lower.endsWith(form.slice(0, n)) && !glued(out.charAt(out.length - n - 1), form.charAt(0))) {
          out = out.slice(0, out.length - n) + PLACEHOLDER
          break
        }
      }
      for (let n = Math.min(form.length - 1, out.length); n >= MIN_PIECE; n--) {
        if (
          out.toLowerCase().startsWith(form.slice(form.length - n)) &&
          !glued(out.charAt(n), form.charAt(form.length - 1))
        ) {
          out = PLACEHOLDER + out.slice(n)
          break
        }
      }
    }
    return out
  }
  const redact = (text: string): string => whole === undefined ? text : text.replace(whole, PLACEHOLDER)
  const redactValue = (value: unknown): unknown => {
    if (typeof value === "string") return redact(value)
    if (Array.isArray(value)) return value.map(redactValue)
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [redact(k), redactValue(v)]))
    }
    return value
  }
  const excerpt = (text: string, max = 200): string => {
    // An excerpt's ends may fall inside the key (our cut, or a body the server cut short).
    const flat = redact(text).replace(/\s+/g, " ").trim()
    return flat.length > max ? `${cutEnds(flat.slice(0, max))}…` : cutEnds(flat)
  }
  return { redact, redactValue, excerpt }
}
