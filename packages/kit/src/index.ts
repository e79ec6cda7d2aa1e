/**
 * @solfx/kit: @solana/kit's RPC through solfx's transport (`SolanaRpc`), so kit's calls take the
 * plan's limits, the shared credit budget, the retry policy, the sealed key and the spans of every
 * solfx call; and a transaction sent and confirmed as one Effect (`SendAndConfirm`).
 *
 * @example
 * import { SolanaRpc } from "@solfx/kit"
 *
 * const solana = yield* SolanaRpc.SolanaRpc
 * const { value } = yield* solana.call(solana.rpc.getBalance(address))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as SendAndConfirm from "./SendAndConfirm.js"
/** @since 0.1.0 */
export * as SolanaRpc from "./SolanaRpc.js"
