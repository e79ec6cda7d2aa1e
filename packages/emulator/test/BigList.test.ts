import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import * as Paging from "../src/Paging.js"
import { rpc } from "./support/Http.js"
import { built, testArea } from "./support/TestArea.js"

const N = 1_000_000
const LIMIT = 1000

describe("a 1,000,000-item list", () => {
  it.scopedLive("serves its first, second and last pages building only the items it serves", () =>
    Effect.gen(function*() {
      built.bigList = 0
      const emu = yield* Emulator.make({ areas: [], extraAreas: [testArea], sizes: { "test.bigList": N } })

      const first = yield* rpc(emu, "bigList", { limit: LIMIT }, "first")
      const firstItems = first.json.result.value.items
      expect(firstItems).toHaveLength(LIMIT)
      expect(firstItems[0].index).toBe(0)
      expect(first.json.result.value.cursor).toBe(Paging.encodeCursor(LIMIT, "bigList"))

      const second = yield* rpc(emu, "bigList", { limit: LIMIT, cursor: first.json.result.value.cursor }, "second")
      expect(second.json.result.value.items[0].index).toBe(LIMIT)

      const last = yield* rpc(
        emu,
        "bigList",
        { limit: LIMIT, cursor: Paging.encodeCursor(N - LIMIT, "bigList") },
        "last"
      )
      const lastItems = last.json.result.value.items
      expect(lastItems).toHaveLength(LIMIT)
      expect(lastItems.at(-1).index).toBe(N - 1)
      expect(lastItems.at(-1).address).toBe(emu.dataset.address(`test:big:${N - 1}`))
      expect(last.json.result.value.cursor).toBeNull()

      const past = yield* rpc(emu, "bigList", { cursor: Paging.encodeCursor(N + 1, "bigList") }, "past")
      expect(past.json.error.code).toBe(-32602)
      // Lazy: three pages of LIMIT were built, not the million (time and memory are figures for `npm run bench`).
      expect(built.bigList).toBe(3 * LIMIT)
    }))
})
