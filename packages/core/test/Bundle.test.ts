import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import * as Transaction from "@solfx/core/Transaction"
import { build, memo, signer, TIP, TIP2, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"

describe("bundle id", () => {
  it("matches the documented getBundleStatuses example (id of its two transactions)", () => {
    // helius.dev/docs/api-reference/sender/getbundlestatuses (identical on Jito's docs)
    const signatures = [
      "3bC2M9fiACSjkTXZDgeNAuQ4ScTsdKGwR42ytFdhUvikqTmBheUxfsR1fDVsM5ADCMMspuwGkdm1uKbU246x5aE3",
      "8t9hKYEYNbLvNqiSzP96S13XF1C2f1ro271Kdf7bkZ6EpjPLuDff1ywRy4gfaGSTubsM2FeYGDoT64ZwPm1cQUt"
    ]
    expect(Bundle.bundleId(signatures)).toBe("892b79ed49138bfb3aa5441f0df6e06ef34f9ee8f3976c15b323605bae0cf51d")
    // order matters, and the separator is ","
    expect(Bundle.bundleId([...signatures].reverse())).not.toBe(Bundle.bundleId(signatures))
  })

  it.effect("of kit-built transactions is sha256 of their first signatures joined with ','", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const other = yield* Effect.promise(signer)
      const a = yield* Effect.promise(() =>
        build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 1000n)] })
      )
      const b = yield* Effect.promise(() =>
        build({ version: 0, payer: other, instructions: [transfer(payer, other.address, 1n), memo("x")] })
      )
      const parsed = yield* Effect.all([Transaction.parse(a.base64, "base64"), Transaction.parse(b.base58, "base58")])
      const expected = createHash("sha256").update(`${a.signatures[0]},${b.signatures[0]}`).digest("hex")
      expect(Bundle.bundleIdOf(parsed)).toBe(expected)
    }))
})

describe("check", () => {
  it.effect("accepts a tipped bundle and reports every violation with its transaction", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const other = yield* Effect.promise(signer)
      const tipped = yield* Effect.promise(() =>
        build({ version: "legacy", payer, instructions: [memo("a"), transfer(payer, TIP2, 1500n)] })
      )
      const plain = yield* Effect.promise(() => build({ version: 0, payer, instructions: [memo("b")] }))
      const small = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(payer, TIP, 999n)] })
      )
      const partial = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(other, TIP, 5000n)], signWith: [payer] })
      )

      const ok = Bundle.check([plain.base64, tipped.base64], "base64")
      expect(Either.map(ok, (b) => [b.id, b.tips])).toEqual(
        Either.right([
          Bundle.bundleId([plain.signatures[0]!, tipped.signatures[0]!]),
          [{ transaction: 1, instruction: 1, account: TIP2, lamports: 1500n }]
        ])
      )
      const tag = (
        txs: ReadonlyArray<string>,
        encoding: Transaction.Encoding = "base64",
        options?: Bundle.CheckOptions
      ) => Either.match(Bundle.check(txs, encoding, options), { onLeft: (v) => v, onRight: () => undefined })

      expect(tag([])).toEqual({ _tag: "Empty" })
      expect(tag(Array(6).fill(tipped.base64))).toEqual({ _tag: "TooMany", count: 6 })
      expect(tag([tipped.base64, "bad!"])).toMatchObject({ _tag: "Undecodable", transaction: 1 })
      expect(tag([tipped.base64], "base58")).toMatchObject({ _tag: "Undecodable", transaction: 0 })
      expect(tag([partial.base64, tipped.base64])).toEqual({ _tag: "Unsigned", transaction: 0, missing: [1] })
      expect(tag([plain.base64, tipped.base64, plain.base64])).toMatchObject({
        _tag: "DuplicateSignature",
        transaction: 2,
        duplicateOf: 0
      })
      expect(tag([plain.base64, small.base64])).toMatchObject({
        _tag: "NoTip",
        minTip: 1000n,
        largest: { transaction: 1, lamports: 999n }
      })
      expect(tag([plain.base64, small.base64], "base64", { minTip: 999n })).toBeUndefined()
      expect(tag([tipped.base64], "base64", { tipAccounts: [TIP] })).toMatchObject({
        _tag: "NoTip",
        largest: undefined
      })

      const bytes = Uint8Array.from(Buffer.from(tipped.base64, "base64"))
      bytes[bytes.length - 1] ^= 0xff
      const forged = Buffer.from(bytes).toString("base64")
      expect(tag([forged])).toEqual({ _tag: "BadSignature", transaction: 0, signature: 0 })
      expect(tag([forged], "base64", { verifySignatures: false })).toBeUndefined()

      for (const v of [tag([]), tag([tipped.base64, "bad!"]), tag([plain.base64, small.base64])]) {
        const { field, rule } = Bundle.describe(v!)
        expect(field).toMatch(/^transactions(\[\d\])?$/)
        expect(rule.length).toBeGreaterThan(20)
      }
    }))
})

describe("status schemas", () => {
  const status = {
    bundle_id: "892b79ed49138bfb3aa5441f0df6e06ef34f9ee8f3976c15b323605bae0cf51d",
    transactions: ["3bC2M9fiACSjkTXZDgeNAuQ4ScTsdKGwR42ytFdhUvikqTmBheUxfsR1fDVsM5ADCMMspuwGkdm1uKbU246x5aE3"],
    slot: 242804011,
    err: { Ok: null }
  }
  const decode = Schema.decodeUnknownEither(Bundle.BundleStatuses, { onExcessProperty: "ignore" })

  it("decodes both spellings of the status, null entries and an empty value", () => {
    const result = decode({
      context: { slot: 1 },
      value: [
        { ...status, confirmation_status: "finalized" },
        null,
        { ...status, confirmationStatus: "processed", err: { Err: { InstructionError: [0, "Custom"] } } }
      ]
    })
    expect(Either.map(result, (r) => r.value.map((s) => s && [s.confirmation_status, Bundle.succeeded(s)]))).toEqual(
      Either.right([["finalized", true], null, ["processed", false]])
    )
    expect(Either.isRight(decode({ context: { slot: 1 }, value: [] }))).toBe(true)
    expect(Either.isLeft(decode({ context: { slot: 1 }, value: [status] }))).toBe(true)
    expect(Either.isLeft(decode({ context: { slot: 1 }, value: [{ ...status, confirmation_status: "landed" }] }))).toBe(
      true
    )
  })

  it("encodes the documented snake_case spelling", () => {
    const decoded = Schema.decodeUnknownSync(Bundle.BundleStatus)({ ...status, confirmationStatus: "confirmed" })
    expect(Schema.encodeSync(Bundle.BundleStatus)(decoded)).toEqual({ ...status, confirmation_status: "confirmed" })
  })
})
