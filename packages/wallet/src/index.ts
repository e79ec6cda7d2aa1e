/**
 * @solfx/wallet: the Wallet API (beta) service.
 *
 * @example
 * import { Wallet } from "@solfx/wallet"
 *
 * const usd = yield* Effect.flatMap(Wallet.Wallet, (w) => w.portfolioUsdValue(address))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Wallet from "./Wallet.js"
