// The neutral entry's smoke, run on Bun, Deno and workerd (scripts/test-runtimes.mjs) from the
// installed tarballs: @solfx/sdk/neutral over the platform's fetch, against the emulator on loopback.
// Plain JavaScript, so every runtime runs it as is.
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { Compression, DigitalAssets, Solfx, Wallet, WebhookReceiver } from "@solfx/sdk/neutral"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

/** Calls every area the neutral entry serves; the answer is plain JSON (bigints as strings). */
export const smoke = ({ apiKey, samples, url }) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const das = yield* DigitalAssets.DigitalAssets
    const compression = yield* Compression.Compression
    const identity = yield* wallet.identity(samples.wallet)
    const assets = yield* das.getAssetsByAuthorityStream({ authorityAddress: samples.assetAuthority }, { concurrency: 2 })
      .pipe(Stream.take(1500), Stream.runCount)
    const holders = yield* compression.getCompressedMintTokenHolders({ mint: samples.compressedTokenMint, limit: 3 })
    const bad = yield* Effect.flip(wallet.identity("not a wallet"))
    // The receiver's digest (@noble/hashes, not node:crypto) runs when it is made.
    const receiver = yield* Effect.scoped(
      WebhookReceiver.make({ authHeader: Redacted.make("secret"), onEvents: () => Effect.void }).pipe(Effect.as(true))
    )
    return {
      name: Option.getOrNull(Option.map(identity, (i) => i.name)),
      assets,
      top: String(holders.value.items[0]?.balance ?? 0n),
      bad: bad._tag,
      receiver
    }
  }).pipe(
    Effect.provide(Solfx.layer({ apiKey, baseUrl: url, httpClient: FetchHttpClient.layer })),
    Effect.runPromise
  )
