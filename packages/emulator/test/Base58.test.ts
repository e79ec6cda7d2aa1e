/**
 * The emulator's own base58 (its hot path) against core's, on random values of the
 * lengths it encodes and on leading zeros.
 */
import { describe, expect, it } from "@effect/vitest"
import { decodeBase58, encodeBase58 } from "@solfx/core/Primitives"
import * as Crypto from "node:crypto"
import * as Base58 from "../src/internal/Base58.js"

describe("emulator base58", () => {
  it("encodes and decodes as core does", () => {
    const inputs: Array<Uint8Array> = [
      new Uint8Array(0),
      new Uint8Array(32),
      Uint8Array.of(0, 0, 1),
      Uint8Array.of(255)
    ]
    for (const length of [1, 2, 3, 4, 8, 11, 31, 32, 33, 64, 65, 66, 67, 100]) {
      for (let k = 0; k < 200; k++) {
        const bytes = Crypto.randomBytes(length)
        if (k % 7 === 0) bytes.fill(0, 0, Math.min(length, 1 + (k % 3)))
        inputs.push(bytes)
      }
    }
    for (const bytes of inputs) {
      const text = Base58.encode(bytes)
      expect(text).toBe(encodeBase58(bytes))
      expect(Base58.encodeLatin1(Buffer.from(bytes).toString("latin1"))).toBe(text)
      expect(Buffer.from(Base58.decode(text)!).equals(Buffer.from(bytes))).toBe(true)
    }
    expect(Base58.decode("0OIl")).toBeUndefined()
    expect(Base58.decode("ab+")).toBe(decodeBase58("ab+"))
  })
})
