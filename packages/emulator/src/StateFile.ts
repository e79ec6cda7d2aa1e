/**
 * The emulator's `--state FILE`: what happened (every snapshot part: the world's changes, the
 * accounts written, bundle statuses, …) written on exit and read on start, so a restart continues
 * where the last run stopped. The file is JSON with a format name, a version and the seed it
 * belongs to; a file that is not JSON, not this format, of another version or another seed is
 * refused with the reason (and nothing is overwritten: the emulator does not start). It is
 * written to a temporary file first, then renamed, so a crash never leaves half a file.
 *
 * @example
 * // solfx emulator --seed 7 --state ./emulator-state.json
 * @since 0.1.0
 */
import * as Either from "effect/Either"
import * as Fs from "node:fs"

/**
 * The format name every state file carries.
 *
 * @since 0.1.0
 * @category constants
 */
export const FORMAT = "solfx-emulator-state"

/**
 * The version of the file's layout this emulator reads and writes.
 *
 * @since 0.1.0
 * @category constants
 */
export const VERSION = 1

// bigints and bytes as tagged objects, so they come back as they were. The holder's own value
// (`this[key]`), as a Buffer's toJSON has already turned `v` into `{ type, data }`.
function replacer(this: Record<string, unknown>, key: string, v: unknown) {
  const raw = this[key]
  return typeof v === "bigint"
    ? { $bigint: v.toString() }
    : raw instanceof Uint8Array
    ? { $bytes: Buffer.from(raw).toString("base64") }
    : v
}

const reviver = (_: string, v: unknown) => {
  if (typeof v === "object" && v !== null && !Array.isArray(v)) {
    const keys = Object.keys(v)
    if (keys.length === 1 && keys[0] === "$bigint") return BigInt((v as { $bigint: string }).$bigint)
    if (keys.length === 1 && keys[0] === "$bytes") {
      return new Uint8Array(Buffer.from((v as { $bytes: string }).$bytes, "base64"))
    }
  }
  return v
}

/**
 * The text of a state file: the parts of a seed's emulator.
 *
 * @since 0.1.0
 * @category encoding
 */
export const encode = (seed: number, parts: Readonly<Record<string, unknown>>): string =>
  JSON.stringify({ format: FORMAT, version: VERSION, seed, parts }, replacer)

/**
 * The parts a state file holds, or why it is refused (not JSON, another format or version, another seed).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decode = (text: string, seed: number): Either.Either<Readonly<Record<string, unknown>>, string> => {
  let file: unknown
  try {
    file = JSON.parse(text, reviver)
  } catch (e) {
    return Either.left(`is not JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  const f = file as { format?: unknown; version?: unknown; seed?: unknown; parts?: unknown }
  if (typeof file !== "object" || file === null || f.format !== FORMAT) {
    return Either.left(`is not a solfx emulator state file (no "format": "${FORMAT}")`)
  }
  if (f.version !== VERSION) return Either.left(`has version ${String(f.version)}; this emulator reads ${VERSION}`)
  if (f.seed !== seed) return Either.left(`belongs to seed ${String(f.seed)}; this emulator runs seed ${seed}`)
  if (typeof f.parts !== "object" || f.parts === null) return Either.left("has no parts")
  return Either.right(f.parts as Record<string, unknown>)
}

/**
 * Reads a state file: undefined when there is none yet (a first run), else its parts or why it is refused.
 *
 * @since 0.1.0
 * @category files
 */
export const read = (
  path: string,
  seed: number
): Either.Either<Readonly<Record<string, unknown>> | undefined, string> => {
  if (!Fs.existsSync(path)) return Either.right(undefined)
  let text: string
  try {
    text = Fs.readFileSync(path, "utf8")
  } catch (e) {
    return Either.left(`cannot be read (${e instanceof Error ? e.message : String(e)})`)
  }
  return decode(text, seed)
}

/**
 * Writes a state file: a temporary file beside it, then renamed over it.
 *
 * @since 0.1.0
 * @category files
 */
export const write = (path: string, seed: number, parts: Readonly<Record<string, unknown>>): void => {
  const temporary = `${path}.${process.pid}.tmp`
  Fs.writeFileSync(temporary, encode(seed, parts))
  Fs.renameSync(temporary, path)
}
