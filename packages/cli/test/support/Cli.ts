/**
 * Runs `solfx` as a child process: node with the source condition and tsx, on
 * packages/cli/src/bin.ts. The environment is the test's minus every SOLFX_*
 * variable, plus what the test passes.
 */
import * as NodeContext from "@effect/platform-node/NodeContext"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Cli from "../../src/Cli.js"

const bin = fileURLToPath(new URL("../../src/bin.ts", import.meta.url))
const cwd = fileURLToPath(new URL("../..", import.meta.url))

export interface Result {
  readonly code: number | null
  readonly signal: NodeJS.Signals | null
  readonly stdout: string
  readonly stderr: string
}

export interface RunOptions {
  readonly env?: Readonly<Record<string, string>> | undefined
  /** Written to stdin, which is then closed (stdin is closed at once without it). */
  readonly input?: string | undefined
}

const baseEnv = (): Record<string, string> => {
  const env: Record<string, string> = {}
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("SOLFX_")) env[k] = v
  return env
}

export const start = (args: ReadonlyArray<string>, options: RunOptions = {}): ChildProcess => {
  const child = spawn(process.execPath, ["--conditions=@solfx/source", "--import", "tsx", bin, ...args], {
    cwd,
    env: { ...baseEnv(), ...options.env },
    stdio: ["pipe", "pipe", "pipe"]
  })
  child.stdin!.end(options.input ?? "")
  return child
}

const collect = (child: ChildProcess): Promise<Result> =>
  new Promise((resolve, reject) => {
    let stdout = ""
    let stderr = ""
    child.stdout!.setEncoding("utf8").on("data", (d: string) => void (stdout += d))
    child.stderr!.setEncoding("utf8").on("data", (d: string) => void (stderr += d))
    child.on("error", reject)
    child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr }))
  })

/** Runs `solfx args...` to completion (killed after 240 s: a bound for a hung child, not a speed check). */
export const solfx = (args: ReadonlyArray<string>, options: RunOptions = {}): Effect.Effect<Result> =>
  Effect.promise(() => {
    const child = start(args, options)
    const timer = setTimeout(() => child.kill("SIGKILL"), 240_000)
    return collect(child).finally(() => clearTimeout(timer))
  })

/** The first line the child writes on stdout. */
export const firstLine = (child: ChildProcess): Promise<string> =>
  new Promise((resolve, reject) => {
    let buffer = ""
    const onData = (d: Buffer) => {
      buffer += d.toString("utf8")
      const nl = buffer.indexOf("\n")
      if (nl >= 0) {
        child.stdout!.off("data", onData)
        resolve(buffer.slice(0, nl))
      }
    }
    child.stdout!.on("data", onData)
    child.on("close", (code) => reject(new Error(`exited (${code}) before a line: ${buffer}`)))
  })

export const exited = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) {
      resolve({ code: child.exitCode, signal: child.signalCode })
    } else child.on("exit", (code, signal) => resolve({ code, signal }))
  })

/** Each stdout line parsed as JSON (throws on the first line that is not). */
export const jsonLines = (stdout: string, parse: (line: string) => unknown = JSON.parse): ReadonlyArray<any> =>
  stdout.split("\n").filter((l) => l !== "").map((l) => parse(l))

/**
 * Runs `solfx args...` in this process (no child: a node start costs seconds on a
 * busy machine), with `env` as its whole environment (read through the Config
 * provider), capturing what it writes: stdout and stderr, @effect/cli's help and
 * usage errors included. Runs one at a time (it swaps process.stdout/stderr.write).
 */
export const inProcess = (
  args: ReadonlyArray<string>,
  env: Readonly<Record<string, string>> = {}
): Effect.Effect<Result> =>
  Effect.suspend(() => {
    let stdout = ""
    let stderr = ""
    const line = (parts: ReadonlyArray<unknown>) => parts.map(String).join(" ") + "\n"
    const capture = (base: Console.Console): Console.Console => ({
      ...base,
      log: (...parts) => Effect.sync(() => void (stdout += line(parts))),
      info: (...parts) => Effect.sync(() => void (stdout += line(parts))),
      error: (...parts) => Effect.sync(() => void (stderr += line(parts))),
      warn: (...parts) => Effect.sync(() => void (stderr += line(parts)))
    })
    const writes = { out: process.stdout.write, err: process.stderr.write }
    const swap = Effect.sync(() => {
      process.stdout.write = ((chunk: string | Uint8Array) => (stdout += String(chunk), true)) as never
      process.stderr.write = ((chunk: string | Uint8Array) => (stderr += String(chunk), true)) as never
    })
    const restore = Effect.sync(() => {
      process.stdout.write = writes.out
      process.stderr.write = writes.err
    })
    const run = Cli.main(["node", "solfx", ...args], { ...env }).pipe(
      Effect.provide(NodeContext.layer),
      Effect.withConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(env)))),
      (self) => Console.consoleWith((base) => Effect.withConsole(self, capture(base)))
    )
    return Effect.acquireUseRelease(swap, () => run, () => restore).pipe(
      Effect.map((code): Result => ({ code, signal: null, stdout, stderr }))
    )
  })
