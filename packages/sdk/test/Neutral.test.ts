/**
 * `@solfx/sdk/neutral`: its whole import graph, loaded in a fresh Node process
 * whose resolve hook refuses anything under @effect/platform-node or undici, loads;
 * `@solfx/sdk` under the same hook does not (the hook works). Then the neutral
 * layers run over `FetchHttpClient` against the emulator on loopback.
 */
import * as FetchHttpClient from "@effect/platform/FetchHttpClient"
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import { DigitalAssets, Solfx, Wallet } from "@solfx/sdk/neutral"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { execFile } from "node:child_process"
import { fileURLToPath, pathToFileURL } from "node:url"

const hook = pathToFileURL(fileURLToPath(new URL("support/deny-platform-node.mjs", import.meta.url))).href
const packageDir = fileURLToPath(new URL("..", import.meta.url))

/** Imports `entry` in a child Node (sources through tsx) under the deny hook: its exit code, stdout and stderr. */
const importUnderHook = (entry: string) =>
  Effect.async<{ readonly code: number; readonly stdout: string; readonly stderr: string }>((resume) => {
    const register = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(hook)})`
    const script = `const m = await import(${JSON.stringify(entry)}); console.log(JSON.stringify(Object.keys(m)))`
    const child = execFile(
      process.execPath,
      ["--conditions=@solfx/source", "--import", "tsx", "--import", register, "--input-type=module", "-e", script],
      { cwd: packageDir, timeout: 60_000 },
      (error, stdout, stderr) =>
        resume(Effect.succeed({ code: error === null ? 0 : (error.code as number), stdout, stderr }))
    )
    return Effect.sync(() => child.kill())
  })

/** Counts every call of `fetch` made through the layer. */
const countingFetch = () => {
  const counts = { fetches: 0 }
  const fetch: typeof globalThis.fetch = (input, init) => {
    counts.fetches++
    return globalThis.fetch(input, init)
  }
  return { counts, layer: FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.Fetch, fetch))) }
}

/** A wallet identity and a page of assets; the requests the emulator saw. */
const calls = Effect.gen(function*() {
  const emu = yield* Emulator.EmulatorHandle
  emu.resetLog()
  const identity = yield* (yield* Wallet.Wallet).identity(emu.samples.wallet)
  expect(Option.isSome(identity)).toBe(true)
  const assets = yield* (yield* DigitalAssets.DigitalAssets)
    .getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, limit: 25 })
  expect(assets.items).toHaveLength(25)
  return emu.count()
})

describe("@solfx/sdk/neutral", () => {
  it.live("its import graph has no @effect/platform-node, while @solfx/sdk's has", () =>
    Effect.gen(function*() {
      const [neutral, node] = yield* Effect.all(
        [importUnderHook("@solfx/sdk/neutral"), importUnderHook("@solfx/sdk")],
        {
          concurrency: 2
        }
      )
      expect(neutral.stderr).not.toContain("DENIED")
      expect(neutral.code).toBe(0)
      const names: Array<string> = JSON.parse(neutral.stdout.trim().split("\n").at(-1)!)
      expect(names).toEqual(expect.arrayContaining(["Solfx", "Wallet", "DigitalAssets", "WebhookReceiver"]))

      expect(node.code).not.toBe(0)
      expect(node.stderr).toContain("DENIED platform-node: @effect/platform-node/NodeHttpClient")
    }))

  it.live("Solfx.layer over FetchHttpClient.layer: every request goes through fetch", () => {
    const client = countingFetch()
    const layer = Layer.unwrapEffect(
      Effect.map(
        Emulator.EmulatorHandle,
        (emu) => Solfx.layer({ apiKey: emu.apiKey, baseUrl: emu.url, httpClient: client.layer })
      )
    ).pipe(Layer.provideMerge(Emulator.layer({ seed: 7 })))
    return Effect.gen(function*() {
      const sent = yield* calls
      expect(sent).toBe(2)
      expect(client.counts.fetches).toBe(sent)
    }).pipe(Effect.provide(layer))
  })

  it.live("Solfx.layerConfig(FetchHttpClient.layer) reads SOLFX_*", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const client = countingFetch()
      const env = ConfigProvider.fromMap(
        new Map([
          ["SOLFX_API_KEY", emu.apiKey],
          ...["RPC", "REST", "V0", "ADMIN"].map((host) => [`SOLFX_${host}_URL`, emu.url] as const)
        ])
      )
      // The calls reach the emulator: its URL and key were read from the environment.
      const sent = yield* calls.pipe(
        Effect.provide(Solfx.layerConfig(client.layer).pipe(Layer.provide(Layer.setConfigProvider(env))))
      )
      expect(client.counts.fetches).toBe(sent)
    }).pipe(Effect.provide(Emulator.layer({ seed: 7 }))))
})
