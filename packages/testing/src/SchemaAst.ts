/**
 * A copy of a Schema AST with some of its nodes replaced: the one walk behind the
 * helpers that change what a schema does at certain nodes (the reliability suite's
 * arbitraries, the decode bench's schema without byte checks).
 *
 * @example
 * // Every bigint node annotated, the rest copied as it is.
 * const copy = SchemaAst.rewrite(schema.ast, (node) =>
 *   node._tag === "BigIntKeyword" ? AST.annotations(node, { [AST.ArbitraryAnnotationId]: () => u64 }) : undefined
 * )
 * @since 0.1.0
 */
import * as AST from "effect/SchemaAST"

/**
 * Copies `ast` node by node. `replace` sees each node first, with the function that
 * copies a child, and returns the node's copy, or undefined to have the node rebuilt
 * over copies of its children (a leaf is kept as it is). A node met twice is copied
 * once: pass the same `copies` to share that across calls.
 *
 * @since 0.1.0
 */
export const rewrite = (
  ast: AST.AST,
  replace: (node: AST.AST, copy: (child: AST.AST) => AST.AST) => AST.AST | undefined,
  copies: Map<AST.AST, AST.AST> = new Map()
): AST.AST => {
  const copy = (node: AST.AST): AST.AST => {
    const seen = copies.get(node)
    if (seen !== undefined) return seen
    const out = replace(node, copy) ?? rebuild(node, copy)
    copies.set(node, out)
    return out
  }
  return copy(ast)
}

/** A node over copies of its children, with its own annotations; a leaf as it is. */
const rebuild = (ast: AST.AST, copy: (child: AST.AST) => AST.AST): AST.AST => {
  switch (ast._tag) {
    case "TypeLiteral":
      return new AST.TypeLiteral(
        ast.propertySignatures.map((ps) =>
          new AST.PropertySignature(ps.name, copy(ps.type), ps.isOptional, ps.isReadonly, ps.annotations)
        ),
        ast.indexSignatures.map((is) => new AST.IndexSignature(is.parameter, copy(is.type), is.isReadonly)),
        ast.annotations
      )
    case "TupleType":
      return new AST.TupleType(
        ast.elements.map((e) => new AST.OptionalType(copy(e.type), e.isOptional, e.annotations)),
        ast.rest.map((r) => new AST.Type(copy(r.type), r.annotations)),
        ast.isReadonly,
        ast.annotations
      )
    case "Union":
      return AST.Union.make(ast.types.map(copy), ast.annotations)
    case "Refinement":
      return new AST.Refinement(copy(ast.from), ast.filter, ast.annotations)
    case "Transformation":
      return new AST.Transformation(copy(ast.from), copy(ast.to), ast.transformation, ast.annotations)
    case "Suspend":
      return new AST.Suspend(() => copy(ast.f()), ast.annotations)
    case "Declaration":
      return new AST.Declaration(ast.typeParameters.map(copy), ast.decodeUnknown, ast.encodeUnknown, ast.annotations)
    default:
      return ast
  }
}
