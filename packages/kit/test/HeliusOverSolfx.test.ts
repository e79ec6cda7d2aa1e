/**
 * helius-sdk over solfx's kit transport: `createHelius({ transport })` takes a kit `RpcTransport`,
 * so the SDK's standard RPC and its DAS calls go through solfx's `HttpTransport` (plan buckets,
 * credits, retries, the sealed key) against the emulator on loopback.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Emulator from "@solfx/emulator/Emulator"
import { HttpTransport } from "@solfx/http/HttpTransport"
import { SolanaRpc } from "@solfx/kit"
import * as Loopback from "@solfx/testing/Loopback"
import * as Effect from "effect/Effect"
import { createHelius } from "helius-sdk"

describe("helius-sdk over solfx's kit transport (loopback emulator)", () => {
  it.live("its getBalance and getAsset go through solfx: the ledger counts the rpc and das credits", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const solana = yield* SolanaRpc.SolanaRpc
      const t = yield* HttpTransport
      // No key of its own: the transport adds solfx's sealed one.
      const helius = createHelius({ baseUrl: "http://unused.invalid/", transport: () => solana.transport })
      const read = yield* Effect.promise(async () => ({
        balance: await (helius.getBalance(emu.samples.wallet as never) as Promise<{ value: bigint }>),
        asset: await helius.getAsset({ id: emu.samples.uncompressedNft })
      }))
      const { value } = yield* solana.call(solana.rpc.getBalance(emu.samples.wallet as never))
      expect(read.balance.value).toBe(value)
      expect(read.asset.id).toBe(emu.samples.uncompressedNft)
      expect(emu.requests.map((r) => r.operation)).toEqual(["getBalance", "getAsset", "getBalance"])
      expect(yield* t.credits.used("das")).toBe(10)
      expect(yield* t.credits.used("rpc")).toBe(2)
    }).pipe(Effect.provide(Loopback.layer(SolanaRpc.layer, { seed: 4 }))))
})
