/**
 * Issue 39's light types: what the declarations weigh and what they cost a user's type-check, for this tree
 * and a base commit (`BENCH_TYPES_BASE`, default the commit before the transaction-type union was named), in
 * the same run.
 * - `.d.ts` bytes: the declarations of the eight packages an SDK user installs (core, http, rpc, wallet,
 *   admin, webhooks, subscriptions, sdk), emitted by one `tsc` program per tree; and how many times the
 *   transaction-type vocabulary is written out in them (its rarest name, `COMPRESSED_NFT_MINT`, counted).
 * - The small app (`bench/types-app/app.ts`, 138 lines, five services) type-checked as a user's project
 *   would be: the packages as installed (their `package.json` and `.d.ts` under `node_modules/@solfx`), the
 *   repository's compiler options (strict, `skipLibCheck`). `tsc --extendedDiagnostics`: files, types,
 *   memory, check time and total time; `BENCH_TYPES_REPS` (default 3) checks of each tree, alternated, medians.
 * The base tree is `git archive`d into a temporary folder that shares this repository's node_modules except
 * `@solfx`. Needs git and the base commit in this repository.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { fmtRatio, log, median } from "./lib/harness.js"
import { emit } from "./lib/result.js"

const BASE = process.env["BENCH_TYPES_BASE"] ?? "82aed20"
const REPS = Number(process.env["BENCH_TYPES_REPS"] ?? 3)
const PACKAGES = ["core", "http", "rpc", "wallet", "admin", "webhooks", "subscriptions", "sdk"]
const repo = fileURLToPath(new URL("..", import.meta.url))
const tsc = path.join(repo, "node_modules/typescript/bin/tsc")
const work = fs.mkdtempSync(path.join(os.tmpdir(), "solfx-bench-types-"))

const sourcesOf = (root: string): Array<string> =>
  PACKAGES.flatMap((pkg) =>
    (fs.readdirSync(path.join(root, "packages", pkg, "src"), { recursive: true }) as Array<string>)
      .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
      .map((f) => path.join(root, "packages", pkg, "src", f))
  )

/**
 * `node_modules` for a tree: every entry of this repository's, and `@solfx/<pkg>` linked to `solfx(pkg)` when
 * given (else left for the caller to fill).
 */
const linkModules = (into: string, solfx?: (pkg: string) => string) => {
  fs.mkdirSync(path.join(into, "node_modules/@solfx"), { recursive: true })
  for (const entry of fs.readdirSync(path.join(repo, "node_modules"))) {
    if (entry === "@solfx" || entry === ".bin" || entry.startsWith(".")) continue
    fs.symlinkSync(path.join(repo, "node_modules", entry), path.join(into, "node_modules", entry))
  }
  if (solfx === undefined) return
  for (const pkg of PACKAGES) fs.symlinkSync(solfx(pkg), path.join(into, "node_modules/@solfx", pkg))
}

const run = (args: ReadonlyArray<string>): string => {
  try {
    return execFileSync(process.execPath, [tsc, ...args], { encoding: "utf8", maxBuffer: 256 * 1024 * 1024 })
  } catch (error) {
    const e = error as { stdout?: string }
    throw new Error(`tsc ${args.join(" ")} failed:\n${(e.stdout ?? String(error)).slice(0, 4000)}`)
  }
}

interface Tree {
  readonly label: string
  readonly root: string
  readonly bytes: number
  readonly bytesByPackage: Record<string, number>
  readonly unionCopies: number
  readonly app: string
}

const prepare = (label: string, root: string): Tree => {
  const emitted = path.join(work, `${label}-emit`)
  const config = path.join(root, `.bench-types-emit.json`)
  fs.writeFileSync(
    config,
    JSON.stringify({
      extends: "./tsconfig.base.json",
      compilerOptions: {
        composite: false,
        incremental: false,
        declaration: true,
        emitDeclarationOnly: true,
        noUnusedLocals: false,
        noUnusedParameters: false,
        rootDir: "./packages",
        outDir: emitted
      },
      files: sourcesOf(root)
    })
  )
  try {
    run(["-p", config])
  } finally {
    fs.rmSync(config)
  }
  const bytesByPackage: Record<string, number> = {}
  let unionCopies = 0
  // The installed packages, in the app's node_modules (copies, not links: TypeScript resolves a link to its
  // real path, and the packages' own imports must find effect from there): package.json, and dist/ = the
  // declarations of src/.
  const app = path.join(work, `${label}-app`)
  linkModules(app)
  const installed = path.join(app, "node_modules/@solfx")
  for (const pkg of PACKAGES) {
    const dist = path.join(installed, pkg, "dist")
    fs.mkdirSync(dist, { recursive: true })
    fs.cpSync(path.join(emitted, pkg, "src"), dist, { recursive: true })
    fs.copyFileSync(path.join(root, "packages", pkg, "package.json"), path.join(installed, pkg, "package.json"))
    let bytes = 0
    for (const file of fs.readdirSync(dist, { recursive: true }) as Array<string>) {
      if (!file.endsWith(".d.ts")) continue
      const text = fs.readFileSync(path.join(dist, file), "utf8")
      bytes += Buffer.byteLength(text)
      unionCopies += text.split("\"COMPRESSED_NFT_MINT\"").length - 1
    }
    bytesByPackage[pkg] = bytes
  }
  fs.copyFileSync(path.join(repo, "bench/types-app/app.ts"), path.join(app, "app.ts"))
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "app", type: "module", private: true }))
  const base = JSON.parse(fs.readFileSync(path.join(repo, "tsconfig.base.json"), "utf8")).compilerOptions
  fs.writeFileSync(
    path.join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        ...base,
        customConditions: undefined,
        composite: false,
        declaration: false,
        emitDeclarationOnly: false,
        noEmit: true,
        noUnusedLocals: false
      },
      files: ["app.ts"]
    })
  )
  const bytes = Object.values(bytesByPackage).reduce((a, b) => a + b, 0)
  return { label, root, bytes, bytesByPackage, unionCopies, app }
}

