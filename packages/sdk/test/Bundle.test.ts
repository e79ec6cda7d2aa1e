/**
 * `@solfx/sdk/neutral` in a browser bundle: esbuild `--platform=browser` builds a
 * Wallet-only and a DAS-only program (and one using every service) with no `node:`
 * module anywhere in their import graph, and `sideEffects: false` lets it drop the
 * services a program does not use. Sizes are not asserted here: `npm run bench -- bundles`
 * reports them beside helius-sdk's `getAsset`.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Bundles from "@solfx/testing/Bundles"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../../..", import.meta.url))

describe("browser bundles of @solfx/sdk/neutral", () => {
  it("build for the browser with no node: import, and one service bundles smaller than all of them", async () => {
    const built = await Promise.all(Bundles.programs.map((p) => Bundles.bundle(p, root)))
    for (const b of built) {
      expect({ name: b.name, errors: b.errors, nodeImports: b.nodeImports }).toEqual({
        name: b.name,
        errors: [],
        nodeImports: []
      })
      expect(b.bytes).toBeGreaterThan(0)
    }
    const [wallet, das, all] = built
    // sideEffects: false at work: the services a program does not use are dropped from its bundle.
    expect(wallet!.bytes).toBeLessThan(all!.bytes)
    expect(das!.bytes).toBeLessThan(all!.bytes)
  }, 120_000)

  it("reports a node: import, so the check above can fail", async () => {
    const b = await Bundles.bundle({
      name: "control",
      source: `import { createHash } from "node:crypto"\nexport const h = createHash("sha256")`
    }, root)
    expect(b.nodeImports).toEqual(["node:crypto (from program.ts)"])
  }, 60_000)
})
