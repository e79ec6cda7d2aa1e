/**
 * `solfx emulator [--port 8899] [--host 127.0.0.1] [--seed N] [--api-key K] [--faults SPEC]`:
 * the emulator in the foreground until Ctrl-C. Its start line
 * `{url, apiKey, projectId, samples}` is the first line on stdout.
 *
 * @since 0.1.0
 */
import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as FaultSpec from "../FaultSpec.js"
import { root } from "../Globals.js"

const faults = Options.text("faults").pipe(
  Options.withDescription(`Fault injection: ${FaultSpec.syntax} (e.g. rate=0.2,kinds=429+500+reset)`),
  Options.mapEffect((spec) =>
    Either.match(FaultSpec.parse(spec), {
      onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--faults: ${message}`))),
      onRight: Effect.succeed
    })
  ),
  Options.optional
)

/**
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "emulator",
  {
    port: Options.integer("port").pipe(Options.withDescription("Port (0 picks a free one)"), Options.withDefault(8899)),
    host: Options.text("host").pipe(Options.withDescription("Interface to bind"), Options.withDefault("127.0.0.1")),
    seed: Options.integer("seed").pipe(Options.withDescription("Seed of the dataset (default 42)"), Options.optional),
    faults
  },
  (o) =>
    Effect.gen(function*() {
      const globals = yield* root
      const Emulator = yield* Effect.promise(() => import("@solfx/emulator/Emulator"))
      const emulator = yield* Emulator.make({
        port: o.port,
        host: o.host,
        seed: Option.getOrUndefined(o.seed),
        apiKey: Option.getOrUndefined(Option.map(globals.apiKey, Redacted.value)),
        faults: Option.getOrUndefined(o.faults)
      })
      yield* Effect.sync(() => {
        process.stdout.write(emulator.startLine + "\n")
        process.stderr.write(`solfx emulator: serving every host on ${emulator.url} (Ctrl-C to stop)\n`)
      })
      return yield* Effect.never
    }).pipe(Effect.scoped)
).pipe(
  Command.withDescription(
    "Run the emulator in the foreground until Ctrl-C; prints {url, apiKey, projectId, samples} first"
  )
)
