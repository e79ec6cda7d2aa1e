/**
 * The `solfx` command tree and its runner: parse, run, and turn the outcome into
 * an exit code (0 success, 1 typed failure, 2 usage error, 130 interrupted).
 *
 * @example
 * const code = yield* Cli.main(["node", "solfx", "demo", "--json"]) // 0, 1, 2 or 130
 * @since 0.1.0
 */
import type * as CliApp from "@effect/cli/CliApp"
import * as Command from "@effect/cli/Command"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import * as Admin from "./commands/Admin.js"
import * as BundleCommands from "./commands/Bundle.js"
import * as Das from "./commands/Das.js"
import * as Demo from "./commands/Demo.js"
import * as EmulatorCommand from "./commands/Emulator.js"
import * as Metadata from "./commands/Metadata.js"
import * as WalletCommands from "./commands/Wallet.js"
import * as Zk from "./commands/Zk.js"
import * as Failure from "./Failure.js"
import { hoist, root } from "./Globals.js"

/**
 * The whole command tree.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = root.pipe(
  Command.withSubcommands([
    EmulatorCommand.command,
    Das.command,
    Zk.command,
    BundleCommands.command,
    WalletCommands.command,
    Metadata.command,
    ...Admin.commands,
    Demo.command
  ])
)

/**
 * The version `solfx --version` prints: the package's.
 *
 * @since 0.1.0
 * @category constants
 */
export const VERSION = "0.1.0"

const cli = Command.run(command, { name: "solfx", version: VERSION })

/**
 * Secrets that must never be printed: the key from `--api-key` and `SOLFX_API_KEY`.
 *
 * @since 0.1.0
 * @category reporting
 */
export const secretsOf = (argv: ReadonlyArray<string>, env: NodeJS.ProcessEnv): ReadonlyArray<string> => {
  const out: Array<string> = []
  argv.forEach((arg, i) => {
    if (arg === "--api-key" && argv[i + 1] !== undefined) out.push(argv[i + 1]!)
    else if (arg.startsWith("--api-key=")) out.push(arg.slice("--api-key=".length))
  })
  if (env.SOLFX_API_KEY !== undefined && env.SOLFX_API_KEY !== "") out.push(env.SOLFX_API_KEY)
  return out
}

/**
 * Runs the CLI on `argv` (`[node, script, ...args]`) and returns the exit code,
 * after printing a failure's one line on stderr. It never fails.
 *
 * @example
 * NodeRuntime.runMain(Cli.main(process.argv).pipe(Effect.provide(NodeContext.layer)))
 * @since 0.1.0
 * @category running
 */
export const main = (
  argv: ReadonlyArray<string>,
  env: NodeJS.ProcessEnv = process.env
): Effect.Effect<Failure.Report["code"], never, CliApp.CliApp.Environment> =>
  Effect.suspend(() => cli(hoist(argv))).pipe(
    Effect.exit,
    Effect.flatMap((exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(0 as const)
      const report = Failure.report(exit.cause, secretsOf(argv, env))
      return Effect.as(
        Option.match(report.line, {
          onNone: () => Effect.void,
          onSome: (line) => Effect.sync(() => void process.stderr.write(line + "\n"))
        }),
        report.code
      )
    })
  )
