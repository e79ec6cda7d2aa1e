/**
 * A real browser for the tests: Debian's Chromium (`Servers.chromiumPath`), headless, driven by
 * playwright-core (no browser download), with the flags this machine needs (a closed network:
 * no background connections, no component updates). Plus the two things a page needs: a bundle
 * built by esbuild as an application's bundler would, and a static server on its own origin.
 */
import { chromiumPath } from "@solfx/testing/Servers"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import { build } from "esbuild"
import * as Http from "node:http"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"

/** The repository's root. */
export const root = join(dirname(fileURLToPath(import.meta.url)), "../../..")

/** Where the tests write what they make (screenshots): ignored by git, kept after the run to look at. */
export const outputDir = join(root, "test/browser/output")

/** Chromium, headless, for the current scope (closed, and its profile removed, when the scope closes). */
export const launch: Effect.Effect<Browser, never, Scope.Scope> = Effect.acquireRelease(
  // playwright-core gives each launch a fresh temporary profile and removes it on close.
  Effect.promise(() =>
    chromium.launch({
      executablePath: chromiumPath()!,
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync"
      ]
    })
  ),
  (browser) => Effect.promise(() => browser.close())
)

/** A page of a fresh context; what it prints to its console and its uncaught errors are collected. */
export const newPage = (browser: Browser): Effect.Effect<{ page: Page; errors: Array<string> }, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const context = await browser.newContext()
      const page = await context.newPage()
      const errors: Array<string> = []
      page.on("pageerror", (e) => errors.push(e.message))
      page.on("console", (m) => {
        if (m.type() === "error") errors.push(m.text())
      })
      return { page, errors }
    }),
    ({ page }) => Effect.promise(() => page.context().close())
  )

/**
 * Bundles a module for the browser as an application would: esbuild, `--platform=browser`, every
 * package inside, the workspace's sources (`@solfx/source`). Fails on a `node:` import.
 */
export const bundle = (entry: string): Effect.Effect<string> =>
  Effect.promise(async () => {
    const result = await build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      platform: "browser",
      format: "esm",
      target: "es2022",
      minify: true,
      conditions: ["@solfx/source"],
      logLevel: "silent"
    })
    return result.outputFiles[0]!.text
  })

/** A static server on `http://localhost:<port>`: another origin than the emulator's `127.0.0.1`. */
export const serve = (
  files: Readonly<Record<string, { readonly type: string; readonly body: string }>>
): Effect.Effect<string, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.async<Http.Server>((resume) => {
      const server = Http.createServer((req, res) => {
        const file = files[new URL(req.url ?? "/", "http://localhost").pathname]
        // No favicon: a 204, not a 404 the page's console would report.
        if (file === undefined) return void res.writeHead(req.url === "/favicon.ico" ? 204 : 404).end()
        res.writeHead(200, { "content-type": file.type }).end(file.body)
      })
      server.listen(0, "localhost", () => resume(Effect.succeed(server)))
    }),
    (server) => Effect.async<void>((resume) => void server.close(() => resume(Effect.void)))
  ).pipe(Effect.map((server) => {
    const address = server.address()
    return `http://localhost:${typeof address === "object" && address !== null ? address.port : 0}`
  }))
