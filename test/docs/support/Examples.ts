/**
 * The `@example` blocks of the shipped packages' sources (what their `.d.ts` files carry), each made a
 * complete program a user could paste: the imports it names (from the packages' public entry points and
 * `effect`'s modules), wrapped in `Effect.gen` when it `yield*`s, over the sample values of `Prelude.ts`.
 */
import * as fs from "node:fs"
import * as path from "node:path"

/** One example: where it is written and its code. */
export interface Example {
  readonly file: string
  readonly line: number
  readonly packageName: string
  readonly code: string
}

const effectModules = [
  "Array",
  "BigDecimal",
  "Cause",
  "Chunk",
  "Config",
  "ConfigProvider",
  "Console",
  "Context",
  "Data",
  "Duration",
  "Effect",
  "Either",
  "Exit",
  "Fiber",
  "Layer",
  "Logger",
  "ManagedRuntime",
  "Metric",
  "Option",
  "ParseResult",
  "Queue",
  "Redacted",
  "Ref",
  "Schedule",
  "Schema",
  "Scope",
  "Sink",
  "Stream",
  "TestClock"
]

const platformModules: Record<string, string> = {
  FetchHttpClient: "@effect/platform/FetchHttpClient",
  HttpClient: "@effect/platform/HttpClient",
  HttpClientRequest: "@effect/platform/HttpClientRequest",
  HttpServer: "@effect/platform/HttpServer",
  HttpRouter: "@effect/platform/HttpRouter",
  NodeContext: "@effect/platform-node/NodeContext",
  NodeHttpClient: "@effect/platform-node/NodeHttpClient",
  NodeHttpServer: "@effect/platform-node/NodeHttpServer",
  NodeRuntime: "@effect/platform-node/NodeRuntime",
  NodeSocket: "@effect/platform-node/NodeSocket"
}

/** Packages whose module wins a name two packages export (`TokenMetadata`: the rpc service, not core's alias). */
const priority = ["rpc", "wallet", "admin", "webhooks", "subscriptions", "sdk", "http", "core", "emulator", "cli"]

