// The one list of test projects: every package's own vitest.config.ts.
export default ["packages/*/vitest.config.ts", "test/reliability/vitest.config.ts", "examples/vitest.config.ts"]
