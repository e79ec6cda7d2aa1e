import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as fc from "fast-check"

describe("Json", () => {
  it("keeps integers beyond 2^53 exact and leaves safe ones as numbers", () => {
    const parsed = Json.parse(
      "{\"a\":18446744073709551615,\"b\":42,\"c\":[9007199254740993,-9007199254740993],\"d\":1.5e300}"
    )
    expect(parsed).toEqual({
      a: "18446744073709551615",
      b: 42,
      c: ["9007199254740993", "-9007199254740993"],
      d: 1.5e300
    })
  })

  it("never touches digits inside strings", () => {
    const text = "{\"s\":\"x:12345678901234567890,\",\"n\":12345678901234567890}"
    expect(Json.parse(text)).toEqual({ s: "x:12345678901234567890,", n: "12345678901234567890" })
  })

  it("stringify writes bigints as bare numbers that parse back exactly", () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }), (n) => {
      const text = Json.stringify({ amount: n })
      expect(text).toBe(`{"amount":${n}}`)
      const back = Json.parse(text) as { amount: number | string }
      expect(BigInt(back.amount)).toBe(n)
    }))
  })

  it("agrees with JSON.parse on ordinary documents", () => {
    const allSafe = (v: unknown): boolean =>
      typeof v === "number"
        ? !Number.isInteger(v) || Number.isSafeInteger(v)
        : typeof v === "object" && v !== null
        ? Object.values(v).every(allSafe)
        : true
    fc.assert(
      fc.property(fc.jsonValue().filter(allSafe), (v) => {
        const text = JSON.stringify(v)
        expect(Json.parse(text)).toEqual(JSON.parse(text))
      }),
      { numRuns: 300 }
    )
  })
})
