/**
 * A project out of credits, end to end: an emulator whose project has a credit
 * limit of one wallet request. Once it is spent, REST (429 `{"error":"max usage
 * reached"}`) and JSON-RPC (429, -32429 "max usage reached") both fail with
 * `CreditsExhausted` after exactly one request each, although the SDK is set to
 * retry 10 times, and nothing more is billed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Emulator from "@solfx/emulator/Emulator"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Effect from "effect/Effect"
import { overEmulator } from "./support/Sdk.js"

const BALANCES = "GET /v1/wallet/:wallet/balances"

describe("credits exhausted (emulator)", () => {
  it.live("CreditsExhausted, REST and JSON-RPC, one request each, never retried", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const wallet = yield* Wallet.Wallet
      const das = yield* DigitalAssets.DigitalAssets
      const address = emu.samples["wallet"]!

      // The one request the limit allows.
      yield* wallet.balances(address)
      expect(emu.usage().creditsRemaining).toBe(0)
      const logged = emu.requests.length

      const rest = yield* Effect.flip(wallet.balances(address))
      const rpc = yield* Effect.flip(
        das.getAssetsByAuthority({ authorityAddress: emu.samples.assetAuthority, limit: 1 })
      )
      expect(rest).toMatchObject({ _tag: "CreditsExhausted", operation: "GET /v1/wallet/{wallet}/balances" })
      expect(rpc).toMatchObject({ _tag: "CreditsExhausted", operation: "getAssetsByAuthority" })
      expect(`${rest.message} | ${rpc.message}`).toMatch(/max usage reached.*\|.*max usage reached/)

      const denied = emu.requests.slice(logged)
      expect(denied.map((r) => [r.operation, r.status, r.rpcCode, r.credits])).toEqual([
        [BALANCES, 429, undefined, 0],
        ["getAssetsByAuthority", 429, -32429, 0]
      ])
      expect(emu.usage().creditsUsed).toBe(Endpoints.walletIdentity.cost.credits)
      expect(yield* wallet.creditsUsed).toBe(Endpoints.walletIdentity.cost.credits)
    }).pipe(Effect.provide(overEmulator({ creditsLimit: Endpoints.walletIdentity.cost.credits }))))
})
