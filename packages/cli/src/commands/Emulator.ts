/**
 * `solfx emulator [--port 8899] [--host 127.0.0.1] [--seed N] [--api-key K] [--faults SPEC] [--plan P]
 * [--project-id ID] [--latency-ms N] [--sizes knob=n,...] [--max-body-bytes N] [--item-cache-chars N]
 * [--idle-timeout-ms N] [--max-connections N] [--ws-max-frame-bytes N] [--ws-max-subscriptions N]
 * [--ws-max-connections-per-key N] [--ws-max-buffered-bytes N] [--shutdown-grace-ms N] [--cors-origin ORIGIN ...]
 * [--state FILE] [--program ID=FILE.so ...] [--delivery-faults SPEC] [--info]`: the emulator in the foreground until Ctrl-C, with
 * every flag of the emulator's own program; `--info` prints what it serves, each method with its fidelity, and exits. Its start line `{url, apiKey, projectId, samples, studio}` is
 * the first line on stdout.
 *
 * @since 0.1.0
 */

import * as Command from "@effect/cli/Command"
import * as HelpDoc from "@effect/cli/HelpDoc"
import * as Options from "@effect/cli/Options"
import * as ValidationError from "@effect/cli/ValidationError"
import { plans } from "@solfx/core/Plans"
import * as Cors from "@solfx/emulator/Cors"
import * as Dataset from "@solfx/emulator/Dataset"
import * as Programs from "@solfx/emulator/Programs"
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

