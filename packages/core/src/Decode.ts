/**
 * Schema decoding that fails with the SDK's own errors: `DecodeError` with a JSON
 * path for responses, `InvalidRequest` naming the field and the rule for input.
 *
 * @example
 * Decode.decodeWith(DigitalAsset.DigitalAssetList, "getAssetsByAuthority", body, "$.result")
 * // fails with DecodeError at e.g. $.result.items[3].id
 * @since 0.1.0
 */
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { DecodeError, InvalidRequest } from "./Errors.js"
import * as FastDecoder from "./internal/fastDecoder.js"
import * as Json from "./Json.js"

/**
 * `$.a.b[3]` from a ParseResult path.
 *
 * @since 0.1.0
 * @category paths
 */
export const jsonPath = (root: string, path: ReadonlyArray<PropertyKey>): string =>
  path.reduce<string>(
    (acc, key) =>
      typeof key === "number"
        ? `${acc}[${key}]`
        : typeof key === "string" && /^[A-Za-z_$][\w$]*$/.test(key)
        ? `${acc}.${key}`
        : `${acc}[${JSON.stringify(String(key))}]`,
    root
  )

/**
 * The first issue of a ParseError as a path-precise DecodeError.
 *
 * @since 0.1.0
 * @category errors
 */
export const toDecodeError = (operation: string, error: ParseResult.ParseError, root = "$"): DecodeError => {
  const first = firstIssue(error)
  return new DecodeError({
    operation,
    path: jsonPath(root, first?.path ?? []),
    expected: first?.message ?? "a value matching the schema"
  })
}

/**
 * The first issue of a ParseError, or undefined when it cannot be described:
 * formatting prints the offending value, and a value nested thousands of levels
 * deep (a hostile or broken body) overflows the stack. That must stay a typed
 * failure, never a defect.
 */
const firstIssue = (error: ParseResult.ParseError): ParseResult.ArrayFormatterIssue | undefined => {
  try {
    return ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  } catch {
    return undefined
  }
}

const options = { onExcessProperty: "ignore", errors: "first" } as const

/**
 * Where a decode's input came from, when it is plain `JSON.parse` output: that
 * parse rounds integer literals beyond 2^53, which the lossless `Json.parse`
 * keeps as digits. With it, `decodeWith` gives exactly what it gives on the
 * lossless parse, without paying for that parse on every body.
 *
 * @since 0.1.0
 * @category models
 */
export interface Source {
  /** The JSON text the input was read from with `JSON.parse`. */
  readonly text: string
  /** The input within a parse of the whole text (e.g. the `result` of an envelope). */
  readonly select: (body: unknown) => unknown
}

