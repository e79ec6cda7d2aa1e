/**
 * Browser bundles of small programs, as an application's bundler would build them:
 * esbuild, `--platform=browser`, minified, every npm package inside. The browser
 * bundle test (packages/sdk/test/Bundle.test.ts) checks that they build with no
 * `node:` module in their import graph; `npm run bench -- bundles` reports their
 * sizes beside helius-sdk's `getAsset`.
 *
 * The solfx programs import from `@solfx/sdk/neutral`, the entry point for
 * fetch-only runtimes, and bundle the workspace's sources (`@solfx/source`).
 */
import { build } from "esbuild"
import { relative } from "node:path"
import { gzipSync } from "node:zlib"

/** A program to bundle: its source, resolved from the repository's root. */
export interface Program {
  readonly name: string
  readonly source: string
  /** Import specifiers left out of the bundle (kept as external imports), with why. */
  readonly leaveOut?: { readonly specifiers: RegExp; readonly why: string } | undefined
}

const neutralLayer = `
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Config, HttpTransport } from "@solfx/sdk/neutral"

export const transport = (apiKey: string, baseUrl: string) =>
  HttpTransport.layer.pipe(
    Layer.provide(Config.layer({ apiKey, baseUrl })),
    Layer.provide(FetchHttpClient.layer)
  )
export { Effect, Layer }
`

/** The programs the test and the bench bundle, by what they use. */
export const programs: ReadonlyArray<Program> = [
  {
    name: "solfx Wallet only",
    source: `${neutralLayer}
import { Wallet } from "@solfx/sdk/neutral"
export const run = (apiKey: string, baseUrl: string, address: string) =>
  Effect.runPromise(Effect.flatMap(Wallet.Wallet, (w) => w.identity(address)).pipe(
    Effect.provide(Wallet.layer.pipe(Layer.provide(transport(apiKey, baseUrl))))
  ))
`
  },
  {
    name: "solfx DAS getAsset only",
    source: `${neutralLayer}
import { DigitalAssets } from "@solfx/sdk/neutral"
export const run = (apiKey: string, baseUrl: string, id: string) =>
  Effect.runPromise(Effect.flatMap(DigitalAssets.DigitalAssets, (das) => das.getAsset({ id })).pipe(
    Effect.provide(DigitalAssets.layer.pipe(Layer.provide(transport(apiKey, baseUrl))))
  ))
`
  },
  {
    name: "solfx every service (Solfx.layer)",
    source: `
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as Effect from "effect/Effect"
import { DigitalAssets, Solfx } from "@solfx/sdk/neutral"
export const run = (apiKey: string, baseUrl: string, id: string) =>
  Effect.runPromise(Effect.flatMap(DigitalAssets.DigitalAssets, (das) => das.getAsset({ id })).pipe(
    Effect.provide(Solfx.layer({ apiKey, baseUrl, httpClient: FetchHttpClient.layer }))
  ))
`
  }
]

/**
 * helius-sdk's `getAsset`, the way its README calls it: the reference of the size comparison.
 * Its transaction, staking and auth helpers are left out: `createHelius` loads them lazily (never for
 * `getAsset`), and they reach imports of @solana/kit that the workspace's 8.4 (forced by the root
 * package.json's `overrides`) does not export, so they do not bundle here. The figure is therefore a
 * lower bound of helius-sdk's.
 */
export const heliusGetAsset: Program = {
  name: "helius-sdk getAsset",
  leaveOut: {
    specifiers: /^\.\.\/(transactions|staking|auth)\//,
    why: "its lazily loaded transaction, staking and auth helpers left out (they need @solana/kit 6)"
  },
  source: `
import { createHelius } from "helius-sdk"
export const run = (apiKey: string, id: string) => createHelius({ apiKey }).getAsset({ id })
`
}

/** One bundle's figures, and the `node:` modules (or Node builtins) its import graph asked for. */
export interface Bundled {
  readonly name: string
  readonly bytes: number
  readonly gzipBytes: number
  readonly nodeImports: ReadonlyArray<string>
  readonly errors: ReadonlyArray<string>
}

const NODE_BUILTIN =
  /^(node:|(assert|buffer|child_process|crypto|events|fs|http|https|net|os|path|stream|tls|url|util|worker_threads|zlib)(\/|$))/

/**
 * Bundles one program for the browser. Never fails: a module that does not resolve
 * (a `node:` import on the browser platform does not) is reported in `errors`, and
 * every `node:`/builtin import is listed in `nodeImports`, with the module that asked.
 */
export const bundle = async (program: Program, root: string): Promise<Bundled> => {
  const nodeImports: Array<string> = []
  const result = await build({
    stdin: { contents: program.source, loader: "ts", resolveDir: root, sourcefile: "program.ts" },
    bundle: true,
    write: false,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    conditions: ["@solfx/source"],
    logLevel: "silent",
    plugins: [{
      name: "report-node-imports",
      setup(b) {
        const leaveOut = program.leaveOut?.specifiers
        if (leaveOut !== undefined) b.onResolve({ filter: leaveOut }, (args) => ({ path: args.path, external: true }))
        b.onResolve({ filter: NODE_BUILTIN }, (args) => {
          nodeImports.push(`${args.path} (from ${relative(root, args.importer)})`)
          return { path: args.path, external: true }
        })
      }
    }]
  }).catch((e: { errors?: ReadonlyArray<{ text: string }> }) => ({
    outputFiles: [] as ReadonlyArray<{ contents: Uint8Array }>,
    errors: e.errors ?? [{ text: String(e) }]
  }))
  const out = result.outputFiles?.[0]?.contents ?? new Uint8Array()
  return {
    name: program.name,
    bytes: out.byteLength,
    gzipBytes: out.byteLength === 0 ? 0 : gzipSync(out, { level: 9 }).byteLength,
    nodeImports,
    errors: result.errors.map((e) => e.text)
  }
}
