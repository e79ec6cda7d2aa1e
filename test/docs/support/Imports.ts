/**
 * The package graph as the sources have it (every import of every package's `src` and `test`, read by
 * TypeScript's own pre-processor, type-only and dynamic imports included) and as docs/ARCHITECTURE.md
 * states it (its package table), and the rules that compare the two.
 */
import * as fs from "node:fs"
import { builtinModules } from "node:module"
import * as path from "node:path"
import ts from "typescript"

/** One import: where it is and what it names. */
export interface Import {
  readonly file: string
  readonly line: number
  readonly specifier: string
}

/** A workspace package: its name, its declared dependencies and the imports of its sources and tests. */
export interface Package {
  readonly name: string
  readonly dir: string
  readonly dependencies: ReadonlyArray<string>
  readonly devDependencies: ReadonlyArray<string>
  readonly src: ReadonlyArray<Import>
  readonly test: ReadonlyArray<Import>
}

/** A row of the package table: what a package (or an entry, `@solfx/sdk/neutral`) may import. */
export interface Rule {
  readonly name: string
  readonly workspace: ReadonlyArray<string>
  readonly other: ReadonlyArray<string>
}

const sourceFiles = (dir: string): Array<string> =>
  fs.existsSync(dir)
    ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory()
        ? (entry.name === "node_modules" || entry.name === "build" || entry.name === "dist"
          ? []
          : sourceFiles(path.join(dir, entry.name)))
        : /\.(m|c)?tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")
        ? [path.join(dir, entry.name)]
        : []
    )
    : []

/**
 * Every import of a file: static, re-exports (`export * as X from`, which `ts.preProcessFile` misses),
 * `import type`, `import()`, `import("x").T` types and `require`. Imports written inside strings (the programs
 * `@solfx/testing/Bundles` bundles) are not the file's own and are not read.
 */
export const importsOf = (file: string, text: string): Array<Import> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const out: Array<Import> = []
  const add = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) {
      out.push({
        file,
        line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1,
        specifier: node.text
      })
    }
  }
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier)
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) {
      add(node.moduleReference.expression)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal)
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    ) add(node.arguments[0])
    ts.forEachChild(node, visit)
  }
  visit(source)
  return out
}

/** The package a bare specifier names (`@solfx/sdk/neutral` → `@solfx/sdk`); undefined for relative and builtin. */
export const packageOf = (specifier: string): string | undefined => {
  if (specifier.startsWith(".") || specifier.startsWith("/") || specifier.startsWith("node:")) return undefined
  const name = specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]!
  return builtinModules.includes(name) ? undefined : name
}

const readJson = (file: string): Record<string, unknown> => JSON.parse(fs.readFileSync(file, "utf8"))
const keys = (value: unknown): Array<string> => Object.keys((value ?? {}) as object)

/** Every workspace package under `root/packages`, read from disk. */
export const readPackages = (root: string): Array<Package> =>
  fs.readdirSync(path.join(root, "packages")).filter((name) =>
    fs.existsSync(path.join(root, "packages", name, "package.json"))
  ).sort().map((folder) => {
    const dir = path.join(root, "packages", folder)
    const json = readJson(path.join(dir, "package.json"))
    const read = (sub: string) =>
      sourceFiles(path.join(dir, sub)).flatMap((file) =>
        importsOf(path.relative(root, file), fs.readFileSync(file, "utf8"))
      )
    return {
      name: json.name as string,
      dir: path.relative(root, dir),
      dependencies: [...keys(json.dependencies), ...keys(json.peerDependencies)],
      devDependencies: keys(json.devDependencies),
      src: read("src"),
      test: read("test")
    }
  })

/**
 * The files an entry loads, following its relative imports (`@solfx/sdk/neutral` is `src/neutral.ts` and
 * what it reaches inside its package).
 */
export const reachable = (root: string, entry: string): Array<Import> => {
  const seen = new Set<string>()
  const out: Array<Import> = []
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const imp of importsOf(path.relative(root, file), fs.readFileSync(file, "utf8"))) {
      out.push(imp)
      if (imp.specifier.startsWith(".")) {
        const target = path.resolve(path.dirname(file), imp.specifier.replace(/\.js$/, ".ts"))
        if (fs.existsSync(target)) visit(target)
      }
    }
  }
  visit(path.join(root, entry))
  return out
}

const ticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)

/**
 * The package table of docs/ARCHITECTURE.md: the table whose header starts
 * `| Package | Imports (workspace) | Imports (other) |`. A cell lists names in backticks; a row may
 * name several packages (`@solfx/rpc`, `@solfx/wallet`).
 */
export const readRules = (markdown: string): Array<Rule> => {
  const lines = markdown.split("\n")
  const header = lines.findIndex((line) =>
    /^\|\s*Package\s*\|\s*Imports \(workspace\)\s*\|\s*Imports \(other\)/.test(line)
  )
  if (header < 0) {
    throw new Error("docs/ARCHITECTURE.md has no table headed | Package | Imports (workspace) | Imports (other) |")
  }
  const rules: Array<Rule> = []
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break
    const cells = line.split("|").slice(1, -1)
    const [names, workspace, other] = [ticked(cells[0]!), ticked(cells[1] ?? ""), ticked(cells[2] ?? "")]
    for (const name of names) rules.push({ name, workspace, other })
  }
  return rules
}

/** Everything the rules find wrong, one line each, naming the file, line and import. */
export const violations = (
  packages: ReadonlyArray<Package>,
  rules: ReadonlyArray<Rule>,
  options: {
    /** The root's devDependencies: tools a test may import without declaring (vitest, fast-check, peers' SDKs). */
    readonly rootDevDependencies: ReadonlyArray<string>
    /** Entries checked as their own row, with the imports they reach (`@solfx/sdk/neutral`). */
    readonly entries?: ReadonlyArray<{ readonly name: string; readonly imports: ReadonlyArray<Import> }>
  }
): Array<string> => {
  const out: Array<string> = []
  const workspace = new Set(packages.map((p) => p.name))
  const byName = new Map(rules.map((rule) => [rule.name, rule]))
  const allowed = (rule: Rule, imp: Import, what: string) => {
    const name = packageOf(imp.specifier)
    if (name === undefined) return
    const list = workspace.has(name) ? rule.workspace : rule.other
    if (!list.includes(name)) {
      out.push(
        `${imp.file}:${imp.line}: ${what} imports ${imp.specifier}, which docs/ARCHITECTURE.md's table does not allow it (${
          workspace.has(name) ? "workspace" : "other"
        }: ${list.join(", ") || "none"})`
      )
    }
  }
  for (const pkg of packages) {
    const rule = byName.get(pkg.name)
    if (rule === undefined) {
      out.push(`${pkg.dir}: ${pkg.name} has no row in docs/ARCHITECTURE.md's package table`)
      continue
    }
    for (const imp of pkg.src) {
      allowed(rule, imp, pkg.name)
      const name = packageOf(imp.specifier)
      if (name !== undefined && name !== pkg.name && !pkg.dependencies.includes(name)) {
        out.push(
          `${imp.file}:${imp.line}: ${pkg.name} imports ${imp.specifier}, not in its package.json's dependencies or peerDependencies`
        )
      }
    }
    for (const imp of pkg.test) {
      const name = packageOf(imp.specifier)
      if (name === undefined || name === pkg.name) continue
      const declared = pkg.dependencies.includes(name) || pkg.devDependencies.includes(name) ||
        (!workspace.has(name) && options.rootDevDependencies.includes(name))
      if (!declared) {
        out.push(
          `${imp.file}:${imp.line}: ${pkg.name}'s tests import ${imp.specifier}, not declared in its package.json`
        )
      }
    }
  }
  for (const entry of options.entries ?? []) {
    const rule = byName.get(entry.name)
    if (rule === undefined) {
      out.push(`${entry.name} has no row in docs/ARCHITECTURE.md's package table`)
      continue
    }
    for (const imp of entry.imports) allowed(rule, imp, entry.name)
  }
  for (const rule of rules) {
    if (!workspace.has(rule.name) && !(options.entries ?? []).some((e) => e.name === rule.name)) {
      out.push(`docs/ARCHITECTURE.md's package table names ${rule.name}, which is no package of the workspace`)
    }
  }
  return out
}