/**
 * Decodes a response with a schema; unknown extra fields are tolerated.
 *
 * A decoder compiled once per schema runs first (see `decodeFast`); when it
 * cannot prove the input valid, the interpretive Schema decoder runs and
 * produces the value or the path-precise error, exactly as without it.
 * The result may share unchanged objects and arrays with `input`.
 *
 * With a `source`, `input` is plain `JSON.parse` output of `source.text`: the
 * compiled decoder gives each large number it keeps the exact value the lossless
 * `Json.parse` would (finding the literals in the text once, only when it meets
 * one), writing it into `input`. Whenever it cannot, the text is parsed again
 * with `Json.parse` and decoded as usual. Either way the value or the DecodeError
 * is the one the lossless parse gives.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeWith = <A, I>(
  schema: Schema.Schema<A, I>,
  operation: string,
  input: unknown,
  root = "$",
  source?: Source | undefined
): Effect.Effect<A, DecodeError> => {
  if (source !== undefined) {
    const fast = decodeFastRounded(schema, input, source.text)
    if (Option.isSome(fast)) return Effect.succeed(fast.value)
    try {
      input = source.select(Json.parse(source.text))
    } catch {
      // The text no longer reads as it did (a caller's select that throws): nothing to decode.
      return Effect.fail(new DecodeError({ operation, path: root, expected: "a JSON value" }))
    }
  }
  const fast = decodeFast(schema, input)
  if (Option.isSome(fast)) return Effect.succeed(fast.value)
  const result = Schema.decodeUnknownEither(schema, options)(input)
  return Either.isRight(result)
    ? Effect.succeed(result.right)
    : Effect.fail(toDecodeError(operation, result.left, root))
}

/**
 * The fast path of `decodeWith` alone: the value a schema decodes `input` to,
 * or `Option.none()` when the compiled decoder cannot prove it valid (invalid
 * input, or a node it leaves to Schema failed). Never a different value than
 * `Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })` would give
 * (on `Json.parse(text)` when `input` is `JSON.parse` output of `text`, see `Source`).
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeFast = <A, I>(
  schema: Schema.Schema<A, I>,
  input: unknown,
  text?: string | undefined
): Option.Option<A> => {
  if (text !== undefined) return decodeFastRounded(schema, input, text)
  try {
    const value = FastDecoder.compile(schema.ast)(input)
    return value === FastDecoder.BAIL ? Option.none() : Option.some(value as A)
  } catch {
    // A filter that throws: Schema reports it as it always did.
    return Option.none()
  }
}

/** `decodeFast` on plain JSON.parse output of `text`, making its large numbers exact (see `Source`). */
const decodeFastRounded = <A, I>(schema: Schema.Schema<A, I>, input: unknown, text: string): Option.Option<A> => {
  let exact: ((v: number) => string | number | undefined) | undefined
  const previous = FastDecoder.rounded.exact
  FastDecoder.rounded.exact = (v) => {
    // The text is read only for a body that has a large number where it matters.
    exact ??= Json.largeNumberLookup(text)
    const e = exact(v)
    return e === undefined ? FastDecoder.BAIL : e
  }
  try {
    const root = FastDecoder.exactOf(input)
    return root === FastDecoder.BAIL ? Option.none() : decodeFast(schema, root, undefined)
  } finally {
    FastDecoder.rounded.exact = previous
  }
}

/**
 * The field path of an input issue: `limit`, `mintAccounts[3]`; `input` for the whole value.
 *
 * @since 0.1.0
 * @category paths
 */
export const fieldPath = (path: ReadonlyArray<PropertyKey>, root = ""): string => {
  const p = jsonPath(root === "" ? "" : root, path).replace(/^\./, "")
  return p === "" ? (root === "" ? "input" : root) : p
}

/**
 * Validates user input before any I/O. Fails with `InvalidRequest` naming the
 * field (e.g. `limit`, `mintAccounts[3]`) and the rule it broke.
 *
 * @example
 * validateInput(Params.BalancesParams, "balances")({ wallet, limit: 500 }) // InvalidRequest: limit
 * @since 0.1.0
 * @category decoding
 */
export const validateInput = <A, I>(
  schema: Schema.Schema<A, I>,
  root = "",
  /** Applied to every text of the error where it is built (the SDK passes its key redactor). */
  redact: (text: string) => string = (text) => text
) => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })
  return (input: unknown): Effect.Effect<A, InvalidRequest> => {
    const result = decode(input)
    if (Either.isRight(result)) return Effect.succeed(result.right)
    const first = firstIssue(result.left)
    const actual = first ? valueAt(input, first.path) : undefined
    const shown = typeof actual === "string" && actual.length <= 100
      ? actual
      : typeof actual === "number" || typeof actual === "boolean"
      ? String(actual)
      : undefined
    return Effect.fail(
      new InvalidRequest({
        field: redact(fieldPath(first?.path ?? [], root)),
        rule: redact(first?.message ?? "a valid value"),
        ...(shown === undefined ? {} : { value: redact(shown) })
      })
    )
  }
}

const valueAt = (input: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
  let current: unknown = input
  for (const key of path) {
    if (typeof current !== "object" || current === null) return undefined
    current = (current as Record<PropertyKey, unknown>)[key]
  }
  return current
}
