#!/usr/bin/env node
/**
 * `npm run test:pack`: what a user gets from `npm install`.
 *
 * Runs exactly the README's Install steps: its first command (`npm run -s pack:local`,
 * which builds every package and packs each public one into packs/) in this
 * repository, its second (`npm install /path/to/solfx/packs/*.tgz effect@… …`) in an
 * empty folder of the OS temp dir, with `/path/to/solfx` replaced by this
 * repository's path. Each tarball must hold the repository's LICENSE (MIT), a README.md
 * and complete metadata (description, keywords, repository, homepage, engines, types,
 * sideEffects). Then, to check what was installed, it adds typescript and
 * @types/node, type-checks an example program against the published `.d.ts`
 * (strict, NodeNext, library checks on), runs it against an emulator it starts
 * from the installed `@solfx/emulator`, and asserts its output, the same through
 * `@solfx/sdk/neutral` (and that `@solfx/webhooks` imports). It also checks
 * that `internal/` paths are closed, to the type checker and at run time, that the
 * `solfx` bin runs, and that npm refuses effect 4 next to the tarballs. Last, the README's effect 4
 * lines in a project on effect 4.1.0: the standalone `solfx` installs, runs `solfx emulator --plan
 * developer` (stopped by SIGTERM to npx) and `solfx das asset <id> --emulator`, and `effect` stays 4.1.0.
 *
 * `--keep` leaves the temp project in place (it is always kept on failure).
 */
