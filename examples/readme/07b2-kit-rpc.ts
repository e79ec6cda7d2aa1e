// README.md quotes the region between the markers verbatim (examples/test/readme.test.ts checks it).
// The block's free variables:
import type { SendAndConfirm as SendAndConfirmTypes } from "@solfx/kit"
declare const apiKey: string
declare const wallet: string
declare const message: SendAndConfirmTypes.SignableMessage
// #region readme
import { address, createSolanaRpcFromTransport } from "@solana/kit"
import { SendAndConfirm, SolanaRpc } from "@solfx/kit"
import { Solfx } from "@solfx/sdk"
import { Effect, Layer } from "effect"

// kit's typed RPC over the layer's transport: the same plan limits and budget as every solfx call.
const live = SolanaRpc.layer.pipe(
  Layer.provideMerge(Solfx.layer({ apiKey, rateLimits: { plan: "developer", creditBudget: 10_000 } }))
)

const lamports = Effect.gen(function*() {
  const solana = yield* SolanaRpc.SolanaRpc
  const { value } = yield* solana.call(solana.rpc.getBalance(address(wallet)))
  return value
}).pipe(Effect.catchTag("JsonRpcError", (e) => Effect.fail(`the node refused: ${e.code} ${e.detail}`)))

// Priced at the fee estimate's High level, its compute units simulated, signed, sent, rebroadcast, confirmed.
const confirmed = SendAndConfirm.sendAndConfirm(message, { priorityFee: "High", computeUnitLimit: "estimate" }).pipe(
  Effect.catchTag("BlockhashExpired", (e) => Effect.fail(`not landed after ${e.sends} sends: sign it again`))
)

// Code not written in Effect: kit's plain transport over the same machinery.
const transport = SolanaRpc.createTransport(Solfx.layer({ apiKey, rateLimits: { plan: "developer" } }))
const rpc = createSolanaRpcFromTransport(transport)
// ... await rpc.getBalance(address(wallet)).send(), then await transport.dispose()
// #endregion readme

export { confirmed, lamports, live, rpc }
