/**
 * Where the real response bodies of the reference material live
 * (`<workspace>/../shared/fixtures/real/<method>/*.json`). They are read in place,
 * never copied into the project; a fresh clone has none, so tests check
 * `present()` and skip visibly without them.
 *
 * @example
 * describe("real bodies", () => {
 *   beforeEach((ctx) => ctx.skip(!RealFixtures.present(), RealFixtures.absent))
 *   it("decodes", () => { ... readFileSync(RealFixtures.path("getAsset", "a.json")) })
 * })
 * @since 0.1.0
 */
import { existsSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

/** The `fixtures/real` folder of the shared reference material, next to the workspace. */
export const root: string = fileURLToPath(new URL("../../../../shared/fixtures/real", import.meta.url))

/** A path under `root`, e.g. `path("getAssetProof", "helius-docs-openapi-1.json")`. */
export const path = (...segments: ReadonlyArray<string>): string => join(root, ...segments)

/** Whether `root` (or the path under it) exists. */
export const present = (...segments: ReadonlyArray<string>): boolean => existsSync(path(...segments))

/** Why a test that needs them skips without them; the run's skip summary groups by it. */
export const absent = "../shared/fixtures/real absent (it exists in CI and the team's checkouts)"
