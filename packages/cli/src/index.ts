/**
 * @solfx/cli: the `solfx` command line, and the layer that composes every SDK service.
 *
 * @example
 * import { Cli } from "@solfx/cli"
 *
 * // what the `solfx` binary runs: parse argv, run the command, exit with its code
 * NodeRuntime.runMain(Cli.main(process.argv).pipe(Effect.provide(NodeContext.layer)))
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Cli from "./Cli.js"
/** @since 0.1.0 */
export * as Demo from "./Demo.js"
/** @since 0.1.0 */
export * as Failure from "./Failure.js"
/** @since 0.1.0 */
export * as FaultSpec from "./FaultSpec.js"
/** @since 0.1.0 */
export * as Format from "./Format.js"
/** @since 0.1.0 */
export * as Globals from "./Globals.js"
/** @since 0.1.0 */
export * as Output from "./Output.js"
/** @since 0.1.0 */
export * as Progress from "./Progress.js"
/** @since 0.1.0 */
export * as Services from "./Services.js"
/** @since 0.1.0 */
export * as Terminal from "./Terminal.js"
/** @since 0.1.0 */
export * as WireTransaction from "./WireTransaction.js"
