/**
 * The compression schemas: real-world variants (proof bytes as arrays or strings, both
 * spellings of compression_info, nulls), exact u64s, the request limits, and the docs
 * examples listed as exceptions in Fixtures.test.ts, decoded with real values swapped in.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as CompressedAccount from "@solfx/core/CompressedAccount"
import * as CompressionRequest from "@solfx/core/CompressionRequest"
import * as CompressionSignature from "@solfx/core/CompressionSignature"
import * as CompressionTransaction from "@solfx/core/CompressionTransaction"
import { validateInput } from "@solfx/core/Decode"
import * as Json from "@solfx/core/Json"
import { encodeBase58, encodeBase64 } from "@solfx/core/Primitives"
import * as ValidityProof from "@solfx/core/ValidityProof"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const ROOT = RealFixtures.root
const present = RealFixtures.present()
const read = (path: string): any => Json.parse(readFileSync(join(ROOT, path), "utf8"))

const decode = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(input)

const bytes = (n: number, seed: number) => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) % 256)
const SIG = encodeBase58(bytes(64, 7))
const HASH = encodeBase58(bytes(32, 3))
const TREE = "smt1NamzXdq4AMqS2fS2F1i5KTYPZRhoHgWx38d8WsT"

const proofValue = (a: unknown, b: unknown, c: unknown) => ({
  compressedProof: { a, b, c },
  roots: [HASH],
  rootIndices: [1],
  leafIndices: [2],
  leaves: [HASH],
  merkleTrees: [TREE]
})

describe("compression schemas", () => {
  it("proof parts decode from byte values and from base64, base58 or hex strings, to the same bytes", () => {
    const a = bytes(32, 1), b = bytes(64, 2), c = bytes(32, 3)
    const hex = (u: Uint8Array) => Array.from(u, (x) => x.toString(16).padStart(2, "0")).join("")
    const forms = [
      [Array.from(a), Array.from(b), Array.from(c)],
      [encodeBase64(a), encodeBase64(b), encodeBase64(c)],
      [encodeBase58(a), encodeBase58(b), encodeBase58(c)],
      [hex(a), "0x" + hex(b), hex(c)]
    ]
    for (const [wa, wb, wc] of forms) {
      const result = decode(ValidityProof.ValidityProof, proofValue(wa, wb, wc))
      expect(Either.isRight(result)).toBe(true)
      const proof = Either.getOrThrow(result).compressedProof
      expect(proof.a).toEqual(a)
      expect(proof.b).toEqual(b)
      expect(proof.c).toEqual(c)
    }
  })

  it("empty proof parts are accepted; wrong lengths and bad bytes are not", () => {
    expect(Either.isRight(decode(ValidityProof.ValidityProof, proofValue([], [], [])))).toBe(true)
    expect(Either.isRight(decode(ValidityProof.ValidityProof, proofValue("", "", "")))).toBe(true)
    expect(Either.isLeft(decode(ValidityProof.ValidityProof, proofValue(Array.from(bytes(31, 1)), [], [])))).toBe(true)
    expect(Either.isLeft(decode(ValidityProof.ValidityProof, proofValue([], Array.from(bytes(32, 1)), [])))).toBe(true)
    expect(Either.isLeft(decode(ValidityProof.ValidityProof, proofValue([256], [], [])))).toBe(true)
    expect(Either.isLeft(decode(ValidityProof.ValidityProof, proofValue("<string>", "", "")))).toBe(true)
  })

  it("the five arrays of a proof must have one entry per input", () => {
    const value = { ...proofValue([], [], []), leafIndices: [1, 2] }
    const result = decode(ValidityProof.ValidityProof, value)
    expect(Either.isLeft(result)).toBe(true)
  })

  it("getTransactionWithCompressionInfo decodes compressionInfo and compression_info alike", () => {
    const info = { closedAccounts: [], openedAccounts: [] }
    const camel = decode(CompressionTransaction.TransactionWithCompressionInfo, {
      compressionInfo: info,
      transaction: {}
    })
    const snake = decode(CompressionTransaction.TransactionWithCompressionInfo, {
      compression_info: info,
      transaction: {}
    })
    expect(Either.getOrThrow(camel)).toEqual(Either.getOrThrow(snake))
    expect(Either.getOrThrow(snake).compressionInfo).toEqual(info)
    expect(Either.isLeft(decode(CompressionTransaction.TransactionWithCompressionInfo, { transaction: {} }))).toBe(true)
  })

  it("u64 fields are exact above 2^53 and refuse values beyond 2^64", () => {
    const ok = decode(
      CompressedAccount.TokenHoldersResult,
      Json.parse(
        `{"context":{"slot":1},"value":{"items":[{"owner":"${TREE}","balance":9007199254740993}],"cursor":"abc"}}`
      )
    )
    expect(Either.getOrThrow(ok).value.items[0]!.balance).toBe(9007199254740993n)
    const tooBig = decode(
      CompressedAccount.TokenHoldersResult,
      Json.parse(
        `{"context":{"slot":1},"value":{"items":[{"owner":"${TREE}","balance":18446744073709551616}],"cursor":null}}`
      )
    )
    expect(Either.isLeft(tooBig)).toBe(true)
  })

  it("token accounts keep nulls and exact amounts", () => {
    const text = `{"context":{"slot":5},"value":{"cursor":null,"items":[` +
      `{"account":{"hash":"${HASH}","address":null,"data":null,"owner":"${TREE}",` +
      `"lamports":18446744073709551615,"tree":"${TREE}","leafIndex":1,"seq":null,"slotCreated":2},` +
      `"tokenData":{"mint":"${TREE}","owner":"${TREE}","amount":9007199254740993,` +
      `"delegate":null,"state":"frozen","tlv":null}}]}}`
    const item = Either.getOrThrow(decode(CompressedAccount.TokenAccountsResult, Json.parse(text))).value.items[0]!
    expect(item.account.lamports).toBe(18446744073709551615n)
    expect(item.tokenData.amount).toBe(9007199254740993n)
    expect(item.account.seq).toBeNull()
    expect(item.account.data).toBeNull()
    expect(item.tokenData.delegate).toBeNull()
    expect(item.tokenData.state).toBe("frozen")
  })

  it("non-voting signatures carry error as a string or null", () => {
    const page = Either.getOrThrow(decode(CompressionSignature.NonVotingSignaturesResult, {
      context: { slot: 9 },
      value: {
        items: [
          { signature: SIG, slot: 9, blockTime: 1, error: null },
          { signature: SIG, slot: 9, blockTime: 1, error: "InstructionError" }
        ]
      }
    }))
    expect(page.value.items.map((i) => i.error)).toEqual([null, "InstructionError"])
  })
})

describe("compression request params", () => {
  const run = <A>(effect: Effect.Effect<A, any>) => Effect.runSync(Effect.either(effect))

  it("limit is an integer from 1 to 1000", () => {
    const check = validateInput(CompressionRequest.MintTokenHoldersParams)
    for (const limit of [0, 1001, 1.5, -1]) {
      const result = run(check({ mint: TREE, limit }))
      expect(Either.isLeft(result) && result.left.field).toBe("limit")
    }
    expect(Either.isRight(run(check({ mint: TREE, limit: 1000 })))).toBe(true)
  })

  it("cursor is base58; addresses are 32 bytes; unknown keys are refused", () => {
    const check = validateInput(CompressionRequest.TokenAccountsByOwnerParams)
    const bad = run(check({ owner: TREE, cursor: "not-base58!" }))
    expect(Either.isLeft(bad) && bad.left.field).toBe("cursor")
    const mint = run(check({ owner: TREE, mint: "abc" }))
    expect(Either.isLeft(mint) && mint.left.field).toBe("mint")
    const extra = run(check({ owner: TREE, page: 2 }))
    expect(Either.isLeft(extra) && extra.left.field).toBe("page")
  })

  it("a validity proof request needs at least one input and at most 8 of each kind", () => {
    const check = validateInput(CompressionRequest.ValidityProofParams)
    const empty = run(check({}))
    expect(Either.isLeft(empty) && empty.left.field).toBe("hashes")
    const many = run(check({ hashes: Array.from({ length: 9 }, () => HASH) }))
    expect(Either.isLeft(many) && many.left.field).toBe("hashes")
    const tree = run(check({ newAddressesWithTrees: [{ address: HASH, tree: "x" }] }))
    expect(Either.isLeft(tree) && tree.left.field).toBe("newAddressesWithTrees[0].tree")
    expect(Either.isRight(run(check({ hashes: [HASH], newAddressesWithTrees: [{ address: HASH, tree: TREE }] }))))
      .toBe(true)
  })
})

describe("docs examples with their placeholders replaced", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  const signatureFiles = [
    ["getCompressionSignaturesForAddress/helius-docs-openapi-1.json", CompressionSignature.SignaturesResult],
    ["getCompressionSignaturesForTokenOwner/helius-docs-openapi-1.json", CompressionSignature.SignaturesResult],
    ["getLatestNonVotingSignatures/helius-docs-openapi-1.json", CompressionSignature.NonVotingSignaturesResult]
  ] as const

  for (const [file, schema] of signatureFiles) {
    it(file, () => {
      const body = read(file)
      // As published, the placeholder signature is refused: it is 32 bytes.
      expect(Either.isLeft(decode(schema as Schema.Schema<any, any>, body))).toBe(true)
      for (const item of body.value.items) item.signature = SIG
      const value = Either.getOrThrow(decode(schema as Schema.Schema<any, any>, body)).value
      expect(value.items[0].signature).toBe(SIG)
    })
  }

  it("getValidityProof/helius-docs-openapi-1.json", () => {
    const body = read("getValidityProof/helius-docs-openapi-1.json")
    expect(Either.isLeft(decode(ValidityProof.ValidityProofResult, body))).toBe(true)
    const v = body.value
    v.compressedProof = { a: encodeBase64(bytes(32, 1)), b: encodeBase64(bytes(64, 2)), c: encodeBase64(bytes(32, 3)) }
    v.roots = [HASH]
    v.leaves = [HASH]
    v.merkleTrees = [TREE]
    const proof = Either.getOrThrow(decode(ValidityProof.ValidityProofResult, body)).value
    expect(proof.compressedProof.b).toEqual(bytes(64, 2))
    expect(proof.leafIndices).toEqual([123])
  })
})
