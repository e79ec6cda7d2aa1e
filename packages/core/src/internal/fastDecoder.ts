/**
 * A decoder compiled once from a schema's AST: the fast path of `Decode.decodeWith`.
 *
 * The interpretive `Schema.decodeUnknown` allocates an `Either` per node and a new
 * object per struct; on a 1 MB page that costs several times `JSON.parse`. This
 * compiles the common nodes (structs, arrays, string records, keywords, literals,
 * refinements, final transformations, unions whose members take different JSON
 * types) into code that validates in one pass and reuses the input wherever the
 * output would be equal to it (no excess keys, no transformed child).
 *
 * It never decides a failure: a node that cannot prove its input valid answers
 * `BAIL`, and the caller reruns the interpretive decoder, which produces the
 * value or the path-precise error exactly as before. Nodes it does not know
 * (declarations, property-signature transformations, tuples, ambiguous unions,
 * parse-option annotations) are handed to Schema for their subtree, so any schema
 * compiles. Inputs are taken as JSON.parse makes them: a null-prototype object,
 * a class instance, an explicit `undefined` member or an array hole is left to Schema.
 *
 * @since 0.1.0
 */

import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as AST from "effect/SchemaAST"

/**
 * Returned by a compiled decoder when it cannot prove the input valid.
 *
 * @since 0.1.0
 */
export const BAIL: unique symbol = Symbol.for("@solfx/core/FastDecoder/BAIL")

/**
 * A compiled decoder: the decoded value, or `BAIL`.
 *
 * @since 0.1.0
 */
export type Compiled = (input: unknown) => unknown

/**
 * An annotation for a refinement: a plain predicate equivalent to its filter
 * (same answer on every input of the refined type), which compiled code calls
 * instead of going through Schema's filter wrapper. Core's base58 primitives
 * carry it: a page of assets checks thousands of addresses.
 *
 * @since 0.1.0
 */
export const PredicateId: unique symbol = Symbol.for("@solfx/core/FastDecoder/Predicate")

/**
 * An annotation for a final transformation: a plain function equivalent to its
 * decode on every valid input of its `from` side (the same value where that
 * decode succeeds, `BAIL` where it fails), which compiled code calls instead of
 * building an `Either` per value. Core's `U64` carries it.
 *
 * @since 0.1.0
 */
export const DecodeId: unique symbol = Symbol.for("@solfx/core/FastDecoder/Decode")

const predicateOf = (ast: AST.Refinement): ((u: unknown) => boolean) | undefined => {
  const p = ast.annotations[PredicateId]
  return typeof p === "function" ? (p as (u: unknown) => boolean) : undefined
}

/** The options every response decode uses (see `Decode.decodeWith`). */
const OPTIONS: AST.ParseOptions = { onExcessProperty: "ignore", errors: "first" }

const hasOwn = Object.prototype.hasOwnProperty

/**
 * A plain object as JSON.parse makes it: the only input a struct may be returned
 * as is (Schema builds plain objects; a null-prototype object or an instance is left to it).
 */
const isPlainObject = (u: object): boolean => Object.getPrototypeOf(u) === Object.prototype

const isRecordLike = (u: unknown): u is Record<string, unknown> =>
  typeof u === "object" && u !== null && !Array.isArray(u) && isPlainObject(u)

// -- rounded input ------------------------------------------------------------------
//
// The transport may hand over plain JSON.parse output, where integer literals
// beyond 2^53 are rounded, with the text it came from (`Decode.decodeWith`'s
// `source`). Then, while that decode runs, `rounded.exact` gives the exact JSON
// value of a large number (the digits of an integer literal, the number for a
// float), or BAIL. Every number a compiled decoder keeps passes through it: struct
// properties, array elements and record values that may hold a number, and the
// whole of subtrees kept as they are (Unknown) or handed to Schema. Numbers in
// excess properties are dropped, so they never matter. Exact values are written
// back into the input, which the transport owns, so a reused object is exact too.

/**
 * Set by the caller for the duration of a decode of rounded input.
 *
 * @since 0.1.0
 */
export const rounded: { exact: ((v: number) => unknown) | undefined } = { exact: undefined }

const TWO_53 = 2 ** 53

/**
 * An own `__proto__` key (JSON.parse makes one): Schema's record decoding assigns it,
 * which sets the output's prototype instead of a key, so such a record goes to Schema
 * and the output stays Schema's, whatever that is.
 */
const ownProto = (u: object): boolean => Object.prototype.hasOwnProperty.call(u, "__proto__")

/** The exact value of an input value: itself, unless it is a large number of a rounded input. BAIL when unknown. */
export const exactOf = (v: unknown): unknown =>
  typeof v === "number" && !(v < TWO_53 && v > -TWO_53) && rounded.exact !== undefined ? rounded.exact(v) : v

/** Makes every large number under a value exact, in place (rounded input only). False when one is unknown. */
const exactDeep = (root: unknown): boolean => {
  const exact = rounded.exact
  if (exact === undefined || typeof root !== "object" || root === null) return true
  const stack: Array<Record<string | number, unknown>> = [root as Record<string, unknown>]
  while (stack.length > 0) {
    const v = stack.pop()!
    for (const k in v) {
      const x = v[k]
      if (typeof x === "object") {
        if (x !== null) stack.push(x as Record<string, unknown>)
      } else if (typeof x === "number" && !(x < TWO_53 && x > -TWO_53)) {
        const e = exact(x)
        if (e === BAIL) return false
        v[k] = e
      }
    }
  }
  return true
}

/** Whether a node may accept a number (so a rounded one must be made exact before it sees it). */
const mayHoldNumber = (ast: AST.AST): boolean => {
  switch (ast._tag) {
    case "StringKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "UndefinedKeyword":
    case "NeverKeyword":
    case "SymbolKeyword":
    case "UniqueSymbol":
    case "TemplateLiteral":
    case "ObjectKeyword":
    case "TypeLiteral":
    case "TupleType":
      return false
    case "Literal":
      return typeof ast.literal === "number"
    case "Union":
      return ast.types.some(mayHoldNumber)
    case "Refinement":
    case "Transformation":
      return mayHoldNumber(ast.from)
    default:
      // Numbers, Unknown, declarations, enums, suspended schemas: assume so.
      return true
  }
}

