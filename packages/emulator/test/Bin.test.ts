import { describe, expect, it } from "@effect/vitest"
import { spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { parseFlags } from "../src/bin.js"

const bin = fileURLToPath(new URL("../src/bin.ts", import.meta.url))

describe("bin", () => {
  it("parses its flags", () => {
    expect(parseFlags(["--port", "8899", "--host", "0.0.0.0", "--seed", "7", "--api-key", "k"])).toMatchObject({
      port: 8899,
      host: "0.0.0.0",
      seed: 7,
      apiKey: "k"
    })
    expect(() => parseFlags(["--port", "x"])).toThrow(/--port/)
    expect(() => parseFlags(["--nope"])).toThrow()
  })

  it("parses --latency-ms and --sizes", () => {
    const options = parseFlags(["--latency-ms", "50", "--sizes", "das.bigAuthorityAssets=2000,compression.mints=3"])
    expect(options.latencyMs).toBe(50)
    expect(options.sizes).toEqual({ "das.bigAuthorityAssets": 2000, "compression.mints": 3 })
    expect(() => parseFlags(["--sizes", "das.bigAuthorityAssets=lots"])).toThrow(/--sizes/)
  })

  it("prints one start line, serves, and stops on SIGINT", async () => {
    const child = spawn(process.execPath, [
      "--conditions=@solfx/source",
      "--import",
      "tsx",
      bin,
      "--seed",
      "7",
      "--api-key",
      "bin-key"
    ], {
      stdio: ["ignore", "pipe", "pipe"]
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const [line] = (await once(lines, "line")) as [string]
      const start = JSON.parse(line)
      expect(Object.keys(start)).toEqual(["url", "apiKey", "projectId", "samples", "studio"])
      expect(start.apiKey).toBe("bin-key")
      expect(start.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
      const res = await fetch(`${start.url}/?api-key=bin-key`, {
        method: "POST",
        body: JSON.stringify({ jsonrpc: "2.0", id: "b", method: "noSuchMethod", params: {} })
      })
      expect(await res.json()).toEqual({
        jsonrpc: "2.0",
        error: { code: -32601, message: "Method not found" },
        id: "b"
      })
      const exited = once(child, "exit")
      child.kill("SIGINT")
      const [code] = (await exited) as [number | null]
      expect(code).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL")
    }
  })
})