import { spawn, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
// The published packages (as scripts/pack.mjs packs them). @solfx/testing (private) is never packed.
const PACKAGES = ["core", "http", "rpc", "wallet", "admin", "webhooks", "subscriptions", "kit", "emulator", "sdk", "cli"]
// Only for checking the install: the type checker and Node's types, at the workspace's versions.
const TOOLS = ["typescript", "@types/node"]
const keep = process.argv.includes("--keep")
const started = Date.now()
const work = mkdtempSync(join(tmpdir(), "solfx-pack-"))

const step = (message) => console.log(`[test:pack ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`)
const fail = (message) => {
  console.error(`\ntest:pack FAILED: ${message}\n(the temp project is kept in ${work})`)
  process.exit(1)
}
/** Runs a command; fails the script unless it exits with `expect` (default 0; null: any). Returns its result. */
const run = (command, args, { cwd = root, capture = false, expect = 0 } = {}) => {
  const result = spawnSync(command, args, {
    cwd,
    encoding: "utf8",
    stdio: capture ? ["ignore", "pipe", "pipe"] : "inherit",
    env: { ...process.env, npm_config_update_notifier: "false" }
  })
  if (result.error) fail(`${command} ${args.join(" ")}: ${result.error.message}`)
  if (expect !== null && result.status !== expect) {
    if (capture) process.stderr.write(`${result.stdout}${result.stderr}`)
    fail(`\`${command} ${args.join(" ")}\` exited with ${result.status} (expected ${expect})`)
  }
  return result
}
const versionOf = (name) => JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")).version

// The README's Install steps: the commands of the first sh block of its "## Install" section.
const readme = readFileSync(join(root, "README.md"), "utf8")
const section = readme.slice(readme.indexOf("\n## Install\n"), readme.indexOf("\n## ", readme.indexOf("\n## Install\n") + 1))
const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? ""
const commands = block.split("\n").map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"))
if (commands.length !== 2) fail(`the README's Install block should hold 2 commands, it holds ${commands.length}`)
const [packStep, installStep] = commands

/** Reads one file of a packed tarball. */
const fromTarball = (tarball, file) => run("tar", ["-xzOf", tarball, `package/${file}`], { capture: true }).stdout
// What a registry page and a bundler read: every package carries these, filled in.
const METADATA = ["description", "keywords", "license", "repository", "homepage", "engines", "types", "sideEffects"]
const rootLicense = readFileSync(join(root, "LICENSE"), "utf8")
/** The release hygiene of one packed tarball: LICENSE (the root's, MIT), a README.md naming it, complete metadata. */
const checkRelease = (p, tarball, files) => {
  const name = `@solfx/${p}`
  for (const required of ["LICENSE", "README.md"]) {
    if (!files.has(required)) fail(`${name}'s tarball lacks ${required}`)
  }
  if (fromTarball(tarball, "LICENSE") !== rootLicense) fail(`${name}'s LICENSE differs from the repository's`)
  if (!rootLicense.startsWith("MIT License") || !rootLicense.includes("Copyright (c) 2026 the solfx authors")) {
    fail("the repository's LICENSE is not the MIT license of the solfx authors")
  }
  const readme = fromTarball(tarball, "README.md")
  if (!readme.startsWith(`# ${name}\n`) || !readme.includes("## License")) {
    fail(`${name}'s README.md should start with "# ${name}" and have a License section`)
  }
  const pkg = JSON.parse(fromTarball(tarball, "package.json"))
  for (const field of METADATA) {
    const value = pkg[field]
    const empty = value === undefined || value === "" || (Array.isArray(value) && value.length === 0) ||
      (typeof value === "object" && value !== null && Object.keys(value).length === 0)
    if (empty) fail(`${name}'s package.json has no ${field}`)
  }
  if (pkg.license !== "MIT") fail(`${name} declares license ${pkg.license}, not MIT`)
  if (typeof pkg.engines.node !== "string") fail(`${name}'s engines has no node range`)
  if (pkg.repository.directory !== `packages/${p}`) fail(`${name}'s repository.directory is not packages/${p}`)
  if (!files.has(pkg.types.replace(/^\.\//, ""))) fail(`${name}'s types (${pkg.types}) is not in its tarball`)
  // sideEffects: false, or the list of the modules that have them (a bin), each of them in the tarball.
  if (pkg.sideEffects !== false) {
    const listed = Array.isArray(pkg.sideEffects) ? pkg.sideEffects : []
    if (listed.length === 0 || listed.some((f) => !/(^|\/)bin\.(js|ts)$/.test(f))) {
      fail(`${name}'s sideEffects should be false or list only its bin modules, is ${JSON.stringify(pkg.sideEffects)}`)
    }
  }
}

// 1. In this repository: build and pack (README, first command).
step(`README step 1, in ${root}: ${packStep}`)
const packed = run("sh", ["-c", packStep], { capture: true }).stdout.trim().split("\n").filter((l) => l.endsWith(".tgz"))
for (const p of PACKAGES) {
  const tarball = packed.find((t) => t.endsWith(`/solfx-${p}-0.1.0.tgz`))
  if (tarball === undefined) fail(`${packStep} produced no tarball for @solfx/${p}`)
  const files = new Set(
    run("tar", ["-tzf", tarball], { capture: true }).stdout.split("\n").map((f) => f.replace(/^package\//, ""))
  )
  for (const required of ["package.json", "dist/index.js", "dist/index.d.ts"]) {
    if (!files.has(required)) fail(`@solfx/${p}'s tarball lacks ${required}`)
  }
  const stray = [...files].filter((f) => /^(test|build)\//.test(f) || f.endsWith(".tsbuildinfo"))
  if (stray.length > 0) fail(`@solfx/${p}'s tarball holds files it should not: ${stray.slice(0, 5).join(", ")}`)
  checkRelease(p, tarball, files)
  console.log(`  ${tarball}  ${files.size} entries`)
}

// 2. In an empty folder: install (README, second command, with this repository's path).
const app = join(work, "app")
mkdirSync(app)
const install = installStep.replaceAll("/path/to/solfx", root)
step(`README step 2, in the empty folder ${app}: ${install}`)
const installed = run("sh", ["-c", install], { cwd: app, capture: true })
if (/ERESOLVE|peer dep|npm error/i.test(installed.stderr)) fail(`the install was not clean:\n${installed.stderr}`)

// 3. Tools for the checks below (not part of the README's steps), and ESM for the example.
step(`adding ${TOOLS.map((n) => `${n}@${versionOf(n)}`).join(", ")} to check the install`)
run("npm", [
  "install",
  "--prefer-offline",
  "--no-audit",
  "--no-fund",
  "--loglevel=error",
  ...TOOLS.map((n) => `${n}@${versionOf(n)}`)
], { cwd: app })
const appPackage = JSON.parse(readFileSync(join(app, "package.json"), "utf8"))
writeFileSync(join(app, "package.json"), JSON.stringify({ ...appPackage, type: "module" }, null, 2))
mkdirSync(join(app, "src"))

// 4. The example: strict NodeNext, checked against the published .d.ts files (skipLibCheck off).
writeFileSync(join(app, "tsconfig.json"), JSON.stringify({
  compilerOptions: {
    target: "ES2022",
    lib: ["ES2022"],
    module: "NodeNext",
    moduleResolution: "NodeNext",
    strict: true,
    exactOptionalPropertyTypes: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: false,
    types: ["node"],
    outDir: "dist",
    rootDir: "src"
  },
  include: ["src"]
}, null, 2))
writeFileSync(join(app, "src/main.ts"), `\
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Emulator from "@solfx/emulator/Emulator"
import { type ApiError, Compression, DigitalAssets, type InvalidRequest, Solfx, Wallet } from "@solfx/sdk"
import { Solfx as SolfxNeutral } from "@solfx/sdk/neutral"
import { WebhookReceiver } from "@solfx/webhooks"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

const calls = (samples: Emulator.Emulator["samples"]) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const das = yield* DigitalAssets.DigitalAssets
    const compression = yield* Compression.Compression
    const identity = yield* wallet.identity(samples.wallet)
    const assets = yield* das.getAssetsByAuthorityStream({ authorityAddress: samples.assetAuthority }, { concurrency: 4 }).pipe(
      Stream.take(1500),
      Stream.runCount
    )
    const holders = yield* compression.getCompressedMintTokenHolders({ mint: samples.compressedTokenMint, limit: 3 })
    const top: bigint = holders.value.items[0]?.balance ?? 0n
    const bad: InvalidRequest | ApiError = yield* Effect.flip(wallet.identity("not a wallet"))
    return { name: Option.getOrNull(Option.map(identity, (i) => i.name)), assets, top: top.toString(), bad: bad._tag }
  })

const main = Effect.scoped(Effect.gen(function*() {
  const emulator = yield* Emulator.make({ seed: 7 })
  const options = { apiKey: emulator.apiKey, baseUrl: emulator.url }
  const node = yield* calls(emulator.samples).pipe(Effect.provide(Solfx.layer(options)))
  const viaFetch = yield* calls(emulator.samples).pipe(
    Effect.provide(Solfx.layer({ ...options, httpClient: FetchHttpClient.layer }))
  )
  const neutral = yield* calls(emulator.samples).pipe(
    Effect.provide(SolfxNeutral.layer({ ...options, httpClient: FetchHttpClient.layer }))
  )
  const receiver = typeof WebhookReceiver.make === "function"
  console.log(JSON.stringify({ node, viaFetch, neutral, receiver, requests: emulator.count() }))
}))

NodeRuntime.runMain(main)
`)
// Internal modules are closed by the exports map: this import must NOT resolve.
writeFileSync(join(app, "src/internal.ts"), `\
// @ts-expect-error internal modules are not part of the published API
export type Hidden = typeof import("@solfx/http/internal/errors")
`)
step("type-checking the example against the published types")
run(join(app, "node_modules/.bin/tsc"), ["-p", "."], { cwd: app })

// 5. Run it against the emulator it starts from the installed @solfx/emulator.
step("running the example")
const output = run("node", ["dist/main.js"], { cwd: app, capture: true }).stdout.trim().split("\n").at(-1) ?? ""
let result
try {
  result = JSON.parse(output)
} catch {
  fail(`the example printed no JSON result: ${output}`)
}
const check = (ok, what) => {
  if (!ok) fail(`${what}\n  output: ${output}`)
}
for (const client of ["node", "viaFetch", "neutral"]) {
  const r = result[client]
  check(typeof r.name === "string" && r.name.length > 0, `${client}: the sample wallet's identity has a name`)
  check(r.assets === 1500, `${client}: 1500 assets streamed`)
  check(BigInt(r.top) > BigInt(Number.MAX_SAFE_INTEGER), `${client}: the top holder's balance keeps every digit`)
  check(r.bad === "InvalidRequest", `${client}: a bad address fails with InvalidRequest`)
}
check(JSON.stringify(result.node) === JSON.stringify(result.viaFetch), "undici and fetch give the same answers")
check(JSON.stringify(result.node) === JSON.stringify(result.neutral), "@solfx/sdk/neutral gives the same answers")
check(result.receiver === true, "@solfx/webhooks exports WebhookReceiver")
check(result.requests >= 8, "the emulator served the requests")
console.log(`  ${output}`)

// 6. Internal paths are closed at run time too, and the CLI's bin runs.
step("checking that internal/ is not importable and that the solfx bin runs")
const internal = run("node", ["--input-type=module", "-e", "await import('@solfx/core/internal/schema')"], {
  cwd: app,
  capture: true,
  expect: null
})
check(
  internal.status !== 0 && internal.stderr.includes("ERR_PACKAGE_PATH_NOT_EXPORTED"),
  `importing @solfx/core/internal/schema must fail with ERR_PACKAGE_PATH_NOT_EXPORTED, got: ${internal.stderr.split("\n")[0]}`
)
check(existsSync(join(app, "node_modules/.bin/solfx")), "the solfx bin is installed")
run(join(app, "node_modules/.bin/solfx"), ["--help"], { cwd: app, capture: true })

// 7. effect 4 is refused, with npm's own message, next to the same tarballs.
step("checking that npm refuses effect 4 next to the tarballs")
const effect4 = join(work, "effect4")
mkdirSync(effect4)
// --loglevel: under `npm run -s`, npm_config_loglevel=silent would hide the error this checks.
const refused = run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", ...packed, "effect@4"], {
  cwd: effect4,
  capture: true,
  expect: null
})
check(
  refused.status !== 0 && refused.stderr.includes("ERESOLVE") && /peer effect@"\^3\./.test(refused.stderr),
  `npm should refuse effect 4 with ERESOLVE naming the effect 3 peer range, got exit ${refused.status}: ${
    refused.stderr.split("\n").filter((l) => l.includes("npm error")).slice(0, 4).join(" | ")
  }`
)

// 8. The README's effect 4 lines: the standalone solfx in a project on effect 4.1.0 leaves its effect alone.
const effect4Readme = (() => {
  const at = readme.indexOf("\n### In an effect 4 project\n")
  const lines = (/```sh\n([\s\S]*?)```/.exec(readme.slice(at))?.[1] ?? "").split("\n").map((l) => l.trim())
    .filter((l) => l !== "" && !l.startsWith("#"))
  return at === -1 ? [] : lines
})()
if (effect4Readme.length !== 3) fail(`the README's effect 4 block should hold 3 commands, it holds ${effect4Readme.length}`)
const [standaloneInstall, emulatorLine, assetLine] = effect4Readme
const standalone = packed.find((t) => t.endsWith("/standalone/solfx-cli-standalone-0.1.0.tgz"))
if (standalone === undefined) fail(`${packStep} produced no standalone tarball`)
const standaloneFiles = run("tar", ["-tzf", standalone], { capture: true }).stdout
for (const f of ["LICENSE", "README.md", "THIRD-PARTY-LICENSES", "solfx.mjs", "package.json"]) {
  if (!standaloneFiles.includes(`package/${f}\n`)) fail(`the standalone tarball lacks ${f}`)
}
const standaloneManifest = JSON.parse(fromTarball(standalone, "package.json"))
if (standaloneManifest.dependencies !== undefined || standaloneManifest.peerDependencies !== undefined) {
  fail("the standalone tarball declares dependencies: npm would resolve them against the project's")
}
// Its only optional dependencies are litesvm's native binaries, which have no dependencies of their own.
const optional = Object.keys(standaloneManifest.optionalDependencies ?? {})
if (optional.length === 0 || !optional.every((name) => /^litesvm-[a-z0-9-]+$/.test(name))) {
  fail(`the standalone tarball's optionalDependencies are not only litesvm's native binaries: ${optional.join(", ")}`)
}
const e4 = join(work, "effect4-project")
mkdirSync(e4)
writeFileSync(join(e4, "package.json"), JSON.stringify({ name: "effect4-project", private: true }, null, 2))
step(`in ${e4}: npm install effect@4.1.0, then the README's effect 4 lines`)
run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", "effect@4.1.0"], { cwd: e4, capture: true })
const effectVersion = () => JSON.parse(readFileSync(join(e4, "node_modules/effect/package.json"), "utf8")).version
check(effectVersion() === "4.1.0", `effect 4.1.0 installed, got ${effectVersion()}`)
const e4Install = run("sh", ["-c", standaloneInstall.replaceAll("/path/to/solfx", root)], { cwd: e4, capture: true })
if (/npm error|ERESOLVE/i.test(e4Install.stderr)) fail(`the standalone install was not clean:\n${e4Install.stderr}`)
check(effectVersion() === "4.1.0", `effect stays 4.1.0 after the standalone install, got ${effectVersion()}`)
// The emulator line as printed, but on a free port (8899 may be taken); stopped by SIGTERM to npx.
const emulatorChild = spawn("sh", ["-c", `exec ${emulatorLine} --port 0`], { cwd: e4, stdio: ["ignore", "pipe", "pipe"] })
const emulatorStart = await new Promise((resolveLine) => {
  let buffer = ""
  emulatorChild.stdout.setEncoding("utf8").on("data", (d) => {
    buffer += d
    if (buffer.includes("\n")) resolveLine(buffer.slice(0, buffer.indexOf("\n")))
  })
  emulatorChild.on("close", () => resolveLine(buffer))
})
let started4
try {
  started4 = JSON.parse(emulatorStart)
} catch {
  fail(`${emulatorLine} printed no start line: ${emulatorStart}`)
}
const usage4 = run("npx", ["solfx", "--url", started4.url, "--api-key", started4.apiKey, "usage", started4.projectId, "--json"], {
  cwd: e4,
  capture: true
})
check(
  JSON.parse(usage4.stdout).subscriptionDetails?.plan === "developer",
  `${emulatorLine}: the project's plan is developer, got ${usage4.stdout}`
)
emulatorChild.kill("SIGTERM")
// npx exits on SIGTERM without passing it on: the emulator must stop by itself (bounded poll).
let up = true
for (let i = 0; i < 60 && up; i++) {
  up = await fetch(started4.url, { method: "POST", body: "{}" }).then(() => true, () => false)
  if (up) await new Promise((r) => setTimeout(r, 500))
}
check(!up, `the emulator started by ${emulatorLine} still answers after SIGTERM to npx`)
const asset4 = run("sh", ["-c", `${assetLine} --json`], { cwd: e4, capture: true })
const assetId = assetLine.split(" ").find((w) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(w))
check(JSON.parse(asset4.stdout).id === assetId, `${assetLine} prints the asset, got ${asset4.stdout.slice(0, 200)}`)
check(effectVersion() === "4.1.0", `effect is still 4.1.0 after running solfx, got ${effectVersion()}`)
console.log(`  effect ${effectVersion()}; solfx emulator --plan developer and solfx das asset ran from the standalone tarball`)

step("passed")
if (!keep) rmSync(work, { recursive: true, force: true })
else console.log(`kept ${work}`)
