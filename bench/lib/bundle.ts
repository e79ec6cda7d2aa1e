/**
 * Compiles a bench entry and the workspace packages it imports into one plain
 * JavaScript file (bench/build/, git-ignored), so a measured process runs what a
 * user's application runs: compiled code, without the TypeScript loader (which
 * adds a loader thread and source maps to the process's memory). npm packages
 * stay external and load from node_modules as usual.
 */
import { build } from "esbuild"
import { fileURLToPath } from "node:url"

export const bundle = async (entry: string, name: string): Promise<string> => {
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
    plugins: [{
      name: "npm-packages-external",
      setup(b) {
        b.onResolve(
          { filter: /^[^./]/ },
          (args) => args.path.startsWith("@solfx/") ? undefined : { path: args.path, external: true }
        )
      }
    }]
  })
  return outfile
}
