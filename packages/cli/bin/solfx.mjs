#!/usr/bin/env node
// The `solfx` executable. Installed from the package, it runs the compiled CLI in
// dist/. In the solfx repository itself (right after `npm ci`, before any build) it
// runs the TypeScript sources with tsx, so `npx solfx` works in a fresh clone and
// never runs a stale build.
import { spawn } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const here = (path) => fileURLToPath(new URL(path, import.meta.url))
const inRepository = () => {
  try {
    return JSON.parse(readFileSync(here("../../../package.json"), "utf8")).name === "solfx-monorepo"
  } catch {
    return false
  }
}

if (inRepository() && existsSync(here("../src/bin.ts"))) {
  const child = spawn(
    process.execPath,
    // tsx by its resolved URL: `--import tsx` would be looked up from the caller's directory.
    ["--conditions=@solfx/source", "--import", import.meta.resolve("tsx"), here("../src/bin.ts"), ...process.argv.slice(2)],
    { stdio: "inherit" }
  )
  // Ctrl-C reaches the child too (same process group): let it stop, then exit with its code.
  process.on("SIGINT", () => {})
  process.on("SIGTERM", () => child.kill("SIGTERM"))
  // npx exits on SIGTERM without passing it on: when the process that started this one is gone, stop
  // the child as SIGTERM would (Node has no "parent died" signal, hence the poll).
  const parent = process.ppid
  setInterval(() => {
    if (process.ppid !== parent) child.kill("SIGTERM")
  }, 500).unref()
  child.on("exit", (code, signal) => process.exit(code ?? (signal === "SIGINT" ? 130 : 1)))
} else {
  await import("../dist/bin.js")
}
