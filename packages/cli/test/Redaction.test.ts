/**
 * The key in the CLI's output: with keys of 8 to 12 characters made of the letters of common words
 * (`keykeyke`, `http1234`, ...), no error path prints the key, and no redaction marker stands inside
 * another word ("API <redacted>ey" told the reader a one-letter key). A key under 8 characters is
 * refused where the config is made, naming the rule.
 */
import { expect, layer } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"
import * as fc from "fast-check"
import { inProcess, type Result } from "./support/Cli.js"

/** Pieces of the words the CLI prints (messages, flags, URLs, tags), so keys collide with them. */
const pieces = ["key", "http", "api", "1234", "error", "das", "asset", "send", "the", "over", "set", "url", "ke", "y"]

const keys = fc.array(fc.constantFrom(...pieces), { minLength: 2, maxLength: 8 })
  .map((parts) => parts.join(""))
  .filter((k) => k.length >= 8 && k.length <= 12)

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")

/** The key standing as a word of its own somewhere in the output. */
const showsKey = (text: string, key: string) => new RegExp(`(?<![A-Za-z0-9])${escape(key)}(?![A-Za-z0-9])`).test(text)

const check = (r: Result, key: string, what: string) => {
  const text = r.stdout + r.stderr
  expect(showsKey(text, key), `${what}: the key ${key} in ${text}`).toBe(false)
  expect(text, `${what}: a marker glued to a word`).not.toMatch(/[A-Za-z0-9]<redacted>|<redacted>[A-Za-z0-9]/)
}

layer(Emulator.layer({ seed: 42 }), { timeout: 300_000, excludeTestServices: true })(
  "the key in the CLI's output",
  (it) => {
    it.effect("no error path shows it or cuts a word (property, 8-12 characters)", () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.EmulatorHandle
        const asset = emu.samples.compressedNft
        const seen = new Set<string>()
        yield* Effect.promise(() =>
          fc.assert(
            fc.asyncProperty(keys, async (key) => {
              const run = (args: ReadonlyArray<string>, env: Record<string, string> = {}) =>
                Effect.runPromise(inProcess(args, env))
              const paths: ReadonlyArray<readonly [string, Result]> = [
                // Refused before sending: the key over plain http to a host that is not loopback.
                ["insecure", await run(["das", "asset", asset, "--api-key", key, "--url", "http://example.invalid"])],
                // A wrong key: the emulator answers 401.
                ["unauthorized", await run(["das", "asset", asset, "--api-key", key, "--url", emu.url])],
                // From the environment this time, with an argument the SDK refuses.
                [
                  "invalid",
                  await run(["wallet", "identity", "not-a-wallet!", "--url", emu.url], { SOLFX_API_KEY: key })
                ],
                // Nothing listening.
                ["refused", await run(["das", "asset", asset, "--api-key", key, "--url", "http://127.0.0.1:1"])]
              ]
              for (const [what, r] of paths) {
                expect(r.code, `${what}: ${r.stderr}`).not.toBe(0)
                seen.add(`${what}:${r.stderr.split(":")[0]}`)
                check(r, key, what)
              }
              expect(paths[0]![1].stderr).toContain("SOLFX_ALLOW_INSECURE_HTTP")
              expect(paths[0]![1].stderr).not.toContain("allowInsecureHttp")
            }),
            { numRuns: 10, seed: 20261128 }
          )
        )
        // Each path failed as it should, not all the same way.
        expect([...seen].sort()).toEqual([
          "insecure:InsecureTransport",
          "invalid:InvalidRequest",
          "refused:TransportError",
          "unauthorized:Unauthorized"
        ])
      }))

    it.effect("a key under 8 characters is refused where the config is made, naming the rule; nothing is sent", () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.EmulatorHandle
        const before = emu.requests.length
        for (
          const r of [
            yield* inProcess(["das", "asset", emu.samples.compressedNft, "--api-key", "kkey", "--url", emu.url]),
            yield* inProcess(["das", "asset", emu.samples.compressedNft, "--url", emu.url], { SOLFX_API_KEY: "kkey" })
          ]
        ) {
          expect(r.code, r.stderr).toBe(2)
          expect(r.stderr).toMatch(/^UsageError: .*(shorter than 8 characters|at least 8 characters long)/)
          expect(showsKey(r.stdout + r.stderr, "kkey")).toBe(false)
        }
        expect(emu.requests.length).toBe(before)
      }))
  }
)
