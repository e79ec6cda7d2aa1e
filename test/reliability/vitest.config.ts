import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// The reliability and security suite: the SDK end to end against the emulator, under faults and bad input.
export default mergeConfig(shared, { test: { name: "reliability", include: ["*.test.ts"] } })
