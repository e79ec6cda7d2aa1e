/**
 * Runs `solfx` as a child process: node with the source condition and tsx, on
 * packages/cli/src/bin.ts. The environment is the test's minus every SOLFX_*
 * variable, plus what the test passes.
 */
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import { fileURLToPath } from "node:url"

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
