// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// #region readme
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { expect, layer } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Wallet from "@solfx/wallet/Wallet"
import { Effect, Layer, Option } from "effect"

const TestLayer = Wallet.layer.pipe(
  Layer.provideMerge(HttpTransport.layer),
  Layer.provideMerge(Emulator.layerTest({ seed: 7 })),
  Layer.provide(NodeHttpClient.layerUndici)
)

layer(TestLayer, { excludeTestServices: true })("wallet", (it) => {
  it.effect("knows the sample wallet", () =>
    Effect.gen(function*() {
      const emulator = yield* Emulator.EmulatorHandle // url, apiKey, projectId, samples, requests, count(op), setFaults
      const identity = yield* (yield* Wallet.Wallet).identity(emulator.samples.wallet)
      expect(Option.isSome(identity)).toBe(true)
      expect(emulator.count("GET /v1/wallet/:wallet/identity")).toBe(1)
    }))
})
// #endregion readme
