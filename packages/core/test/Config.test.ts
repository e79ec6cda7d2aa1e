import { describe, expect, it } from "@effect/vitest"
import { Config } from "@solfx/core"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { inspect } from "node:util"
import { open } from "../src/internal/apiKey.js"

const fromEnv = (env: Record<string, string>) =>
  Effect.gen(function*() {
    return yield* Config.SolfxConfig
  }).pipe(
    Effect.provide(Config.layerConfig),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

describe("Config", () => {
  it.effect("reads SOLFX_* and keeps the key sealed", () =>
    Effect.gen(function*() {
      const cfg = yield* fromEnv({
        SOLFX_API_KEY: "SECRET-123",
        SOLFX_RPC_URL: "http://127.0.0.1:1/rpc",
        SOLFX_ADMIN_URL: "http://127.0.0.1:1/admin"
      })
      // Only the send steps' opener reads it back (this test imports it from `internal/`).
      expect(open(cfg.apiKey)).toBe("SECRET-123")
      expect(cfg.urls.rpc).toBe("http://127.0.0.1:1/rpc")
      expect(cfg.urls.admin).toBe("http://127.0.0.1:1/admin")
      expect(cfg.urls.rest).toBe(Config.defaultUrls.rest)
      expect(inspect(cfg, { depth: 10 }) + JSON.stringify(cfg) + String(cfg.apiKey)).not.toContain("SECRET-123")
    }))

  it("the config's key is sealed: not a Redacted, nothing prints it, no property or clone holds it", () => {
    const secret = "SEALED-9f3e"
    const variants = [secret, Redacted.make(secret), Config.make({ apiKey: secret }).apiKey]
    for (const apiKey of variants) {
      const cfg = Config.make({ apiKey })
      const key = cfg.apiKey
      expect(Config.isApiKey(key)).toBe(true)
      expect(Redacted.isRedacted(key)).toBe(false)
      expect(() => Redacted.value(key as any)).toThrow()
      const shown = [
        String(key),
        `${key}`,
        JSON.stringify(cfg),
        JSON.stringify(key),
        inspect(cfg, { depth: 10, showHidden: true }),
        inspect(key, { showHidden: true }),
        Reflect.ownKeys(key).map(String).join(),
        JSON.stringify(Object.getOwnPropertyDescriptors(key)),
        JSON.stringify(structuredClone(cfg))
      ].join("\n")
      expect(shown).not.toContain(secret)
      expect(String(key)).toBe("<redacted>")
      expect(open(key)).toBe(secret)
    }
    // A look-alike is not a key, and opening it fails rather than giving anything.
    const forged = Object.create(Object.getPrototypeOf(Config.make({ apiKey: "x" }).apiKey))
    expect(Config.isApiKey(forged)).toBe(false)
    expect(() => open(forged)).toThrow("not a sealed API key")
    expect(Config.keyProblem(Config.make({ apiKey: "  " }).apiKey)).toBe("is blank")
  })

  it("only the send steps import the key's opener", () => {
    // Every source file (tests aside) that imports core's `internal/apiKey`: the config that seals the
    // key, http's send step, and the WebSocket connection of subscriptions, which puts it in the socket URL.
    const root = fileURLToPath(new URL("../..", import.meta.url))
    const files = readdirSync(root).flatMap((pkg) =>
      readdirSync(join(root, pkg, "src"), { recursive: true, encoding: "utf8" })
        .filter((f) => f.endsWith(".ts"))
        .filter((f) => readFileSync(join(root, pkg, "src", f), "utf8").includes("internal/apiKey"))
        .map((f) => `packages/${pkg}/src/${f.replaceAll("\\", "/")}`)
    ).sort()
    expect(files).toEqual([
      "packages/core/src/Config.ts",
      "packages/http/src/internal/seal.ts",
      "packages/subscriptions/src/Subscriptions.ts"
    ])
  })

  it.effect("a missing key is a ConfigError naming SOLFX_API_KEY", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fromEnv({}))
      expect(String(error)).toContain("SOLFX_API_KEY")
    }))

  it.effect("layer() builds the same shape from code; baseUrl points every host at one place", () =>
    Effect.gen(function*() {
      const cfg = yield* Effect.provide(
        Config.SolfxConfig,
        Config.layer({ apiKey: "test-key-1", baseUrl: "http://127.0.0.1:9", urls: { admin: "http://127.0.0.1:10" } })
      )
      expect(cfg.urls).toEqual({
        rpc: "http://127.0.0.1:9",
        rest: "http://127.0.0.1:9",
        v0: "http://127.0.0.1:9",
        admin: "http://127.0.0.1:10"
      })
      expect(cfg.allowInsecureHttp).toBe(false)
    }))

  it.effect("SOLFX_URL points all four hosts at one origin; each host's variable overrides it", () =>
    Effect.gen(function*() {
      const one = yield* fromEnv({ SOLFX_API_KEY: "test-key-1", SOLFX_URL: "http://127.0.0.1:7" })
      expect(one.urls).toEqual({
        rpc: "http://127.0.0.1:7",
        rest: "http://127.0.0.1:7",
        v0: "http://127.0.0.1:7",
        admin: "http://127.0.0.1:7"
      })
      const mixed = yield* fromEnv({
        SOLFX_API_KEY: "test-key-1",
        SOLFX_URL: "http://127.0.0.1:7",
        SOLFX_REST_URL: "http://127.0.0.1:8"
      })
      expect(mixed.urls).toEqual({ ...one.urls, rest: "http://127.0.0.1:8" })
      const none = yield* fromEnv({ SOLFX_API_KEY: "test-key-1" })
      expect(none.urls).toEqual(Config.defaultUrls)
    }))

  for (const [name, key] of [["empty", ""], ["blank", " \t "], ["short", "abcd"]] as const) {
    it.effect(`an ${name} SOLFX_API_KEY is a ConfigError naming SOLFX_API_KEY, without echoing it`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fromEnv({ SOLFX_API_KEY: key }))
        expect(error).toMatchObject({ _op: "InvalidData", path: ["SOLFX_API_KEY"] })
        expect(String(error)).toContain("empty or blank, and at least 8 characters long")
        if (key.trim() !== "") expect(String(error)).not.toContain(key)
      }))
  }

  it.effect("validate() refuses a missing, empty or blank key with a ConfigError at apiKey; layer() builds through it", () =>
    Effect.gen(function*() {
      for (const apiKey of [undefined, "", "  ", Redacted.make(""), "abcd", Redacted.make("1234567")]) {
        const error = yield* Effect.flip(Config.validate({ apiKey: apiKey as any }))
        expect(error).toMatchObject({ _op: "InvalidData", path: ["apiKey"] })
        const viaLayer = yield* Effect.flip(Effect.provide(Config.SolfxConfig, Config.layer({ apiKey: apiKey as any })))
        expect(viaLayer).toEqual(error)
      }
      expect(Config.keyProblem("abcd")).toBe("is shorter than 8 characters, too short to keep out of logs")
      expect(Config.keyProblem("12345678")).toBeUndefined()
    }))
})
