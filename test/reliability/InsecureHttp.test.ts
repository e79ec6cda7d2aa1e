/**
 * The plain-http guard at service level: no service sends the API key over
 * `http://` to a host that is not loopback unless the user opts in with
 * `allowInsecureHttp`. The refusal is a typed `InsecureTransport`, before any request.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Admin from "@solfx/admin/Admin"
import * as Webhooks from "@solfx/admin/Webhooks"
import type * as SolfxConfig from "@solfx/core/Config"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { anything, overHandler, type Services } from "./support/Sdk.js"

const WALLET = "HXsKP7wrBWaQ8T2Vtjry3Nj3oUgwYcqq9vrHDM12G664"
const PROJECT = "123e4567-e89b-12d3-a456-426614174000"

/** One call per service and host. */
const calls: ReadonlyArray<
  readonly [name: string, host: keyof SolfxConfig.Urls, Effect.Effect<unknown, unknown, Services>]
> = [
  [
    "DigitalAssets.getAssetsByAuthority",
    "rpc",
    Effect.flatMap(DigitalAssets.DigitalAssets, (d) => d.getAssetsByAuthority({ authorityAddress: WALLET }))
  ],
  [
    "DigitalAssets stream",
    "rpc",
    Effect.flatMap(DigitalAssets.DigitalAssets, (d) => Stream.runDrain(d.getTokenAccountsStream({ owner: WALLET })))
  ],
  [
    "Compression.getCompressedMintTokenHolders",
    "rpc",
    Effect.flatMap(Compression.Compression, (c) => c.getCompressedMintTokenHolders({ mint: WALLET }))
  ],
  ["Bundles.getBundleStatuses", "rpc", Effect.flatMap(Bundles.Bundles, (b) => b.getBundleStatuses(["f".repeat(64)]))],
  [
    "TokenMetadata.getTokenMetadata",
    "v0",
    Effect.flatMap(TokenMetadata.TokenMetadata, (m) => m.getTokenMetadata({ mintAccounts: [WALLET] }))
  ],
  ["Webhooks.list", "v0", Effect.flatMap(Webhooks.Webhooks, (w) => w.list())],
  ["Wallet.balances", "rest", Effect.flatMap(Wallet.Wallet, (w) => w.balances(WALLET))],
  ["Wallet.batchIdentity", "rest", Effect.flatMap(Wallet.Wallet, (w) => w.batchIdentity([WALLET]))],
  ["Admin.getProjectUsage", "admin", Effect.flatMap(Admin.Admin, (a) => a.getProjectUsage(PROJECT))]
]

const attempt = (call: Effect.Effect<unknown, unknown, Services>, config: Partial<SolfxConfig.Options>) =>
  Effect.gen(function*() {
    const log = yield* HttpTesting.RequestLog
    const result = yield* Effect.either(call)
    return {
      error: result._tag === "Left" ? result.left as { _tag: string; host?: string } : undefined,
      requests: yield* log.count
    }
  }).pipe(Effect.provide(overHandler(anything, { ...config, retry: { times: 0 } })))

describe("plain http to a host that is not loopback", () => {
  for (const [name, host, call] of calls) {
    it.effect(`${name} (${host} host): InsecureTransport and no request, unless opted in`, () =>
      Effect.gen(function*() {
        const refused = yield* attempt(call, { baseUrl: "http://api.example.com", allowInsecureHttp: false })
        expect(refused.error).toMatchObject({ _tag: "InsecureTransport", host: "api.example.com" })
        expect(refused.requests).toBe(0)
        // Hosts that only look like loopback are not.
        for (const url of ["http://127.0.0.1.nip.io", "http://localhost.example.com:8080"]) {
          const lookalike = yield* attempt(call, { baseUrl: url, allowInsecureHttp: false })
          expect(lookalike.error?._tag).toBe("InsecureTransport")
          expect(lookalike.requests).toBe(0)
        }
        // Only this host's URL is plain http: the guard is per host.
        const onlyThisHost = yield* attempt(call, {
          baseUrl: "https://api.example.com",
          urls: { [host]: "http://plain.example.com" },
          allowInsecureHttp: false
        })
        expect(onlyThisHost.error).toMatchObject({ _tag: "InsecureTransport", host: "plain.example.com" })
        expect(onlyThisHost.requests).toBe(0)
        // The explicit opt-in, https, and loopback hosts do send.
        for (
          const config of [
            { baseUrl: "http://api.example.com", allowInsecureHttp: true },
            { baseUrl: "https://api.example.com", allowInsecureHttp: false },
            { baseUrl: "http://127.0.0.1:8899", allowInsecureHttp: false },
            { baseUrl: "http://localhost:8899", allowInsecureHttp: false },
            { baseUrl: "http://[::1]:8899", allowInsecureHttp: false }
          ]
        ) {
          const sent = yield* attempt(call, config)
          expect(sent.error?._tag, JSON.stringify(config)).not.toBe("InsecureTransport")
          expect(sent.requests, JSON.stringify(config)).toBeGreaterThan(0)
        }
      }))
  }
})
