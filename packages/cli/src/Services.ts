/**
 * Every SDK service in one Layer (the `@solfx/sdk` umbrella), over ONE `HttpTransport` (so one connection
 * pool, one retry policy, one redaction) on Node's undici client. The config
 * comes from `SOLFX_*` environment variables with flag overrides, or, with
 * `--emulator`, from an emulator started in-process on a free port.
 *
 * @example
 * // what `--emulator` does: every service against an emulator started in-process
 * program.pipe(Effect.provide(Services.layer({ ...globals, emulator: true })))
 * @since 0.1.0
 */
import * as SolfxConfig from "@solfx/core/Config"
import type * as Emulator from "@solfx/emulator/Emulator"
import * as Solfx from "@solfx/sdk/Solfx"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { UsageError } from "./Failure.js"
import type { Globals } from "./Globals.js"

/**
 * The services a command may use: the umbrella layer's.
 *
 * @since 0.1.0
 * @category models
 */
export type Services = Solfx.Services

/**
 * Every service over one transport on undici; needs only the config.
 *
 * @example
 * const program = Effect.flatMap(Wallet.Wallet, (w) => w.identity(address))
 * program.pipe(Effect.provide(services), Effect.provide(SolfxConfig.layerConfig))
 * @since 0.1.0
 * @category layers
 */
export const services: Layer.Layer<Exclude<Services, SolfxConfig.SolfxConfig>, never, SolfxConfig.SolfxConfig> =
  Solfx.layerNode

/**
 * The config from `SOLFX_*` (see `@solfx/core/Config`) with each flag overriding
 * its variable. A missing key is a `UsageError` (exit 2).
 *
 * @since 0.1.0
 * @category layers
 */
export const configLayer = (globals: Globals): Layer.Layer<SolfxConfig.SolfxConfig, UsageError> =>
  Layer.effect(
    SolfxConfig.SolfxConfig,
    Effect.gen(function*() {
      const env = (name: string) => Config.option(Config.string(name))
      const fromEnv = yield* Config.all({
        apiKey: Config.option(Config.redacted("SOLFX_API_KEY")),
        rpc: env("SOLFX_RPC_URL"),
        rest: env("SOLFX_REST_URL"),
        v0: env("SOLFX_V0_URL"),
        admin: env("SOLFX_ADMIN_URL"),
        timeoutMs: Config.option(Config.integer("SOLFX_TIMEOUT_MS")),
        allowInsecureHttp: Config.boolean("SOLFX_ALLOW_INSECURE_HTTP").pipe(Config.withDefault(false))
      }).pipe(Effect.mapError((e) => new UsageError({ message: `bad environment: ${String(e).split("\n")[0]}` })))
      const apiKey = Option.orElse(globals.apiKey, () => fromEnv.apiKey).pipe(
        Option.filter((k) => Redacted.value(k).length > 0)
      )
      if (Option.isNone(apiKey)) {
        return yield* new UsageError({
          message: "no API key: set SOLFX_API_KEY or pass --api-key (or use --emulator to run offline)"
        })
      }
      // The flag wins over its variable; a host set by neither keeps the real service's URL.
      const chosen: ReadonlyArray<readonly [keyof SolfxConfig.Urls, Option.Option<string>]> = [
        ["rpc", Option.orElse(globals.rpcUrl, () => fromEnv.rpc)],
        ["rest", Option.orElse(globals.restUrl, () => fromEnv.rest)],
        ["v0", Option.orElse(globals.v0Url, () => fromEnv.v0)],
        ["admin", Option.orElse(globals.adminUrl, () => fromEnv.admin)]
      ]
      const urls: Partial<SolfxConfig.Urls> = Object.fromEntries(
        chosen.flatMap(([host, url]) => Option.isSome(url) ? [[host, url.value]] : [])
      )
      return SolfxConfig.make({
        apiKey: apiKey.value,
        urls,
        timeout: Option.isSome(fromEnv.timeoutMs) ? `${fromEnv.timeoutMs.value} millis` : undefined,
        allowInsecureHttp: fromEnv.allowInsecureHttp
      })
    })
  )

// Loaded only when asked for: most commands never start an emulator, and it is a sizeable module graph.
const loadEmulator = Effect.promise(() => import("@solfx/emulator/Emulator"))

/**
 * An emulator started in-process on a free port, and the config pointing every
 * base URL at it with its fresh API key.
 *
 * @since 0.1.0
 * @category layers
 */
export const emulatorLayer = (
  options: Emulator.Options = {}
): Layer.Layer<SolfxConfig.SolfxConfig | Emulator.EmulatorHandle> =>
  Layer.unwrapEffect(Effect.map(loadEmulator, (module) => module.layerTest(options)))

/**
 * Every service, configured from the global options.
 *
 * @since 0.1.0
 * @category layers
 */
export const layer = (globals: Globals): Layer.Layer<Services, UsageError> =>
  services.pipe(Layer.provideMerge(
    globals.emulator
      ? emulatorLayer({ apiKey: Option.getOrUndefined(Option.map(globals.apiKey, Redacted.value)) })
      : configLayer(globals)
  ))

/**
 * The embedded emulator, when `--emulator` started one.
 *
 * @since 0.1.0
 * @category accessors
 */
export const embeddedEmulator: Effect.Effect<Option.Option<Emulator.Emulator>> = Effect.flatMap(
  loadEmulator,
  (module) => Effect.serviceOption(module.EmulatorHandle)
)
