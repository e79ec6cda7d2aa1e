/**
 * Runs the emulator as a program until SIGINT or SIGTERM (then exits 0 within 5 s: WebSocket
 * clients get close code 1001 and `--shutdown-grace-ms` to answer), printing its start line
 * `{url, apiKey, projectId, samples, studio}` as one JSON line on stdout.
 *
 * Flags: `--port` (default 0: free), `--host` (default 127.0.0.1), `--seed` (default 42),
 * `--api-key` (default: fresh), `--project-id`, `--latency-ms`,
 * `--sizes knob=n,knob=n` (dataset size knobs, e.g. `das.bigAuthorityAssets=100000`),
 * `--max-body-bytes` (default 4 MiB), `--item-cache-chars` (bytes, default 64 Mi), `--idle-timeout-ms`
 * (default 5,000), `--max-connections` (default 1,024), the WebSocket bounds `--ws-max-frame-bytes` (1 MiB),
 * `--ws-max-subscriptions` (per connection, 4,096), `--ws-max-connections-per-key` (256),
 * `--ws-max-buffered-bytes` (per socket, 16 MiB), `--shutdown-grace-ms` (1,000),
 * `--state FILE` (what happened, written on exit and read on start: `StateFile`),
 * `--program <id>=<file.so>` (repeatable: a program loaded into the bank, as
 * `solana-test-validator --bpf-program` does: `Programs`),
 * `--plan free|developer|business|professional`
 * (the default project's plan, and the plans' rate limits enforced; default: business, not enforced),
 * `--cors-origin http://localhost:5173` (repeatable: only these origins may call it from a browser; default:
 * any origin for JSON-RPC, REST and WebSocket, none but its own for the world API and the studio),
 * `--info` (prints every method and route it serves with its fidelity, as `GET /emulator/info`, and exits).
 *
 * @example
 * npm run emulator -- --port 8899 --seed 7
 * @since 0.1.0
 */

import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { parseArgs } from "node:util"
import { areas } from "./areas/index.js"
import * as Cors from "./Cors.js"
import * as Dataset from "./Dataset.js"
import * as Emulator from "./Emulator.js"
import * as Manifest from "./Manifest.js"
import * as PlanLimits from "./PlanLimits.js"
import * as Programs from "./Programs.js"

const int = (name: string, value: string | undefined): number | undefined => {
  if (value === undefined) return undefined
  if (!/^\d+$/.test(value)) throw new Error(`--${name} must be a non-negative integer, got ${JSON.stringify(value)}`)
  return Number(value)
}

const sizes = (value: string | undefined): Dataset.Sizes | undefined =>
  value === undefined ? undefined : Either.getOrElse(Dataset.parseSizes(value), (message) => {
    throw new Error(message)
  })

const corsOrigins = (values: ReadonlyArray<string> | undefined): ReadonlyArray<string> | undefined => {
  if (values === undefined) return undefined
  for (const origin of values) {
    const problem = Cors.validateOrigin(origin)
    if (problem !== undefined) throw new Error(problem)
  }
  return values
}

/**
 * Parses the program's flags into emulator options.
 *
 * @since 0.1.0
 * @category parsing
 */
export const parseFlags = (args: ReadonlyArray<string>): Emulator.Options => {
  const { values } = parseArgs({
    args: [...args],
    options: {
      port: { type: "string" },
      host: { type: "string" },
      seed: { type: "string" },
      "api-key": { type: "string" },
      "project-id": { type: "string" },
      "latency-ms": { type: "string" },
      sizes: { type: "string" },
      "max-body-bytes": { type: "string" },
      "item-cache-chars": { type: "string" },
      "idle-timeout-ms": { type: "string" },
      "max-connections": { type: "string" },
      "ws-max-frame-bytes": { type: "string" },
      "ws-max-subscriptions": { type: "string" },
      "ws-max-connections-per-key": { type: "string" },
      "ws-max-buffered-bytes": { type: "string" },
      "shutdown-grace-ms": { type: "string" },
      plan: { type: "string" },
      state: { type: "string" },
      program: { type: "string", multiple: true },
      "cors-origin": { type: "string", multiple: true },
      // Read by the program itself (`--info` prints the manifest instead of starting).
      info: { type: "boolean" }
    },
    strict: true
  })
  if (values.plan !== undefined && !PlanLimits.isPlan(values.plan)) {
    throw new Error(`--plan must be one of free, developer, business, professional, got ${JSON.stringify(values.plan)}`)
  }
  return {
    plan: values.plan,
    port: int("port", values.port),
    host: values.host,
    seed: int("seed", values.seed),
    apiKey: values["api-key"],
    projectId: values["project-id"],
    latencyMs: int("latency-ms", values["latency-ms"]),
    sizes: sizes(values.sizes),
    maxBodyBytes: int("max-body-bytes", values["max-body-bytes"]),
    itemCacheChars: int("item-cache-chars", values["item-cache-chars"]),
    timeouts: { idleMs: int("idle-timeout-ms", values["idle-timeout-ms"]) },
    maxConnections: int("max-connections", values["max-connections"]),
    webSockets: {
      maxFrameBytes: int("ws-max-frame-bytes", values["ws-max-frame-bytes"]),
      maxSubscriptionsPerConnection: int("ws-max-subscriptions", values["ws-max-subscriptions"]),
      maxConnectionsPerKey: int("ws-max-connections-per-key", values["ws-max-connections-per-key"]),
      maxBufferedBytes: int("ws-max-buffered-bytes", values["ws-max-buffered-bytes"])
    },
    shutdownGraceMs: int("shutdown-grace-ms", values["shutdown-grace-ms"]),
    corsOrigins: corsOrigins(values["cors-origin"]),
    state: values.state,
    programs: values.program?.map((flag) =>
      Either.getOrElse(Programs.parse(flag), (message) => {
        throw new Error(message)
      })
    )
  }
}

/**
 * Starts the emulator, prints the start line and waits for interruption (SIGINT).
 *
 * @since 0.1.0
 * @category programs
 */
export const program = (options: Emulator.Options): Effect.Effect<never> =>
  Effect.scoped(Effect.gen(function*() {
    const emu = yield* Emulator.make(options)
    yield* Console.log(emu.startLine)
    return yield* Effect.never
  }))

const isMain = process.argv[1] !== undefined && import.meta.url.endsWith(process.argv[1].replace(/\\/g, "/"))

if (isMain && process.argv.slice(2).includes("--info")) {
  process.stdout.write(Manifest.format(Manifest.make(areas)) + "\n")
  process.exit(0)
}

if (isMain) {
  let options: Emulator.Options
  try {
    options = parseFlags(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`)
    process.exit(2)
  }
  // Gone within 5 s of SIGTERM or SIGINT whatever clients do (stopping takes about the 1 s shutdown grace).
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => setTimeout(() => process.exit(0), 5_000).unref())
  }
  NodeRuntime.runMain(program(options))
}
