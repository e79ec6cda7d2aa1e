/**
 * @solfx/wallet: the Wallet API (beta) service.
 *
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Wallet from "./Wallet.js"
