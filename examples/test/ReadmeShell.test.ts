/**
 * The README's shell lines, run as printed (bash, `set -o pipefail`, from the
 * repository root), pipes included. Each `sh` block is one script, so a variable
 * set on one line is seen by the next. The lines that cannot run inside the suite
 * are skipped, each with its reason: the suite itself, the install (that is
 * `npm run test:pack`), and the foreground emulator, which runs here with
 * `--port 0` (a fixed port would collide with a parallel run) and is stopped after
 * its first line.
 */
import { describe, expect, it } from "@effect/vitest"
import { execFileSync, spawn, spawnSync } from "node:child_process"
import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

const root = fileURLToPath(new URL("../..", import.meta.url))
const readme = readFileSync(new URL("README.md", `file://${root}`), "utf8")

interface Block {
  readonly heading: string
  readonly lines: ReadonlyArray<string>
}

/** Every ```sh block with the heading it sits under; its commands without comments. */
const blocks: ReadonlyArray<Block> = [...readme.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => {
  const before = readme.slice(0, m.index)
  const heading = [...before.matchAll(/^#+ (.*)$/gm)].at(-1)?.[1] ?? "(top)"
  const lines = m[1]!.split("\n").map((l) => l.replace(/\s+#.*$/, "").trim()).filter((l) =>
    l !== "" && !l.startsWith("#")
  )
  return { heading, lines }
})

/** Lines that cannot run inside the suite, and why. */
const skipped: ReadonlyArray<readonly [RegExp, string]> = [
  [
    /^npm ci && npm start$/,
    "`npm ci` would reinstall node_modules under the running suite (`npm start` is `solfx demo`, tested in packages/cli)"
  ],
  [/^npm test$/, "it is the suite that runs this test"],
  [/^npm run -s pack:local$/, "the Install steps are run by `npm run test:pack`, into an empty folder"],
  [/^npm install \/path\/to\/solfx\//, "the Install steps are run by `npm run test:pack`, into an empty folder"]
]
const reasonFor = (line: string) => skipped.find(([re]) => re.test(line))?.[1]

/** Whole blocks that cannot run inside the suite, and why. */
const skippedBlocks: Readonly<Record<string, string>> = {
  "In an effect 4 project":
    "it installs the standalone tarball into a project on effect 4.1.0 from the npm registry: `npm run test:pack` runs these lines there",
  "A durable batch job across worker processes":
    "it runs PostgreSQL as a non-root user and redis-server on fixed ports; examples/test/indexer.test.ts runs the same job (the emulator on plan developer, submit, then `main.ts work` in 3 processes sharing the limits through Redis) against its own servers"
}

const hasJq = spawnSync("jq", ["--version"]).status === 0

const bash = (script: string) =>
  new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn("bash", ["-c", `set -eo pipefail\n${script}`], { cwd: root })
    let stdout = ""
    let stderr = ""
    child.stdout.setEncoding("utf8").on("data", (d: string) => void (stdout += d))
    child.stderr.setEncoding("utf8").on("data", (d: string) => void (stderr += d))
    child.on("close", (code) => resolve({ code, stdout, stderr }))
  })

describe("README shell lines", () => {
  it("the README has the blocks this test knows how to run", () => {
    expect(blocks.map((b) => b.heading)).toEqual([
      "solfx",
      "Install",
      "In an effect 4 project",
      "The emulator in your own tests",
      "The `solfx` command",
      "A durable batch job across worker processes"
    ])
  })

  for (const block of blocks) {
    const blockReason = skippedBlocks[block.heading]
    if (blockReason !== undefined) {
      it(`${block.heading}: the whole block`, (ctx) => ctx.skip(`README block not run here: ${blockReason}`))
      continue
    }
    for (const line of block.lines) {
      const reason = reasonFor(line)
      if (reason !== undefined) {
        it(`${block.heading}: ${line}`, (ctx) => ctx.skip(`README line not run here: ${reason}`))
      }
    }
  }

  it("The emulator: `npx solfx emulator ...` prints its start line first (with --port 0)", async () => {
    const [line] = blocks.find((b) => b.heading === "The emulator in your own tests")!.lines
    expect(line).toMatch(/^npx solfx emulator --port 8899 /)
    const command = line!.replace("--port 8899", "--port 0").split(" ")
    // Its own process group: npx, the launcher and the CLI all get the Ctrl-C, as in a terminal.
    const child = spawn(command[0]!, command.slice(1), { cwd: root, stdio: ["ignore", "pipe", "pipe"], detached: true })
    const stopped = new Promise((resolve) => child.on("close", resolve))
    const first = await new Promise<string>((resolve, reject) => {
      let buffer = ""
      child.stdout.setEncoding("utf8").on("data", (d: string) => {
        buffer += d
        if (buffer.includes("\n")) resolve(buffer.slice(0, buffer.indexOf("\n")))
      })
      child.on("close", (code) => reject(new Error(`exited (${code}) before its first line`)))
    })
    process.kill(-child.pid!, "SIGINT")
    await stopped
    expect(Object.keys(JSON.parse(first))).toEqual(["url", "apiKey", "projectId", "samples", "studio"])
  }, 240_000)

  it("The `solfx` command: every line as printed, the `| jq` pipe included", async (ctx) => {
    ctx.skip(!hasJq, "jq is not installed (the README's last line pipes into it)")
    const { lines } = blocks.find((b) => b.heading === "The `solfx` command")!
    expect(lines.some((l) => l.includes("| jq"))).toBe(true)
    const result = await bash(lines.join("\n"))
    expect(result.code, result.stderr).toBe(0)
    const out = result.stdout.trimEnd().split("\n")
    // The jq line prints each mint's account, one per line, last.
    expect(out.slice(-2)).toEqual([
      "\"EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v\"",
      "\"So11111111111111111111111111111111111111112\""
    ])
    expect(result.stdout).toContain("(whole portfolio)")
    expect(result.stdout).toContain("\"verified\":true")
    // Seven `npx solfx` lines, each a cold start of node and tsx: about 25 s apiece on a busy 2-core machine.
  }, 600_000)

  it("npx solfx --help works in the repository (the bin runs the sources, no build needed)", () => {
    const help = execFileSync("npx", ["solfx", "--help"], { cwd: root, encoding: "utf8" })
    expect(help).toContain("COMMANDS")
    expect(help).not.toContain("\u001b")
  }, 240_000)
})
