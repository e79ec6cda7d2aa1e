/**
 * Lossless JSON. On-chain integers (amounts, lamports, supply) can exceed 2^53,
 * where `JSON.parse` would round them silently. `parse` keeps every integer
 * literal that a double cannot hold exactly as its decimal string, so the
 * schemas (see `U64`) decode it to an exact bigint. `stringify` writes bigints
 * as bare JSON numbers with all their digits.
 *
 * @example
 * Json.parse('{"amount":18446744073709551615}') // { amount: "18446744073709551615" }, no rounding
 * Json.stringify({ amount: 18446744073709551615n }) // '{"amount":18446744073709551615}'
 * @since 0.1.0
 */

/**
 * Parses JSON, keeping unsafe integers as decimal strings. Throws SyntaxError like JSON.parse.
 *
 * JSON.parse reads the text first. A walk over the value then looks for numbers
 * of magnitude 2^53 or more: an unsafe integer literal always parses to one, so
 * without any nothing was rounded (the common case: one walk more than JSON.parse).
 * Otherwise one regex pass over the text, which skips strings in the regex engine,
 * lists every number literal that large; each large number of the value is
 * given back the digits of the literal it was read from (found by its value), or
 * stays a number when that literal has a fraction or an exponent. When two such
 * literals share a value but not their digits, the text is parsed again with
 * the integer literals quoted, which is exact in every case.
 *
 * @example
 * parse('{"amount":18446744073709551615}') // { amount: "18446744073709551615" }
 * @since 0.1.0
 * @category parsing
 */
export const parse = (text: string): unknown => {
  const value: unknown = JSON.parse(text)
  if (typeof value === "number") return isLarge(value) ? JSON.parse(quoteUnsafeIntegers(text)) : value
  const parents: Array<Record<string | number, unknown>> = []
  const keys: Array<string | number> = []
  collectLarge(value, parents, keys)
  if (parents.length === 0) return value
  const exact = largeNumbers(text)
  if (exact === undefined || !parents.every((parent, i) => exact.has(parent[keys[i]!] as number))) {
    // A value written two ways: the quoting parse is exact in every case.
    return JSON.parse(quoteUnsafeIntegers(text))
  }
  for (let i = 0; i < parents.length; i++) parents[i]![keys[i]!] = exact.get(parents[i]![keys[i]!] as number)
  return value
}

/**
 * The numbers of magnitude 2^53 or more of a JSON text, as `parse` gives them,
 * by the value JSON.parse rounds them to: the digits of an integer literal, the
 * number itself for a literal with a fraction or an exponent. Undefined when two
 * literals round to one value but are written differently (which one a rounded
 * number came from is then unknown). For a text JSON.parse accepts.
 *
 * @example
 * largeNumbers('{"a":18446744073709551615,"b":1e300}') // Map { 18446744073709552000 => "18446744073709551615", 1e300 => 1e300 }
 * @since 0.1.0
 * @category parsing
 */
export const largeNumbers = (text: string): ReadonlyMap<number, string | number> | undefined => {
  const written = new Map<number, Literal>()
  for (const literal of largeLiterals(text)) {
    const seen = written.get(literal.value)
    if (seen !== undefined && seen.text !== literal.text) return undefined
    written.set(literal.value, literal)
  }
  const out = new Map<number, string | number>()
  for (const [value, literal] of written) out.set(value, literal.integer ? literal.text : value)
  return out
}

const TWO_53 = 2 ** 53
const isLarge = (v: number) => !(v < TWO_53 && v > -TWO_53)

/**
 * The exact value of a large number of `JSON.parse(text)` (magnitude 2^53 or more), as
 * `largeNumbers(text)` gives it, or undefined where that gives none. For a text JSON.parse accepts.
 *
 * Most values are answered without reading the whole text: a decimal that rounds to `v` has at
 * least as many significant digits as `String(v)` (the shortest that round-trips), so when that
 * is `RUN` (14) or more, every literal of value `v` holds a run of 14 characters of digits and
 * at most one point. Reading every 14th character finds each such run. A run inside a string
 * (an address, a quoted amount) is no literal, and is passed over by what borders it; any two
 * literals of one value written differently leave that value to `largeNumbers`. Any other value
 * (fewer significant digits, none found) is also left to it, which reads the whole text once.
 *
 * @example
 * largeNumberLookup('{"a":18446744073709551615}')(18446744073709552000) // "18446744073709551615"
 * @since 0.1.0
 * @category parsing
 */
