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
 * import * as SolfxConfig from "@solfx/core/Config"
 *
 * const program = Effect.flatMap(Wallet.Wallet, (w) => w.identity(address))
 * program.pipe(Effect.provide(services), Effect.provide(SolfxConfig.layerConfig))
 * @since 0.1.0
 * @category layers
 */
export const services: Layer.Layer<Exclude<Services, SolfxConfig.SolfxConfig>, never, SolfxConfig.SolfxConfig> =
  Solfx.layerNode

/**
 * The config, built by `@solfx/core/Config` from the global options (each flag
 * already falls back to its `SOLFX_*` variable, see `Globals`) and the variables
 * without a flag (`SOLFX_TIMEOUT_MS`, `SOLFX_ALLOW_INSECURE_HTTP`). `--url` points
 * every host at one origin; a host's own flag or variable overrides it. A missing,
 * empty or blank key is a `UsageError` (exit 2).
 *
 * @since 0.1.0
 * @category layers
 */
export const configLayer = (globals: Globals): Layer.Layer<SolfxConfig.SolfxConfig, UsageError> =>
  Layer.effect(
    SolfxConfig.SolfxConfig,
    Effect.gen(function*() {
      const fromEnv = yield* Config.all({
        timeoutMs: Config.option(SolfxConfig.env.timeoutMs),
        allowInsecureHttp: SolfxConfig.env.allowInsecureHttp.pipe(Config.withDefault(false))
      }).pipe(Effect.mapError((e) => new UsageError({ message: `bad environment: ${String(e).split("\n")[0]}` })))
      const urls = { rpc: globals.rpcUrl, rest: globals.restUrl, v0: globals.v0Url, admin: globals.adminUrl }
      return yield* SolfxConfig.validate({
        apiKey: Option.getOrUndefined(globals.apiKey) as Redacted.Redacted<string>,
        baseUrl: Option.getOrUndefined(globals.url),
        urls: Object.fromEntries(
          Object.entries(urls).flatMap(([host, url]) => Option.isSome(url) ? [[host, url.value]] : [])
        ),
        timeout: Option.isSome(fromEnv.timeoutMs) ? `${fromEnv.timeoutMs.value} millis` : undefined,
        allowInsecureHttp: fromEnv.allowInsecureHttp
      }).pipe(Effect.mapError(() =>
        new UsageError({
          message: Option.isNone(globals.apiKey)
            ? "no API key: set SOLFX_API_KEY or pass --api-key (or use --emulator to run offline)"
            : `the API key ${SolfxConfig.keyProblem(globals.apiKey.value)}: set SOLFX_API_KEY or pass --api-key`
        })
      ))
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
