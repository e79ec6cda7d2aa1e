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

NodeRuntime.runMain(Cli.main(process.argv).pipe(Effect.provide(NodeContext.layer)), {
  disableErrorReporting: true,
  disablePrettyLogger: true,
  teardown: (exit, onExit) => {
    const code = Exit.isSuccess(exit)
      ? Number(exit.value)
      : Cause.isInterruptedOnly(exit.cause)
      ? 130
      : 1
    process.exitCode = code
    onExit(code)
  }
})
