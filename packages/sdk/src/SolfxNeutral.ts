/**
 * Every solfx service in one Layer over any platform `HttpClient` layer, and the
 * WebSocket subscriptions over the runtime's global `WebSocket`: the
 * platform-independent half of `Solfx`. Nothing here (nor anything it imports)
 * loads `@effect/platform-node`, so `@solfx/sdk/neutral` runs on fetch-only
 * runtimes (Deno, Bun, workers); `@solfx/sdk`'s `Solfx` adds Node's undici
 * client as the default on top of it.
 *
 * @example
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
 * import { Solfx, Wallet } from "@solfx/sdk/neutral"
 * import * as Effect from "effect/Effect"
 *
 * const live = Solfx.layer({ apiKey: "my-api-key", httpClient: FetchHttpClient.layer })
 * Effect.flatMap(Wallet.Wallet, (w) => w.identity(address)).pipe(Effect.provide(live))
 * @since 0.1.0
 */
import type * as HttpClient from "@effect/platform/HttpClient"
import * as Socket from "@effect/platform/Socket"
import * as Admin from "@solfx/admin/Admin"
import * as Webhooks from "@solfx/admin/Webhooks"
import * as Config from "@solfx/core/Config"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as RateLimits from "@solfx/http/RateLimits"
import * as AddressHistory from "@solfx/rpc/AddressHistory"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as EnhancedTransactions from "@solfx/rpc/EnhancedTransactions"
import * as PriorityFees from "@solfx/rpc/PriorityFees"
import * as Signatures from "@solfx/rpc/Signatures"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Subscriptions from "@solfx/subscriptions/Subscriptions"
import * as Wallet from "@solfx/wallet/Wallet"
import type * as ConfigError from "effect/ConfigError"
import * as Layer from "effect/Layer"

/**
 * Everything the umbrella layer provides: each API service, the WebSocket subscriptions and the shared transport.
 * Not the config: it holds the key, which only the transport's send step reads.
 *
 * @example
 * const program: Effect.Effect<void, Errors.ApiError, Solfx.Services> = Effect.gen(function*() {
 *   const das = yield* DigitalAssets.DigitalAssets
 *   const wallet = yield* Wallet.Wallet
 * })
 * @since 0.1.0
 * @category models
 */
export type Services =
  | DigitalAssets.DigitalAssets
  | TokenMetadata.TokenMetadata
  | Compression.Compression
  | Signatures.Signatures
  | Bundles.Bundles
  | Wallet.Wallet
  | Admin.Admin
  | Webhooks.Webhooks
  | PriorityFees.PriorityFees
  | AddressHistory.AddressHistory
  | EnhancedTransactions.EnhancedTransactions
  | Subscriptions.Subscriptions
  | HttpTransport.HttpTransport

/**
 * Options of the services that take some (cost tables, tip rules, the sockets' keep-alive).
 *
 * @example
 * Solfx.layer({ apiKey, services: { bundles: { minTip: 5_000n } } })
 * @since 0.1.0
 * @category models
 */
export interface ServiceOptions {
  readonly digitalAssets?: DigitalAssets.Options | undefined
  readonly compression?: Compression.Options | undefined
  readonly bundles?: Bundles.Options | undefined
  readonly subscriptions?: Subscriptions.Options | undefined
}

/**
 * The config (see `Config.Options`), the services' own options, and the
 * platform `HttpClient` layer, which has no default here.
 *
 * @example
 * const options: Solfx.Options = { apiKey: Redacted.make("my-api-key"), httpClient: FetchHttpClient.layer }
 * @since 0.1.0
 * @category models
 */
export interface Options<E = never, R = never> extends Config.Options {
  /** The platform client, e.g. `FetchHttpClient.layer`. */
  readonly httpClient: Layer.Layer<HttpClient.HttpClient, E, R>
  readonly services?: ServiceOptions | undefined
  /**
   * Client-side limits of every call (see `RateLimits`): `plan` and per-bucket
   * `overrides` pace each attempt by its bucket, `creditBudget` caps the credits
   * spent, `store` shares both among processes (`RateLimitsRedis.layerStore`;
   * default in memory). Without it, only admin is limited (5/s) and 429s are retried.
   */
  readonly rateLimits?: RateLimits.ConfigOptions | undefined
  /** How the subscriptions open a WebSocket: default the runtime's global `WebSocket` (`Socket.layerWebSocketConstructorGlobal`). */
  readonly webSocketConstructor?: Layer.Layer<Socket.WebSocketConstructor> | undefined
}

