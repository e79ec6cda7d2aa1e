import { describe, expect, it } from "@effect/vitest"
import * as Bundle from "@solfx/core/Bundle"
import type { MalformedTransaction } from "@solfx/core/Errors"
import * as Transaction from "@solfx/core/Transaction"
import { build, LOOKUP_TABLE, memo, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"
import fc from "fast-check"

const hex = (s: string) => Uint8Array.from(Buffer.from(s.replace(/\s/g, ""), "hex"))
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64")

const failure = <A>(result: Either.Either<A, MalformedTransaction>) => {
  if (Either.isRight(result)) throw new Error("expected a MalformedTransaction")
  return result.left
}

describe("compact-u16", () => {
  it("encodes and decodes the vectors of the reference", () => {
    const vectors: Array<[number, string]> = [
      [0, "00"],
      [0x7f, "7f"],
      [0x80, "8001"],
      [0xff, "ff01"],
      [0x3fff, "ff7f"],
      [0x4000, "808001"],
      [0xffff, "ffff03"]
    ]
    for (const [value, encoded] of vectors) {
      expect(Buffer.from(Transaction.encodeCompactU16(value)).toString("hex")).toBe(encoded)
      expect(Transaction.decodeCompactU16(hex(encoded))).toEqual(Either.right({ value, next: encoded.length / 2 }))
    }
  })

  it("round-trips every 16-bit value", () => {
    for (let v = 0; v <= 0xffff; v++) {
      const bytes = Transaction.encodeCompactU16(v)
      const decoded = Transaction.decodeCompactU16(bytes)
      if (Either.isLeft(decoded) || decoded.right.value !== v || decoded.right.next !== bytes.length) {
        expect.fail(`compact-u16 ${v} does not round-trip`)
      }
    }
  })

  it("rejects non-minimal, overflowing and truncated encodings, naming the byte", () => {
    const cases: Array<[string, number, string]> = [
      ["8000", 1, "non-minimal"],
      ["ff8000", 2, "non-minimal"],
      ["808000", 2, "non-minimal"],
      ["ffff04", 2, "overflows"],
      ["ffff83", 2, "overflows"],
      ["80", 1, "truncated"],
      ["", 0, "truncated"]
    ]
    for (const [bytes, offset, reason] of cases) {
      const error = failure(Transaction.decodeCompactU16(hex(bytes)))
      expect([bytes, error.offset, error.reason.includes(reason)]).toEqual([bytes, offset, true])
    }
  })
})

describe("reading kit-built transactions", () => {
  it.effect("legacy, both encodings: signatures, keys, instructions, transfers and tips match kit", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const friend = yield* Effect.promise(signer)
      const built = yield* Effect.promise(() =>
        build({
          version: "legacy",
          payer,
          instructions: [transfer(payer, friend.address, 1_234_567_890_123n), memo("hi"), transfer(payer, TIP, 5000n)]
        })
      )
      for (const [text, encoding] of [[built.base64, "base64"], [built.base58, "base58"]] as const) {
        const tx = yield* Transaction.parse(text, encoding)
        expect(tx.version).toBe("legacy")
        expect(tx.signatures).toEqual(built.signatures)
        expect(tx.staticKeys).toEqual(built.compiled.staticAccounts)
        expect(tx.header).toEqual({
          numRequiredSignatures: built.compiled.header.numSignerAccounts,
          numReadonlySigned: built.compiled.header.numReadonlySignerAccounts,
          numReadonlyUnsigned: built.compiled.header.numReadonlyNonSignerAccounts
        })
        expect(tx.instructions.map((ix) => [ix.programIdIndex, ix.accounts.map((a) => a.index), Array.from(ix.data)]))
          .toEqual(
            built.compiled.instructions.map((ix: any) => [
              ix.programAddressIndex,
              ix.accountIndices ?? [],
              Array.from(ix.data ?? [])
            ])
          )
        expect(tx.instructions.map((ix) => ix.programId)).toEqual([
          Transaction.SYSTEM_PROGRAM,
          "MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr",
          Transaction.SYSTEM_PROGRAM
        ])
        expect(
          tx.transfers.map((
            t
          ) => [t.instruction, Transaction.addressOf(t.from), Transaction.addressOf(t.to), t.lamports])
        )
          .toEqual([
            [0, payer.address, friend.address, 1_234_567_890_123n],
            [2, payer.address, TIP, 5000n]
          ])
        expect(Bundle.tipsOf(tx)).toEqual([{ transaction: 0, instruction: 2, account: TIP, lamports: 5000n }])
        expect(tx.unresolved).toEqual([])
        expect(tx.fullySigned).toBe(true)
        expect(Transaction.invalidSignatures(tx)).toEqual([])
        expect(Transaction.isFullySigned(tx, { verify: true })).toBe(true)
        expect(tx.bytes).toEqual(built.bytes)
      }
    }))

  it.effect("v0 with a lookup table: the loaded account is reported unresolved, the static tip is seen", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const friend = yield* Effect.promise(signer)
      const built = yield* Effect.promise(() =>
        build({
          version: 0,
          payer,
          instructions: [transfer(payer, friend.address, 42n), transfer(payer, TIP, 1000n)],
          lookupTables: { [LOOKUP_TABLE]: [friend.address] }
        })
      )
      for (const [text, encoding] of [[built.base64, "base64"], [built.base58, "base58"]] as const) {
        const tx = yield* Transaction.parse(text, encoding)
        expect(tx.version).toBe(0)
        expect(tx.signatures).toEqual(built.signatures)
        expect(tx.staticKeys).toEqual(built.compiled.staticAccounts)
        const lookups = (built.compiled as { addressTableLookups?: ReadonlyArray<any> }).addressTableLookups ?? []
        expect(tx.lookups).toEqual(lookups.map((l) => ({
          table: l.lookupTableAddress,
          writableIndexes: [...l.writableIndexes],
          readonlyIndexes: [...l.readonlyIndexes]
        })))
        expect(tx.lookups.length).toBe(1)
        const [first, second] = tx.transfers
        expect(first!.to).toMatchObject({ _tag: "Lookup", table: LOOKUP_TABLE, writable: true })
        expect(first!.lamports).toBe(42n)
        expect(tx.unresolved).toEqual([{ instruction: 0, position: 1, account: first!.to }])
        expect(first!.to).toMatchObject({ index: tx.staticKeys.length, tableIndex: 0 })
        expect(Transaction.addressOf(first!.from)).toBe(payer.address)
        expect(Transaction.addressOf(second!.to)).toBe(TIP)
        expect(Bundle.tipsOf(tx)).toEqual([{ transaction: 0, instruction: 1, account: TIP, lamports: 1000n }])
        expect(Transaction.invalidSignatures(tx)).toEqual([])
      }
    }))

  it.effect("v0 with the tip account in the table: the tip cannot be seen offline, its index is reported", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const built = yield* Effect.promise(() =>
        build({
          version: 0,
          payer,
          instructions: [transfer(payer, TIP, 10_000n)],
          lookupTables: { [LOOKUP_TABLE]: [TIP] }
        })
      )
      const tx = yield* Transaction.parse(built.base64, "base64")
      expect(tx.staticKeys).not.toContain(TIP)
      expect(tx.unresolved).toEqual([
        {
          instruction: 0,
          position: 1,
          account: { _tag: "Lookup", index: 2, table: LOOKUP_TABLE, tableIndex: 0, writable: true }
        }
      ])
      expect(tx.transfers.map((t) => t.lamports)).toEqual([10_000n])
      expect(Bundle.tipsOf(tx)).toEqual([])
    }))

  it.effect("partially signed and tampered transactions", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const other = yield* Effect.promise(signer)
      const partial = yield* Effect.promise(() =>
        build({ version: 0, payer, instructions: [transfer(other, TIP, 2000n)], signWith: [payer] })
      )
      const tx = yield* Transaction.parse(partial.base64, "base64")
      expect(tx.signatures.length).toBe(2)
      expect(tx.fullySigned).toBe(false)
      expect(Transaction.invalidSignatures(tx)).toEqual([1])

      const full = yield* Effect.promise(() =>
        build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 2000n)] })
      )
      const bytes = full.bytes.slice()
      bytes[bytes.length - 1] ^= 1 // the lamports change: the signature no longer matches
      const tampered = yield* Transaction.parse(b64(bytes), "base64")
      expect(tampered.fullySigned).toBe(true)
      expect(Transaction.isFullySigned(tampered, { verify: true })).toBe(false)
      expect(Transaction.invalidSignatures(tampered)).toEqual([0])
    }))

  it.effect("a kit-built v1 message (prefix 0x81) is refused, not misread", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const built = yield* Effect.promise(() =>
        build({ version: 1, payer, instructions: [transfer(payer, TIP, 2000n)] })
      )
      expect(built.bytes[0]).toBe(0x81)
      for (const [text, encoding] of [[built.base64, "base64"], [built.base58, "base58"]] as const) {
        const error = failure(Transaction.parseEither(text, encoding))
        expect(error).toMatchObject({ offset: 0, unit: "byte" })
        expect(error.reason).toContain("0x81")
      }
      // and a v0-shaped transaction whose version byte says 1
      const v0 = yield* Effect.promise(() => build({ version: 0, payer, instructions: [transfer(payer, TIP, 2000n)] }))
      const bytes = v0.bytes.slice()
      bytes[65] = 0x81
      const error = failure(Transaction.parseBytes(bytes))
      expect(error).toMatchObject({ offset: 65, unit: "byte" })
      expect(error.reason).toContain("0x81")
    }))
})

