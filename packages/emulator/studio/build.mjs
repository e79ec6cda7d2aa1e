// Builds the studio's one page: app.ts bundled by esbuild (with @solfx/sdk/neutral, @solfx/subscriptions
// and effect inside; no CDN, nothing fetched at run time) and style.css, both inlined into index.html.
// Run from the emulator's build and pack (`node studio/build.mjs`: writes dist/studio/index.html); a
// source-run emulator imports buildStudioHtml and bundles the page on its first request instead.
import { build } from "esbuild"
import { mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))

/** The page, as one HTML string. */
export const buildStudioHtml = async () => {
  const result = await build({
    entryPoints: [join(here, "app.ts")],
    bundle: true,
    write: false,
    platform: "browser",
    format: "esm",
    target: "es2022",
    minify: true,
    legalComments: "none",
    // The workspace's sources when built in the repository (the published package is built there too).
    conditions: ["@solfx/source"],
    logLevel: "silent"
  })
  // A `</script` inside the bundle would end the inline script early.
  const script = result.outputFiles[0].text.replace(/<\/(script)/gi, "<\\/$1")
  const style = readFileSync(join(here, "style.css"), "utf8").replace(/\n\s*/g, "\n")
  const html = readFileSync(join(here, "index.html"), "utf8")
  // Functions as replacements: `$` in the bundle must not be read as a replacement pattern.
  return html.replace("/*STYLE*/", () => style).replace("/*SCRIPT*/", () => script)
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const out = join(here, "../dist/studio/index.html")
  mkdirSync(dirname(out), { recursive: true })
  const html = await buildStudioHtml()
  writeFileSync(out, html)
  console.error(`studio: ${out} (${html.length} bytes)`)
}