/**
 * The type of a property as seen when it is present: `Schema.optional(X)` types the
 * property `X | undefined`, but a present value is never `undefined` here (an
 * explicit one goes to Schema), so the union is dropped for `X` itself.
 */
const presentType = (ps: AST.PropertySignature): AST.AST => {
  const t = ps.type
  if (!ps.isOptional || t._tag !== "Union" || annotationsChangeParsing(t)) return t
  const defined = t.types.filter((m) => m._tag !== "UndefinedKeyword")
  if (defined.length === t.types.length || defined.length === 0) return t
  return defined.length === 1 ? defined[0]! : AST.Union.make(defined)
}

/**
 * Whether every value `from` decodes for a property is valid for `type` without a check: each
 * member of its present type has, as its type side, the type itself or one of its members.
 */
const covers = (from: AST.PropertySignature, type: AST.AST): boolean => {
  const members = (ast: AST.AST): ReadonlyArray<AST.AST> => (ast._tag === "Union" ? ast.types : [ast])
  const accepted = members(type)
  return !annotationsChangeParsing(type) &&
    members(presentType(from)).every((m) => {
      const typed = AST.typeAST(m)
      return equivalent(typed, type) || accepted.some((t) => equivalent(typed, t))
    })
}

/**
 * Whether two type-side ASTs accept the same values because they are built alike from the same
 * leaves: `AST.typeAST` makes a new node for every struct or union above a transformation, so
 * the type side of one schema, taken twice, is two trees. Nodes it does not look into must be the same.
 */
const equivalent = (a: AST.AST, b: AST.AST): boolean => {
  if (a === b) return true
  if (a._tag !== b._tag || annotationsChangeParsing(a) || annotationsChangeParsing(b)) return false
  const all = <T>(xs: ReadonlyArray<T>, ys: ReadonlyArray<T>, eq: (x: T, y: T) => boolean) =>
    xs.length === ys.length && xs.every((x, i) => eq(x, ys[i]!))
  switch (a._tag) {
    case "StringKeyword":
    case "NumberKeyword":
    case "BooleanKeyword":
    case "BigIntKeyword":
    case "UndefinedKeyword":
    case "UnknownKeyword":
    case "AnyKeyword":
      return true
    case "Literal":
      return a.literal === (b as AST.Literal).literal
    case "Refinement":
      return a.filter === (b as AST.Refinement).filter && equivalent(a.from, (b as AST.Refinement).from)
    case "Union":
      return all(a.types, (b as AST.Union).types, equivalent)
    case "TupleType": {
      const t = b as AST.TupleType
      return a.isReadonly === t.isReadonly &&
        all(a.elements, t.elements, (x, y) => x.isOptional === y.isOptional && equivalent(x.type, y.type)) &&
        all(a.rest, t.rest, (x, y) => equivalent(x.type, y.type))
    }
    case "TypeLiteral": {
      const t = b as AST.TypeLiteral
      return all(
        a.propertySignatures,
        t.propertySignatures,
        (x, y) => x.name === y.name && x.isOptional === y.isOptional && equivalent(x.type, y.type)
      ) && all(
        a.indexSignatures,
        t.indexSignatures,
        (x, y) => equivalent(x.parameter, y.parameter) && equivalent(x.type, y.type)
      )
    }
    default:
      return false
  }
}

/** Whether a node keeps its input as it is, whatever it holds (so nested numbers must be made exact). */
const keepsAsIs = (ast: AST.AST): boolean =>
  !annotationsChangeParsing(ast) &&
  (ast._tag === "UnknownKeyword" || ast._tag === "AnyKeyword" || ast._tag === "VoidKeyword")

const annotationsChangeParsing = (ast: AST.AST): boolean =>
  Option.isSome(AST.getParseOptionsAnnotation(ast)) || Option.isSome(AST.getDecodingFallbackAnnotation(ast))

/** Schema's own decoder for one subtree, for nodes the compiler does not know. */
const delegateTo = (ast: AST.AST): Compiled => {
  const decode = ParseResult.decodeUnknownEither(Schema.make(ast), OPTIONS)
  return (u) => {
    const input = exactOf(u)
    if (input === BAIL || !exactDeep(input)) return BAIL
    const result = decode(input)
    return Either.isRight(result) ? result.right : BAIL
  }
}

/** A JSON-ish type of value. */
type Kind = "string" | "number" | "boolean" | "bigint" | "undefined" | "null" | "object" | "array"

/** The kinds of value a node can accept, when known (undefined: any). */
const kindsOf = (ast: AST.AST): ReadonlyArray<Kind> | undefined => {
  switch (ast._tag) {
    case "StringKeyword":
    case "TemplateLiteral":
      return ["string"]
    case "NumberKeyword":
      return ["number"]
    case "BooleanKeyword":
      return ["boolean"]
    case "BigIntKeyword":
      return ["bigint"]
    case "UndefinedKeyword":
      return ["undefined"]
    case "Literal":
      return [ast.literal === null ? "null" : (typeof ast.literal as Kind)]
    case "TypeLiteral":
      // `{}` accepts any non-nullish value.
      return ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0 ? undefined : ["object"]
    case "TupleType":
      return ["array"]
    case "Refinement":
    case "Transformation":
      return kindsOf(ast.from)
    case "Union": {
      const all = new Set<Kind>()
      for (const t of ast.types) {
        const ks = kindsOf(t)
        if (ks === undefined) return undefined
        for (const k of ks) all.add(k)
      }
      return [...all]
    }
    default:
      return undefined
  }
}

const kindOfValue = (u: unknown): Kind | undefined => {
  const t = typeof u
  if (t === "object") return u === null ? "null" : Array.isArray(u) ? "array" : "object"
  return t === "string" || t === "number" || t === "boolean" || t === "bigint" || t === "undefined" ? t : undefined
}

/**
 * The member of a union for each kind of value, when at most one member can
 * accept any given input: each kind is taken by one member only (`NullOr(X)`,
 * `Number | String`, `NullOr(U64)`). Then trying "the" member is what Schema does,
 * whatever order it tries them in. Undefined otherwise.
 */
const disjointMembers = (ast: AST.Union): ReadonlyMap<Kind, AST.AST> | undefined => {
  const byKind = new Map<Kind, AST.AST>()
  for (const t of ast.types) {
    const ks = kindsOf(t)
    if (ks === undefined) return undefined
    for (const k of ks) {
      if (byKind.has(k)) return undefined
      byKind.set(k, t)
    }
  }
  return byKind
}

