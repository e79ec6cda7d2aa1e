import { it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { get, post, rpc } from "./support/Http.js"

it.scopedLive("scratch", () => Effect.gen(function*() {
  const emu = yield* Emulator.make({ seed: 42 })
  const w = emu.samples.wallet
  const all: any[] = []
  let cursor: string | undefined
  for (;;) {
    const r = yield* get(emu, `/v1/wallet/${w}/transfers`, { query: { limit: "100", ...(cursor ? { cursor } : {}) } })
    all.push(...r.json.data)
    if (!r.json.pagination.hasMore) break
    cursor = r.json.pagination.nextCursor
  }
  const newest = new Map<string, any>()
  for (const t of all) if (!newest.has(t.mint)) newest.set(t.mint, t)
  const bal = new Set<string>()
  for (let page = 1;; page++) {
    const r = yield* get(emu, `/v1/wallet/${w}/balances`, { query: { page: String(page), limit: "100", showZeroBalance: "true" } })
    for (const b of r.json.balances) bal.add(b.mint)
    if (!r.json.pagination.hasMore) break
  }
  const nfts = (yield* get(emu, `/v1/wallet/${w}/balances`, { query: { showNfts: "true" } })).json.nfts.map((n: any) => n.mint)
  const missing = [...newest.values()].filter((t) => t.direction === "in" && !bal.has(t.mint))
  console.log(all.length, missing.length, JSON.stringify(missing.map((t) => [t.mint, t.amountRaw, t.decimals, nfts.includes(t.mint)])))
}), 120_000)