interface Check {
  readonly files: number
  readonly types: number
  readonly memoryKB: number
  readonly checkS: number
  readonly totalS: number
}

const check = (tree: Tree): Check => {
  const out = run(["-p", tree.app, "--extendedDiagnostics"])
  const figure = (name: string) => {
    const found = new RegExp(`^${name}:\\s+([\\d.]+)`, "m").exec(out)
    if (found === null) throw new Error(`no "${name}" in tsc's diagnostics:\n${out}`)
    return Number(found[1])
  }
  return {
    files: figure("Files"),
    types: figure("Types"),
    memoryKB: figure("Memory used"),
    checkS: figure("Check time"),
    totalS: figure("Total time")
  }
}

// The base tree: its packages and root config, with this repository's node_modules (its @solfx: its own).
const baseRoot = path.join(work, "base-tree")
fs.mkdirSync(baseRoot)
execFileSync("sh", ["-c", `git -C "${repo}" archive "${BASE}" packages tsconfig.base.json | tar -x -C "${baseRoot}"`])
linkModules(baseRoot, (pkg) => path.join(baseRoot, "packages", pkg))
const baseCommit = execFileSync("git", ["-C", repo, "rev-parse", "--short", BASE], { encoding: "utf8" }).trim()

try {
  log(`emitting the declarations of ${baseCommit} and of this tree`)
  const trees = [prepare("base", baseRoot), prepare("current", repo)]
  const checks = new Map<string, Array<Check>>(trees.map((t) => [t.label, []]))
  for (let rep = 0; rep < REPS; rep++) {
    for (const tree of rep % 2 === 0 ? trees : [...trees].reverse()) {
      const c = check(tree)
      checks.get(tree.label)!.push(c)
      log(`${tree.label} #${rep + 1}: ${JSON.stringify(c)}`)
    }
  }
  const med = (label: string, key: keyof Check) => median(checks.get(label)!.map((c) => c[key]))
  const [base, current] = trees as [Tree, Tree]
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
  const ratio = (a: number, b: number) => fmtRatio(a / b)
  const names = { base: `base ${baseCommit}`, current: "this tree" } as const
  const rowsOf = (key: keyof Check, format: (n: number) => string) =>
    (["base", "current"] as const).map((label) => ({
      contender: names[label],
      value: format(med(label, key)),
      ...(label === "current" ? { ratio: ratio(med("current", key), med("base", key)) } : {})
    }))
  emit({
    id: "types",
    title: "Types: declaration size and a small app's type-check",
    setup: `The declarations of ${PACKAGES.join(", ")} emitted by one tsc program per tree; the app ` +
      `bench/types-app/app.ts (five services) checked against them as installed packages, ${REPS} checks a tree, ` +
      `alternated, medians of tsc --extendedDiagnostics. Base: ${baseCommit} (BENCH_TYPES_BASE).`,
    tables: [
      {
        caption: ".d.ts bytes of the eight packages (the transaction-type vocabulary written out n times)",
        rows: [
          { contender: names.base, value: kb(base.bytes), note: `${base.unionCopies} copies` },
          {
            contender: names.current,
            value: kb(current.bytes),
            ratio: ratio(current.bytes, base.bytes),
            note: `${current.unionCopies} copies`
          }
        ]
      },
      {
        caption: ".d.ts bytes by package (base → this tree)",
        rows: PACKAGES.map((pkg) => ({
          contender: pkg,
          value: `${kb(base.bytesByPackage[pkg]!)} → ${kb(current.bytesByPackage[pkg]!)}`,
          ratio: ratio(current.bytesByPackage[pkg]!, base.bytesByPackage[pkg]!)
        }))
      },
      { caption: "the app's check time (tsc's Check time)", rows: rowsOf("checkS", (s) => `${s.toFixed(2)} s`) },
      { caption: "the app's total tsc time", rows: rowsOf("totalS", (s) => `${s.toFixed(2)} s`) },
      { caption: "memory tsc used", rows: rowsOf("memoryKB", (k) => `${(k / 1024).toFixed(0)} MB`) },
      { caption: "files in the program", rows: rowsOf("files", String) },
      { caption: "types created", rows: rowsOf("types", String) }
    ],
    targets: [
      {
        name: "types: .d.ts bytes",
        target: "≤ 0.5× base",
        measured: ratio(current.bytes, base.bytes),
        met: current.bytes <= base.bytes / 2
      },
      {
        name: "types: the app's check time",
        target: "≤ 0.6× base",
        measured: ratio(med("current", "checkS"), med("base", "checkS")),
        met: med("current", "checkS") <= 0.6 * med("base", "checkS")
      },
      {
        name: "types: the app's check memory",
        target: "≤ 0.6× base",
        measured: ratio(med("current", "memoryKB"), med("base", "memoryKB")),
        met: med("current", "memoryKB") <= 0.6 * med("base", "memoryKB")
      }
    ],
    raw: [...checks.entries()].flatMap(([label, list]) =>
      list.map((c, i) => `${label} #${i + 1}: ${JSON.stringify(c)}`)
    )
  })
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