/** The required literal properties of a member as ParseResult's union search sees them (decoding side). */
const literalTags = (ast: AST.AST): Array<readonly [PropertyKey, AST.Literal]> => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.propertySignatures.flatMap((ps) => {
        const type = AST.encodedAST(ps.type)
        return AST.isLiteral(type) && !ps.isOptional ? [[ps.name, type] as const] : []
      })
    case "Refinement":
    case "Transformation":
      return literalTags(ast.from)
    default:
      return []
  }
}

/**
 * A union of objects told apart by one tag (`{ type: "x", ... } | { type: "y", ... }`):
 * every member has exactly one required literal property, the same key in all, a
 * different value in each. ParseResult then tries only the member whose tag is
 * `String(input[key])`, and fails when there is none: the key and the member by tag.
 */
const taggedMembers = (ast: AST.Union): readonly [string, ReadonlyMap<string, AST.AST>] | undefined => {
  let key: PropertyKey | undefined
  const byTag = new Map<string, AST.AST>()
  for (const t of ast.types) {
    const tags = literalTags(t)
    if (tags.length !== 1) return undefined
    const [k, literal] = tags[0]!
    const tag = String(literal.literal)
    if ((key !== undefined && k !== key) || typeof k !== "string" || byTag.has(tag)) return undefined
    key = k
    byTag.set(tag, t)
  }
  return key === undefined ? undefined : [key as string, byTag]
}

/** The property names of an object node on its encoded side: `[required, all]`; undefined when not an object. */
const propertyNames = (ast: AST.AST): readonly [ReadonlySet<PropertyKey>, ReadonlySet<PropertyKey>] | undefined => {
  switch (ast._tag) {
    case "TypeLiteral":
      return ast.indexSignatures.length > 0 ? undefined : [
        new Set(ast.propertySignatures.filter((ps) => !ps.isOptional).map((ps) => ps.name)),
        new Set(ast.propertySignatures.map((ps) => ps.name))
      ]
    case "Refinement":
    case "Transformation":
      return propertyNames(ast.from)
    default:
      return undefined
  }
}

/**
 * A union of objects told apart by which keys they hold (`{ signature, ... } | { transaction, ... }`):
 * every member requires a string key that no other member has, even optional. ParseResult tries the
 * members in order, and a member without its own key surely fails, so the first member whose key the
 * input holds is the first that may succeed: the members in order, each with its key.
 */
const keyedMembers = (ast: AST.Union): ReadonlyArray<readonly [string, AST.AST]> | undefined => {
  const names = ast.types.map(propertyNames)
  if (names.some((n) => n === undefined)) return undefined
  const out: Array<readonly [string, AST.AST]> = []
  for (let i = 0; i < ast.types.length; i++) {
    const own = [...names[i]![0]].find((k): k is string =>
      typeof k === "string" && names.every((other, j) => j === i || !other![1].has(k))
    )
    if (own === undefined) return undefined
    out.push([own, ast.types[i]!])
  }
  return out
}

/**
 * A cheap test that is true only when Schema surely rejects the input for this
 * node: a value of a kind the node never takes, or an array whose first element
 * is of a kind its items never take.
 */
const surelyRejects = (ast: AST.AST): (u: unknown) => boolean => {
  // A literal accepts its one value: `Literal("") | Address` must not stop every address at the `""`.
  if (AST.isLiteral(ast)) return (u) => u !== ast.literal
  const kinds = kindsOf(ast)
  if (kinds === undefined) return () => false
  let items: ReadonlyArray<Kind> | undefined
  let at: AST.AST = ast
  while (at._tag === "Refinement") at = at.from
  if (at._tag === "TupleType" && at.elements.length === 0 && at.rest.length === 1) items = kindsOf(at.rest[0]!.type)
  return (u) => {
    const k = kindOfValue(u)
    if (k === undefined || !kinds.includes(k)) return true
    if (items === undefined || k !== "array" || (u as Array<unknown>).length === 0) return false
    const first = kindOfValue((u as Array<unknown>)[0])
    return first !== undefined && !items.includes(first)
  }
}

/** Whether `new Function` is allowed here (not under a strict CSP or in some edge runtimes). */
const canGenerate = (() => {
  try {
    return new Function("return 1")() === 1
  } catch {
    return false
  }
})()

/**
 * A compiler with its own cache. `generate: true` emits JavaScript for structs
 * and arrays (see `generatedStruct`); `false` builds closures only.
 *
 * @since 0.1.0
 */
