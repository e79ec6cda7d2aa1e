/**
 * Schema decoding that fails with the SDK's own errors: `DecodeError` with a JSON
 * path for responses, `InvalidRequest` naming the field and the rule for input.
 *
 * @since 0.1.0
 */
import { DecodeError, InvalidRequest } from "./Errors.js"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"

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
  const issues = ParseResult.ArrayFormatter.formatErrorSync(error)
  const first = issues[0]
  return new DecodeError({
    operation,
    path: jsonPath(root, first?.path ?? []),
    expected: first?.message ?? "a value matching the schema"
  })
}

const options = { onExcessProperty: "ignore", errors: "first" } as const

/**
 * Decodes a response with a schema; unknown extra fields are tolerated.
 *
 * @since 0.1.0
 * @category decoding
 */
export const decodeWith = <A, I>(
  schema: Schema.Schema<A, I>,
  operation: string,
  input: unknown,
  root = "$"
): Effect.Effect<A, DecodeError> => {
  const result = Schema.decodeUnknownEither(schema, options)(input)
  return Either.isRight(result) ? Effect.succeed(result.right) : Effect.fail(toDecodeError(operation, result.left, root))
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
export const validateInput = <A, I>(schema: Schema.Schema<A, I>, root = "") => {
  const decode = Schema.decodeUnknownEither(schema, { errors: "first", onExcessProperty: "error" })
  return (input: unknown): Effect.Effect<A, InvalidRequest> => {
    const result = decode(input)
    if (Either.isRight(result)) return Effect.succeed(result.right)
    const first = ParseResult.ArrayFormatter.formatErrorSync(result.left)[0]
    const actual = first ? valueAt(input, first.path) : undefined
    const shown = typeof actual === "string" && actual.length <= 100
      ? actual
      : typeof actual === "number" || typeof actual === "boolean"
      ? String(actual)
      : undefined
    return Effect.fail(
      new InvalidRequest({
        field: fieldPath(first?.path ?? [], root),
        rule: first?.message ?? "a valid value",
        ...(shown === undefined ? {} : { value: shown })
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
