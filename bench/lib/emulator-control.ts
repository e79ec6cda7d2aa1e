/**
 * The emulator program with a control channel: started by `emulator.ts` with an
 * IPC pipe, it answers `counters`, `resetLog`, `cpu`, `heap` (heap used after a full GC,
 * when started with --expose-gc) and `rss` (peak resident set) messages, so a benchmark
 * in another process can read the server's own count of requests in flight, the CPU
 * time the server spent and its memory.
 * Flags are the program's (`packages/emulator/src/bin.ts`).
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import { parseFlags } from "@solfx/emulator/bin"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Effect from "effect/Effect"

const options = parseFlags(process.argv.slice(2))

NodeRuntime.runMain(Effect.scoped(Effect.gen(function*() {
  const emu = yield* Emulator.make(options)
  process.on("message", (m: { id: number; type: string }) => {
    if (m.type === "counters") process.send!({ id: m.id, value: emu.counters })
    else if (m.type === "cpu") {
      const c = process.cpuUsage()
      process.send!({ id: m.id, value: (c.user + c.system) / 1000 })
    } else if (m.type === "heap") {
      ;(globalThis as { gc?: () => void }).gc?.()
      process.send!({ id: m.id, value: process.memoryUsage().heapUsed })
    } else if (m.type === "rss") {
      // maxRSS is in KiB.
      process.send!({ id: m.id, value: process.resourceUsage().maxRSS * 1024 })
    } else if (m.type === "resetLog") {
      emu.resetLog()
      process.send!({ id: m.id, value: null })
    }
  })
  // Exit with the parent rather than linger.
  process.on("disconnect", () => process.kill(process.pid, "SIGINT"))
  process.stdout.write(emu.startLine + "\n")
  return yield* Effect.never
})))
