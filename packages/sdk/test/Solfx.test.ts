/**
 * The umbrella layer against the emulator over loopback: one call to every
 * service, with Node's undici client, with `fetch` swapped in, and from `SOLFX_*`.
 * Each client is wrapped to count what it sent, so the tests show every service
 * went through the ONE client (built once) that the layer was given.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import {
  Admin,
  Bundles,
  Compression,
  Config,
  DigitalAssets,
  HttpTransport,
  Solfx,
  Subscriptions,
  TokenMetadata,
  Wallet,
  Webhooks
} from "@solfx/sdk"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** One call to each service; returns how many HTTP requests they made. */
const callEveryService = Effect.gen(function*() {
  const emu = yield* Emulator.EmulatorHandle
  const das = yield* DigitalAssets.DigitalAssets
  const metadata = yield* TokenMetadata.TokenMetadata
  const compression = yield* Compression.Compression
  const bundles = yield* Bundles.Bundles
  const wallet = yield* Wallet.Wallet
  const admin = yield* Admin.Admin
  const webhooks = yield* Webhooks.Webhooks
  emu.resetLog()

  const assets = yield* das.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, limit: 5 })
  expect(assets.items).toHaveLength(5)
  const [record] = yield* metadata.getTokenMetadata({ mintAccounts: [emu.samples.metadataMint] })
  expect(record?.account).toBe(emu.samples.metadataMint)
  const holders = yield* compression.getCompressedMintTokenHolders({ mint: emu.samples.compressedTokenMint, limit: 3 })
  expect(holders.value.items).toHaveLength(3)
  const statuses = yield* bundles.getBundleStatuses(["f".repeat(64)])
  expect(statuses.map(Option.isSome)).toEqual([false])
  const identity = yield* wallet.identity(emu.samples.wallet)
  expect(Option.isSome(identity)).toBe(true)
  const usage = yield* admin.getProjectUsage(emu.projectId)
  expect(usage.creditsUsed).toBeGreaterThan(0)
  yield* webhooks.list()
  expect(emu.count()).toBe(7)
  return emu.count()
})

/** Wraps an HttpClient layer: counts how often it is built and every request it executes. */
const counting = <E, R>(client: Layer.Layer<HttpClient.HttpClient, E, R>) => {
  const counts = { built: 0, requests: 0 }
  const layer = Layer.effect(
    HttpClient.HttpClient,
    Effect.map(HttpClient.HttpClient, (inner) => {
      counts.built++
      return HttpClient.tapRequest(inner, () => Effect.sync(() => void counts.requests++))
    })
  ).pipe(Layer.provide(client))
  return { counts, layer }
}

/** The umbrella from code, pointed at the emulator once it has started. */
const umbrellaOver = <E, R>(httpClient: Layer.Layer<HttpClient.HttpClient, E, R>) =>
  Layer.unwrapEffect(
    Effect.map(Emulator.EmulatorHandle, (emu) => Solfx.layer({ apiKey: emu.apiKey, baseUrl: emu.url, httpClient }))
  ).pipe(Layer.provideMerge(Emulator.layer({ seed: 7 })))

