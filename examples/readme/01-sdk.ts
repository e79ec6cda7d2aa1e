// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
declare const wallet: string
// #region readme
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { Solfx, Wallet } from "@solfx/sdk"
import * as Effect from "effect/Effect"

const program = Effect.flatMap(Wallet.Wallet, (w) => w.portfolioUsdValue(wallet))
program.pipe(Effect.provide(Solfx.layerConfig), NodeRuntime.runMain) // reads SOLFX_API_KEY and SOLFX_*_URL
// From code: Solfx.layer({ apiKey, baseUrl }); on fetch: Solfx.layer({ apiKey, httpClient: FetchHttpClient.layer }).
// Deno, Bun, workers: the same modules from "@solfx/sdk/neutral" (no platform-node), e.g. Solfx.layerConfig(FetchHttpClient.layer).
// Fewer services: Layer.mergeAll(DigitalAssets.layer, Wallet.layer).pipe(Layer.provideMerge(HttpTransport.layer), ...)
// #endregion readme

export { program }