export const makeCompiler = (
  generate: boolean,
  onFallback?: (ast: AST.AST, reason: string) => void
): (ast: AST.AST) => Compiled => {
  const cache = new WeakMap<AST.AST, Compiled>()
  let suspendDepth = 0
  const delegate = (ast: AST.AST, reason: string): Compiled => {
    onFallback?.(ast, reason)
    return delegateTo(ast)
  }

  const compile = (ast: AST.AST): Compiled => {
    const cached = cache.get(ast)
    if (cached !== undefined) return cached
    // A forwarder first: a recursive schema reaching this AST again while it compiles gets the final decoder.
    let compiled: Compiled | undefined
    cache.set(ast, (input) => compiled!(input))
    compiled = build(ast)
    cache.set(ast, compiled)
    return compiled
  }

  const build = (ast: AST.AST): Compiled => {
    if (annotationsChangeParsing(ast)) return delegate(ast, "parse-option or decoding-fallback annotation")
    switch (ast._tag) {
      case "StringKeyword":
        return (u) => (typeof u === "string" ? u : BAIL)
      case "NumberKeyword":
        return (u) => (typeof u === "number" ? u : BAIL)
      case "BooleanKeyword":
        return (u) => (typeof u === "boolean" ? u : BAIL)
      case "BigIntKeyword":
        return (u) => (typeof u === "bigint" ? u : BAIL)
      case "UndefinedKeyword":
        return (u) => (u === undefined ? u : BAIL)
      case "UnknownKeyword":
      case "AnyKeyword":
      case "VoidKeyword":
        return (u) => (exactDeep(u) ? u : BAIL)
      case "NeverKeyword":
        return () => BAIL
      case "Literal": {
        const literal = ast.literal
        return (u) => (u === literal ? u : BAIL)
      }
      case "Refinement": {
        const from = compile(ast.from)
        const predicate = predicateOf(ast)
        if (predicate !== undefined) {
          return (u) => {
            const a = from(u)
            return a !== BAIL && predicate(a) ? a : BAIL
          }
        }
        const filter = ast.filter
        return (u) => {
          const a = from(u)
          return a !== BAIL && Option.isNone(filter(a, OPTIONS, ast)) ? a : BAIL
        }
      }
      case "Transformation":
        return transformation(ast)
      case "TypeLiteral":
        if (ast.propertySignatures.length === 0 && ast.indexSignatures.length === 0) {
          return (u) => (u === null || u === undefined ? BAIL : u)
        }
        if (ast.propertySignatures.length === 0) return record(ast)
        if (ast.indexSignatures.length > 0 || ast.propertySignatures.some((ps) => typeof ps.name !== "string")) {
          return delegate(ast, "struct with index signatures or symbol keys")
        }
        return generate ? generatedStruct(ast) : struct(ast)
      case "TupleType":
        if (ast.elements.length === 0 && ast.rest.length === 1) return generate ? generatedArray(ast) : array(ast)
        if (ast.rest.length === 0 && ast.elements.every((e) => !e.isOptional)) return tuple(ast)
        if (
          ast.elements.length === 1 && ast.rest.length === 1 && !ast.elements[0]!.isOptional &&
          ast.elements[0]!.type === ast.rest[0]!.type
        ) {
          // A non-empty array (`[A, ...A[]]`, Schema.NonEmptyArray): the array of its items, one at least.
          const items = array(ast)
          return (u) => (Array.isArray(u) && u.length > 0 ? items(u) : BAIL)
        }
        return delegate(ast, "tuple with optional elements or elements after a rest")
      case "Declaration":
        return declaration(ast)
      case "Union":
        return union(ast)
      case "Suspend": {
        // Lazy, since the suspended schema may not exist yet. A report looks inside now, a few levels
        // deep: the type side of a recursive schema is a new AST at every level, so it never closes.
        let inner: Compiled | undefined
        if (onFallback !== undefined && suspendDepth < 3) {
          suspendDepth++
          inner = compile(ast.f())
          suspendDepth--
        }
        return (u) => (inner ??= compile(ast.f()))(u)
      }
      default:
        return delegate(ast, `node ${ast._tag}`)
    }
  }

  const transformation = (ast: AST.Transformation): Compiled => {
    const t = ast.transformation
    if (t._tag === "ComposeTransformation") {
      const from = compile(ast.from)
      const to = compile(ast.to)
      return (u) => {
        const a = from(u)
        return a === BAIL ? BAIL : to(a)
      }
    }
    if (t._tag === "FinalTransformation") {
      const from = compile(ast.from)
      const to = compile(ast.to)
      const fast = ast.annotations[DecodeId]
      if (typeof fast === "function") {
        const f = fast as (a: unknown) => unknown
        return (u) => {
          const a = from(u)
          if (a === BAIL) return BAIL
          const b = f(a)
          return b === BAIL ? BAIL : to(b)
        }
      }
      const decode = t.decode
      if (generate) {
        // Call sites of its own (a shared closure's see every transformation: V8 then inlines none),
        // and a `Right` told by its tag: no other Effect has that one.
        const c = new Constants()
        return emit(
          c,
          `function transformation(u) {
  const a = ${c.ref(from)}(u);
  if (a === BAIL) return BAIL;
  const r = ${c.ref(decode)}(a, ${c.ref(OPTIONS)}, ${c.ref(ast)}, u);
  return typeof r === "object" && r !== null && r._tag === "Right" ? ${c.ref(to)}(r.right) : BAIL;
}`
        )
      }
      return (u) => {
        const a = from(u)
        if (a === BAIL) return BAIL
        const r = decode(a, OPTIONS, ast, u)
        // An effectful transformation is Schema's business.
        return Either.isEither(r) && Either.isRight(r) ? to(r.right) : BAIL
      }
    }
    return typeLiteralTransformation(ast, t)
  }

  /**
   * TypeLiteralTransformation (`optionalWith` defaults, `nullable`, `fromKey` renames), as
   * ParseResult applies it: each property transformation in order on a copy of the decoded
   * struct (here `from` may return its input itself, which a later fallback must still see
   * unchanged), then the type side. Two shortcuts with the same outcome: a property kept under
   * its own name is assigned, not deleted and added (a delete turns the object into a slow
   * dictionary); and a type-side property whose type is the type side of the decoded one is
   * not checked again (the compiled `from` already checked its value against exactly that).
   */
  const typeLiteralTransformation = (ast: AST.Transformation, t: AST.TypeLiteralTransformation): Compiled => {
    if (generate) {
      const generated = generatedTypeLiteralTransformation(ast, t)
      if (generated !== undefined) return generated
    }
    const from = compile(ast.from)
    const psts = t.propertySignatureTransformations
    const fromTypes = new Map(
      ast.from._tag === "TypeLiteral" ? ast.from.propertySignatures.map((ps) => [ps.name, ps]) : []
    )
    const targets = new Set(psts.map((pst) => pst.to))
    const ownOutput = ast.from._tag === "TypeLiteral"
    const reduced = ast.to._tag === "TypeLiteral" && ast.from._tag === "TypeLiteral" &&
      ast.to.indexSignatures.length === 0 && !annotationsChangeParsing(ast.to)
    const checks = reduced
      ? (ast.to as AST.TypeLiteral).propertySignatures.filter((ps) => {
        const f = fromTypes.get(ps.name)
        return targets.has(ps.name) || f === undefined || f.isOptional !== ps.isOptional ||
          AST.typeAST(f.type) !== ps.type
      }).map((ps) => ({ name: ps.name, optional: ps.isOptional, decode: compile(presentType(ps)) }))
      : []
    const to = reduced ? undefined : compile(ast.to)
    return (u) => {
      const a = from(u)
      if (a === BAIL) return BAIL
      // A struct decoder returns its input or an object of its own: only the input needs copying.
      const out = (a === u || !ownOutput ? { ...(a as object) } : a) as Record<PropertyKey, unknown>
      for (let i = 0; i < psts.length; i++) {
        const pst = psts[i]!
        const present = hasOwn.call(out, pst.from)
        const o = pst.decode(present ? Option.some(out[pst.from]) : Option.none())
        if (pst.from !== pst.to || Option.isNone(o)) {
          if (present) delete out[pst.from]
        }
        if (Option.isSome(o)) out[pst.to] = o.value
      }
      if (to !== undefined) return to(out)
      for (let i = 0; i < checks.length; i++) {
        const c = checks[i]!
        const v = out[c.name]
        if (v === undefined) {
          if (c.optional && !hasOwn.call(out, c.name)) continue
          return BAIL
        }
        const d = c.decode(v)
        if (d === BAIL) return BAIL
        if (d !== v) out[c.name] = d
      }
      return out
    }
  }

  /**
   * `typeLiteralTransformation` as generated code, for a struct to a struct: each key in locals of
   * its own (`v` its value, `p` whether present, `w` what `from` decoded for it), each property
   * transformation called at a call site of its own (monomorphic, so V8 may inline it and drop its
   * `Option`), and the output built once, in the type side's declared order, as ParseResult's
   * type-side struct builds it. A type-side value is not checked again when it is still the one
   * `from` decoded against a type the type side accepts whole (see `covers`). Undefined unless
   * both sides are plain structs.
   */
  const generatedTypeLiteralTransformation = (
    ast: AST.Transformation,
    t: AST.TypeLiteralTransformation
  ): Compiled | undefined => {
    const fromAst = ast.from
    const toAst = ast.to
    const psts = t.propertySignatureTransformations
    if (
      fromAst._tag !== "TypeLiteral" || toAst._tag !== "TypeLiteral" || fromAst.indexSignatures.length > 0 ||
      toAst.indexSignatures.length > 0 || annotationsChangeParsing(toAst) ||
      fromAst.propertySignatures.some((ps) => typeof ps.name !== "string") ||
      toAst.propertySignatures.some((ps) => typeof ps.name !== "string") ||
      psts.some((pst) => typeof pst.from !== "string" || typeof pst.to !== "string")
    ) return undefined
    const c = new Constants()
    const slots = new Map<string, number>()
    const lines: Array<string> = []
    const slot = (name: string): number => {
      let i = slots.get(name)
      if (i === undefined) {
        slots.set(name, i = slots.size)
        lines.push(`let v${i}, p${i} = false; const w${i} = undefined;`)
      }
      return i
    }
    // The struct's own code inlined when it would be generated anyway: no intermediate object.
    const fused = !annotationsChangeParsing(fromAst) && fromAst.propertySignatures.length > 0
    if (fused) lines.push(...propertyLines(fromAst, c))
    const fromTypes = new Map<string, AST.PropertySignature>()
    for (const ps of fromAst.propertySignatures) {
      const name = ps.name as string
      const key = JSON.stringify(name)
      fromTypes.set(name, ps)
      const i = slots.size
      slots.set(name, i)
      if (fused) {
        lines.push(`const w${i} = v${i}; let p${i} = v${i} !== undefined;`)
        continue
      }
      // The compiled struct keeps no explicit undefined, so present means defined. Own reads only for
      // `constructor`, `toString`... (an input returned as is would show Object.prototype's).
      const read = name in Object.prototype ? `(hasOwn.call(a, ${key}) ? a[${key}] : undefined)` : `a[${key}]`
      lines.push(`const w${i} = ${read}; let v${i} = w${i}, p${i} = w${i} !== undefined;`)
    }
    const none = c.ref(Option.none())
    const some = c.ref(Option.some)
    for (const pst of psts) {
      const f = slot(pst.from as string)
      const to = slot(pst.to as string)
      // As ParseResult: Option.some(value) or none in; the key deleted, then set when some.
      lines.push(
        `o = ${c.ref(pst.decode)}(p${f} ? ${some}(v${f}) : ${none}); p${f} = false; v${f} = undefined; ` +
          `if (o._tag === "Some") { v${to} = o.value; p${to} = true; }`
      )
    }
    const checks: Array<string> = []
    const assigns: Array<string> = []
    const literal: Array<string> = []
    for (const ps of toAst.propertySignatures) {
      const name = ps.name as string
      const key = JSON.stringify(name)
      const i = slot(name)
      const type = presentType(ps)
      const leaf = leafCheck(type, `v${i}`, c)
      const check = leaf !== undefined
        ? `if (${leaf}) return BAIL;`
        : `r = ${c.ref(compile(type))}(v${i}); if (r === BAIL) return BAIL; v${i} = r;`
      const f = fromTypes.get(name)
      const validate = f !== undefined && covers(f, type) ? `if (v${i} !== w${i}) { ${check} }` : check
      checks.push(
        `if (p${i}) { if (v${i} === undefined) return BAIL; ${validate} }${ps.isOptional ? "" : " else return BAIL;"}`
      )
      // Required keys in one literal up to the first optional one, the rest assigned in order.
      if (assigns.length === 0 && !ps.isOptional) literal.push(`${key}: v${i}`)
      else assigns.push(ps.isOptional ? `if (p${i}) out[${key}] = v${i};` : `out[${key}] = v${i};`)
    }
    return emit(
      c,
      `function typeLiteralTransformation(u) {
  ${
        fused
          ? `if (typeof u !== "object" || u === null || Array.isArray(u) || Object.getPrototypeOf(u) !== OP) return BAIL;
  let o, r, n = 0, changed = false;`
          : `const a = ${c.ref(compile(fromAst))}(u);
  if (a === BAIL) return BAIL;
  let o, r;`
      }
  ${lines.join("\n  ")}
  ${checks.join("\n  ")}
  const out = { ${literal.join(", ")} };
  ${assigns.join("\n  ")}
  return out;
}`
    )
  }

  /** `[A, B]`: exactly as many elements as declared (anything else is Schema's to judge). */
  const tuple = (ast: AST.TupleType): Compiled => {
    const c = new Constants()
    const leaves = ast.elements.map((e, i) => leafCheck(e.type, `u[${i}]`, c))
    if (generate && leaves.every((l) => l !== undefined) && !ast.elements.some((e) => mayHoldNumber(e.type))) {
      // Elements that are kept as they are (`[Signature, string]`): one generated check.
      return emit(
        c,
        `function tuple(u) {
  if (!Array.isArray(u) || u.length !== ${leaves.length}) return BAIL;
  ${leaves.map((l, i) => `if (u[${i}] === undefined || ${l}) return BAIL;`).join("\n  ")}
  return u;
}`
      )
    }
    const elements = ast.elements.map((e) => ({ decode: compile(e.type), numbers: mayHoldNumber(e.type) }))
    const n = elements.length
    return (u) => {
      if (!Array.isArray(u) || u.length !== n) return BAIL
      let out: Array<unknown> | undefined
      for (let i = 0; i < n; i++) {
        const e = elements[i]!
        let v = u[i]
        if (v === undefined) return BAIL
        if (e.numbers) {
          v = exactOf(v)
          if (v === BAIL) return BAIL
          u[i] = v
        }
        const d = e.decode(v)
        if (d === BAIL) return BAIL
        if (out === undefined && d !== v) out = u.slice(0, i)
        if (out !== undefined) out.push(d)
      }
      return out ?? u
    }
  }

  /** A declaration (`Uint8ArrayFromSelf`...): its own parser, called as ParseResult calls it. */
  const declaration = (ast: AST.Declaration): Compiled => {
    const constructor = ast.annotations[AST.TypeConstructorAnnotationId] as { readonly _tag?: unknown } | undefined
    if (constructor?._tag === "effect/Option" && ast.typeParameters.length === 1) {
      // OptionFromSelf (the type side of every optional field decoded to an Option): its value compiled,
      // as Schema's own parser decodes it (a new `some` of the decoded value), not through ParseResult.
      const value = compile(ast.typeParameters[0]!)
      return (u) => {
        if (!Option.isOption(u)) return BAIL
        if (Option.isNone(u)) return Option.none()
        const d = value(u.value)
        return d === BAIL ? BAIL : Option.some(d)
      }
    }
    const parse = ast.decodeUnknown(...ast.typeParameters)
    return (u) => {
      const input = exactOf(u)
      if (input === BAIL || !exactDeep(input)) return BAIL
      const r = parse(input, OPTIONS, ast)
      return Either.isEither(r) && Either.isRight(r) ? r.right : BAIL
    }
  }

  const union = (ast: AST.Union): Compiled => {
    if (ast.types.every(AST.isLiteral)) {
      const literals = new Set<unknown>(ast.types.map((t) => (t as AST.Literal).literal))
      return (u) => (literals.has(u) ? u : BAIL)
    }
    const byKind = disjointMembers(ast)
    if (byKind === undefined) return ordered(ast)
    const members = new Map<Kind, Compiled>()
    for (const [k, t] of byKind) members.set(k, compile(t))
    return (u) => {
      const k = kindOfValue(u)
      const member = k === undefined ? undefined : members.get(k)
      return member === undefined ? BAIL : member(u)
    }
  }

  /**
   * A union whose members share a JSON type, without objects (`Array<A> | Array<Array<A>>`):
   * ParseResult tries such members in order and keeps the first success. A member is
   * skipped only when it surely rejects the input (see `surelyRejects`); the first one
   * that may accept it decides, and its BAIL is the union's (an earlier member Schema
   * might accept is never passed over).
   */
  const ordered = (ast: AST.Union): Compiled => {
    const tagged = taggedMembers(ast)
    if (tagged !== undefined) {
      const [key, byTag] = tagged
      const members = new Map([...byTag].map(([tag, t]) => [tag, compile(t)]))
      return (u) => {
        if (typeof u !== "object" || u === null || !hasOwn.call(u, key)) return BAIL
        const member = members.get(String((u as Record<string, unknown>)[key]))
        return member === undefined ? BAIL : member(u)
      }
    }
    const keyed = keyedMembers(ast)
    if (keyed !== undefined) {
      const members = keyed.map(([key, t]) => [key, compile(t)] as const)
      return (u) => {
        if (typeof u !== "object" || u === null || Array.isArray(u)) return BAIL
        for (const [key, member] of members) if (hasOwn.call(u, key)) return member(u)
        return BAIL
      }
    }
    if (
      ast.types.some((t) => kindsOf(t)?.includes("object") !== false) &&
      ast.types.some((t) => literalTags(t).length > 0)
    ) {
      // Object members may be picked by a literal key before their turn: Schema's order, not ours.
      // Without a literal key in any member, Schema tries them in order, as below.
      return delegate(ast, "union with object members that share a JSON type")
    }
    const members = ast.types.map((t) => ({ decode: compile(t), rejects: surelyRejects(t) }))
    return (u) => {
      for (let i = 0; i < members.length; i++) {
        const m = members[i]!
        if (!m.rejects(u)) return m.decode(u)
      }
      return BAIL
    }
  }

  /** `Schema.Record({ key: Schema.String, value })`: every own key, each value decoded. */
  const record = (ast: AST.TypeLiteral): Compiled => {
    const [is, ...more] = ast.indexSignatures
    if (is === undefined || more.length > 0 || is.parameter._tag !== "StringKeyword") {
      return delegate(ast, "record with a non-string key")
    }
    if (keepsAsIs(is.type)) {
      // Values kept as they are: a plain object is its own output.
      return (u) => (isRecordLike(u) && !ownProto(u) && exactDeep(u) ? u : BAIL)
    }
    const value = compile(is.type)
    const numbers = mayHoldNumber(is.type)
    return (u) => {
      if (!isRecordLike(u) || ownProto(u)) return BAIL
      let out: Record<string, unknown> | undefined
      const keys = Object.keys(u)
      for (let i = 0; i < keys.length; i++) {
        const k = keys[i]!
        let v = u[k]
        if (numbers) {
          v = exactOf(v)
          if (v === BAIL) return BAIL
          u[k] = v
        }
        const d = value(v)
        if (d === BAIL) return BAIL
        if (out === undefined && d !== v) {
          out = {}
          for (let j = 0; j < i; j++) out[keys[j]!] = u[keys[j]!]
        }
        if (out !== undefined) out[k] = d
      }
      return out ?? u
    }
  }

  // -- closures (when code cannot be generated) ----------------------------------

  const struct = (ast: AST.TypeLiteral): Compiled => {
    const props = ast.propertySignatures.map((ps) => ({
      name: ps.name as string,
      optional: ps.isOptional,
      decode: compile(presentType(ps)),
      numbers: mayHoldNumber(ps.type),
      // `constructor`, `toString`...: read as own properties only.
      ownOnly: (ps.name as string) in Object.prototype
    }))
    const names = props.map((p) => p.name)
    const n = props.length
    return (u) => {
      if (!isRecordLike(u)) return BAIL
      let out: Record<string, unknown> | undefined
      let present = 0
      for (let i = 0; i < n; i++) {
        const p = props[i]!
        let v = p.ownOnly && !hasOwn.call(u, p.name) ? undefined : u[p.name]
        if (v === undefined) {
          // Absent and optional: skip. Absent and required, or an explicit undefined: Schema decides.
          if (p.optional && !hasOwn.call(u, p.name)) continue
          return BAIL
        }
        if (p.numbers) {
          v = exactOf(v)
          if (v === BAIL) return BAIL
          u[p.name] = v
        }
        present++
        const d = p.decode(v)
        if (d === BAIL) return BAIL
        if (out === undefined && d !== v) out = copyDeclared(u, names, i)
        if (out !== undefined) out[p.name] = d
      }
      if (out !== undefined) return out
      // Schema drops excess keys: only an object without any is its own output.
      let keys = 0
      for (const _ in u) keys++
      return keys === present ? u : copyDeclared(u, names, n)
    }
  }

  const array = (ast: AST.TupleType): Compiled => {
    const item = compile(ast.rest[0]!.type)
    const numbers = mayHoldNumber(ast.rest[0]!.type)
    return (u) => {
      if (!Array.isArray(u)) return BAIL
      let out: Array<unknown> | undefined
      for (let i = 0; i < u.length; i++) {
        let v = u[i]
        // A hole or an undefined element: Schema decides.
        if (v === undefined) return BAIL
        if (numbers) {
          v = exactOf(v)
          if (v === BAIL) return BAIL
          u[i] = v
        }
        const d = item(v)
        if (d === BAIL) return BAIL
        if (out === undefined && d !== v) out = u.slice(0, i)
        if (out !== undefined) out.push(d)
      }
      return out ?? u
    }
  }

  // -- generated code --------------------------------------------------------------
  //
  // The closures read every property through one shared `u[p.name]` site, which
  // V8 sees with dozens of names and shapes (a megamorphic load). Generated code
  // gives each property its own load site (`u["owner"]`), whose inline cache stays
  // monomorphic, and inlines the checks of leaves.

  /**
   * The code decoding each property of a struct from `u` into a local of its own (`v0`, `v1`...:
   * the decoded value, undefined when absent), counting present ones in `n` and setting `changed`
   * when a value is not the input's. Needs `r`, `n` and `changed` declared.
   */
  const propertyLines = (ast: AST.TypeLiteral, c: Constants): Array<string> =>
    ast.propertySignatures.map((ps, i) => {
      const type = presentType(ps)
      const key = JSON.stringify(ps.name)
      const v = `v${i}`
      const read = (ps.name as string) in Object.prototype
        ? `hasOwn.call(u, ${key}) ? u[${key}] : undefined`
        : `u[${key}]`
      const absent = ps.isOptional ? `if (hasOwn.call(u, ${key})) return BAIL;` : "return BAIL;"
      const leaf = leafCheck(type, v, c)
      // A rounded large number made exact before anything looks at it (see `rounded`).
      const exact = mayHoldNumber(type)
        ? `if (typeof ${v} === "number" && !(${v} < ${TWO_53} && ${v} > -${TWO_53}) && R.exact !== undefined) { ${v} = R.exact(${v}); if (${v} === BAIL) return BAIL; u[${key}] = ${v}; } `
        : ""
      const deep = keepsAsIs(type) ? `if (R.exact !== undefined && !${c.ref(exactDeep)}(${v})) return BAIL; ` : ""
      const inline = inlineTransformation(type, v, c)
      const present = leaf !== undefined
        ? `n++; ${exact}${deep}if (${leaf}) return BAIL;`
        : inline !== undefined
        ? `n++; ${exact}${inline}`
        : `n++; ${exact}r = ${c.ref(compile(type))}(${v}); if (r === BAIL) return BAIL; ` +
          `if (r !== ${v}) { changed = true; ${v} = r; }`
      return `let ${v} = ${read}; if (${v} === undefined) { ${absent} } else { ${present} }`
    })

  const generatedStruct = (ast: AST.TypeLiteral): Compiled => {
    const c = new Constants()
    const names = ast.propertySignatures.map((ps) => ps.name as string)
    const copy = c.ref((u: Record<string, unknown>, upTo: number) => copyDeclared(u, names, upTo))
    // Each property in a local of its own, so a changed struct is built at the end in one object
    // literal, whose shape V8 knows, instead of key by key.
    const lines = propertyLines(ast, c)
    const required = ast.propertySignatures.flatMap((ps, i) =>
      ps.isOptional ? [] : [`${JSON.stringify(ps.name)}: v${i}`]
    )
    const optional = ast.propertySignatures.flatMap((ps, i) =>
      ps.isOptional ? [`if (v${i} !== undefined) o[${JSON.stringify(ps.name)}] = v${i};`] : []
    )
    return emit(
      c,
      `function struct(u) {
  if (typeof u !== "object" || u === null || Array.isArray(u) || Object.getPrototypeOf(u) !== OP) return BAIL;
  let r, n = 0, changed = false;
  ${lines.join("\n  ")}
  if (changed) {
    const o = { ${required.join(", ")} };
    ${optional.join("\n    ")}
    return o;
  }
  let keys = 0;
  for (const _ in u) keys++;
  return keys === n ? u : ${copy}(u, ${names.length});
}`
    )
  }

  /**
   * Generated code for a final transformation that carries a plain decode (`DecodeId`) between
   * two leaves (`U64`: a number or a string to a bigint): the checks inline, one call.
   */
  const inlineTransformation = (ast: AST.AST, v: string, c: Constants): string | undefined => {
    if (ast._tag !== "Transformation" || ast.transformation._tag !== "FinalTransformation") return undefined
    const f = ast.annotations[DecodeId]
    if (typeof f !== "function" || annotationsChangeParsing(ast)) return undefined
    const from = leafCheck(ast.from, v, c)
    const to = leafCheck(ast.to, "r", c)
    if (from === undefined || to === undefined) return undefined
    return `if (${from}) return BAIL; r = ${c.ref(f)}(${v}); if (r === BAIL || ${to}) return BAIL; ` +
      `if (r !== ${v}) { changed = true; ${v} = r; }`
  }

  const generatedArray = (ast: AST.TupleType): Compiled => {
    const c = new Constants()
    const item = ast.rest[0]!.type
    const leaf = leafCheck(item, "v", c)
    const exact = mayHoldNumber(item)
      ? `if (typeof v === "number" && !(v < ${TWO_53} && v > -${TWO_53}) && R.exact !== undefined) { v = R.exact(v); if (v === BAIL) return BAIL; u[i] = v; } `
      : ""
    if (leaf !== undefined) {
      const deep = keepsAsIs(item) ? `if (R.exact !== undefined && !${c.ref(exactDeep)}(v)) return BAIL; ` : ""
      return emit(
        c,
        `function array(u) {
  if (!Array.isArray(u)) return BAIL;
  for (let i = 0; i < u.length; i++) { let v = u[i]; if (v === undefined) return BAIL; ${exact}${deep}if (${leaf}) return BAIL; }
  return u;
}`
      )
    }
    return emit(
      c,
      `function array(u) {
  if (!Array.isArray(u)) return BAIL;
  const d = ${c.ref(compile(item))};
  let out;
  for (let i = 0; i < u.length; i++) {
    let v = u[i];
    if (v === undefined) return BAIL;
    ${exact}const r = d(v);
    if (r === BAIL) return BAIL;
    if (r !== v && out === undefined) out = u.slice(0, i);
    if (out !== undefined) out.push(r);
  }
  return out === undefined ? u : out;
}`
    )
  }

  return compile
}

