/**
 * Compiles a bench entry and the workspace packages it imports into one plain
 * JavaScript file (bench/build/, git-ignored), so a measured process runs what a
 * user's application runs: compiled code, without the TypeScript loader (which
 * adds a loader thread and source maps to the process's memory). npm packages
 * stay external and load from node_modules as usual, unless `all`.
 */
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

export const bundle = async (
  entry: string,
  name: string,
  options: {
    /** Bundle the npm packages too (effect, @effect/platform...), tree-shaken: an application shipped as one file. */
    readonly all?: boolean | undefined
  } = {}
): Promise<string> => {
  const outfile = fileURLToPath(new URL(`../build/${name}.mjs`, import.meta.url))
  await build({
    entryPoints: [fileURLToPath(new URL(`../${entry}`, import.meta.url))],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    conditions: ["@solfx/source"],
    logLevel: "warning",
    // CommonJS packages bundled into ESM (undici) require Node's builtins: give them a require.
    ...(options.all === true
      ? {
        banner: {
          js:
            "import { createRequire as __solfxRequire } from \"node:module\"; const require = __solfxRequire(import.meta.url);"
        }
      }
      : {}),
    plugins: [{
      name: "npm-packages-external",
      setup(b) {
        b.onResolve(
          { filter: /^[^./]/ },
          (args) =>
            args.path.startsWith("@solfx/") || (options.all === true && !args.path.startsWith("node:"))
              ? undefined
              : { path: args.path, external: true }
        )
      }
    }]
  })
  return outfile
}
