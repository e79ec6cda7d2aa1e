import { mergeConfig } from "vitest/config"
import shared from "../vitest.shared.js"

// Every example runs in-process against an in-process emulator; `app.test.ts` is itself an example.
export default mergeConfig(shared, { test: { name: "examples", include: ["*.test.ts", "test/**/*.test.ts"] } })
