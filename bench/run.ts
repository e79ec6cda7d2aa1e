/**
 * `npm run bench`: the five comparisons of issue 10 and the emulator's own cost (issue 18), each in a child process of
 * its own (run one alone with `npm run bench -- decode`). Prints the tables and
 * writes bench/RESULTS.md with the machine, the date and every figure.
 * Figures, not pass/fail: a missed target is reported, and the exit code is 0
 * unless a comparison could not run at all.
 */
import { execFileSync, spawn } from "node:child_process"
import { readFileSync, writeFileSync } from "node:fs"
import * as os from "node:os"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { NODE_ARGS } from "./lib/emulator.js"
import { fmtMs } from "./lib/harness.js"
import type { ComparisonResult } from "./lib/result.js"

const COMPARISONS = [
  "decode",
  "calls",
  "pagination",
  "memory",
  "batch",
  "admin",
  "emulator",
  "limits",
  "bundles",
  "notifications",
  "world",
  "kit",
  "history",
  "rpcreads",
  "studio",
  "types",
  "bank"
] as const
const here = (path: string) => fileURLToPath(new URL(path, import.meta.url))

const only = process.argv.slice(2)
const selected = only.length === 0 ? COMPARISONS : COMPARISONS.filter((c) => only.includes(c))

const runComparison = (name: string): Promise<ComparisonResult | { readonly error: string }> =>
  new Promise((resolve) => {
    const child = spawn(process.execPath, [...NODE_ARGS, here(`./${name}.ts`)], {
      stdio: ["ignore", "pipe", "inherit"]
    })
    let last = ""
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line.trim() !== "") last = line
    })
    child.on("exit", (code) => {
      if (code !== 0) return resolve({ error: `exited with code ${code}` })
      try {
        resolve(JSON.parse(last) as ComparisonResult)
      } catch {
        resolve({ error: "printed no result" })
      }
    })
  })

const version = (pkg: string) => {
  try {
    return (JSON.parse(readFileSync(here(`../node_modules/${pkg}/package.json`), "utf8")) as { version: string })
      .version
  } catch {
    return "?"
  }
}

const commit = (() => {
  try {
    const head = execFileSync("git", ["rev-parse", "--short", "HEAD"], { encoding: "utf8" }).trim()
    const dirty = execFileSync("git", ["status", "--porcelain"], { encoding: "utf8" }).trim() !== ""
    return dirty ? `${head} + uncommitted changes` : head
  } catch {
    return "unknown"
  }
})()

const cpus = os.cpus()
const machine = {
  cores: cpus.length,
  cpu: cpus[0]?.model.trim() ?? "unknown",
  memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  node: process.version,
  os: `${os.type()} ${os.release()} ${os.arch()}`,
  loadAtStart: os.loadavg().map((l) => l.toFixed(2)).join(" / ")
}
const startedAt = new Date()
const t0 = performance.now()

const results: Array<[string, ComparisonResult | { readonly error: string }]> = []
for (const name of selected) {
  process.stderr.write(`\n== ${name} ==\n`)
  const started = performance.now()
  const result = await runComparison(name)
  process.stderr.write(`== ${name}: ${fmtMs(performance.now() - started)} ==\n`)
  results.push([name, result])
}
const totalMs = performance.now() - t0

// -- output --------------------------------------------------------------------------

const cell = (s: string) => s.replace(/\|/g, "\\|")
const mdTable = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string =>
  [
    `| ${header.map(cell).join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)
  ].join("\n")

const verdict = (met: boolean | undefined) => (met === undefined ? "—" : met ? "met" : "MISSED")

const ok = results.filter((r): r is [string, ComparisonResult] => !("error" in r[1]))
const failed = results.filter((r): r is [string, { error: string }] => "error" in r[1])

const targetRows = ok.flatMap(([, r]) => r.targets.map((t) => [t.name, t.target, t.measured, verdict(t.met)]))
const summary = mdTable(["target", "wanted", "measured", ""], targetRows)

const sections = ok.map(([, r]) =>
  [
    `## ${r.title}`,
    "",
    r.setup,
    "",
    ...r.tables.flatMap((t) => [
      `${t.caption}:`,
      "",
      mdTable(
        ["contender", "figure", "ratio", "note"],
        t.rows.map((row) => [row.contender, row.value, row.ratio ?? "", row.note ?? ""])
      ),
      ""
    ]),
    ...(r.findings ?? []).map((f) => `- ${f}`),
    ...(r.findings?.length ? [""] : []),
    "<details><summary>every repetition</summary>",
    "",
    ...r.raw.map((line) => `    ${line}`),
    "",
    "</details>",
    ""
  ].join("\n")
)

