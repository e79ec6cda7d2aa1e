/**
 * docs/ARCHITECTURE.md's package table is the rule: every import of every package's sources is one its row
 * allows, and one its package.json declares (a test's imports: declared, or a tool of the root). The
 * synthetic cases show the check fails when an import is added against the rules.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import type { Import, Package } from "./support/Imports.js"
import { reachable, readPackages, readRules, violations } from "./support/Imports.js"

const root = fileURLToPath(new URL("../..", import.meta.url))
const markdown = fs.readFileSync(`${root}/docs/ARCHITECTURE.md`, "utf8")
const rootDevDependencies = Object.keys(JSON.parse(fs.readFileSync(`${root}/package.json`, "utf8")).devDependencies)
const entries = [{ name: "@solfx/sdk/neutral", imports: reachable(root, "packages/sdk/src/neutral.ts") }]

const check = (packages: ReadonlyArray<Package>) =>
  violations(packages, readRules(markdown), { rootDevDependencies, entries })

/** The packages with one more import in `name`'s sources. */
const withImport = (packages: ReadonlyArray<Package>, name: string, specifier: string) =>
  packages.map((p) =>
    p.name === name
      ? { ...p, src: [...p.src, { file: `${p.dir}/src/Synthetic.ts`, line: 1, specifier } satisfies Import] }
      : p
  )

describe("docs/ARCHITECTURE.md's package table", () => {
  const packages = readPackages(root)

  it("reads a row for every package and the neutral entry", () => {
    const rules = readRules(markdown)
    expect(rules.map((r) => r.name).sort()).toEqual([...packages.map((p) => p.name), "@solfx/sdk/neutral"].sort())
  })

  it("every package imports only what its row allows and its package.json declares", () => {
    expect(check(packages)).toEqual([])
  })

  it("fails on a client package importing @effect/platform-node", () => {
    expect(check(withImport(packages, "@solfx/http", "@effect/platform-node/NodeHttpClient"))).toEqual([
      expect.stringMatching(
        /^packages\/http\/src\/Synthetic\.ts:1: @solfx\/http imports @effect\/platform-node\/NodeHttpClient, which docs\/ARCHITECTURE\.md's table does not allow/
      ),
      expect.stringMatching(/not in its package\.json's dependencies/)
    ])
  })

  it("fails on core importing another workspace package", () => {
    expect(check(withImport(packages, "@solfx/core", "@solfx/http/HttpTransport"))).toEqual([
      expect.stringContaining(
        "@solfx/core imports @solfx/http/HttpTransport, which docs/ARCHITECTURE.md's table does not allow"
      ),
      expect.stringContaining("not in its package.json's dependencies")
    ])
  })

  it("fails on an undeclared dependency the table allows", () => {
    // @solfx/cli may import @solfx/subscriptions by the table, but its package.json does not name it.
    const cli = packages.find((p) => p.name === "@solfx/cli")!
    const undeclared = ["@solfx/subscriptions", "@solfx/webhooks"].find((n) => !cli.dependencies.includes(n))!
    const rules = readRules(markdown)
    const rule = rules.find((r) => r.name === "@solfx/cli")!
    const found = violations(
      withImport(packages, "@solfx/cli", undeclared),
      rules.map((r) => r === rule ? { ...r, workspace: [...r.workspace, undeclared] } : r),
      { rootDevDependencies, entries }
    )
    expect(found).toEqual([
      expect.stringContaining(`@solfx/cli imports ${undeclared}, not in its package.json's dependencies`)
    ])
  })

  it("fails on the neutral entry reaching @effect/platform-node", () => {
    const found = violations(packages, readRules(markdown), {
      rootDevDependencies,
      entries: [{
        name: "@solfx/sdk/neutral",
        imports: [...entries[0]!.imports, {
          file: "packages/sdk/src/SolfxNeutral.ts",
          line: 1,
          specifier: "@effect/platform-node/NodeHttpClient"
        }]
      }]
    })
    expect(found).toEqual([expect.stringContaining("@solfx/sdk/neutral imports @effect/platform-node/NodeHttpClient")])
  })
})
