import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { type ChildProcess, fork } from "node:child_process"
import { fileURLToPath } from "node:url"
import { WebSocket } from "ws"

/**
 * The documented bound (README, "Its WebSockets are bounded"): a client that stops reading costs the
 * emulator at most its outbound queue (16 MiB of notification text) and what its socket holds (256 KiB),
 * then it is closed with 1008 and both are released. Measured on the emulator's own process: its RSS while
 * 2,000 subscriptions of a paused client see 500 landings stays within start + RSS_BOUND, and after a GC it is
 * back within start + RSS_RETURN. (Before the bound: 152 → 544 MB after 220 landings, never returned.)
 */
const RSS_BOUND = 64 * 1024 * 1024
const RSS_RETURN = 32 * 1024 * 1024
const SUBS = 2_000
const LANDINGS = 500
const KEY = "memory-test-key-0001"
const ADDRESS = "4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T"

const child = fileURLToPath(new URL("./support/memory-child.ts", import.meta.url))

/** Request/answer over the child's IPC channel. */
const control = (proc: ChildProcess) => {
  let next = 1
  const waiting = new Map<number, (v: any) => void>()
  proc.on("message", (m: any) => waiting.get(m.id)?.(m.value))
  return (type: string, extra: Record<string, unknown> = {}) =>
    Effect.promise<any>(() =>
      new Promise((resolve) => {
        const id = next++
        waiting.set(id, resolve)
        proc.send({ id, type, ...extra })
      })
    )
}

const firstLine = (proc: ChildProcess) =>
  Effect.promise<string>(() =>
    new Promise((resolve, reject) => {
      let buffer = ""
      proc.stdout!.on("data", (d: Buffer) => {
        buffer += d.toString()
        if (buffer.includes("\n")) resolve(buffer.slice(0, buffer.indexOf("\n")))
      })
      proc.once("exit", (code) => reject(new Error(`the emulator exited (${code}) before its start line`)))
    })
  )

describe("the emulator's memory under a client that does not read", () => {
  it.live(
    "a paused client with 2,000 subscriptions and 500 landings: RSS bounded, closed with 1008, RSS back after a GC",
    () =>
      Effect.gen(function*() {
        const proc = fork(child, [KEY], {
          execArgv: ["--conditions=@solfx/source", "--import", "tsx", "--expose-gc"],
          stdio: ["ignore", "pipe", "inherit", "ipc"]
        })
        yield* Effect.addFinalizer(() => Effect.sync(() => proc.kill("SIGKILL")))
        const { url } = JSON.parse(yield* firstLine(proc)) as { url: string }
        const ask = control(proc)

        const ws = new WebSocket(`${url.replace(/^http/, "ws")}/?api-key=${KEY}`)
        let closed: { code: number; reason: string } | undefined
        let acked = 0
        ws.on("close", (code, reason) => (closed = { code, reason: reason.toString() }))
        ws.on("error", () => {})
        ws.on("message", (data) => {
          const msg = JSON.parse(data.toString())
          if (typeof msg.result === "number") acked++
        })
        yield* Effect.promise(() => new Promise((resolve) => ws.once("open", resolve)))
        for (let i = 1; i <= SUBS; i++) {
          ws.send(JSON.stringify({ jsonrpc: "2.0", id: i, method: "transactionSubscribe", params: [{}, {}] }))
        }
        for (let i = 0; i < 1_000 && acked < SUBS; i++) yield* Effect.sleep("10 millis")
        expect(acked).toBe(SUBS)
        const start: number = yield* ask("rss", { gc: true })

        // The client stops reading; 500 landings in 50 rounds, the emulator's RSS read after each.
        ws.pause()
        const samples: Array<number> = []
        for (let round = 0; round < LANDINGS / 10; round++) {
          yield* ask("land", { n: 10, address: ADDRESS })
          samples.push(yield* ask("rss"))
        }
        const peak = Math.max(...samples)
        const after = yield* ask("pubsub")
        const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`
        const report = { start: mb(start), peak: mb(peak), after }
        console.log(`emulator RSS: ${JSON.stringify(report)}`)
        expect(after).toMatchObject({ closedBehind: 1, subscriptions: 0, buffered: 0 })
        expect(peak - start, JSON.stringify(report)).toBeLessThan(RSS_BOUND)

        // Reading again, the client finds its close: 1008, with the reason.
        ws.resume()
        for (let i = 0; i < 1_000 && closed === undefined; i++) yield* Effect.sleep("10 millis")
        expect(closed).toMatchObject({ code: 1008 })
        expect(closed?.reason).toContain("too slow")

        const settled: number = yield* ask("rss", { gc: true })
        console.log(`emulator RSS after a GC: ${mb(settled)} (start ${mb(start)})`)
        expect(settled - start, `start ${mb(start)}, after ${mb(settled)}`).toBeLessThan(RSS_RETURN)
      }).pipe(Effect.scoped),
    { timeout: 240_000 }
  )
})
