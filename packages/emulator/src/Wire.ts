/**
 * Response bodies on the emulator's hot path. `encode` (bytes, what the server writes) and
 * `stringify` (text) call `JSON.stringify` with no replacer (a replacer takes V8 off its fast
 * serializer), and fall back to core's lossless `Json.stringify` only when the value holds a
 * bigint, so u64s stay exact. `Raw` embeds JSON serialised earlier, as text or as UTF-8
 * bytes: `encode` copies cached bytes into the body as they are, so a page served again is
 * neither rebuilt nor re-encoded. Bytes no cache keeps (`Raw` marked owned) are not copied at
 * all: the rest of the body is written into their headroom. `ByteCache` keeps such bytes (the
 * items of a page, say) under a bound in bytes.
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
let pending: Array<Raw> | undefined

/**
 * JSON (text, or its UTF-8 bytes) to put into a value as is.
 *
 * @since 0.1.0
 * @category models
 */
export class Raw {
  /**
   * `owned`: the bytes (made by `utf8Array`) belong to this value alone, not to a cache, so
   * `encode` may write the rest of the body into their headroom instead of copying them.
   */
  constructor(readonly json: string | Uint8Array, readonly owned = false) {}
  /** Leaves a numbered mark that `stringify` and `encode` replace with the JSON. */
  toJSON(): string {
    pending ??= []
    pending.push(this)
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

/** Where `utf8Array` writes, grown as needed and kept: the result is copied out at its exact size. */
let scratch = Buffer.allocUnsafe(1 << 20)

/**
 * Room `utf8Array` leaves before and after its bytes: enough for the JSON-RPC envelope of a
 * page, so `encode` writes the envelope around owned bytes rather than copying them into a
 * new body (a page's megabyte copied twice showed in profiles).
 */
const HEADROOM = 512

/**
 * The UTF-8 bytes of a JSON array of `count` texts that are JSON values already, each made by
 * `textAt(k)` and written at once: no text lives longer than its own writing. A page's 1,000
 * asset texts held until the end (to join them) were copied by every young-generation GC that
 * met them, and promoted: most of the GC time of serving a page.
 *
 * @since 0.1.0
 * @category constructors
 */
export const utf8Array = (count: number, textAt: (k: number) => string): Uint8Array => {
  scratch[0] = 0x5b // [
  let at = 1
  for (let k = 0; k < count; k++) {
    const text = textAt(k)
    // A UTF-16 code unit is at most 3 UTF-8 bytes; 2 more for "," and "]".
    if (at + 3 * text.length + 2 > scratch.length) {
      const grown = Buffer.allocUnsafe(Math.max(2 * scratch.length, at + 3 * text.length + 2))
      scratch.copy(grown, 0, 0, at)
      scratch = grown
    }
    if (k > 0) scratch[at++] = 0x2c // ,
    at += scratch.write(text, at, "utf8")
  }
  scratch[at++] = 0x5d // ]
  const out = Buffer.allocUnsafeSlow(HEADROOM + at + HEADROOM)
  scratch.copy(out, HEADROOM, 0, at)
  return out.subarray(HEADROOM, HEADROOM + at)
}

/** JSON text of a value with marks for its `Raw` parts, and those parts in mark order. */
const serialise = (value: unknown): { readonly text: string; readonly raws: ReadonlyArray<Raw> } => {
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
  raws: ReadonlyArray<Raw>,
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
    parts.push(piece(text.slice(from, at)), raw(raws[n]!.json))
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
  if (raws.length === 1) {
    const inPlace = around(text, raws[0]!)
    if (inPlace !== undefined) return inPlace
  }
  return Buffer.concat(splice(text, raws, utf8, (json) => (typeof json === "string" ? utf8(json) : json)))
}

/** The body written around one owned raw part, in its headroom; undefined when it does not fit. */
const around = (text: string, raw: Raw): Uint8Array | undefined => {
  const json = raw.json
  if (!raw.owned || typeof json === "string") return undefined
  const mark = `${MARKED}0"`
  const at = text.indexOf(mark)
  if (at < 0) return undefined
  const before = text.slice(0, at)
  const after = text.slice(at + mark.length)
  const beforeBytes = Buffer.byteLength(before, "utf8")
  const afterBytes = Buffer.byteLength(after, "utf8")
  const start = json.byteOffset - beforeBytes
  if (start < 0 || json.byteOffset + json.length + afterBytes > json.buffer.byteLength) return undefined
  const body = Buffer.from(json.buffer, start, beforeBytes + json.length + afterBytes)
  body.write(before, 0, "utf8")
  body.write(after, beforeBytes + json.length, "utf8")
  return body
}

/** The memory bytes hold: with `utf8Array`'s headroom when they are its result (their own buffer, headroom each side). */
const footprint = (bytes: Uint8Array): number =>
  bytes.byteOffset === HEADROOM && bytes.buffer.byteLength === bytes.length + 2 * HEADROOM
    ? bytes.buffer.byteLength
    : bytes.length

/**
 * A cache of serialised JSON as UTF-8 bytes, bounded by the memory they hold (their length,
 * with `utf8Array`'s headroom). The least recently used go first.
 *
 * @since 0.1.0
 * @category models
 */
export interface ByteCache {
  /** The bytes of `key`, made by `make` when absent. */
  readonly get: (key: string, make: () => Uint8Array) => Uint8Array
  /** Whether `bytes` were ever kept by the cache (then others may be sending them too). */
  readonly shares: (bytes: Uint8Array) => boolean
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
  const kept = new WeakSet<Uint8Array>()
  let size = 0
  return {
    maxBytes,
    size: () => size,
    shares: (bytes) => kept.has(bytes),
    get: (key, make) => {
      const hit = entries.get(key)
      if (hit !== undefined) {
        entries.delete(key)
        entries.set(key, hit)
        return hit
      }
      const bytes = make()
      const held = footprint(bytes)
      if (held > maxBytes) return bytes
      entries.set(key, bytes)
      kept.add(bytes)
      size += held
      for (const [oldest, old] of entries) {
        if (size <= maxBytes) break
        entries.delete(oldest)
        size -= footprint(old)
      }
      return bytes
    }
  }
}
