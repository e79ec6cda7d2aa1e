// workerd through miniflare: `node workerd.mjs <miniflare's folder> <bundled worker>`, with the emulator's
// start line in SOLFX_EMULATOR; prints the Worker's answer (one JSON line), or fails.
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"

const [folder, script] = process.argv.slice(2)
const { Miniflare } = await import(pathToFileURL(createRequire(join(folder, "package.json")).resolve("miniflare")).href)
const mf = new Miniflare({ modules: true, script: readFileSync(script, "utf8"), compatibilityDate: "2026-07-01" })
try {
  const response = await mf.dispatchFetch("http://smoke.local/", { method: "POST", body: process.env.SOLFX_EMULATOR })
  const body = await response.text()
  if (response.status !== 200) throw new Error(`the Worker answered ${response.status}: ${body}`)
  console.log(body)
} finally {
  await mf.dispose()
}
