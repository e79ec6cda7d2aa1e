import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { exited, start } from "./support/Cli.js"

/** Collects a child's stdout lines as they come. */
const lines = (child: ReturnType<typeof start>) => {
  const seen: Array<string> = []
  let buffer = ""
  child.stdout!.on("data", (d: Buffer) => {
    buffer += d.toString("utf8")
    const parts = buffer.split("\n")
    buffer = parts.pop()!
    seen.push(...parts)
  })
  return seen
}

const until = (what: string, check: () => boolean, state: () => unknown, tries = 3_000) =>
  Effect.gen(function*() {
    for (let i = 0; i < tries; i++) {
      if (check()) return
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.dieMessage(`waited for ${what}; state: ${JSON.stringify(state())}`)
  })

describe("solfx watch", () => {
  it.live(
    "watch slot --emulator prints slots, one line each, and ends on SIGINT with 130 and no stack",
    () =>
      Effect.gen(function*() {
        const child = start(["watch", "slot", "--emulator"])
        yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL")))
        let stderr = ""
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
        const seen = lines(child)
        yield* until("three slot lines", () => seen.length >= 3, () => ({ seen, stderr }))
        const slots = seen.slice(0, 3).map((l) => /^slot (\d+) {2}parent \d+ {2}root \d+$/.exec(l)?.[1])
        expect(slots.every((s) => s !== undefined), seen.join("\n")).toBe(true)
        expect(Number(slots[1])).toBeGreaterThan(Number(slots[0]))
        child.kill("SIGINT")
        const exit = yield* Effect.promise(() => exited(child))
        expect(exit.code).toBe(130)
        expect(stderr).not.toMatch(/\bat \S+:\d+:\d+|Error:|FiberFailure/)
      }).pipe(Effect.scoped),
    { timeout: 240_000 }
  )

  it.live(
    "watch slot --json --count 2: one JSON line per notification, then exit 0 on its own",
    () =>
      Effect.gen(function*() {
        const child = start(["watch", "slot", "--count", "2", "--emulator", "--json"])
        yield* Effect.addFinalizer(() => Effect.sync(() => child.exitCode === null && child.kill("SIGKILL")))
        const seen = lines(child)
        let stderr = ""
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
        // "close", not "exit": the last stdout line is in once the pipes are closed.
        const code = yield* Effect.promise(() => new Promise((resolve) => child.on("close", resolve)))
        expect(code, stderr).toBe(0)
        expect(seen).toHaveLength(2)
        const parsed = seen.map((l) => JSON.parse(l))
        expect(parsed[0]).toMatchObject({ type: "notification", value: { slot: parsed[0].slot } })
        expect(BigInt(parsed[1].slot)).toBeGreaterThan(BigInt(parsed[0].slot))
      }).pipe(Effect.scoped),
    { timeout: 240_000 }
  )

  it.live("watch slot --count 0 is a usage error naming the rule, exit 2", () =>
    Effect.gen(function*() {
      const child = start(["watch", "slot", "--count", "0", "--emulator"])
      let stderr = ""
      child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
      const code = yield* Effect.promise(() => new Promise((resolve) => child.on("close", resolve)))
      expect(code).toBe(2)
      expect(stderr).toContain("--count must be a positive integer")
    }), { timeout: 240_000 })

  it.live(
    "watch account with a bad address is a usage error naming the field and the rule, exit 2",
    () =>
      Effect.gen(function*() {
        const child = start(["watch", "account", "0OIl+/notBase58address!!", "--emulator"])
        let stderr = ""
        child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()))
        const exit = yield* Effect.promise(() => exited(child))
        expect(exit.code).toBe(2)
        expect(stderr).toContain("address")
        expect(stderr).toContain("32 bytes")
      }),
    { timeout: 240_000 }
  )
})
