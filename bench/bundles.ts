/**
 * Browser bundle sizes: a Wallet-only, a DAS-only and an every-service program on
 * `@solfx/sdk/neutral`, and helius-sdk's `getAsset`, each bundled whole by esbuild for
 * `--platform=browser`, minified (packages/testing/src/Bundles.ts, the programs the
 * browser bundle test builds). Sizes, so one build each: they do not vary between runs.
 */
import * as Bundles from "@solfx/testing/Bundles"
import { fileURLToPath } from "node:url"
import { emit } from "./lib/result.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

const reference = await Bundles.bundle(Bundles.heliusGetAsset, root)
const solfx = []
for (const program of Bundles.programs) solfx.push(await Bundles.bundle(program, root))
const all = [...solfx, reference]
const broken = all.filter((b) => b.errors.length > 0 || b.nodeImports.length > 0)
if (broken.length > 0) {
  for (const b of broken) console.error(`${b.name}: ${[...b.errors, ...b.nodeImports].join("; ")}`)
  process.exit(1)
}
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`
const note = Bundles.heliusGetAsset.leaveOut?.why

emit({
  id: "bundles",
  title: "8. Browser bundles: @solfx/sdk/neutral against helius-sdk's getAsset",
  setup: "Each program bundled whole (every npm package inside) by esbuild " +
    "(`--bundle --minify --platform=browser --format=esm --target=es2022`), gzip level 9. The solfx programs import " +
    "`@solfx/sdk/neutral` and provide one service (or `Solfx.layer`) over `FetchHttpClient`; helius-sdk's is " +
    "`createHelius({ apiKey }).getAsset({ id })`. Ratios are against helius-sdk.",
  tables: [
    {
      caption: "minified",
      rows: all.map((b) => ({
        contender: b.name,
        value: kb(b.bytes),
        ratio: ratio(b.bytes, reference.bytes),
        ...(b === reference && note !== undefined ? { note } : {})
      }))
    },
    {
      caption: "minified and gzipped",
      rows: all.map((b) => ({
        contender: b.name,
        value: kb(b.gzipBytes),
        ratio: ratio(b.gzipBytes, reference.gzipBytes)
      }))
    }
  ],
  targets: [],
  raw: all.map((b) => `${b.name} | ${b.bytes} bytes, ${b.gzipBytes} gzipped`),
  findings: [
    `One service or all of them differ by ${
      kb(solfx[2]!.bytes - solfx[0]!.bytes)
    } minified (what \`sideEffects: false\` ` +
    "lets the bundler drop): most of a bundle is what every service shares (effect, Schema, Stream, the platform " +
    "HttpClient, the transport).",
    "No `node:` module is in any of these bundles; packages/sdk/test/Bundle.test.ts fails if one appears."
  ]
})