const deliveryFaults = Options.text("delivery-faults").pipe(
  Options.withDescription(`Webhook delivery faults: ${FaultSpec.deliverySyntax} (e.g. duplicate=0.2,reorder=0.2)`),
  Options.mapEffect((spec) =>
    Either.match(FaultSpec.parseDelivery(spec), {
      onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--delivery-faults: ${message}`))),
      onRight: Effect.succeed
    })
  ),
  Options.optional
)

const count = (name: string, description: string) =>
  Options.integer(name).pipe(
    Options.withDescription(description),
    Options.mapEffect((n) =>
      n >= 0 ? Effect.succeed(n) : Effect.fail(ValidationError.invalidValue(HelpDoc.p(`--${name} must be 0 or more`)))
    ),
    Options.optional
  )

// `knob=n,knob=n`, as the emulator's own program takes it.
const sizes = Options.text("sizes").pipe(
  Options.withDescription("Dataset size knobs, e.g. das.bigAuthorityAssets=100000"),
  Options.mapEffect((value) =>
    Either.match(Dataset.parseSizes(value), {
      onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
      onRight: Effect.succeed
    })
  ),
  Options.optional
)

// Runs until interrupted (Ctrl-C, SIGTERM) or until the process that started it is gone. npm's
// `npx` (npm exec) exits on SIGTERM without passing it on, which would leave the emulator holding its
// port with no one to stop it; Node has no "parent died" signal, so the parent's pid is polled.
const orphaned = Effect.sync(() => process.ppid).pipe(
  Effect.flatMap((parent) =>
    Effect.sync(() => process.ppid).pipe(
      Effect.delay("500 millis"),
      Effect.repeat({ until: (now) => now !== parent })
    )
  ),
  Effect.flatMap(() => Effect.interrupt)
)

/**
 * `solfx emulator`, with every flag of the emulator's own program.
 *
 * @since 0.1.0
 * @category commands
 */
export const command = Command.make(
  "emulator",
  {
    port: Options.integer("port").pipe(Options.withDescription("Port (0 picks a free one)"), Options.withDefault(8899)),
    host: Options.text("host").pipe(Options.withDescription("Interface to bind"), Options.withDefault("127.0.0.1")),
    seed: Options.integer("seed").pipe(Options.withDescription("Seed of the dataset (default 42)"), Options.optional),
    faults,
    deliveryFaults,
    plan: Options.choice("plan", Object.keys(plans) as [keyof typeof plans, ...Array<keyof typeof plans>]).pipe(
      Options.withDescription("The project's plan, its rate limits enforced (default: business, not enforced)"),
      Options.optional
    ),
    projectId: Options.text("project-id").pipe(Options.withDescription("The project's id"), Options.optional),
    latencyMs: count("latency-ms", "Latency added to every answer, in ms"),
    sizes,
    maxBodyBytes: count("max-body-bytes", "Largest request body (default 4 MiB)"),
    itemCacheChars: count("item-cache-chars", "Item cache size in bytes (default 64 Mi)"),
    idleTimeoutMs: count("idle-timeout-ms", "Idle connection timeout in ms (default 5,000)"),
    maxConnections: count("max-connections", "Most connections at once (default 1,024)"),
    wsMaxFrameBytes: count("ws-max-frame-bytes", "Largest WebSocket frame taken; bigger closes 1009 (default 1 MiB)"),
    wsMaxSubscriptions: count("ws-max-subscriptions", "Subscriptions per WebSocket (default 4,096)"),
    wsMaxConnectionsPerKey: count("ws-max-connections-per-key", "WebSockets per API key (default 256)"),
    wsMaxBufferedBytes: count(
      "ws-max-buffered-bytes",
      "Unread notification bytes per WebSocket; past it, close 1008 (default 16 MiB)"
    ),
    shutdownGraceMs: count("shutdown-grace-ms", "On stop, wait for WebSocket clients this long (default 1,000)"),
    corsOrigins: Options.text("cors-origin").pipe(
      Options.withDescription(
        "An origin browser pages may call from (repeatable); default: any for the service's paths, none for the world API"
      ),
      // Repeated first: @effect/cli repeats only a single option, not one mapped by mapEffect.
      Options.repeated,
      Options.mapEffect((origins) => {
        const problem = origins.map(Cors.validateOrigin).find((p) => p !== undefined)
        return problem === undefined
          ? Effect.succeed(origins)
          : Effect.fail(ValidationError.invalidValue(HelpDoc.p(problem)))
      }),
      Options.withDefault([])
    ),
    state: Options.file("state").pipe(
      Options.withDescription(
        "A state file: what happened is written there on exit and read on start (refused when corrupt or of another seed)"
      ),
      Options.optional
    ),
    programs: Options.text("program").pipe(
      Options.withDescription(
        "A program loaded into the bank, <program id>=<file.so> (repeatable), as solana-test-validator --bpf-program"
      ),
      // Repeated first, as --cors-origin: @effect/cli repeats only a single option.
      Options.repeated,
      Options.mapEffect((flags) =>
        Either.match(Either.all(flags.map(Programs.parse)), {
          onLeft: (message) => Effect.fail(ValidationError.invalidValue(HelpDoc.p(message))),
          onRight: Effect.succeed
        })
      ),
      Options.withDefault([])
    ),
    info: Options.boolean("info").pipe(
      Options.withDescription("Print every method and route the emulator serves with its fidelity, and exit")
    )
  },
  (o) =>
    Effect.gen(function*() {
      if (o.info) {
        const [Manifest, Areas] = yield* Effect.promise(() =>
          Promise.all([import("@solfx/emulator/Manifest"), import("@solfx/emulator/areas/index")])
        )
        yield* Effect.sync(() => process.stdout.write(Manifest.format(Manifest.make(Areas.areas)) + "\n"))
        return
      }
      const globals = yield* root
      const Emulator = yield* Effect.promise(() => import("@solfx/emulator/Emulator"))
      const emulator = yield* Emulator.make({
        port: o.port,
        host: o.host,
        seed: Option.getOrUndefined(o.seed),
        apiKey: Option.getOrUndefined(Option.map(globals.apiKey, Redacted.value)),
        faults: Option.getOrUndefined(o.faults),
        ...Option.match(o.deliveryFaults, {
          onNone: () => ({}),
          onSome: (faults) => ({ webhookDelivery: { faults } })
        }),
        plan: Option.getOrUndefined(o.plan),
        state: Option.getOrUndefined(o.state),
        programs: o.programs.length === 0 ? undefined : o.programs,
        projectId: Option.getOrUndefined(o.projectId),
        latencyMs: Option.getOrUndefined(o.latencyMs),
        sizes: Option.getOrUndefined(o.sizes),
        maxBodyBytes: Option.getOrUndefined(o.maxBodyBytes),
        itemCacheChars: Option.getOrUndefined(o.itemCacheChars),
        timeouts: { idleMs: Option.getOrUndefined(o.idleTimeoutMs) },
        maxConnections: Option.getOrUndefined(o.maxConnections),
        webSockets: {
          maxFrameBytes: Option.getOrUndefined(o.wsMaxFrameBytes),
          maxSubscriptionsPerConnection: Option.getOrUndefined(o.wsMaxSubscriptions),
          maxConnectionsPerKey: Option.getOrUndefined(o.wsMaxConnectionsPerKey),
          maxBufferedBytes: Option.getOrUndefined(o.wsMaxBufferedBytes)
        },
        shutdownGraceMs: Option.getOrUndefined(o.shutdownGraceMs),
        corsOrigins: o.corsOrigins.length === 0 ? undefined : o.corsOrigins
      })
      yield* Effect.sync(() => {
        process.stdout.write(emulator.startLine + "\n")
        process.stderr.write(`solfx emulator: serving every host on ${emulator.url} (Ctrl-C to stop)\n`)
        process.stderr.write(`solfx emulator: the studio (a page to watch the world): ${emulator.studioUrl}\n`)
      })
      return yield* orphaned
    }).pipe(Effect.scoped)
).pipe(
  Command.withDescription(
    "Run the emulator in the foreground until Ctrl-C; prints {url, apiKey, projectId, samples, studio} first"
  )
)
