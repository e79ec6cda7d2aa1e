// Bun and Deno: `bun run.mjs` / `deno run --allow-env --allow-net run.mjs`, with the emulator's start
// line in SOLFX_EMULATOR; prints the smoke's answer as one JSON line.
import { smoke } from "./smoke.mjs"

const emulator = JSON.parse(globalThis.process?.env?.SOLFX_EMULATOR ?? globalThis.Deno.env.get("SOLFX_EMULATOR"))
console.log(JSON.stringify(await smoke(emulator)))
