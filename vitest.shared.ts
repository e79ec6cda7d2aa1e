import { fileURLToPath } from "node:url"
import { defineConfig } from "vitest/config"

// Tests read each workspace package from its `src` through the "@solfx/source" export condition.
const conditions = ["@solfx/source", "node", "import", "module", "default"]

export default defineConfig({
  resolve: { conditions },
  ssr: { resolve: { conditions, externalConditions: ["@solfx/source"] } },
  test: {
    include: ["test/**/*.test.ts"],
    // Bounds for a hung test, not speed checks: generous, so a busy machine never fails a slow but working test.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    setupFiles: [fileURLToPath(new URL("./vitest.setup.ts", import.meta.url))]
  }
})