/** Every JSDoc `@example` of the published packages' sources. */
export const readExamples = (root: string): Array<Example> => {
  const out: Array<Example> = []
  for (const folder of fs.readdirSync(path.join(root, "packages")).sort()) {
    const json = JSON.parse(fs.readFileSync(path.join(root, "packages", folder, "package.json"), "utf8"))
    if (json.private === true) continue
    const files = (fs.readdirSync(path.join(root, "packages", folder, "src"), { recursive: true }) as Array<string>)
      .filter((f) => f.endsWith(".ts")).sort()
    for (const rel of files) {
      const file = path.join("packages", folder, "src", rel)
      const text = fs.readFileSync(path.join(root, file), "utf8")
      for (const block of text.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
        const lines = block[0].split("\n")
        const startLine = text.slice(0, block.index).split("\n").length
        for (let i = 0; i < lines.length; i++) {
          if (!/^\s*\*\s*@example\b/.test(lines[i]!)) continue
          const code: Array<string> = []
          let j = i + 1
          for (; j < lines.length; j++) {
            const line = lines[j]!.replace(/^\s*\*\/\s*$/, "").replace(/^\s*\* ?/, "")
            if (/^@\w/.test(line) || /^\s*\*\//.test(lines[j]!)) break
            code.push(line)
          }
          out.push({ file, line: startLine + i, packageName: json.name, code: code.join("\n").trim() })
          i = j - 1
        }
      }
    }
  }
  return out
}

/** The public modules by namespace name: `@solfx/<package>/<Module>`, the first of `priority` where two share a name. */
export const publicModules = (root: string): Map<string, string> => {
  const modules = new Map<string, string>()
  const folders = fs.readdirSync(path.join(root, "packages"))
  for (
    const folder of [
      ...priority.filter((p) => folders.includes(p)),
      ...folders.filter((f) => !priority.includes(f))
    ]
  ) {
    const json = JSON.parse(fs.readFileSync(path.join(root, "packages", folder, "package.json"), "utf8"))
    if (json.private === true) continue
    for (const file of fs.readdirSync(path.join(root, "packages", folder, "src"))) {
      const name = file.replace(/\.ts$/, "")
      if (!file.endsWith(".ts") || name === "index" || name === "bin" || modules.has(name)) continue
      modules.set(name, `${json.name}/${name}`)
    }
  }
  return modules
}

/** Whether the example declares `name` itself. */
const declaredIn = (text: string, name: string) =>
  new RegExp(`(?:const|let|function|class|interface|type)\\s+${name}\\b|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=`).test(text)

const importLine = /^import\s[^\n]*?from\s+"[^"]+"\s*;?$|^import\s+"[^"]+"\s*;?$/

/**
 * The example as a complete module: its own imports, an import of every module namespace it names that
 * it does not import itself (`Wallet.`, `Effect.`), the sample values, and its code, inside
 * `Effect.gen` when it `yield*`s.
 */
export const program = (example: Example, modules: Map<string, string>, prelude: string, rootOf: string): string => {
  const lines = example.code.split("\n")
  const own = lines.filter((l) => importLine.test(l.trim()))
  const body = lines.filter((l) => !importLine.test(l.trim()))
  const imported = new Set(own.flatMap((l) => [...l.matchAll(/\b([A-Z]\w*)\b/g)].map((m) => m[1]!)))
  const text = body.join("\n")
  const used = new Set([...text.matchAll(/(?<![.\w])([A-Z]\w*)\./g)].map((m) => m[1]!))
  if (/\byield\*/.test(text)) used.add("Effect")
  const auto: Array<string> = []
  for (const name of [...used].sort()) {
    if (imported.has(name)) continue
    const own = modules.get(name)
    if (own !== undefined) auto.push(`import * as ${name} from "${own}"`)
    else if (effectModules.includes(name)) auto.push(`import * as ${name} from "effect/${name}"`)
    else if (platformModules[name] !== undefined) auto.push(`import * as ${name} from "${platformModules[name]}"`)
  }
  // The example's own module's exports, named without their namespace (`GetAssetParams` in AssetQuery's).
  const self = modules.get(path.basename(example.file, ".ts"))
  if (self !== undefined && self.startsWith(`${example.packageName}/`)) {
    const kinds = new Map(
      [
        ...fs.readFileSync(example.file.startsWith("/") ? example.file : path.join(rootOf, example.file), "utf8")
          .matchAll(/^export (?:declare )?(const|function|class|interface|type|let) (\w+)/gm)
      ].map((m) => [m[2]!, m[1]!] as const)
        // a value and a type of one name: the value is imported (it brings the type)
        .reverse()
    )
    const exported = new Set(kinds.keys())
    const named = [...new Set([...text.matchAll(/(?<![.\w])([A-Za-z_]\w*)\b/g)].map((m) => m[1]!))]
      .filter((n) => exported.has(n) && !imported.has(n) && !used.has(n) && !declaredIn(text, n))
    const specifiers = named.sort().map((n) =>
      kinds.get(n) === "interface" || kinds.get(n) === "type" ? `type ${n}` : n
    )
    if (named.length > 0) auto.push(`import { ${specifiers.join(", ")} } from "${self}"`)
  }
  // A sample value the program imports under the same name (an export of the example's own module, such as
  // Endpoints' `bundles`) is the import: the prelude's declaration of it is left out.
  const importedNames = new Set(
    [...own, ...auto].flatMap((l) => [...(l.split(/\sfrom\s/)[0] ?? "").matchAll(/\b(\w+)\b/g)].map((m) => m[1]!))
  )
  const samples = prelude.split(/\n(?=declare const )/).filter((statement) => {
    const name = /^declare const (\w+)/.exec(statement)?.[1]
    return name === undefined || !importedNames.has(name)
  }).join("\n")
  const wrapped = /\byield\*/.test(text)
    ? `export const example = Effect.gen(function*() {\n${text}\n})\n`
    : `export const example = () => {\n${text}\n}\n`
  return [...own, ...auto, samples, wrapped].join("\n")
}
