import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// Headless Chromium (Debian's package, driven by playwright-core) against the emulator: pages on
// another origin, and the studio.
export default mergeConfig(shared, { test: { name: "browser", include: ["*.test.ts"] } })
