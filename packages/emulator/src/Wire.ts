/**
 * Response bodies on the emulator's hot path. `encode` (bytes, what the server writes) and
 * `stringify` (text) call `JSON.stringify` with no replacer (a replacer takes V8 off its fast
 * serializer), and fall back to core's lossless `Json.stringify` only when the value holds a
 * bigint, so u64s stay exact. `Raw` embeds JSON serialised earlier, as text or as UTF-8
 * bytes: `encode` copies cached bytes into the body as they are, so a page served again is
 * neither rebuilt nor re-encoded. `ByteCache` keeps such bytes (the items of a page, say)
 * under a bound in bytes.
 *
 * @example
 * const cache = Wire.makeCache(64 * 1024 * 1024)
 * const items = cache.get(pageKey, () => Wire.utf8(`[${ids.map((id) => Wire.stringify(build(id))).join(",")}]`))
 * Wire.encode({ result: { items: new Wire.Raw(items) } }) // the cached bytes, copied in
 * @since 0.1.0
 */
import * as Json from "@solfx/core/Json"

const MARK = "\u0000solfx-raw:"
const MARKED = JSON.stringify(MARK).slice(0, -1) // the mark as JSON text, without its closing quote

/** Raw values met by the serialisation under way (it is synchronous: one at a time). */
let pending: Array<string | Uint8Array> | undefined

/**
 * JSON (text, or its UTF-8 bytes) to put into a value as is.
 *
 * @since 0.1.0
 * @category models
 */
export class Raw {
  constructor(readonly json: string | Uint8Array) {}
  /** Leaves a numbered mark that `stringify` and `encode` replace with the JSON. */
  toJSON(): string {
    pending ??= []
    pending.push(this.json)
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

/**
 * The UTF-8 bytes of a text.
 *
 * @since 0.1.0
 * @category constructors
 */
export const utf8 = (text: string): Uint8Array => Buffer.from(text, "utf8")

/** JSON text of a value with marks for its `Raw` parts, and those parts in mark order. */
const serialise = (value: unknown): { readonly text: string; readonly raws: ReadonlyArray<string | Uint8Array> } => {
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
    return { text, raws: pending ?? [] }
  } finally {
    pending = outer
  }
}

/** The text cut at its marks, with each mark's raw part in its place. */
const splice = <P>(
  text: string,
  raws: ReadonlyArray<string | Uint8Array>,
  piece: (text: string) => P,
  raw: (json: string | Uint8Array) => P
): Array<P> => {
  const parts: Array<P> = []
  let from = 0
  // Marks appear in the text in the order toJSON was called.
  for (let n = 0; n < raws.length; n++) {
    const mark = `${MARKED}${n}"`
    const at = text.indexOf(mark, from)
    if (at < 0) continue
    parts.push(piece(text.slice(from, at)), raw(raws[n]!))
    from = at + mark.length
  }
  parts.push(piece(text.slice(from)))
  return parts
}

/**
 * JSON text of a value: bigints as bare numbers with all their digits, `Raw` values spliced in.
 *
 * @since 0.1.0
 * @category printing
 */
export const stringify = (value: unknown): string => {
  const { raws, text } = serialise(value)
  if (raws.length === 0) return text
  const same = (s: string) => s
  return splice(text, raws, same, (json) => (typeof json === "string" ? json : Buffer.from(json).toString("utf8")))
    .join("")
}

/**
 * The UTF-8 bytes of `stringify(value)`, with `Raw` bytes copied in unchanged: the body the server writes.
 *
 * @since 0.1.0
 * @category printing
 */
export const encode = (value: unknown): Uint8Array => {
  const { raws, text } = serialise(value)
  if (raws.length === 0) return utf8(text)
  return Buffer.concat(splice(text, raws, utf8, (json) => (typeof json === "string" ? utf8(json) : json)))
}

/**
 * A cache of serialised JSON as UTF-8 bytes, bounded by their total length. The least
 * recently used go first.
 *
 * @since 0.1.0
 * @category models
 */
export interface ByteCache {
  /** The bytes of `key`, made by `make` when absent. */
  readonly get: (key: string, make: () => Uint8Array) => Uint8Array
  /** Bytes held now, and the bound. */
  readonly size: () => number
  readonly maxBytes: number
}

/**
 * An empty cache holding at most `maxBytes` bytes (0 turns it off).
 *
 * @since 0.1.0
 * @category constructors
 */
export const makeCache = (maxBytes: number): ByteCache => {
  // A Map iterates in insertion order: re-inserting on a hit makes its first key the least recent.
  const entries = new Map<string, Uint8Array>()
  let size = 0
  return {
    maxBytes,
    size: () => size,
    get: (key, make) => {
      const hit = entries.get(key)
      if (hit !== undefined) {
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const bytes = make()
      if (bytes.length > maxBytes) return bytes
      entries.set(key, bytes)
      size += bytes.length
      for (const [oldest, old] of entries) {
        if (size <= maxBytes) break
        entries.delete(oldest)
        size -= old.length
      }
      return bytes
    }
  }
}
