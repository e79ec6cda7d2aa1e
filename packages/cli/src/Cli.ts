/**
 * The `solfx` command tree and its runner: parse, run, and turn the outcome into
 * an exit code (0 success, 1 typed failure, 2 usage error, 130 interrupted).
 *
 * @example
 * const code = yield* Cli.main(["node", "solfx", "demo", "--json"]) // 0, 1, 2 or 130
 * @since 0.1.0
 */
import type * as CliApp from "@effect/cli/CliApp"
import * as CliConfig from "@effect/cli/CliConfig"
import * as Command from "@effect/cli/Command"
import * as CommandDescriptor from "@effect/cli/CommandDescriptor"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Usage from "@effect/cli/Usage"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as HashMap from "effect/HashMap"
import * as HashSet from "effect/HashSet"
import * as Option from "effect/Option"
import * as Admin from "./commands/Admin.js"
import * as BundleCommands from "./commands/Bundle.js"
import * as Das from "./commands/Das.js"
import * as Demo from "./commands/Demo.js"
import * as EmulatorCommand from "./commands/Emulator.js"
import * as FeesCommand from "./commands/Fees.js"
import * as Metadata from "./commands/Metadata.js"
import * as TxCommands from "./commands/Tx.js"
import * as WalletCommands from "./commands/Wallet.js"
import * as Watch from "./commands/Watch.js"
import * as WebhooksCommand from "./commands/Webhooks.js"
import * as Zk from "./commands/Zk.js"
import * as Failure from "./Failure.js"
import { hoist, root, takesValue } from "./Globals.js"
import * as Terminal from "./Terminal.js"

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
    FeesCommand.command,
    TxCommands.command,
    ...Admin.commands,
    WebhooksCommand.command,
    Watch.command,
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

const blocksOf = (doc: HelpDoc.HelpDoc): ReadonlyArray<HelpDoc.HelpDoc> =>
  doc._tag === "Sequence" ? [...blocksOf(doc.left), ...blocksOf(doc.right)] : doc._tag === "Empty" ? [] : [doc]

const isHeader = (block: HelpDoc.HelpDoc, title: string) =>
  block._tag === "Header" && HelpDoc.toAnsiText(block).includes(title)

/**
 * A group's name, subcommands and help: its usage, description and its own
 * subcommands. Written here because @effect/cli answers `solfx wallet --help`
 * without wallet's subcommands, and a wrong subcommand (`solfx wallet frobnicate`)
 * with the root's list.
 */
const groupOf = <Name extends string, R, E, A>(
  group: Command.Command<Name, R, E, A>,
  /** `solfx webhooks` alone lists them; every other group alone prints its help. */
  alone: "help" | "runs" = "help"
) => {
  const name = [...HashSet.values(Command.getNames(group))][0]!
  const blocks = blocksOf(Command.getHelp(group, CliConfig.defaultConfig))
  // Keep the description and the commands; drop the built-in options every command shares.
  const options = blocks.findIndex((b) => isHeader(b, "OPTIONS"))
  const commands = blocks.findIndex((b) => isHeader(b, "COMMANDS"))
  const kept = options >= 0 && commands > options ? [...blocks.slice(0, options), ...blocks.slice(commands)] : blocks
  const subcommands = Command.getSubcommands(group)
  return {
    name,
    alone,
    subcommands: [...HashMap.keys(subcommands)].sort(),
    help: [HelpDoc.h1("USAGE"), HelpDoc.p(`$ solfx ${name} <command> [options]`), ...kept].reduce(HelpDoc.sequence),
    leafHelp: (sub: string) => Option.map(HashMap.get(subcommands, sub), (leaf) => leafHelpOf(name, leaf))
  }
}

/**
 * A subcommand's help with its whole path in the usage line (`$ solfx das asset <id>`): @effect/cli
 * prints the subcommand's own name alone (`$ asset <id>`), under the root's name and version.
 */
const leafHelpOf = (group: string | undefined, leaf: CommandDescriptor.Command<unknown>): HelpDoc.HelpDoc => {
  const usage = HelpDoc.toAnsiText(Usage.getHelp(CommandDescriptor.getUsage(leaf))).trim()
  return [
    HelpDoc.h1("USAGE"),
    HelpDoc.p(`$ solfx ${group === undefined ? "" : `${group} `}${usage}`),
    ...blocksOf(CommandDescriptor.getHelp(leaf, CliConfig.defaultConfig))
  ].reduce(HelpDoc.sequence)
}

/** The commands that only group others. */
const groups = [
  groupOf(Das.command),
  groupOf(Zk.command),
  groupOf(BundleCommands.command),
  groupOf(WalletCommands.command),
  groupOf(WebhooksCommand.command, "runs")
]