/** A new object with the declared keys before index `upTo`, in declaration order (as Schema builds it). */
const copyDeclared = (u: Record<string, unknown>, names: ReadonlyArray<string>, upTo: number) => {
  const out: Record<string, unknown> = {}
  for (let i = 0; i < upTo; i++) if (hasOwn.call(u, names[i]!)) out[names[i]!] = u[names[i]!]
  return out
}

/** The values generated code refers to, as `c[i]`. */
class Constants {
  readonly values: Array<unknown> = []
  ref(value: unknown): string {
    let i = this.values.indexOf(value)
    if (i < 0) i = this.values.push(value) - 1
    return `c[${i}]`
  }
}

const emit = (c: Constants, source: string): Compiled => {
  const factory = new Function("c", "BAIL", "hasOwn", "OP", "R", `"use strict";\nreturn ${source}`) as (
    c: ReadonlyArray<unknown>,
    bail: typeof BAIL,
    own: typeof hasOwn,
    op: object,
    r: typeof rounded
  ) => Compiled
  return factory(c.values, BAIL, hasOwn, Object.prototype, rounded)
}

const kindTest = (kind: Kind, v: string): string => {
  switch (kind) {
    case "null":
      return `${v} === null`
    case "undefined":
      return `${v} === undefined`
    case "object":
      return `(typeof ${v} === "object" && ${v} !== null && !Array.isArray(${v}))`
    case "array":
      return `Array.isArray(${v})`
    default:
      return `typeof ${v} === "${kind}"`
  }
}

