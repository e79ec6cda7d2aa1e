#!/usr/bin/env node
/**
 * The `solfx` executable.
 *
 * @since 0.1.0
 */

import * as NodeContext from "@effect/platform-node/NodeContext"
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Cli from "./Cli.js"

// `solfx ... | head` closes stdout early: that is a normal end, not a crash.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0)
  throw error
})

/**
 * A stop asked for with SIGTERM (a process manager's, a CI job's) is a normal end: exit 0; Ctrl-C
 * (SIGINT) ends with 130. Whatever a command's clients do, the process is gone within
 * `SHUTDOWN_BOUND_MS` of the signal (the emulator itself needs about its 1 s shutdown grace).
 */
const SHUTDOWN_BOUND_MS = 5_000
let terminated = false
const bound = (code: number) => () => setTimeout(() => process.exit(code), SHUTDOWN_BOUND_MS).unref()
process.once("SIGTERM", () => {
  terminated = true
  bound(0)()
})
process.once("SIGINT", bound(130))

NodeRuntime.runMain(Cli.main(process.argv).pipe(Effect.provide(NodeContext.layer)), {
  disableErrorReporting: true,
  disablePrettyLogger: true,
  teardown: (exit, onExit) => {
    const code = Exit.isSuccess(exit)
      ? Number(exit.value)
      : Cause.isInterruptedOnly(exit.cause)
      ? (terminated ? 0 : 130)
      : 1
    process.exitCode = code
    onExit(code)
  }
})