/** The top-level commands' names. */
const topLevel = [...HashMap.keys(Command.getSubcommands(command))].sort()

const distance = (a: string, b: string): number => {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    let diagonal = row[0]!
    row[0] = i
    for (let j = 1; j <= b.length; j++) {
      const above = row[j]!
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1))
      diagonal = above
    }
  }
  return row[b.length]!
}

/**
 * The valid name nearest to what was typed: the one that contains it (`holders` → `mint-holders`),
 * else the one sharing the longest start, else the closest by edit distance within a third of its length.
 *
 * @since 0.1.0
 * @category reporting
 */
export const nearest = (typed: string, names: ReadonlyArray<string>): string | undefined => {
  const word = typed.toLowerCase()
  const containing = names.filter((n) => word.length >= 3 && n.includes(word))
  if (containing.length === 1) return containing[0]
  // The longest shared start of at least 4 characters (`asset-sigs` → `asset-signatures`).
  const prefix = (n: string) => {
    let k = 0
    while (k < n.length && n[k] === word[k]) k++
    return k
  }
  const [longest] = names.map((n) => [n, prefix(n)] as const).sort((x, y) => y[1] - x[1])
  if (longest !== undefined && longest[1] >= 4) return longest[0]
  const [best] = names.map((n) => [n, distance(word, n)] as const).sort((x, y) => x[1] - y[1])
  return best !== undefined && best[1] <= Math.max(1, Math.floor(best[0].length / 3)) ? best[0] : undefined
}

/**
 * A usage error on one line, as every failure: the valid commands (they are not secrets: never
 * hidden) and the nearest one. The help is a `--help` away, not printed with it.
 */
const unknownCommand = (where: string, typed: string, names: ReadonlyArray<string>) => {
  const guess = nearest(typed, names)
  return Effect.as(
    Console.error(
      `UsageError: unknown command for ${where}: use one of ${names.join(", ")}` +
        `${guess === undefined ? "" : ` (did you mean ${guess}?)`}`
    ),
    2 as const
  )
}

/**
 * For `solfx <group>`, `solfx <group> --help` and `solfx <group> <unknown>`: the
 * group's own help (and exit code), or none to let @effect/cli parse the line.
 * An unknown command, top-level or in a group, is a usage error that names the
 * valid ones and suggests the nearest.
 */
const groupAnswer = (args: ReadonlyArray<string>): Effect.Effect<Failure.Report["code"]> | undefined => {
  let i = 0
  while (i < args.length && args[i]!.startsWith("-") && args[i] !== "--help" && args[i] !== "-h") {
    i += takesValue(args[i]!) ? 2 : 1
  }
  const first = args[i]
  if (first === undefined || first.startsWith("-")) return undefined
  if (!topLevel.includes(first)) {
    return unknownCommand("solfx", first, topLevel)
  }
  const group = groups.find((g) => g.name === first)
  const wantsHelp = (from: number) => args.slice(from).some((a) => a === "--help" || a === "-h")
  if (group === undefined) {
    return wantsHelp(i + 1)
      ? Option.match(HashMap.get(Command.getSubcommands(command), first), {
        onNone: () => undefined,
        onSome: (leaf) => Effect.as(Console.log(HelpDoc.toAnsiText(leafHelpOf(undefined, leaf))), 0 as const)
      })
      : undefined
  }
  const next = args[i + 1]
  const help = HelpDoc.toAnsiText(group.help)
  if (next === undefined && group.alone === "runs") return undefined
  if (next === undefined || next === "--help" || next === "-h") return Effect.as(Console.log(help), 0 as const)
  if (group.subcommands.includes(next)) {
    return wantsHelp(i + 2)
      ? Option.match(group.leafHelp(next), {
        onNone: () => undefined,
        onSome: (doc) => Effect.as(Console.log(HelpDoc.toAnsiText(doc)), 0 as const)
      })
      : undefined
  }
  if (next.startsWith("-")) return undefined
  return unknownCommand(`solfx ${group.name}`, next, group.subcommands)
}

// @effect/cli prints a usage error (its only Console.error) before failing with it; the failure is
// reported below as `UsageError: <message>`, the one format of every failure, so its print is dropped.
const quietUsageErrors = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) => Effect.withConsole(self, { ...base, error: () => Effect.void }))

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
  Effect.suspend(() => {
    const args = hoist(argv)
    return groupAnswer(args.slice(2)) ?? Effect.as(quietUsageErrors(cli(args)), 0 as const)
  }).pipe(
    Terminal.provide(Terminal.make({ secrets: secretsOf(argv, env), env })),
    Effect.exit,
    Effect.flatMap((exit) => {
      if (Exit.isSuccess(exit)) return Effect.succeed(exit.value)
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
