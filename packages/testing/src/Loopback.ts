/**
 * The SDK's services over the real transport, speaking HTTP on loopback (Node's
 * undici client) to a fresh emulator: the stack every integration test builds.
 * The config takes the emulator's URL and API key; `config` overrides the rest
 * (retry, timeout), or even those.
 *
 * @example
 * it.live("...", () => Effect.flatMap(Wallet.Wallet, (w) => w.identity(w)).pipe(
 *   Effect.provide(Loopback.layer(Wallet.layer, { seed: 7 }))))
 * @since 0.1.0
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import type * as HttpClient from "@effect/platform/HttpClient"
import * as SolfxConfig from "@solfx/core/Config"
import * as Emulator from "@solfx/emulator/Emulator"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

/** What to change in the stack. */
export interface Options {
  /** Config over the emulator's `{ apiKey, baseUrl }` (e.g. fast retries). */
  readonly config?: Partial<SolfxConfig.Options> | undefined
  /** The platform client (default `NodeHttpClient.layerUndici`), e.g. one that tampers with bodies. */
  readonly client?: Layer.Layer<HttpClient.HttpClient> | undefined
}

/** The config of a running emulator: its URL for every host, its key, then `overrides`. */
export const config = (
  overrides: Partial<SolfxConfig.Options> = {}
): Layer.Layer<SolfxConfig.SolfxConfig, never, Emulator.EmulatorHandle> =>
  Layer.effect(
    SolfxConfig.SolfxConfig,
    Effect.map(
      Emulator.EmulatorHandle,
      (emu) => SolfxConfig.make({ apiKey: emu.apiKey, baseUrl: emu.url, ...overrides })
    )
  )

/**
 * `services` over `HttpTransport` over a fresh emulator started with `emulator`;
 * the transport, the config and the `EmulatorHandle` are provided too.
 */
export const layer = <ROut, E, RIn>(
  services: Layer.Layer<ROut, E, RIn>,
  emulator: Emulator.Options = {},
  options: Options = {}
) =>
  services.pipe(
    Layer.provideMerge(HttpTransport.layer),
    Layer.provideMerge(config(options.config)),
    Layer.provideMerge(Emulator.layer(emulator)),
    Layer.provide(options.client ?? NodeHttpClient.layerUndici)
  )

/**
 * `services` alone over `HttpTransport` with `config`: another project's key
 * against an emulator that is already running, for example.
 */
export const layerAt = <ROut, E, RIn>(services: Layer.Layer<ROut, E, RIn>, config: SolfxConfig.Options) =>
  services.pipe(
    Layer.provide(HttpTransport.layer),
    Layer.provide(NodeHttpClient.layerUndici),
    Layer.provide(SolfxConfig.layer(config))
  )
