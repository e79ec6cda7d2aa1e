/**
 * One program, run twice: bundled for Chromium (a page on another origin than the emulator's) and
 * in Node. It calls every kind of thing a web app would: DAS pages, a Wallet call, a Photon call, a
 * WebSocket slot subscription, a typed error sent by the server (a 429) and one raised before
 * sending. Its answer is plain JSON, so the two runs compare with `toEqual`.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import type * as Socket from "@effect/platform/Socket"
import { Compression, Config, DigitalAssets, Solfx, Wallet } from "@solfx/sdk/neutral"
import { Subscriptions } from "@solfx/subscriptions"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

/** What the program needs: where the emulator is, its key, and the samples of its start line. */
export interface Input {
  readonly url: string
  readonly apiKey: string
  readonly samples: {
    readonly wallet: string
    readonly assetAuthority: string
    readonly compressedTokenMint: string
    readonly unknownAddress: string
  }
}

/** The program's answer: what each call gave, as JSON. */
export interface Output {
  readonly dasPages: ReadonlyArray<{ readonly count: number; readonly first: string; readonly last: string }>
  readonly identity: string | null
  readonly topHolder: string
  readonly slots: { readonly count: number; readonly increasing: boolean }
  readonly rateLimited: { readonly tag: string; readonly retryAfterMillis: number | undefined }
  readonly invalid: { readonly tag: string; readonly field: string }
}

/** Runs the program; `webSocket` is the platform's WebSocket constructor layer. */
export const run = (
  input: Input,
  webSocket: Layer.Layer<Socket.WebSocketConstructor>
): Promise<Output> =>
  Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const wallet = yield* Wallet.Wallet
    const zk = yield* Compression.Compression
    const subscriptions = yield* Subscriptions.Subscriptions

    const dasPages = yield* das.getAssetsByAuthority.pages({
      authorityAddress: input.samples.assetAuthority,
      limit: 400
    })
      .pipe(
        Stream.take(3),
        Stream.map((page) => ({
          count: page.items.length,
          first: page.items[0]?.id ?? "",
          last: page.items[page.items.length - 1]?.id ?? ""
        })),
        Stream.runCollect
      )
    const identity = yield* wallet.identity(input.samples.wallet)
    const holders = yield* zk.getCompressedMintTokenHolders({ mint: input.samples.compressedTokenMint, limit: 3 })
    const slots = yield* subscriptions.slot().pipe(
      Stream.filterMap((event) => event._tag === "Notification" ? Option.some(event.value.slot) : Option.none()),
      Stream.take(2),
      Stream.runCollect,
      Effect.map((c) => [...c]),
      Effect.timeoutFail({ duration: "30 seconds", onTimeout: () => new Error("no 2 slot notifications in 30 s") })
    )
    // The emulator is set to answer getAssetBatch with a 429 (retry-after 7): the page must see it as one.
    const limited = yield* Effect.flip(das.getAssetBatch({ ids: [input.samples.unknownAddress] }))
    const invalid = yield* Effect.flip(wallet.identity("not a wallet"))
    return {
      dasPages: [...dasPages],
      identity: Option.getOrNull(Option.map(identity, (i) => i.name ?? null)),
      topHolder: String(holders.value.items[0]?.balance ?? 0n),
      slots: { count: slots.length, increasing: slots.length === 2 && slots[1]! > slots[0]! },
      rateLimited: {
        tag: limited._tag,
        retryAfterMillis: limited._tag === "RateLimited" ? limited.retryAfterMillis : undefined
      },
      invalid: { tag: invalid._tag, field: invalid._tag === "InvalidRequest" ? String(invalid.field) : "" }
    }
  }).pipe(
    Effect.provide(
      Layer.mergeAll(Solfx.layerHttpClient(FetchHttpClient.layer), Subscriptions.layer).pipe(
        Layer.provide(webSocket),
        Layer.provide(Config.layer({ apiKey: input.apiKey, baseUrl: input.url, retry: { times: 0 } }))
      )
    ),
    Effect.scoped,
    Effect.runPromise
  )