const markdown = [
  "# Benchmarks",
  "",
  "Written by `npm run bench` (bench/run.ts). Every figure below comes from one run on the machine described here;",
  "re-run to replace them. Each comparison runs in its own process against the emulator in another, alternating its",
  "contenders within each repetition; figures are medians unless said otherwise. Targets are from issue 10 and apply",
  "to the 50 ms runs; the 0 ms runs are informative (on 2 cores the client and the emulator then compete for CPU).",
  "",
  "## Machine and run",
  "",
  mdTable(["", ""], [
    ["date", startedAt.toISOString()],
    ["cores", String(machine.cores)],
    ["CPU", machine.cpu],
    ["memory", machine.memory],
    ["Node", machine.node],
    ["OS", machine.os],
    ["load average at start (1/5/15 min)", machine.loadAtStart],
    ["commit", commit],
    ["effect / helius-sdk", `${version("effect")} / ${version("helius-sdk")}`],
    ["total duration", fmtMs(totalMs)]
  ]),
  "",
  "## Targets",
  "",
  summary,
  "",
  ...(failed.length > 0
    ? ["Comparisons that did not run: " + failed.map(([n, e]) => `${n} (${e.error})`).join(", "), ""]
    : []),
  ...sections
].join("\n")

if (only.length === 0) writeFileSync(here("./RESULTS.md"), markdown + "\n")
else if (process.env.BENCH_UPDATE_SECTIONS === "1") {
  // A subset run replaces (or appends) only its own sections, each saying it came from another run.
  let results = readFileSync(here("./RESULTS.md"), "utf8")
  for (const [[, r], section] of ok.map((o, i) => [o, sections[i]!] as const)) {
    const stamped = section.replace(
      "\n\n",
      `\n\nFrom a separate \`npm run bench -- ${r.id}\` (${startedAt.toISOString()}, commit ${commit}, ` +
        `Node ${machine.node}), not the run the rest of this file comes from.\n\n`
    )
    const start = results.indexOf(`\n## ${r.title}\n`)
    if (start === -1) results = `${results.trimEnd()}\n\n${stamped}`
    else {
      const end = results.indexOf("\n## ", start + 1)
      results = results.slice(0, start + 1) + stamped + (end === -1 ? "" : results.slice(end + 1))
    }
  }
  writeFileSync(here("./RESULTS.md"), results.trimEnd() + "\n")
}

process.stdout.write(
  `\nsolfx benchmarks — ${startedAt.toISOString()} — ${machine.cores} cores, ${machine.cpu}, Node ${machine.node}\n\n`
)
for (const [, r] of ok) {
  process.stdout.write(`${r.title}\n`)
  for (const t of r.tables) {
    process.stdout.write(`  ${t.caption}\n`)
    const width = Math.max(...t.rows.map((row) => row.contender.length))
    for (const row of t.rows) {
      process.stdout.write(
        `    ${row.contender.padEnd(width)}  ${row.value.padStart(9)}  ${(row.ratio ?? "").padStart(8)}\n`
      )
    }
  }
  process.stdout.write("\n")
}
process.stdout.write("Targets\n")
const w = Math.max(...targetRows.map((r) => r[0]!.length))
for (const [name, wanted, measured, v] of targetRows) {
  process.stdout.write(`  ${name!.padEnd(w)}  ${wanted!.padEnd(12)}  ${measured!.padEnd(34)}  ${v}\n`)
}
for (const [name, e] of failed) process.stdout.write(`  ${name}: did not run (${e.error})\n`)
process.stdout.write(`\nTotal ${fmtMs(totalMs)}.${only.length === 0 ? " Wrote bench/RESULTS.md." : ""}\n`)
process.exitCode = failed.length > 0 ? 1 : 0