/**
 * Every HTTP service, over whatever `HttpTransport` is provided: a real one, or
 * `HttpTesting.layerTransport` in unit tests. Not the subscriptions, which speak WebSocket
 * (`layerHttpClient` adds them).
 *
 * @example
 * const test = Solfx.services().pipe(Layer.provideMerge(HttpTesting.layerTransport(handler)))
 * @since 0.1.0
 * @category layers
 */
export const services = (
  options: ServiceOptions = {}
): Layer.Layer<
  Exclude<Services, HttpTransport.HttpTransport | Subscriptions.Subscriptions>,
  never,
  HttpTransport.HttpTransport
> =>
  Layer.mergeAll(
    options.digitalAssets === undefined ? DigitalAssets.layer : DigitalAssets.layerWith(options.digitalAssets),
    TokenMetadata.layer,
    options.compression === undefined ? Compression.layer : Compression.layerWith(options.compression),
    Signatures.layer,
    options.bundles === undefined ? Bundles.layer : Bundles.layerWith(options.bundles),
    Wallet.layer,
    Admin.layer,
    Webhooks.layer,
    PriorityFees.layer,
    AddressHistory.layer,
    EnhancedTransactions.layer
  )

/**
 * Every service over one transport built on the given `HttpClient` layer, and the
 * subscriptions over the given `WebSocketConstructor` (default the runtime's global
 * `WebSocket`); the config is still needed (`Config.layer`, `Config.layerConfig`, or an
 * emulator's `Emulator.layerTest`).
 *
 * @example
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
 *
 * const live = Solfx.layerHttpClient(FetchHttpClient.layer).pipe(Layer.provideMerge(Config.layerConfig))
 * @since 0.1.0
 * @category layers
 */
export const layerHttpClient = <E, R>(
  httpClient: Layer.Layer<HttpClient.HttpClient, E, R>,
  options: ServiceOptions = {},
  webSocketConstructor: Layer.Layer<Socket.WebSocketConstructor> = Socket.layerWebSocketConstructorGlobal
): Layer.Layer<Services, E, R | Config.SolfxConfig> =>
  Layer.merge(
    services(options).pipe(
      // provideMerge: the one transport is shared by every service and also exposed.
      Layer.provideMerge(HttpTransport.layer),
      Layer.provide(httpClient)
    ),
    // The subscriptions' one socket per endpoint opens with the first subscription, not here.
    (options.subscriptions === undefined ? Subscriptions.layer : Subscriptions.layerWith(options.subscriptions)).pipe(
      Layer.provide(webSocketConstructor)
    )
  )

/**
 * Every service over the given `HttpClient` layer: the old name of `layerHttpClient`
 * (elsewhere `layerWith` takes a service's options).
 *
 * @deprecated Use `layerHttpClient`.
 * @since 0.1.0
 * @category layers
 */
export const layerWith: typeof layerHttpClient = layerHttpClient

/**
 * Every service, configured from code, over the given `httpClient`. A missing,
 * empty or blank `apiKey` fails building the layer with a `ConfigError` naming
 * `apiKey`, before any request.
 *
 * @example
 * import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
 * import { Solfx } from "@solfx/sdk/neutral"
 *
 * const live = Solfx.layer({ apiKey: Redacted.make(Deno.env.get("MY_KEY")!), httpClient: FetchHttpClient.layer })
 * @since 0.1.0
 * @category layers
 */
export const layer = <E = never, R = never>(
  options: Options<E, R>
): Layer.Layer<Services, E | ConfigError.ConfigError, R> =>
  layerHttpClient(options.httpClient, options.services, options.webSocketConstructor).pipe(
    // The transport reads the limiter when it is built; one limiter for every service.
    Layer.provide(options.rateLimits === undefined ? Layer.empty : RateLimits.layerConfig(options.rateLimits)),
    // provide, not provideMerge: the config holds the key, and no other service gets it.
    Layer.provide(Config.layer(options))
  )

/**
 * Every service over the given `httpClient`, configured from the environment
 * (the same variables as `Config.layerConfig`: `SOLFX_API_KEY` is required).
 *
 * @example
 * import { Solfx } from "@solfx/sdk/neutral"
 *
 * program.pipe(Effect.provide(Solfx.layerConfig(FetchHttpClient.layer)))
 * @since 0.1.0
 * @category layers
 */
export const layerConfig = <E, R>(
  httpClient: Layer.Layer<HttpClient.HttpClient, E, R>,
  options: ServiceOptions = {},
  webSocketConstructor: Layer.Layer<Socket.WebSocketConstructor> = Socket.layerWebSocketConstructorGlobal
): Layer.Layer<Services, E | ConfigError.ConfigError, R> =>
  layerHttpClient(httpClient, options, webSocketConstructor).pipe(Layer.provide(Config.layerConfig))
