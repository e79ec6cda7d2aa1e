import { describe, expect, it } from "@effect/vitest"
import { Primitives } from "@solfx/core"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"

const ok = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Either.isRight(Schema.decodeUnknownEither(schema)(input))

describe("Primitives", () => {
  const system = "11111111111111111111111111111111"
  const tip = "96gYZGLnJYVFmbjzopPSU6QiEV5fGqZNyN9nmNhvrZU5"

  it("Address needs 32 decoded bytes, not just the alphabet", () => {
    expect(ok(Primitives.Address, system)).toBe(true)
    expect(ok(Primitives.Address, tip)).toBe(true)
    // 44 chars that match the spec's regex but decode to 33 bytes
    const tooBig = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
    expect(Primitives.WALLET_REGEX.test(tooBig)).toBe(true)
    expect(ok(Primitives.Address, tooBig)).toBe(false)
    expect(ok(Primitives.WalletAddress, tooBig)).toBe(false)
    expect(ok(Primitives.Address, "0OIl" + system.slice(4))).toBe(false)
    expect(ok(Primitives.Address, "")).toBe(false)
  })

  it("Signature needs 64 bytes", () => {
    const sig = Primitives.encodeBase58(new Uint8Array(64).fill(7))
    expect(ok(Primitives.Signature, sig)).toBe(true)
    expect(ok(Primitives.Signature, system)).toBe(false)
  })

  it("ProjectId, BundleId", () => {
    expect(ok(Primitives.ProjectId, "123e4567-e89b-12d3-a456-426614174000")).toBe(true)
    expect(ok(Primitives.ProjectId, "not-a-uuid")).toBe(false)
    expect(ok(Primitives.BundleId, "a".repeat(64))).toBe(true)
    expect(ok(Primitives.BundleId, "A".repeat(64))).toBe(false)
    expect(ok(Primitives.BundleId, "a".repeat(63))).toBe(false)
  })

  it("WalletOrDomain accepts addresses and domains", () => {
    expect(ok(Primitives.WalletOrDomain, tip)).toBe(true)
    expect(ok(Primitives.WalletOrDomain, "toly.sol")).toBe(true)
    expect(ok(Primitives.WalletOrDomain, "not a domain")).toBe(false)
  })

  it("U64 decodes numbers and digit strings to exact bigints, rejects the rest", () => {
    const decode = Schema.decodeUnknownEither(Primitives.U64)
    expect(decode(42)).toEqual(Either.right(42n))
    expect(decode("18446744073709551615")).toEqual(Either.right(18446744073709551615n))
    expect(Either.isLeft(decode("18446744073709551616"))).toBe(true)
    expect(Either.isLeft(decode(-1))).toBe(true)
    expect(Either.isLeft(decode(1.5))).toBe(true)
    expect(Either.isLeft(decode(2 ** 60))).toBe(true) // a double past 2^53 may already be rounded: fail loudly
    expect(Either.isLeft(decode("007"))).toBe(true)
  })
})
