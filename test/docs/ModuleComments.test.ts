/**
 * Every `.d.ts` keeps its module comment: each public module's declarations, emitted as `tsc` emits them
 * (`ts.transpileDeclaration`, the same printer), start with the module's doc comment. A comment
 * written right above an import that the declarations drop is dropped with it; a blank line after
 * the comment detaches it from the import, and it stays.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"

const root = fileURLToPath(new URL("../..", import.meta.url))

const modules = fs.readdirSync(path.join(root, "packages")).flatMap((folder) => {
  const json = JSON.parse(fs.readFileSync(path.join(root, "packages", folder, "package.json"), "utf8"))
  if (json.private === true) return []
  return (fs.readdirSync(path.join(root, "packages", folder, "src"), { recursive: true }) as Array<string>)
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join("packages", folder, "src", f))
}).sort()

describe("module comments in the declarations", () => {
  it("every public module's .d.ts starts with its module comment", () => {
    const lost = modules.filter((file) => {
      const text = fs.readFileSync(path.join(root, file), "utf8")
      const comment = /^(?:#![^\n]*\n)?(\/\*\*[\s\S]*?\*\/)/.exec(text)?.[1]
      if (comment === undefined) return true
      const { outputText } = ts.transpileDeclaration(text, {
        fileName: file,
        compilerOptions: { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext }
      })
      return !outputText.replace(/^#![^\n]*\n/, "").startsWith(comment)
    })
    console.log(`module comments kept: ${modules.length - lost.length} of ${modules.length} public modules`)
    expect(lost).toEqual([])
  })
})
