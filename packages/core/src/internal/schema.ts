/**
 * Small Schema helpers shared by the resource modules of core.
 *
 * @since 0.1.0
 */
import type * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type * as AST from "effect/SchemaAST"
import { BAIL, DecodeId, PredicateId } from "./fastDecoder.js"

/**
 * A field the wire sends as `null` (or omits): decodes to `A | null`, always present on the type.
 *
 * @since 0.1.0
 */
export const nullable = <A, I, R>(schema: Schema.Schema<A, I, R>) =>
  Schema.optionalWith(Schema.NullOr(schema), { default: () => null })

/**
 * Slots, indices, counts and timestamps: non-negative integers within 2^53.
 *
 * @since 0.1.0
 */
export const Count = Schema.Number.pipe(
  Schema.int({ message: () => "a non-negative integer" }),
  // Its filter as a plain predicate for the compiled decoder (see FastDecoder.PredicateId): pages count a lot.
  Schema.nonNegative({ message: () => "a non-negative integer", [PredicateId]: (n: number) => n >= 0 })
)

/**
 * A transformation whose decode is one plain function, `BAIL` where it refuses the input: Schema
 * runs it and fails with `refused(input)` there, and the compiled decoder calls it as it is
 * (see FastDecoder.DecodeId), without an `Either` per value. One function, so the two agree.
 *
 * @since 0.1.0
 */
export const plainTransform = <From extends Schema.Schema.AnyNoContext, To extends Schema.Schema.AnyNoContext>(
  from: From,
  to: To,
  options: {
    readonly identifier: string
    readonly decode: (a: Schema.Schema.Type<From>) => Schema.Schema.Encoded<To> | typeof BAIL
    readonly refused: (a: Schema.Schema.Type<From>) => string
    readonly encode: (
      b: Schema.Schema.Encoded<To>,
      ast: AST.Transformation
    ) => Effect.Effect<Schema.Schema.Type<From>, ParseResult.ParseIssue>
  }
): Schema.transformOrFail<From, To> =>
  Schema.transformOrFail(from, to, {
    strict: true,
    decode: (a, _, ast) => {
      const b = options.decode(a)
      return b === BAIL ? ParseResult.fail(new ParseResult.Type(ast, a, options.refused(a))) : ParseResult.succeed(b)
    },
    encode: (b, _, ast) => options.encode(b, ast)
  }).annotations({ identifier: options.identifier, [DecodeId]: options.decode })

/**
 * The fields of `fields` plus, for each alias, the field it stands for.
 *
 * @since 0.1.0
 */
export type AliasedFields<
  Fields extends Schema.Struct.Fields,
  Aliases extends { readonly [alias: string]: keyof Fields & string }
> = Fields & { readonly [K in keyof Aliases]: Fields[Aliases[K]] }

/**
 * Struct params whose wire side also accepts a peer's name for some optional fields
 * (`{ displayOptions: "options" }`), one of the two names at a time. The decoded
 * side has the canonical names only, so whoever reads the params (the SDK sending
 * them, the emulator serving them) sees one spelling. Written here because Schema
 * has no field aliases; `fromKey` renames a key but cannot accept both.
 *
 * @since 0.1.0
 */
export const withAliases = <
  Fields extends Schema.Struct.Fields,
  const Aliases extends { readonly [alias: string]: keyof Fields & string }
>(fields: Fields, aliases: Aliases) => {
  const wireFields: Record<string, Schema.Struct.Field> = { ...fields }
  for (const [alias, name] of Object.entries(aliases)) wireFields[alias] = fields[name]!
  const wire = Schema.Struct(wireFields as AliasedFields<Fields, Aliases>)
  const canonical = Schema.typeSchema(Schema.Struct(fields))
  return Schema.transformOrFail(wire, canonical, {
    strict: false,
    decode: (input, _, ast) => {
      const out: Record<string, unknown> = { ...input }
      for (const [alias, name] of Object.entries(aliases)) {
        const value = out[alias]
        delete out[alias]
        if (value === undefined) continue
        if (out[name] !== undefined) {
          return ParseResult.fail(
            new ParseResult.Pointer(
              alias,
              input,
              new ParseResult.Type(ast, value, `cannot be combined with ${name}: give one of the two`)
            )
          )
        }
        out[name] = value
      }
      return ParseResult.succeed(out)
    },
    encode: (value) => ParseResult.succeed(value)
  })
}
