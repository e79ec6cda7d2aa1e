/**
 * Response text: the fast path and the lossless fallback give the same JSON, raw texts are
 * spliced in place, and the cache keeps its bound (least recently used first out).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Wire from "../src/Wire.js"

describe("Wire", () => {
  it("writes bigints exactly and splices raw texts", () => {
    const value = { a: 1, supply: 2n ** 64n - 1n, items: Wire.rawArray(["{\"x\":1}", "[2]"]), s: "q\"" }
    expect(Wire.stringify(value)).toBe(
      "{\"a\":1,\"supply\":18446744073709551615,\"items\":[{\"x\":1},[2]],\"s\":\"q\\\"\"}"
    )
    const plain = { a: [1, "b", null], c: { d: true } }
    expect(Wire.stringify(plain)).toBe(Json.stringify(plain))
    const nested = { outer: new Wire.Raw(Wire.stringify({ inner: Wire.rawArray(["1"]) })), n: 3n }
    expect(JSON.parse(Wire.stringify(nested))).toEqual({ outer: { inner: [1] }, n: 3 })
  })

  it("encodes the same JSON as bytes, raw bytes copied in", () => {
    const items = Wire.utf8("[{\"name\":\"é\"},2]")
    const value = { supply: 2n ** 64n - 1n, items: new Wire.Raw(items), text: Wire.rawArray(["3"]), s: "ü" }
    const bytes = Wire.encode(value)
    expect(Buffer.from(bytes).toString("utf8")).toBe(Wire.stringify(value))
    expect(JSON.parse(Wire.stringify(value))).toEqual({
      supply: 18446744073709552000,
      items: [{ name: "é" }, 2],
      text: [3],
      s: "ü"
    })
    expect(Buffer.from(Wire.encode({ a: 1 })).toString("utf8")).toBe("{\"a\":1}")
    for (const texts of [[], ["1"], ["{\"é\":2}", "[]", "\"ü\""]]) {
      expect(Buffer.from(Wire.utf8Array(texts.length, (k) => texts[k]!)).toString("utf8")).toBe(`[${texts.join(",")}]`)
    }
    // Past the writer's first megabyte, and a result that stays itself after the next call.
    const big = Array.from({ length: 3000 }, (_, k) => `"${"é".repeat(k % 700)}"`)
    const first = Wire.utf8Array(big.length, (k) => big[k]!)
    Wire.utf8Array(1, () => "0")
    expect(Buffer.from(first).toString("utf8")).toBe(`[${big.join(",")}]`)
  })

  it("writes the body around owned bytes in place, and copies shared ones", () => {
    const texts = ["{\"é\":1}", "2"]
    const value = (raw: Wire.Raw, id: unknown = 1) => ({ jsonrpc: "2.0", result: { slot: 5n, items: raw }, id })
    const owned = Wire.utf8Array(texts.length, (k) => texts[k]!)
    const inPlace = Wire.encode(value(new Wire.Raw(owned, true)))
    expect(Buffer.from(inPlace).toString("utf8")).toBe(Wire.stringify(value(new Wire.Raw(owned))))
    expect(inPlace.buffer).toBe(owned.buffer) // no new body
    // Not owned (a cache's bytes, sent by others too): a new body, the bytes left as they are.
    const cache = Wire.makeCache(1 << 20)
    const kept = cache.get("k", () => Wire.utf8Array(texts.length, (k) => texts[k]!))
    expect(cache.shares(kept)).toBe(true)
    expect(cache.size()).toBe(kept.length + 1024) // the headroom counts against the bound
    expect(cache.shares(owned)).toBe(false)
    const copied = Wire.encode(value(new Wire.Raw(kept, !cache.shares(kept))))
    expect(copied.buffer).not.toBe(kept.buffer)
    expect(Buffer.from(copied).toString("utf8")).toBe(Buffer.from(inPlace).toString("utf8"))
    // An envelope beyond the headroom (a long request id): copied, the same JSON.
    const longId = "x".repeat(5000)
    const fresh = Wire.utf8Array(texts.length, (k) => texts[k]!)
    const wide = Wire.encode(value(new Wire.Raw(fresh, true), longId))
    expect(wide.buffer).not.toBe(fresh.buffer)
    expect(Buffer.from(wide).toString("utf8")).toBe(Wire.stringify(value(new Wire.Raw(fresh), longId)))
  })

  it("keeps at most its bound, the least recently used going first", () => {
    const cache = Wire.makeCache(10)
    let made = 0
    const get = (key: string) =>
      cache.get(key, () => {
        made++
        return Wire.utf8(key.repeat(4))
      })
    get("a")
    get("b")
    expect(cache.size()).toBe(8)
    get("a") // a is now the most recent
    get("c") // evicts b
    expect(cache.size()).toBeLessThanOrEqual(10)
    expect(made).toBe(3)
    get("a")
    expect(made).toBe(3)
    get("b")
    expect(made).toBe(4)
    const bytes = Wire.utf8("text")
    expect(Wire.makeCache(0).get("k", () => bytes)).toBe(bytes)
  })
})
