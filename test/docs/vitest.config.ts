import { mergeConfig } from "vitest/config"
import shared from "../../vitest.shared.js"

// Checks of what the docs say: the package graph of docs/ARCHITECTURE.md against the imports, hover docs,
// and the @example blocks of the shipped declarations.
export default mergeConfig(shared, { test: { name: "docs", include: ["*.test.ts"] } })
