#!/usr/bin/env node
/**
 * Packs `@solfx/cli-standalone`: the `solfx` command (the emulator included) as one esbuild bundle with
 * every dependency inside (effect 3, @effect/platform, @effect/cli, undici, litesvm's JavaScript...), and
 * no `dependencies` or `peerDependencies` at all. Installed into any project, an effect 4 one included, it
 * leaves that project's `effect` untouched: npm has nothing to resolve against it. The one thing a bundle
 * cannot hold is the SVM's native addon: litesvm's per-platform binary packages (no dependencies of their
 * own) are `optionalDependencies`, as litesvm itself declares them, and npm installs the one that fits.
 *
 * Run by `npm run -s pack:local` after the packages are built; writes
 * packs/standalone/solfx-cli-standalone-<version>.tgz (outside `packs/*.tgz`, which the README's install
 * line takes: both carry a `solfx` bin) and prints its path. The licenses of the bundled packages go into
 * the tarball's THIRD-PARTY-LICENSES.
 */
import { spawnSync } from "node:child_process"
import { build } from "esbuild"
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..")
const cli = JSON.parse(readFileSync(join(root, "packages/cli/package.json"), "utf8"))
const out = join(root, "packs/standalone")
const stage = join(out, "package")
rmSync(out, { recursive: true, force: true })
mkdirSync(stage, { recursive: true })

const result = await build({
  entryPoints: [join(root, "packages/cli/src/bin.ts")],
  outfile: join(stage, "solfx.mjs"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  // The sources of the workspace, as the built packages would give them.
  conditions: ["@solfx/source"],
  minify: true,
  legalComments: "none",
  metafile: true,
  logLevel: "error",
  // The SVM's native addon, loaded at run time from the platform package npm installed (see above).
  external: ["litesvm-*"],
  // CommonJS packages inside an ES module (undici) call require for Node's builtins.
  banner: {
    js: "import { createRequire as __solfxRequire } from \"node:module\"; const require = __solfxRequire(import.meta.url);"
  }
})

// litesvm's native binaries, at the versions litesvm pins them (its own optionalDependencies).
const nativeBinaries = JSON.parse(readFileSync(join(root, "node_modules/litesvm/package.json"), "utf8"))
  .optionalDependencies

// Every npm package the bundle holds, with its license text.
const packages = new Map()
for (const input of Object.keys(result.metafile.inputs)) {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input)
  if (m === null || packages.has(m[1])) continue
  const dir = join(root, input.slice(0, m.index + m[0].length))
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))
  const licenseFile = readdirSync(dir).find((f) => /^(licen[cs]e|copying)(\.|$)/i.test(f))
  packages.set(m[1], {
    version: manifest.version,
    license: manifest.license ?? "see its package",
    text: licenseFile === undefined ? "" : readFileSync(join(dir, licenseFile), "utf8").trim()
  })
}
writeFileSync(
  join(stage, "THIRD-PARTY-LICENSES"),
  [...packages].sort(([a], [b]) => a.localeCompare(b)).map(([name, p]) =>
    `${name}@${p.version} (${p.license})\n\n${p.text || "(no license file in the package)"}\n`
  ).join("\n" + "-".repeat(72) + "\n\n")
)

writeFileSync(
  join(stage, "package.json"),
  JSON.stringify(
    {
      name: "@solfx/cli-standalone",
      version: cli.version,
      description: "The solfx command and the emulator as one self-contained file: installs into any project " +
        "(an effect 4 one included) without touching its dependencies",
      keywords: cli.keywords,
      license: cli.license,
      repository: { ...cli.repository, directory: "packages/cli" },
      homepage: cli.homepage,
      bugs: cli.bugs,
      engines: cli.engines,
      type: "module",
      bin: { solfx: "./solfx.mjs" },
      optionalDependencies: nativeBinaries,
      files: ["solfx.mjs", "LICENSE", "README.md", "THIRD-PARTY-LICENSES"]
    },
    null,
    2
  ) + "\n"
)
copyFileSync(join(root, "LICENSE"), join(stage, "LICENSE"))
writeFileSync(
  join(stage, "README.md"),
  `# @solfx/cli-standalone

The \`solfx\` command of [@solfx/cli](https://github.com/solfx/solfx/tree/main/packages/cli#readme), the emulator
included, bundled into one file with every dependency inside (effect ${
    JSON.parse(readFileSync(join(root, "node_modules/effect/package.json"), "utf8")).version
  } among them). It has no dependencies for npm to resolve, so it installs into any project, one on effect 4
included, and leaves that project's \`effect\` as it is.

\`\`\`sh
npm install --save-dev /path/to/solfx/packs/standalone/solfx-cli-standalone-${cli.version}.tgz
npx solfx emulator --plan developer
npx solfx das asset <id> --emulator
\`\`\`

The licenses of the bundled packages are in THIRD-PARTY-LICENSES.

## License

MIT
`
)

const packed = spawnSync("npm", ["pack", "--json", "--pack-destination", out], { cwd: stage, encoding: "utf8" })
if (packed.status !== 0) {
  process.stderr.write(packed.stderr)
  process.exit(1)
}
const tarball = join(out, JSON.parse(packed.stdout.slice(packed.stdout.indexOf("[")))[0].filename)
if (!existsSync(tarball)) process.exit(1)
rmSync(stage, { recursive: true, force: true })
console.log(tarball)
