/**
 * One meaning of credits: under a 20% fault mix (429, 500, 503, resets, slow and
 * truncated answers), the SDK's estimate (`HttpTransport.credits`, charged once per
 * attempt by the shared billing rule) equals what the emulator charged, area by area.
 * Limit: a request the client abandons (a read-ahead page when `take` is satisfied, an
 * interrupted call) may still be billed by the server after the client let go; no
 * client can count it, so the DAS stream here reads one page at a time.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Admin from "@solfx/admin/Admin"
import * as Webhooks from "@solfx/admin/Webhooks"
import * as Bundle from "@solfx/core/Bundle"
import * as Emulator from "@solfx/emulator/Emulator"
import type { FaultOptions } from "@solfx/emulator/Faults"
import * as HttpTransport from "@solfx/http/HttpTransport"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { describeFaults, eventually, overEmulator } from "./support/Sdk.js"

const FAULTS: FaultOptions = {
  rate: 0.3,
  kinds: ["429", "500", "503", "reset", "slow", "truncate"],
  retryAfterSeconds: 0.005,
  slowMs: 25,
  seed: 17
}

describe("credits: the SDK's estimate equals the emulator's usage under faults", () => {
  it.live("every area", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.EmulatorHandle
      const transport = yield* HttpTransport.HttpTransport
      const das = yield* DigitalAssets.DigitalAssets
      const compression = yield* Compression.Compression
      const wallet = yield* Wallet.Wallet
      const metadata = yield* TokenMetadata.TokenMetadata
      const webhooks = yield* Webhooks.Webhooks
      const bundles = yield* Bundles.Bundles
      const admin = yield* Admin.Admin
      const areas: Record<string, Effect.Effect<unknown, unknown>> = {
        das: das.getAssetsByAuthorityStream({ authorityAddress: emu.samples.assetAuthority, limit: 20 }, {
          // Read-ahead pages abandoned by `take` may be billed by the server after the client let go:
          // no client can know. One page at a time keeps the comparison exact.
          concurrency: 1
        }).pipe(
          Stream.take(300),
          Stream.runDrain
        ),
        photon: compression.getCompressedMintTokenHoldersStream({ mint: emu.samples.compressedTokenMint, limit: 20 })
          .pipe(Stream.take(500), Stream.runDrain),
        wallet: Effect.all([
          wallet.balances(emu.samples["wallet"]!),
          wallet.identity(emu.samples["wallet"]!),
          wallet.transfersStream(emu.samples["wallet"]!).pipe(Stream.take(200), Stream.runDrain)
        ]),
        api: metadata.getTokenMetadata({ mintAccounts: [emu.samples.compressedTokenMint] }),
        webhooks: Effect.all(Array.from({ length: 20 }, () => webhooks.list())),
        bundles: bundles.getBundleStatuses(Array.from({ length: 12 }, (_, i) => Bundle.bundleId([`${i}`]))),
        admin: admin.getProjectUsage(emu.projectId)
      }
      const rows: Array<string> = []
      const agree: Array<[string, number, number]> = []
      for (const [index, [area, job]] of Object.entries(areas).entries()) {
        const sdkBefore = yield* transport.credits.used(area)
        const emuBefore = emu.usage().creditsUsed
        emu.resetLog()
        emu.setFaults({ ...FAULTS, seed: FAULTS.seed! + index })
        // A job may still fail when a fault outlasts the retries: the counts must agree all the same.
        const outcome = yield* Effect.either(job)
        emu.setFaults(undefined)
        // Anything still in flight settles before the counts are read.
        yield* eventually(() => emu.counters.inFlight === 0, 5_000, "in-flight requests to settle")
        const sdk = (yield* transport.credits.used(area)) - sdkBefore
        const charged = emu.usage().creditsUsed - emuBefore
        rows.push(`${area}: sdk=${sdk} emulator=${charged} ${outcome._tag} faults=${describeFaults(emu.faultsHit)}`)
        agree.push([area, sdk, charged])
      }
      console.log(`[reliability] credits agree under faults:\n  ${rows.join("\n  ")}`)
      for (const [area, sdk, charged] of agree) expect([area, sdk]).toEqual([area, charged])
    }).pipe(Effect.provide(overEmulator())))
})
