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
import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import type * as HttpClient from "@effect/platform/HttpClient"
import type * as HttpRouter from "@effect/platform/HttpRouter"
import * as SolfxConfig from "@solfx/core/Config"
import * as Transaction from "@solfx/core/Transaction"
import * as Emulator from "@solfx/emulator/Emulator"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Http from "node:http"

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

/** Serves a router (a webhook receiver, say) on a free loopback port; its base URL. */
export const serve = (router: HttpRouter.HttpRouter) =>
  Effect.gen(function*() {
    let node: Http.Server | undefined
    const server = yield* NodeHttpServer.make(() => (node = Http.createServer()), { port: 0, host: "127.0.0.1" })
    yield* Effect.addFinalizer(() => Effect.sync(() => node?.closeAllConnections()))
    yield* server.serve(router)
    return `http://127.0.0.1:${server.address._tag === "TcpAddress" ? server.address.port : 0}`
  })

/**
 * Sends a bundle of base64 transactions to an emulator over raw HTTP (no SDK), each fee payer
 * funded with 1 SOL first in the emulator's world (an unfunded payer cannot pay its fee); the
 * JSON-RPC body of the answer.
 */
export const sendBundle = (emu: Emulator.Emulator, transactions: ReadonlyArray<string>) =>
  Effect.forEach(transactions, (tx) =>
    emu.world.fund({
      address: Either.getOrThrow(Transaction.parseEither(tx, "base64")).staticKeys[0]!,
      lamports: 1_000_000_000n
    })).pipe(
      Effect.zipRight(Effect.promise(async () => {
        const res = await fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: 1,
            method: "sendBundle",
            params: [transactions, { encoding: "base64" }]
          })
        })
        return (await res.json()) as { result?: string; error?: unknown }
      })),
      Effect.orDie
    )
