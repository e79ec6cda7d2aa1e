import { defineConfig } from "vitest/config"
import { SkipSummary } from "./vitest.skip-summary.js"

// The one list of test projects: every package's own vitest.config.ts.
export default defineConfig({
  test: {
    projects: [
      "packages/*/vitest.config.ts",
      "test/reliability/vitest.config.ts",
      "test/docs/vitest.config.ts",
      "test/browser/vitest.config.ts",
      "examples/vitest.config.ts"
    ],
    reporters: ["default", new SkipSummary()],
    // Child processes, at most two: the suite must stay green on a busy 2-core machine. A worker
    // whose event loop is starved past vitest's 60 s RPC limit fails the run ("Timeout calling
    // onTaskUpdate"), so fewer, isolated workers rather than as many as there are cores.
    pool: "forks",
    maxWorkers: 2,
    minWorkers: 1,
    teardownTimeout: 60_000
  }
})
