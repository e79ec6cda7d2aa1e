/**
 * README.md's TypeScript blocks are files under `examples/readme/`, which
 * `tsc -b` type-checks: the n-th ```ts block of the README must be exactly the
 * region between `// #region readme` and `// #endregion readme` of the n-th
 * file (by name), so neither can change without the other.
 */
import { describe, expect, it } from "@effect/vitest"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../", import.meta.url))
const readmeDir = fileURLToPath(new URL("../readme/", import.meta.url))

const blocks = [...readFileSync(`${root}README.md`, "utf8").matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((m) => m[1]!)
const files = readdirSync(readmeDir).filter((f) => f.endsWith(".ts")).sort()

/** The quoted region of a file; the whole file when it has no markers. */
const region = (file: string): string => {
  const text = readFileSync(`${readmeDir}${file}`, "utf8")
  const found = /^\/\/ #region readme\n([\s\S]*?)^\/\/ #endregion readme$/m.exec(text)
  return found === null ? text : found[1]!
}

describe("README TypeScript blocks", () => {
  it("there is one file under examples/readme per ```ts block", () => {
    expect(blocks.length).toBeGreaterThan(0)
    expect(files).toHaveLength(blocks.length)
  })

  it.each(files.map((file, i) => [file, i] as const))("block %s is the README's block %i, verbatim", (file, i) => {
    expect(blocks[i]).toBe(region(file))
  })
})
