/**
 * docs/ARCHITECTURE.md walks a call, a page and the API key step by step, naming each function where it is
 * (`` `name` at `path:line` ``). This checks that every such line of the sources holds the name it is given
 * (a step that moved makes the test fail, saying where), and that a page and the key each take at most 5 hops.
 */
import { describe, expect, it } from "@effect/vitest"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))
const markdown = fs.readFileSync(`${root}/docs/ARCHITECTURE.md`, "utf8")

/** The text of the `## title` section. */
const section = (title: string): string => {
  const start = markdown.indexOf(`## ${title}\n`)
  if (start < 0) throw new Error(`docs/ARCHITECTURE.md has no section "${title}"`)
  const end = markdown.indexOf("\n## ", start + 1)
  return markdown.slice(start, end < 0 ? undefined : end)
}

const references = (text: string) =>
  [...text.matchAll(/`([^`]+)` at\s+`([\w@./-]+\.ts):(\d+)`/g)].map(([, name, file, line]) => ({
    name: name!,
    file: file!,
    line: Number(line)
  }))

/** The numbers of a section's top-level numbered steps. */
const hops = (text: string) => [...text.matchAll(/^(\d+)\. /gm)].map(([, n]) => Number(n))

describe("docs/ARCHITECTURE.md's walks", () => {
  const walks = ["The path of one call", "The path of one page", "The path of the key"]

  it("name a function at every file:line they give, and that line holds it", () => {
    const all = walks.flatMap((w) => references(section(w)))
    expect(all.length).toBeGreaterThanOrEqual(30)
    const wrong = all.flatMap(({ file, line, name }) => {
      const lines = fs.existsSync(`${root}/${file}`) ? fs.readFileSync(`${root}/${file}`, "utf8").split("\n") : []
      const text = lines[line - 1]
      return text !== undefined && text.includes(name) ? [] : [`${file}:${line} does not hold ${name}: ${text}`]
    })
    expect(wrong).toEqual([])
  })

  it("a page and the key each in 5 hops or fewer, numbered in order", () => {
    for (const w of ["The path of one page", "The path of the key"]) {
      const steps = hops(section(w))
      expect(steps.length, w).toBeGreaterThan(0)
      expect(steps.length, w).toBeLessThanOrEqual(5)
      expect(steps, w).toEqual(steps.map((_, i) => i + 1))
    }
  })

  it("fails on a reference whose line does not hold the name", () => {
    const [first] = references("`walk` at `packages/http/src/Walk.ts:1`")
    const text = fs.readFileSync(`${root}/${first!.file}`, "utf8").split("\n")[first!.line - 1]!
    expect(text.includes(first!.name)).toBe(false)
  })
})