/**
 * For a node that never changes its input (its output is the input itself): a
 * JavaScript expression that is true when the value in variable `v` is NOT
 * valid. Undefined for any other node.
 */
const leafCheck = (ast: AST.AST, v: string, c: Constants): string | undefined => {
  if (annotationsChangeParsing(ast)) return undefined
  switch (ast._tag) {
    case "StringKeyword":
      return `typeof ${v} !== "string"`
    case "NumberKeyword":
      return `typeof ${v} !== "number"`
    case "BooleanKeyword":
      return `typeof ${v} !== "boolean"`
    case "BigIntKeyword":
      return `typeof ${v} !== "bigint"`
    case "UnknownKeyword":
    case "AnyKeyword":
    case "VoidKeyword":
      return "false"
    case "Literal":
      return typeof ast.literal === "bigint" ? undefined : `${v} !== ${c.ref(ast.literal)}`
    case "Refinement": {
      const from = leafCheck(ast.from, v, c)
      if (from === undefined) return undefined
      // Effect's `Schema.int()` filter, whose predicate is exactly this, without its Option.
      if (ast.annotations[AST.SchemaIdAnnotationId] === Schema.IntSchemaId) {
        return `(${from} || !Number.isSafeInteger(${v}))`
      }
      const predicate = predicateOf(ast)
      if (predicate !== undefined && kindsOf(ast.from)?.join() === "string") {
        // The last string this place accepted: a page repeats its owner, tree or authority in every
        // row, and comparing equal strings costs less than checking one (the predicate is pure).
        const last = c.ref({ value: undefined })
        return `(${from} || (${v} !== ${last}.value && (${
          c.ref(predicate)
        }(${v}) !== true || (${last}.value = ${v}, false))))`
      }
      return predicate !== undefined
        ? `(${from} || ${c.ref(predicate)}(${v}) !== true)`
        : `(${from} || ${c.ref(ast.filter)}(${v}, ${c.ref(OPTIONS)}, ${c.ref(ast)})._tag !== "None")`
    }
    case "Union": {
      if (ast.types.every(AST.isLiteral)) {
        return `!${c.ref(new Set(ast.types.map((t) => (t as AST.Literal).literal)))}.has(${v})`
      }
      const byKind = disjointMembers(ast)
      if (byKind === undefined) return undefined
      const accepts: Array<string> = []
      for (const t of new Set(byKind.values())) {
        const check = leafCheck(t, v, c)
        if (check === undefined) return undefined
        const kinds = [...byKind].filter(([, m]) => m === t).map(([k]) => kindTest(k, v))
        accepts.push(`((${kinds.join(" || ")}) && !(${check}))`)
      }
      return `!(${accepts.join(" || ")})`
    }
    default:
      return undefined
  }
}

/**
 * The compiled decoder of a schema's AST, built on first use and cached: generated
 * code where `new Function` is allowed, closures elsewhere.
 *
 * @since 0.1.0
 */
export const compile: (ast: AST.AST) => Compiled = makeCompiler(canGenerate)

/**
 * Where a schema's compiled decoder hands a subtree to Schema: each node left to
 * the interpretive decoder, with why. Empty when the whole schema is compiled. A
 * fresh compiler, so nothing cached elsewhere hides a node.
 *
 * @since 0.1.0
 */
export const fallbacks = (ast: AST.AST): ReadonlyArray<{ readonly node: string; readonly reason: string }> => {
  const out: Array<{ node: string; reason: string }> = []
  const compileReported = makeCompiler(canGenerate, (node, reason) => out.push({ node: String(node), reason }))
  compileReported(ast)
  return out
}