describe("malformed input", () => {
  it.effect("each failure names the reason and the byte or character", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const legacy = yield* Effect.promise(() =>
        build({ version: "legacy", payer, instructions: [transfer(payer, TIP, 2000n)] })
      )
      const v0 = yield* Effect.promise(() => build({ version: 0, payer, instructions: [transfer(payer, TIP, 2000n)] }))
      const n = legacy.bytes.length
      const withBytes = (f: (b: Uint8Array) => Uint8Array) => b64(f(legacy.bytes.slice()))
      const set = (b: Uint8Array, i: number, v: number) => (b[i] = v, b)
      const cases: Array<[string, string, Transaction.Encoding, number, "byte" | "character", string]> = [
        ["oversized", b64(new Uint8Array(1233)), "base64", 1232, "byte", "oversized: 1233 bytes"],
        ["oversized text", "A".repeat(1648), "base64", 1232, "byte", "oversized: 1236 bytes"],
        ["huge text", "A".repeat(20000), "base64", 13152, "character", "oversized: 20000 base64 characters"],
        ["oversized base58 text", "2".repeat(1700), "base58", 1232, "byte", "oversized"],
        ["huge base58 text", "2".repeat(4000), "base58", 3366, "character", "oversized: 4000 base58 characters"],
        ["trailing byte", b64(Uint8Array.from([...legacy.bytes, 0])), "base64", n, "byte", "1 trailing byte"],
        [
          "non-minimal signature count",
          b64(Uint8Array.from([0x80, 0x00, ...legacy.bytes.subarray(1)])),
          "base64",
          1,
          "byte",
          "non-minimal"
        ],
        [
          "non-minimal key count",
          b64(Uint8Array.from([...legacy.bytes.subarray(0, 68), 0x83, 0x00, ...legacy.bytes.subarray(69)])),
          "base64",
          69,
          "byte",
          "non-minimal compact-u16 (account key count)"
        ],
        ["leading 0x81", b64(Uint8Array.from([0x81, ...legacy.bytes.subarray(1)])), "base64", 0, "byte", "v1"],
        ["v1 prefix", b64(set(v0.bytes.slice(), 65, 0x81)), "base64", 65, "byte", "0x81"],
        ["unknown version", b64(set(v0.bytes.slice(), 65, 0x85)), "base64", 65, "byte", "version 5"],
        ["truncated", withBytes((b) => b.subarray(0, n - 3)), "base64", n - 12, "byte", "truncated"],
        ["truncated signature", withBytes((b) => b.subarray(0, 40)), "base64", 1, "byte", "signature 0"],
        ["empty", "", "base64", 0, "character", "empty"],
        [
          "base58 with 0",
          legacy.base58.slice(0, 10) + "0" + legacy.base58.slice(11),
          "base58",
          10,
          "character",
          "\"0\""
        ],
        [
          "base64 given as base58",
          legacy.base64,
          "base58",
          legacy.base64.search(/[^1-9A-HJ-NP-Za-km-z]/),
          "character",
          "base58"
        ],
        ["base64 bad char", "ab$c", "base64", 2, "character", "\"$\""],
        [
          "base64 missing padding",
          legacy.base64.replace(/=+$/, "") + (legacy.base64.endsWith("=") ? "" : "A"),
          "base64",
          -1,
          "character",
          "multiple of 4"
        ],
        [
          "program id out of range",
          withBytes((b) => set(b, n - 17, 9)),
          "base64",
          n - 17,
          "byte",
          "program id index 9"
        ],
        [
          "account index out of range",
          withBytes((b) => set(b, n - 14, 7)),
          "base64",
          n - 14,
          "byte",
          "account index 7"
        ],
        ["readonly fee payer", withBytes((b) => set(b, 66, 1)), "base64", 66, "byte", "fee payer"]
      ]
      for (const [name, text, encoding, offset, unit, reason] of cases) {
        const error = failure(Transaction.parseEither(text, encoding))
        const expectedOffset = offset === -1 ? text.length : offset
        expect({ name, offset: error.offset, unit: error.unit, ok: error.reason.includes(reason) }, error.message)
          .toEqual({ name, offset: expectedOffset, unit, ok: true })
      }
    }))

  it("random garbage never throws, only MalformedTransaction", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 1400 }), (bytes) => {
        const result = Transaction.parseBytes(bytes)
        return Either.isRight(result) || result.left._tag === "MalformedTransaction"
      }),
      { numRuns: 2000 }
    )
    fc.assert(
      fc.property(fc.string({ maxLength: 2000 }), fc.constantFrom("base64", "base58" as const), (text, encoding) => {
        // through the Effect API: a failure must be a typed failure, never a defect
        const exit = Effect.runSyncExit(Transaction.parse(text, encoding))
        return Exit.isSuccess(exit) ||
          Option.exists(Cause.failureOption(exit.cause), (e) => e._tag === "MalformedTransaction") &&
            !Cause.isDie(exit.cause)
      }),
      { numRuns: 2000 }
    )
  })

  it.effect("mutations of a real transaction never throw", () =>
    Effect.gen(function*() {
      const payer = yield* Effect.promise(signer)
      const friend = yield* Effect.promise(signer)
      const built = yield* Effect.promise(() =>
        build({
          version: 0,
          payer,
          instructions: [transfer(payer, friend.address, 1n), memo("m"), transfer(payer, TIP, 2000n)],
          lookupTables: { [LOOKUP_TABLE]: [friend.address] }
        })
      )
      const original = built.bytes
      let parsed = 0
      fc.assert(
        fc.property(
          fc.array(fc.tuple(fc.nat(original.length - 1), fc.integer({ min: 0, max: 255 })), {
            minLength: 1,
            maxLength: 4
          }),
          fc.nat(original.length),
          (edits, cut) => {
            const bytes = original.slice(0, Math.max(cut, 1))
            for (const [i, v] of edits) if (i < bytes.length) bytes[i] = v
            const result = Transaction.parseBytes(bytes)
            if (Either.isRight(result)) {
              parsed++
              // whatever parses must be internally consistent
              return result.right.instructions.every((ix) => ix.programIdIndex < result.right.staticKeys.length)
            }
            return result.left._tag === "MalformedTransaction" && result.left.offset >= 0 &&
              result.left.offset <= bytes.length
          }
        ),
        { numRuns: 3000 }
      )
      expect(parsed).toBeGreaterThan(0)
    }))
})
