/**
 * The global options of `solfx` and the root command that owns them. They may be
 * written anywhere on the command line (`solfx das proofs ID --json` as well as
 * `solfx --json das proofs ID`): `hoist` moves them in front of the subcommand,
 * where @effect/cli reads a parent's options.
 *
 * @example
 * hoist(["node", "solfx", "das", "proofs", "ID", "--json"]) // ["node", "solfx", "--json", "das", "proofs", "ID"]
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as Options from "@effect/cli/Options"
import * as SolfxConfig from "@solfx/core/Config"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type * as Redacted from "effect/Redacted"
import { UsageError } from "./Failure.js"

/** An optional flag that falls back to its `SOLFX_*` variable, read through @solfx/core/Config. */
const fallingBack = <A>(flag: Options.Options<A>, variable: Config.Config<A>, description: string) =>
  flag.pipe(
    Options.withDescription(description),
    Options.optional,
    Options.withFallbackConfig(Config.option(variable))
  )

/**
 * The global options, declared once on `root` so every subcommand shares them.
 *
 * @since 0.1.0
 * @category options
 */
export const options = {
  json: Options.boolean("json").pipe(
    Options.withDescription("Machine output: one JSON value per line (a stream prints one line per item)")
  ),
  emulator: Options.boolean("emulator").pipe(
    Options.withDescription("Start an embedded emulator in-process and point every base URL at it")
  ),
  apiKey: fallingBack(
    Options.redacted("api-key"),
    SolfxConfig.env.apiKey,
    "API key (overrides SOLFX_API_KEY); for `solfx emulator`, the key it serves"
  ),
  url: fallingBack(
    Options.text("url"),
    SolfxConfig.env.url,
    "One base URL for all four hosts, e.g. an emulator's (overrides SOLFX_URL)"
  ),
  rpcUrl: fallingBack(
    Options.text("rpc-url"),
    SolfxConfig.env.rpc,
    "JSON-RPC base URL (overrides SOLFX_RPC_URL and --url)"
  ),
  restUrl: fallingBack(
    Options.text("rest-url"),
    SolfxConfig.env.rest,
    "Wallet API base URL (overrides SOLFX_REST_URL and --url)"
  ),
  v0Url: fallingBack(
    Options.text("v0-url"),
    SolfxConfig.env.v0,
    "Base URL of /v0 endpoints (overrides SOLFX_V0_URL and --url)"
  ),
  adminUrl: fallingBack(
    Options.text("admin-url"),
    SolfxConfig.env.admin,
    "Admin base URL (overrides SOLFX_ADMIN_URL and --url)"
  )
}

/**
 * The parsed global options.
 *
 * @since 0.1.0
 * @category models
 */
export interface Globals {
  readonly json: boolean
  readonly emulator: boolean
  readonly apiKey: Option.Option<Redacted.Redacted<string>>
  readonly url: Option.Option<string>
  readonly rpcUrl: Option.Option<string>
  readonly restUrl: Option.Option<string>
  readonly v0Url: Option.Option<string>
  readonly adminUrl: Option.Option<string>
}

/**
 * The root command. Its subcommands read the global options with `yield* root`.
 *
 * @since 0.1.0
 * @category commands
 */
export const root = Command.make(
  "solfx",
  options,
  () => Effect.fail(new UsageError({ message: "a command is required (see solfx --help)" }))
).pipe(Command.withDescription("solfx: the Solana data service from the shell"))

const FLAGS = new Set(["--json", "--emulator"])
const VALUED = new Set(["--api-key", "--url", "--rpc-url", "--rest-url", "--v0-url", "--admin-url"])

/**
 * Whether a global option takes the next argument as its value (`--api-key K`, not `--api-key=K`).
 *
 * @since 0.1.0
 * @category parsing
 */
export const takesValue = (arg: string): boolean => VALUED.has(arg)

/**
 * Moves the global options (and the values of those that take one) in front of
 * the first argument, keeping their order and everything else in place. The
 * first two entries (`node` and the script) are kept; `--` ends the scan.
 *
 * @example
 * hoist(["node", "solfx", "das", "proofs", "ID", "--json"]) // ["node", "solfx", "--json", "das", "proofs", "ID"]
 * @since 0.1.0
 * @category parsing
 */
export const hoist = (argv: ReadonlyArray<string>): ReadonlyArray<string> => {
  const head = argv.slice(0, 2)
  const globals: Array<string> = []
  const rest: Array<string> = []
  const args = argv.slice(2)
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!
    if (arg === "--") {
      rest.push(...args.slice(i))
      break
    }
    const name = arg.includes("=") ? arg.slice(0, arg.indexOf("=")) : arg
    if (FLAGS.has(arg)) globals.push(arg)
    else if (VALUED.has(name)) {
      globals.push(arg)
      if (name === arg && i + 1 < args.length) globals.push(args[++i]!)
    } else rest.push(arg)
  }
  return [...head, ...globals, ...rest]
}
