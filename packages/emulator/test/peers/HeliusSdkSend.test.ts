/**
 * helius-sdk 3.2.0's send-and-confirm helper against the emulator, its code unchanged:
 * `broadcastTransaction` (its public `helius-sdk/transactions/broadcastTransaction`) sends a signed
 * transaction with maxRetries 0, then polls getSignatureStatuses and getBlockHeight until it is
 * confirmed, over kit's RPC at the emulator's URL with the key in the query, as `createHelius` builds
 * it. Not through `createHelius(...).tx`: that namespace imports kit's
 * `estimateComputeUnitLimitFactory` (for `createSmartTransaction`), which @solana/kit 8.4 (the
 * workspace's, helius-sdk's peer overridden to it) no longer exports, so it cannot load whatever the
 * server; and `sendSmartTransaction` confirms over a WebSocket it opens at `wss://` on the baseUrl's
 * host, where the emulator speaks `ws://`.
 */
import { describe, expect, it } from "@effect/vitest"
import { getTransferSolInstruction } from "@solana-program/system"
import {
  address,
  appendTransactionMessageInstructions,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import * as Endpoints from "@solfx/core/Endpoints"
import * as Effect from "effect/Effect"
import { broadcastTransactionFactory } from "helius-sdk/transactions/broadcastTransaction"
import * as Emulator from "../../src/Emulator.js"

/** The emulator executes transactions only once the endpoint table has sendTransaction (the local cluster's bank). */
const executes = Endpoints.byName.has("sendTransaction")

describe.skipIf(!executes)(
  executes
    ? "helius-sdk 3.2.0's send-and-confirm against the emulator"
    : "helius-sdk 3.2.0's send-and-confirm against the emulator (skipped: this emulator does not execute transactions: no sendTransaction entry)",
  () => {
    it.scopedLive(
      "broadcastTransaction: a kit-signed transfer sent once, confirmed by its polls, landed",
      () =>
        Effect.gen(function*() {
          const emu = yield* Emulator.make({ seed: 5 })
          const rpc = createSolanaRpc(`${emu.url}/?api-key=${emu.apiKey}`)
          const broadcastTransaction = broadcastTransactionFactory(rpc)
          const payer = yield* Effect.promise(() => generateKeyPairSigner())
          const to = address(emu.dataset.address("peers:helius:send"))
          yield* emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })

          // Built and signed with kit, on the emulator's latest blockhash, as an app does before the helper.
          const signature = yield* Effect.promise(async () => {
            const { value: lifetime } = await rpc.getLatestBlockhash().send()
            const signed = await signTransactionMessageWithSigners(pipe(
              createTransactionMessage({ version: 0 }),
              (m) => setTransactionMessageFeePayerSigner(payer, m),
              (m) => setTransactionMessageLifetimeUsingBlockhash(lifetime, m),
              (m) =>
                appendTransactionMessageInstructions([
                  getTransferSolInstruction({ source: payer, destination: to, amount: 1_000_777n })
                ], m)
            ))
            return broadcastTransaction(getBase64EncodedWireTransaction(signed), { pollIntervalMs: 100 })
          })
          const { value } = yield* Effect.promise(() => rpc.getBalance(to).send())
          expect(value).toBe(1_000_777n)
          const ops = emu.requests.map((r) => r.operation)
          expect(ops.filter((o) => o === "sendTransaction")).toHaveLength(1)
          expect(ops).toContain("getSignatureStatuses")
          const { value: [status] } = yield* Effect.promise(() => rpc.getSignatureStatuses([signature as never]).send())
          expect(status).toMatchObject({ err: null })
        }),
      120_000
    )
  }
)
