/**
 * @solfx/sdk: the entry point. `Solfx.layer` / `Solfx.layerConfig` give every
 * service at once over Node's undici client, and every service's module is
 * re-exported here, so one import is enough. On a fetch-only runtime import
 * `@solfx/sdk/neutral` instead: the same modules, no `@effect/platform-node`.
 *
 * @example
 * import { Solfx, Wallet } from "@solfx/sdk"
 *
 * Effect.flatMap(Wallet.Wallet, (w) => w.balances(address)).pipe(Effect.provide(Solfx.layerConfig))
 * @since 0.1.0
 */

// Every module of the neutral entry; this explicit `Solfx` (Node's undici by default) shadows its `Solfx`.
/** @since 0.1.0 */
export * from "./neutral.js"

/** @since 0.1.0 */
export * as Solfx from "./Solfx.js"
