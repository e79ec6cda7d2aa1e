/**
 * The emulator in a child process of its own, so the client under test and the
 * server never share an event loop. `start` spawns `packages/emulator/src/bin.ts`
 * (or the bench's control wrapper when the request counters are needed) and
 * reads its start line.
 */
import { type ChildProcess, spawn } from "node:child_process"
import { once } from "node:events"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"

/** The emulator's counters (see `@solfx/emulator/RequestLog`). */
export interface Counters {
  readonly total: number
  readonly byOperation: Readonly<Record<string, number>>
  readonly byStatus: Readonly<Record<string, number>>
  readonly inFlight: number
  readonly maxInFlight: number
  readonly clientClosed: number
}

export interface RunningEmulator {
  readonly url: string
  readonly apiKey: string
  readonly projectId: string
  readonly samples: Readonly<Record<string, string>>
  /** Only with `control: true`: the emulator's counters. */
  readonly counters: () => Promise<Counters>
  /** Only with `control: true`: clears the log and counters. */
  readonly resetLog: () => Promise<void>
  /** Only with `control: true`: CPU time (user + system) the emulator process has used, in ms. */
  readonly cpuMs: () => Promise<number>
  /** Only with `control: true`: heap used after a full GC, in bytes (needs `gc` in `nodeArgs`). */
  readonly heapAfterGc: () => Promise<number>
  /** Only with `control: true`: the emulator process's peak RSS so far, in bytes. */
  readonly peakRss: () => Promise<number>
  readonly stop: () => Promise<void>
}

export interface StartOptions {
  readonly latencyMs: number
  readonly sizes?: Readonly<Record<string, number>> | undefined
  /** Spawn the control wrapper (IPC counters) instead of the plain program. */
  readonly control?: boolean | undefined
  /** More flags of the program, e.g. `["--item-cache-chars", "0"]`. */
  readonly flags?: ReadonlyArray<string> | undefined
  /** Expose `gc` in the emulator process (for `heapAfterGc`). */
  readonly exposeGc?: boolean | undefined
}

const BIN = fileURLToPath(new URL("../../packages/emulator/src/bin.ts", import.meta.url))
const CONTROL = fileURLToPath(new URL("./emulator-control.ts", import.meta.url))

export const NODE_ARGS = ["--conditions=@solfx/source", "--import", "tsx"]

export const start = async (options: StartOptions): Promise<RunningEmulator> => {
  const args = [
    ...(options.exposeGc ? ["--expose-gc"] : []),
    ...NODE_ARGS,
    options.control ? CONTROL : BIN,
    "--latency-ms",
    String(options.latencyMs),
    ...(options.flags ?? [])
  ]
  const sizes = Object.entries(options.sizes ?? {})
  if (sizes.length > 0) args.push("--sizes", sizes.map(([k, v]) => `${k}=${v}`).join(","))
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: options.control ? ["ignore", "pipe", "inherit", "ipc"] : ["ignore", "pipe", "inherit"]
  })
  const lines = createInterface({ input: child.stdout! })
  const [line] = (await Promise.race([
    once(lines, "line"),
    once(child, "exit").then(([code]) => {
      throw new Error(`emulator exited with ${code} before its start line`)
    })
  ])) as [string]
  const startLine = JSON.parse(line) as {
    url: string
    apiKey: string
    projectId: string
    samples: Record<string, string>
  }
  let next = 0
  const ask = <A>(type: string): Promise<A> => {
    if (!options.control) return Promise.reject(new Error("the plain emulator program has no control channel"))
    const id = ++next
    return new Promise<A>((resolve) => {
      const onMessage = (m: { id: number; value: A }) => {
        if (m.id !== id) return
        child.off("message", onMessage)
        resolve(m.value)
      }
      child.on("message", onMessage)
      child.send({ id, type })
    })
  }
  return {
    ...startLine,
    counters: () => ask<Counters>("counters"),
    resetLog: () => ask<void>("resetLog"),
    cpuMs: () => ask<number>("cpu"),
    heapAfterGc: () => ask<number>("heap"),
    peakRss: () => ask<number>("rss"),
    stop: async () => {
      if (child.exitCode !== null) return
      const exited = once(child, "exit")
      child.kill("SIGINT")
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000)
      await exited
      clearTimeout(timer)
    }
  }
}
