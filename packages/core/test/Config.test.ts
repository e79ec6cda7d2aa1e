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
})
