/**
 * kit reads every integer of an answer as a `bigint` (its default transport parses with
 * `parseJsonWithBigInts`, a character loop over the whole text). The transport hands it
 * `JSON.parse`'s value instead, which is exact for every integer below 2^53, and reads the text
 * again only when it holds an integer literal of 16 digits or more (2^53 has 16): then every such
 * literal becomes a `bigint` with all its digits. kit's own response transformer turns the rest
 * into `bigint`s (or numbers where its API says so) either way.
 */

/** 16 digits in a row: maybe an integer of 2^53 or more (or digits inside a string: only a slower read). */
const LONG_RUN = /\d{16}/

/** A JSON value with every integer literal of 16 digits or more as an exact `bigint`. */
export const exactValue = (text: string, value: unknown, select: (body: any) => unknown): unknown =>
  LONG_RUN.test(text) ? select(parseWithBigInts(text)) : value

// A mark no answer's string starts with: written escaped into the text, read back unescaped.
const MARK = "\u0000big:"
const WRITTEN_MARK = "\\u0000big:"

/**
 * JSON.parse with the long integer literals (outside strings) quoted and marked, then turned into
 * `bigint`s by the reviver. Written here because kit does not export its parser from `@solana/kit`.
 */
const parseWithBigInts = (text: string): unknown => {
  let out = ""
  let last = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 92) i++ // a backslash: skip the escaped character
      else if (c === 34) inString = false
      continue
    }
    if (c === 34) {
      inString = true
      continue
    }
    if (c === 45 || (c >= 48 && c <= 57)) {
      let end = i + 1
      let integer = true
      while (end < text.length) {
        const d = text.charCodeAt(end)
        if (d >= 48 && d <= 57) end++
        else if (d === 46 || d === 101 || d === 69 || d === 43 || d === 45) {
          integer = false
          end++
        } else break
      }
      if (integer && end - i >= 16) {
        out += text.slice(last, i) + "\"" + WRITTEN_MARK + text.slice(i, end) + "\""
        last = end
      }
      i = end - 1
    }
  }
  const marked = last === 0 ? text : out + text.slice(last)
  return JSON.parse(
    marked,
    (_, v) => typeof v === "string" && v.startsWith(MARK) ? BigInt(v.slice(MARK.length)) : v
  )
}
