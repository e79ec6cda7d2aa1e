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
