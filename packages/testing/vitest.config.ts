import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// The test support's own tests: the real servers start, answer and are removed.
export default mergeConfig(shared, { test: { name: "testing" } })
