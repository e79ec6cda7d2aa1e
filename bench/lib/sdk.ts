/**
 * The SDK as an application wires it: area services over the shared transport
 * and the platform's undici client, built once per emulator in a ManagedRuntime.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as Config from "@solfx/core/Config"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Layer from "effect/Layer"
import * as ManagedRuntime from "effect/ManagedRuntime"

export const runtime = <S, E>(
  services: Layer.Layer<S, E, HttpTransport.HttpTransport>,
  emu: { readonly url: string; readonly apiKey: string }
): ManagedRuntime.ManagedRuntime<S, E> =>
  ManagedRuntime.make(
    services.pipe(
      Layer.provide(HttpTransport.layer),
      Layer.provide(NodeHttpClient.layerUndici),
      Layer.provide(Layer.succeed(Config.SolfxConfig, Config.make({ apiKey: emu.apiKey, baseUrl: emu.url })))
    )
  )