export const largeNumberLookup = (text: string): (v: number) => string | number | undefined => {
  let sparse: ReadonlyMap<number, string | number | typeof CONFLICT> | undefined
  let full: ReadonlyMap<number, string | number> | undefined | null = null
  return (v) => {
    if (significantDigits(v) >= RUN) {
      sparse ??= sparseLargeNumbers(text)
      const e = sparse.get(v)
      if (e !== undefined && e !== CONFLICT) return e
    }
    if (full === null) full = largeNumbers(text)
    return full?.get(v)
  }
}

const CONFLICT: unique symbol = Symbol("conflict")

/**
 * The run `largeNumberLookup` looks for. Shorter reads more of the text; longer leaves more values
 * to the full scan (a double of 2^53 to 2^64 read from a long literal has 15 to 17 significant
 * digits: about one in thirteen has fewer than 16, hardly any fewer than 14).
 */
const RUN = 14

/** The significant digits of a number's shortest round-trip form (`String(v)`). */
const significantDigits = (v: number): number => {
  const s = String(v < 0 ? -v : v)
  const e = s.indexOf("e")
  let digits = 0
  let last = 0
  for (let i = 0, end = e < 0 ? s.length : e; i < end; i++) {
    const c = s.charCodeAt(i)
    if (c === 46) continue
    // Leading zeros do not count, trailing ones are dropped at the end.
    if (digits > 0 || c !== 48) digits++
    if (c !== 48) last = digits
  }
  return last
}

/** A digit or a point: what the significant digits of a literal are written in, without a break. */
const isRunChar = (c: number) => (c >= 48 && c <= 57) || c === 46

/**
 * What may stand next to a number literal in JSON: a structural character, white space, or the
 * text's end (NaN). A run bordered by anything else (a letter of an address, a quote) is in a string.
 */
const bordersNumber = (c: number) =>
  c === 44 || c === 58 || c === 91 || c === 93 || c === 125 || c === 32 || c === 10 || c === 13 || c === 9 || c !== c

/**
 * Every large number literal of a text holding a run of `RUN` digits and points: by value, the
 * literal's digits (integer) or the number (otherwise), or CONFLICT when two are written differently.
 */
const sparseLargeNumbers = (text: string): ReadonlyMap<number, string | number | typeof CONFLICT> => {
  const out = new Map<number, string | number | typeof CONFLICT>()
  const n = text.length
  /** Records the number token around position `at`, when it is a large literal; returns where it ends. */
  const token = (at: number): number => {
    let start = at
    while (start > 0 && isNumberChar(text.charCodeAt(start - 1))) start--
    let end = at + 1
    while (end < n && isNumberChar(text.charCodeAt(end))) end++
    // Bounds first: most runs found are in strings, and slicing and reading them costs more.
    if (!bordersNumber(text.charCodeAt(start - 1)) || !bordersNumber(text.charCodeAt(end))) return end
    const literal = text.slice(start, end)
    const value = Number(literal)
    if (isLarge(value) && JSON_NUMBER.test(literal)) {
      const exact = INTEGER.test(literal) ? literal : value
      const seen = out.get(value)
      out.set(value, seen === undefined || seen === exact ? exact : CONFLICT)
    }
    return end
  }
  const half = RUN / 2
  // A run of RUN covers one position of every RUN: probe those only. A run through `i` also holds
  // `i - RUN / 2` or `i + RUN / 2`, which passes over most probes (in base58, in short numbers)
  // before their run is counted. The probes are not what costs: on a page of a megabyte, reading
  // the text again from memory is (every cache line is read at any stride below 64).
  for (let i = RUN - 1; i < n; i += RUN) {
    if (
      !isRunChar(text.charCodeAt(i)) ||
      !(isRunChar(text.charCodeAt(i - half)) || isRunChar(text.charCodeAt(i + half)))
    ) continue
    let before = 0
    while (before < RUN - 1 && isRunChar(text.charCodeAt(i - 1 - before))) before++
    let after = 0
    while (after < RUN - 1 - before && isRunChar(text.charCodeAt(i + 1 + after))) after++
    if (before + 1 + after < RUN) continue
    const end = token(i)
    // On past the token, on the same grid.
    i = end - 1 - ((end - RUN) % RUN)
  }
  return out
}

