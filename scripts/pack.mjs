#!/usr/bin/env node
/**
 * `npm run -s pack:local`: builds every package and packs each public one into
 * `packs/` at the repository root (emptied first), printing the tarballs' paths; then
 * `@solfx/cli-standalone` (the `solfx` command bundled whole) into `packs/standalone/`.
 * The README's Install section installs these tarballs; `npm run test:pack` does
 * exactly that in an empty folder.
 */
import { spawnSync } from "node:child_process"
import { mkdirSync, rmSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
// The published packages. @solfx/testing (private: test support only) is never packed.
export const PACKAGES = ["core", "http", "rpc", "wallet", "admin", "webhooks", "subscriptions", "kit", "emulator", "sdk", "cli"]
const out = join(root, "packs")

const run = (command, args) => {
  const result = spawnSync(command, args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] })
  if (result.status !== 0) {
    process.stderr.write(result.stdout ?? "")
    console.error(`pack:local: \`${command} ${args.join(" ")}\` exited with ${result.status}`)
    process.exit(1)
  }
  return result.stdout
}

run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-b", "tsconfig.build.json"])
rmSync(out, { recursive: true, force: true })
mkdirSync(out)
const packed = run("npm", [
  "pack",
  "--json",
  "--pack-destination",
  out,
  ...PACKAGES.flatMap((p) => ["--workspace", `packages/${p}`])
])
const manifest = JSON.parse(packed.slice(packed.indexOf("[")))
for (const entry of manifest) console.log(join(out, entry.filename))
// The solfx command as one self-contained file, in packs/standalone/ (see scripts/pack-standalone.mjs).
process.stdout.write(run(process.execPath, [join(root, "scripts/pack-standalone.mjs")]))
