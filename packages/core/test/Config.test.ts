import { describe, expect, it } from "@effect/vitest"
import { Config } from "@solfx/core"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import { inspect } from "node:util"

const fromEnv = (env: Record<string, string>) =>
  Effect.gen(function*() {
    return yield* Config.SolfxConfig
  }).pipe(
    Effect.provide(Config.layerConfig),
    Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env))))
  )

describe("Config", () => {
  it.effect("reads SOLFX_* and keeps the key Redacted", () =>
    Effect.gen(function*() {
      const cfg = yield* fromEnv({
        SOLFX_API_KEY: "SECRET-123",
        SOLFX_RPC_URL: "http://127.0.0.1:1/rpc",
        SOLFX_ADMIN_URL: "http://127.0.0.1:1/admin"
      })
      expect(Redacted.value(cfg.apiKey)).toBe("SECRET-123")
      expect(cfg.urls.rpc).toBe("http://127.0.0.1:1/rpc")
      expect(cfg.urls.admin).toBe("http://127.0.0.1:1/admin")
      expect(cfg.urls.rest).toBe(Config.defaultUrls.rest)
      expect(inspect(cfg, { depth: 10 }) + JSON.stringify(cfg) + String(cfg.apiKey)).not.toContain("SECRET-123")
    }))

  it.effect("a missing key is a ConfigError naming SOLFX_API_KEY", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(fromEnv({}))
      expect(String(error)).toContain("SOLFX_API_KEY")
    }))

  it.effect("layer() builds the same shape from code; baseUrl points every host at one place", () =>
    Effect.gen(function*() {
      const cfg = yield* Effect.provide(
        Config.SolfxConfig,
        Config.layer({ apiKey: "k", baseUrl: "http://127.0.0.1:9", urls: { admin: "http://127.0.0.1:10" } })
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
      const one = yield* fromEnv({ SOLFX_API_KEY: "k", SOLFX_URL: "http://127.0.0.1:7" })
      expect(one.urls).toEqual({
        rpc: "http://127.0.0.1:7",
        rest: "http://127.0.0.1:7",
        v0: "http://127.0.0.1:7",
        admin: "http://127.0.0.1:7"
      })
      const mixed = yield* fromEnv({
        SOLFX_API_KEY: "k",
        SOLFX_URL: "http://127.0.0.1:7",
        SOLFX_REST_URL: "http://127.0.0.1:8"
      })
      expect(mixed.urls).toEqual({ ...one.urls, rest: "http://127.0.0.1:8" })
      const none = yield* fromEnv({ SOLFX_API_KEY: "k" })
      expect(none.urls).toEqual(Config.defaultUrls)
    }))

  for (const [name, key] of [["empty", ""], ["blank", " \t "]] as const) {
    it.effect(`an ${name} SOLFX_API_KEY is a ConfigError naming SOLFX_API_KEY, without echoing it`, () =>
      Effect.gen(function*() {
        const error = yield* Effect.flip(fromEnv({ SOLFX_API_KEY: key }))
        expect(error).toMatchObject({ _op: "InvalidData", path: ["SOLFX_API_KEY"] })
        expect(String(error)).toContain("empty or blank")
      }))
  }

  it.effect("validate() refuses a missing, empty or blank key with a ConfigError at apiKey; layer() builds through it", () =>
    Effect.gen(function*() {
      for (const apiKey of [undefined, "", "  ", Redacted.make("")]) {
        const error = yield* Effect.flip(Config.validate({ apiKey: apiKey as any }))
        expect(error).toMatchObject({ _op: "InvalidData", path: ["apiKey"] })
        const viaLayer = yield* Effect.flip(Effect.provide(Config.SolfxConfig, Config.layer({ apiKey: apiKey as any })))
        expect(viaLayer).toEqual(error)
      }
      expect(Config.keyProblem("ok")).toBeUndefined()
    }))
})
