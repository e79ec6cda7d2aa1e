/**
 * An emulator in a process of its own, for tests of its memory: it prints its start line, then
 * answers IPC messages `{ id, type }`: `rss` (resident set now, after a full GC: run it with
 * --expose-gc), `pubsub` (its WebSocket counters) and `land` (`n` world funds of `address`).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"

NodeRuntime.runMain(Effect.scoped(Effect.gen(function*() {
  const emu = yield* Emulator.make({ apiKey: process.argv[2] })
  const reply = (id: number, value: unknown) => process.send!({ id, value })
  process.on("message", (m: { id: number; type: string; n?: number; address?: string; gc?: boolean }) => {
    if (m.type === "rss") {
      if (m.gc === true) (globalThis as { gc?: () => void }).gc?.()
      reply(m.id, process.memoryUsage().rss)
    } else if (m.type === "pubsub") {
      reply(m.id, {
        connections: emu.pubsub.connections(),
        subscriptions: emu.pubsub.subscriptions(),
        closedBehind: emu.pubsub.closedBehind(),
        buffered: emu.pubsub.buffered(),
        notified: emu.pubsub.notified()
      })
    } else if (m.type === "land") {
      Effect.runPromise(
        Effect.forEach(
          Array.from({ length: m.n ?? 1 }),
          () => emu.world.fund({ address: m.address!, lamports: 1n }),
          { discard: true }
        )
      ).then(() => reply(m.id, null))
    }
  })
  process.on("disconnect", () => process.kill(process.pid, "SIGINT"))
  process.stdout.write(emu.startLine + "\n")
  return yield* Effect.never
})))
