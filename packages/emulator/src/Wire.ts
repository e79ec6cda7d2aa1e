/**
 * Response text on the emulator's hot path. `stringify` calls `JSON.stringify` with
 * no replacer (a replacer takes V8 off its fast serializer), and falls back to core's
 * lossless `Json.stringify` only when the value holds a bigint, so u64s stay exact.
 * `Raw` embeds text serialised earlier, and `TextCache` keeps such text (one asset,
 * say) under a bound in characters, so a page served twice is joined, not rebuilt.
 *
 * @example
 * const cache = Wire.makeCache(64 * 1024 * 1024)
 * const items = ids.map((id) => cache.get(id, () => Wire.stringify(build(id))))
 * Wire.stringify({ result: { items: Wire.rawArray(items) } }) // the cached texts, spliced in
 * @since 0.1.0
 */
import * as Json from "@solfx/core/Json"

const MARK = "\u0000solfx-raw:"
const MARKED = JSON.stringify(MARK).slice(0, -1) // the mark as JSON text, without its closing quote

/** Raw texts met by the `stringify` call under way (it is synchronous: one at a time). */
let pending: Array<string> | undefined

/**
 * JSON text to put into a value as is.
 *
 * @since 0.1.0
 * @category models
 */
export class Raw {
  constructor(readonly text: string) {}
  /** Leaves a numbered mark that `stringify` replaces with the text. */
  toJSON(): string {
    pending ??= []
    pending.push(this.text)
    return `${MARK}${pending.length - 1}`
  }
}

/**
 * A JSON array of texts that are JSON values already.
 *
 * @since 0.1.0
 * @category constructors
 */
export const rawArray = (texts: ReadonlyArray<string>): Raw => new Raw(`[${texts.join(",")}]`)

const splice = (text: string, raws: ReadonlyArray<string>): string => {
  let out = ""
  let from = 0
  // Marks appear in the text in the order toJSON was called.
  for (let n = 0; n < raws.length; n++) {
    const mark = `${MARKED}${n}"`
    const at = text.indexOf(mark, from)
    if (at < 0) continue
    out += text.slice(from, at) + raws[n]
    from = at + mark.length
  }
  return out + text.slice(from)
}

/**
 * JSON text of a value: bigints as bare numbers with all their digits, `Raw` values spliced in.
 *
 * @since 0.1.0
 * @category printing
 */
export const stringify = (value: unknown): string => {
  const outer = pending
  pending = undefined
  try {
    let text: string
    try {
      text = JSON.stringify(value)
    } catch (e) {
      // A bigint: the lossless (slower) path. Anything else fails there too.
      if (!(e instanceof TypeError)) throw e
      pending = undefined
      text = Json.stringify(value)
    }
    return pending === undefined ? text : splice(text, pending)
  } finally {
    pending = outer
  }
}

/**
 * A cache of serialised texts, bounded by their total length in characters (about bytes:
 * the texts are mostly ASCII). The least recently used go first.
 *
 * @since 0.1.0
 * @category models
 */
export interface TextCache {
  /** The text of `key`, made by `make` when absent. */
  readonly get: (key: string, make: () => string) => string
  /** Characters held now, and the bound. */
  readonly size: () => number
  readonly maxChars: number
}

/**
 * An empty cache holding at most `maxChars` characters of text (0 turns it off).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCache = (maxChars: number): TextCache => {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recent.
  const entries = new Map<string, string>()
  let size = 0
  return {
    maxChars,
    size: () => size,
    get: (key, make) => {
      const hit = entries.get(key)
      if (hit !== undefined) {
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const text = make()
      if (text.length > maxChars) return text
      entries.set(key, text)
      size += text.length
      for (const [oldest, old] of entries) {
        if (size <= maxChars) break
        entries.delete(oldest)
        size -= old.length
      }
      return text
    }
  }
}
