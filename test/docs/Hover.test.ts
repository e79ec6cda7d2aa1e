/**
 * Docs at the cursor: TypeScript's language service, over a small consumer of the public API
 * (`support/consumer.ts`), shows a doc on hover for every field it writes in the params and options of
 * Wallet, DAS, Compression, Webhooks, Signatures and Subscriptions, and the doc names the rule the
 * field is checked against.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { service } from "./support/Hover.js"

const file = fileURLToPath(new URL("support/consumer.ts", import.meta.url))
const text = fs.readFileSync(file, "utf8")

/** Every field the consumer writes in an object literal: its name, position and the area (the export) it is in. */
const fields = (() => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const out: Array<{ readonly area: string; readonly name: string; readonly position: number }> = []
  for (const statement of source.statements) {
    if (!ts.isVariableStatement(statement)) continue
    const area = (statement.declarationList.declarations[0]!.name as ts.Identifier).text
    const visit = (node: ts.Node): void => {
      if ((ts.isPropertyAssignment(node) || ts.isShorthandPropertyAssignment(node)) && ts.isIdentifier(node.name)) {
        out.push({ area, name: node.name.text, position: node.name.getStart(source) })
      }
      ts.forEachChild(node, visit)
    }
    visit(statement)
  }
  return out
})()

/** Fields whose doc must state the rule they are checked against. */
const rules: ReadonlyArray<readonly [area: string, field: string, rule: RegExp]> = [
  ["wallet", "limit", /1 to 100\b/],
  ["wallet", "before", /512 characters/],
  ["wallet", "page", /at least 1/],
  ["das", "ownerAddress", /base58 address of 32 bytes/],
  ["das", "page", /Not with `cursor`/],
  ["das", "cursor", /Not with `page`/],
  ["das", "groupKey", /non-empty/],
  ["compression", "limit", /1 to 1000/],
  ["compression", "hashes", /at most 8/],
  ["compression", "addresses", /Exactly one of `hashes` and `addresses`/],
  ["compression", "signature", /base58 of 64 bytes/],
  ["webhooks", "webhookURL", /http\(s\) URL of at most 2,048 characters/],
  ["webhooks", "accountAddresses", /1 to 100,000/],
  ["webhooks", "authHeader", /1 to 1,024 characters/],
  ["signatures", "signatures", /1 to 256/],
  ["signatures", "limit", /1 to 1000/],
  ["subscriptions", "bufferCapacity", /at least 1/]
]

describe("hover docs on the public operations' params and options", () => {
  const ls = service(file, text)
  const hovers = fields.map((field) => ({ ...field, hover: ls.hoverAt(field.position) }))

  it("the consumer type-checks", () => {
    expect(ls.diagnostics()).toEqual([])
  })

  it("every field written shows a doc, at least 30 across the six areas", () => {
    const undocumented = hovers.filter((h) => (h.hover?.documentation ?? "") === "").map((h) =>
      `${h.area}: ${h.name} (${h.hover?.display ?? "no hover"})`
    )
    expect(undocumented).toEqual([])
    const areas = new Set(hovers.map((h) => h.area))
    expect([...areas].sort()).toEqual(["compression", "das", "signatures", "subscriptions", "wallet", "webhooks"])
    const distinct = new Set(hovers.map((h) => `${h.area}.${h.name}`))
    console.log(`hover docs on ${hovers.length} fields written (${distinct.size} distinct) across ${areas.size} areas`)
    expect(distinct.size).toBeGreaterThanOrEqual(30)
  })

  it("a field's doc states the rule it is checked against", () => {
    const missing = rules.flatMap(([area, name, rule]) => {
      const found = hovers.find((h) => h.area === area && h.name === name)
      return found !== undefined && rule.test(found.hover?.documentation ?? "")
        ? []
        : [`${area}.${name}: ${JSON.stringify(found?.hover?.documentation)} does not match ${rule}`]
    })
    expect(missing).toEqual([])
  })
})
