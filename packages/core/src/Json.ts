/**
 * Lossless JSON. On-chain integers (amounts, lamports, supply) can exceed 2^53,
 * where `JSON.parse` would round them silently. `parse` keeps every integer
 * literal that a double cannot hold exactly as its decimal string, so the
 * schemas (see `U64`) decode it to an exact bigint. `stringify` writes bigints
 * as bare JSON numbers with all their digits.
 *
 * @since 0.1.0
 */

// Cheap pre-check: without a run of 16 digits no literal can be unsafe, and the
// common case costs one regex scan on top of JSON.parse.
const LONG_DIGITS = /\d{16}/

/**
 * Parses JSON, keeping unsafe integers as decimal strings. Throws SyntaxError like JSON.parse.
 *
 * @example
 * parse('{"amount":18446744073709551615}') // { amount: "18446744073709551615" }
 * @since 0.1.0
 * @category parsing
 */
export const parse = (text: string): unknown => {
  if (!LONG_DIGITS.test(text)) return JSON.parse(text)
  return JSON.parse(quoteUnsafeIntegers(text))
}

const isDigit = (c: number) => c >= 48 && c <= 57

/** Wraps integer literals beyond 2^53 in quotes, leaving strings untouched. */
const quoteUnsafeIntegers = (text: string): string => {
  let out = ""
  let last = 0
  let i = 0
  const n = text.length
  while (i < n) {
    const c = text.charCodeAt(i)
    if (c === 34) {
      // skip a string literal
      i++
      while (i < n) {
        const d = text.charCodeAt(i)
        if (d === 92) i += 2
        else if (d === 34) break
        else i++
      }
      i++
      continue
    }
    if (c === 45 || isDigit(c)) {
      const start = i
      i++
      while (i < n && isDigit(text.charCodeAt(i))) i++
      const next = i < n ? text.charCodeAt(i) : 0
      const isInteger = next !== 46 && next !== 101 && next !== 69
      if (isInteger) {
        const literal = text.slice(start, i)
        if (!Number.isSafeInteger(Number(literal))) {
          out += text.slice(last, start) + "\"" + literal + "\""
          last = i
        }
      } else {
        while (i < n && /[0-9eE+\-.]/.test(text[i]!)) i++
      }
      continue
    }
    i++
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