describe("Solfx umbrella layer", () => {
  it.live("Solfx.layer gives every service over one transport on Node's undici client", () => {
    const node = counting(NodeHttpClient.layerUndici)
    return Effect.gen(function*() {
      const sent = yield* callEveryService
      const transport = yield* HttpTransport.HttpTransport
      expect("config" in transport).toBe(false)
      // The config holds the key: the umbrella keeps it to the transport, no other service gets it.
      expect(Option.isNone(yield* Effect.serviceOption(Config.SolfxConfig))).toBe(true)
      expect(node.counts).toEqual({ built: 1, requests: sent })
    }).pipe(Effect.provide(umbrellaOver(node.layer)))
  })

  it.live("FetchHttpClient swaps in: every call goes through fetch", () => {
    let fetches = 0
    const countingFetch: typeof globalThis.fetch = (input, init) => {
      fetches++
      return globalThis.fetch(input, init)
    }
    const fetchClient = FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, countingFetch)))
    return Effect.gen(function*() {
      const sent = yield* callEveryService
      expect(fetches).toBe(sent)
    }).pipe(Effect.provide(umbrellaOver(fetchClient)))
  })

  it.live("Solfx.layerHttpClient takes any client and any config layer", () => {
    const node = counting(NodeHttpClient.layerUndici)
    return Effect.gen(function*() {
      const sent = yield* callEveryService
      expect(node.counts).toEqual({ built: 1, requests: sent })
    }).pipe(Effect.provide(Solfx.layerHttpClient(node.layer).pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7 })))))
  })

  it.live("Solfx.layerConfig reads SOLFX_* and fails naming SOLFX_API_KEY without it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const env = new Map([
        ["SOLFX_API_KEY", emu.apiKey],
        ["SOLFX_RPC_URL", emu.url],
        ["SOLFX_REST_URL", emu.url],
        ["SOLFX_V0_URL", emu.url],
        ["SOLFX_ADMIN_URL", emu.url],
        // Read like the rest, and long: at load 18 the first token-metadata answer took over 5 s, the
        // attempt timed out and was sent again, and the request count was off by one.
        ["SOLFX_TIMEOUT_MS", "120000"]
      ])
      const fromEnv = (vars: Map<string, string>) =>
        Solfx.layerConfig.pipe(Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(vars))))

      // Every service answers: the key and every host's URL were read from the environment.
      expect(yield* Effect.provide(callEveryService, fromEnv(env))).toBeGreaterThan(0)

      const missing = new Map(env)
      missing.delete("SOLFX_API_KEY")
      const error = yield* Effect.flip(Effect.provide(callEveryService, fromEnv(missing)))
      expect(String(error)).toContain("SOLFX_API_KEY")
    }).pipe(Effect.provide(Emulator.layer({ seed: 7 }))))
})

describe("Solfx umbrella layer's subscriptions", () => {
  it.live("Solfx.layerNode includes Subscriptions: slots over the emulator's WebSocket, on one socket", () =>
    Effect.gen(function*() {
      const subscriptions = yield* Subscriptions.Subscriptions
      const emu = yield* Emulator.EmulatorHandle
      const start = emu.ledger.slot()
      const events = yield* subscriptions.slot().pipe(
        Stream.filter((event) => event._tag === "Notification"),
        Stream.take(3),
        Stream.runCollect
      )
      const slots = [...events].map((event) => event.value.slot)
      expect(slots).toHaveLength(3)
      // Each notification is a later slot of this emulator's ledger.
      expect(slots[0]!).toBeGreaterThanOrEqual(start)
      expect(slots[1]!).toBeGreaterThan(slots[0]!)
      expect(slots[2]!).toBeGreaterThan(slots[1]!)
      expect(subscriptions.opened()).toEqual({ standard: 1, enhanced: 0 })
    }).pipe(Effect.provide(Solfx.layerNode.pipe(Layer.provideMerge(Emulator.layerTest({ seed: 7, slotMs: 200 }))))))
})

describe("Solfx.layer's rateLimits", () => {
  it.live("a bad option fails building the layer with a ConfigError at rateLimits.<field>, before any request", () =>
    Effect.gen(function*() {
      const error = yield* Effect.flip(
        Layer.build(Solfx.layer({ apiKey: "test-key-1", rateLimits: { overrides: { das: 0 } } })).pipe(Effect.scoped)
      )
      expect(String(error)).toContain("rateLimits.overrides.das")
      expect(String(error)).toContain("a positive number of requests per second")
    }))

  it.live(
    "the plan reaches every area's calls: wallet unlimited by default, limited when configured",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed: 7 })
        const identities = (wallet: number | undefined) =>
          Effect.gen(function*() {
            const w = yield* Wallet.Wallet
            yield* Effect.forEach(Array.from({ length: 4 }), () => w.identity(emu.samples.wallet), {
              concurrency: "unbounded"
            })
            return (yield* HttpTransport.HttpTransport).limits.limits
          }).pipe(
            Effect.provide(Solfx.layer({
              apiKey: emu.apiKey,
              baseUrl: emu.url,
              rateLimits: { plan: "free", overrides: { wallet } }
            }))
          )
        const open = yield* identities(undefined)
        expect([open.wallet, open.das, open.admin]).toEqual([undefined, 2, 5])
        expect(yield* identities(1)).toMatchObject({ wallet: 1 })
        // At 1/s, the server saw the four paced calls more than a second apart (a permit is held a second past its answer).
        const paced = emu.requests.slice(4).map((r) => r.startedAt)
        expect(paced).toHaveLength(4)
        for (let i = 1; i < paced.length; i++) expect(paced[i]! - paced[i - 1]!).toBeGreaterThan(1000)
      }).pipe(Effect.scoped),
    30_000
  )
})
