/**
 * Every solfx service in one Layer, over ONE `HttpTransport`: one connection pool,
 * one retry policy, one timeout, one place where the API key is added and redacted;
 * and the WebSocket subscriptions (one socket per endpoint, shared by every stream).
 *
 * On Node the HTTP client is undici (`NodeHttpClient.layerUndici`) and the sockets are
 * `NodeSocket.layerWebSocketConstructor`'s; any other platform `HttpClient` layer (for
 * example `FetchHttpClient.layer`) can be swapped in.
 *
 * @example
 * import { Solfx, Wallet } from "@solfx/sdk"
 * import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
 * import * as Effect from "effect/Effect"
 *
 * const program = Effect.gen(function*() {
 *   const wallet = yield* Wallet.Wallet
 *   return yield* wallet.identity("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY")
 * })
 *
 * program.pipe(Effect.provide(Solfx.layerConfig), NodeRuntime.runMain)
 * @since 0.1.0
 */

import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Config from "@solfx/core/Config"
import type * as ConfigError from "effect/ConfigError"
import * as Layer from "effect/Layer"
// The platform-independent composition lives in SolfxNeutral (the `@solfx/sdk/neutral` entry); Node adds undici.
import * as SolfxNeutral from "./SolfxNeutral.js"

export {
  /**
   * Every service over one transport built on the given `HttpClient` layer (see `SolfxNeutral.layerHttpClient`).
   *
   * @since 0.1.0
   * @category layers
   */
  layerHttpClient,
  /**
   * The old name of `layerHttpClient`.
   *
   * @deprecated Use `layerHttpClient`.
   * @since 0.1.0
   * @category layers
   */
  layerWith,
  /**
   * Every service over whatever `HttpTransport` is provided (see `SolfxNeutral.services`).
   *
   * @since 0.1.0
   * @category layers
   */
  services
} from "./SolfxNeutral.js"

/**
 * Everything the umbrella layer provides (see `SolfxNeutral.Services`).
 *
 * @since 0.1.0
 * @category models
 */
export type Services = SolfxNeutral.Services

/**
 * Options of the services that take some (see `SolfxNeutral.ServiceOptions`).
 *
 * @since 0.1.0
 * @category models
 */
export type ServiceOptions = SolfxNeutral.ServiceOptions

/**
 * The config (`apiKey`, `urls` or `baseUrl`, `timeout`, `retry`, `allowInsecureHttp`,
 * see `Config.Options`), the services' own options, and optionally the platform
 * `HttpClient` layer to use instead of Node's undici client.
 *
 * @example
 * const options: Solfx.Options = { apiKey: Redacted.make("my-api-key"), timeout: "10 seconds" }
 * @since 0.1.0
 * @category models
 */
export interface Options<E = never, R = never> extends Config.Options {
  /** Default `NodeHttpClient.layerUndici`; pass `FetchHttpClient.layer` to use `fetch`. */
  readonly httpClient?: Layer.Layer<HttpClient.HttpClient, E, R> | undefined
  readonly services?: ServiceOptions | undefined
  /** Plan-aware limits and a credit budget, optionally shared through Redis (see `SolfxNeutral.Options`). */
  readonly rateLimits?: SolfxNeutral.Options["rateLimits"]
  /** How the subscriptions open a WebSocket: default `NodeSocket.layerWebSocketConstructor`. */
  readonly webSocketConstructor?: SolfxNeutral.Options["webSocketConstructor"]
}

/**
 * Every service on Node's undici client and Node's WebSocket; the config is still needed. The shortest
 * way to run against an in-process emulator.
 *
 * @example
 * const test = Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7 })))
 * @since 0.1.0
 * @category layers
 */
export const layerNode: Layer.Layer<Services, never, Config.SolfxConfig> = SolfxNeutral
  .layerHttpClient(NodeHttpClient.layerUndici, {}, NodeSocket.layerWebSocketConstructor)

/**
 * Every service, configured from code. Node's undici client unless `httpClient` is given.
 * A missing, empty or blank `apiKey` fails building the layer with a `ConfigError`
 * naming `apiKey`, before any request.
 *
 * @example
 * import { Solfx, Wallet } from "@solfx/sdk"
 *
 * const live = Solfx.layer({ apiKey: Redacted.make(process.env.MY_KEY!) })
 * const local = Solfx.layer({ apiKey: "emulator-key", baseUrl: "http://127.0.0.1:8899" })
 * const viaFetch = Solfx.layer({ apiKey: "my-api-key", httpClient: FetchHttpClient.layer })
 * const paced = Solfx.layer({ apiKey: "my-api-key", rateLimits: { plan: "developer", creditBudget: 100_000 } })
 *
 * Effect.flatMap(Wallet.Wallet, (w) => w.identity(address)).pipe(Effect.provide(live))
 * @since 0.1.0
 * @category layers
 */
export const layer = <E = never, R = never>(
  options: Options<E, R>
): Layer.Layer<Services, E | ConfigError.ConfigError, R> => {
  const httpClient: Layer.Layer<HttpClient.HttpClient, E, R> = options.httpClient ?? NodeHttpClient.layerUndici
  return SolfxNeutral.layer({
    ...options,
    httpClient,
    webSocketConstructor: options.webSocketConstructor ?? NodeSocket.layerWebSocketConstructor
  })
}

/**
 * Every service on Node's undici client, configured from the environment:
 * `SOLFX_API_KEY` (required), `SOLFX_URL` (every host), `SOLFX_RPC_URL`, `SOLFX_REST_URL`,
 * `SOLFX_V0_URL`, `SOLFX_ADMIN_URL` (each overrides `SOLFX_URL`), `SOLFX_TIMEOUT_MS`,
 * `SOLFX_ALLOW_INSECURE_HTTP`. A missing, empty or blank key fails building the
 * layer with a `ConfigError` naming `SOLFX_API_KEY`.
 *
 * @example
 * program.pipe(Effect.provide(Solfx.layerConfig), NodeRuntime.runMain)
 * @since 0.1.0
 * @category layers
 */
export const layerConfig: Layer.Layer<Services, ConfigError.ConfigError> = layerNode.pipe(
  Layer.provide(Config.layerConfig)
)
