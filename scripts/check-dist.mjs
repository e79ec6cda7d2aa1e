#!/usr/bin/env node
// `prepack` of every public package: refuses to pack a package whose `dist` is
// missing or incomplete (one .js and one .d.ts per source module) (a tarball without it would install but not import).
// Run from the package's directory, as npm does.
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"

const pkg = JSON.parse(readFileSync("package.json", "utf8"))
const walk = (dir) =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? walk(path) : [path]
  })

const missing = []
if (!existsSync("dist")) missing.push("dist/")
else {
  for (const source of walk("src").filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))) {
    const base = join("dist", relative("src", source)).replace(/\.ts$/, "")
    for (const out of [`${base}.js`, `${base}.d.ts`]) {
      if (!existsSync(out)) missing.push(out)
    }
  }
}
if (missing.length > 0) {
  console.error(`${pkg.name}: cannot pack, the build output is missing:`)
  for (const m of missing.slice(0, 10)) console.error(`  ${m}`)
  if (missing.length > 10) console.error(`  ... and ${missing.length - 10} more`)
  console.error("Run `npm run build` at the repository root first.")
  process.exit(1)
}