const JSON_NUMBER = /^-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?$/
const INTEGER = /^-?[0-9]+$/

/** Where the large numbers of a parsed value sit: `parents[i][keys[i]]`. Iterative, so any depth. */
const collectLarge = (
  root: unknown,
  parents: Array<Record<string | number, unknown>>,
  keys: Array<string | number>
) => {
  const stack: Array<unknown> = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (typeof v !== "object" || v === null) continue
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x = v[i]
        if (typeof x === "object") {
          if (x !== null) stack.push(x)
        } else if (typeof x === "number" && isLarge(x)) {
          parents.push(v as unknown as Record<number, unknown>)
          keys.push(i)
        }
      }
    } else {
      for (const k in v) {
        const x = (v as Record<string, unknown>)[k]
        if (typeof x === "object") {
          if (x !== null) stack.push(x)
        } else if (typeof x === "number" && isLarge(x)) {
          parents.push(v as Record<string, unknown>)
          keys.push(k)
        }
      }
    }
  }
}

/** A number literal of magnitude 2^53 or more, as written. */
interface Literal {
  readonly start: number
  readonly end: number
  readonly text: string
  /** No fraction, no exponent: the literal the parser keeps as digits. */
  readonly integer: boolean
  readonly value: number
}

/**
 * Everything up to the next place a large number can be written, outside strings:
 * whole strings with the punctuation after them; text other than quotes, digits,
 * minus signs, `e`/`E` and the `t`/`f` of `true`/`false`; those two words;
 * numbers of at most 15 digits; a lone minus sign. It stops at a run of 16 or
 * more digits, or at an exponent.
 */
const UP_TO_LARGE = /(?:"[^"\\]*(?:\\.[^"\\]*)*"[^"0-9eEtf-]*|[^"0-9eEtf-]+|true|false|-?[0-9]{1,15}(?![0-9])|-)*/y

const isNumberChar = (c: number) => (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69

/** The large number literals of a text (valid JSON, or text JSON.parse rejects anyway), in order. */
const largeLiterals = (text: string): Array<Literal> => {
  const out: Array<Literal> = []
  const n = text.length
  let i = 0
  while (i < n) {
    UP_TO_LARGE.lastIndex = i
    UP_TO_LARGE.exec(text)
    i = UP_TO_LARGE.lastIndex
    if (i >= n) break
    // A long digit run or an exponent: the whole number token around it.
    let start = i
    while (start > 0 && isNumberChar(text.charCodeAt(start - 1))) start--
    let end = i
    while (end < n && isNumberChar(text.charCodeAt(end))) end++
    // Not a number at all (an unterminated string, another syntax error): the rest is JSON.parse's to reject.
    if (end === i) break
    const literal = text.slice(start, end)
    const value = Number(literal)
    if (isLarge(value)) out.push({ start, end, text: literal, integer: /^-?[0-9]+$/.test(literal), value })
    i = end
  }
  return out
}

/** Wraps integer literals beyond 2^53 in quotes, leaving strings, fractions and exponents untouched. */
const quoteUnsafeIntegers = (text: string): string => {
  let out = ""
  let last = 0
  for (const literal of largeLiterals(text)) {
    // A leading zero is not JSON: left for JSON.parse to reject.
    if (!literal.integer || /^-?0/.test(literal.text)) continue
    out += text.slice(last, literal.start) + "\"" + literal.text + "\""
    last = literal.end
  }
  return last === 0 ? text : out + text.slice(last)
}

const BIG_MARK = "\u0000solfx-bigint:"
const BIG_RE = /"\\u0000solfx-bigint:(-?\d+)"/g

/**
 * Stringifies JSON, writing bigints as bare numbers with every digit.
 *
 * @example
 * stringify({ amount: 18446744073709551615n }) // '{"amount":18446744073709551615}'
 * @since 0.1.0
 * @category printing
 */
export const stringify = (value: unknown, space?: number): string => {
  let sawBigInt = false
  const text = JSON.stringify(
    value,
    (_key, v) => {
      if (typeof v === "bigint") {
        sawBigInt = true
        return BIG_MARK + v.toString()
      }
      return v
    },
    space
  )
  return sawBigInt ? text.replace(BIG_RE, "$1") : text
}
