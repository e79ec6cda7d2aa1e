/**
 * Webhook delivery bodies: every real example in ../shared/fixtures/real/webhook-delivery/
 * decodes (skipping visibly when ../shared is absent), amounts stay exact, the
 * union is told apart by shape, and a malformed body fails at a precise path.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const ROOT = RealFixtures.path("webhook-delivery")
const present = RealFixtures.present("webhook-delivery")
const files = present ? readdirSync(ROOT).filter((f) => f.endsWith(".json")) : []
const read = (file: string): unknown => Json.parse(readFileSync(join(ROOT, file), "utf8"))

const decodeOk = (body: unknown) => {
  const result = WebhookDelivery.decode(body)
  if (Either.isLeft(result)) expect.fail(result.left.message)
  return (result as Either.Right<never, WebhookDelivery.Delivery>).right
}

const SIG = "5nNtjezQMYBHvgSQmoRmJPiXGsPAWmJPoGSa64xanqrauogiVzFyGQhKeFataHGXq51jR2hjbzNTkPUpP787HAmL"
const PAYER = "CKs1E69a2e9TmH4mKKLrXFF8kD3ZnwKjoEuXa6sz9WqX"

/** A small raw item built by hand, for the cases the fixtures do not cover. */
const rawItem = (over: Record<string, unknown> = {}) => ({
  slot: 10,
  blockTime: 1700000000,
  meta: { err: null, fee: 5000, preBalances: [100, 1], postBalances: [95, 1] },
  transaction: {
    message: {
      accountKeys: [PAYER, "11111111111111111111111111111111"],
      header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 1 },
      instructions: [{ programIdIndex: 1, accounts: [0], data: "3Bxs3zs3x6pg4XWo" }],
      recentBlockhash: "3NRncb7FJuDruQjMDxnHvJBQkvkHa7KSUBqBsxG21roZ"
    },
    signatures: [SIG]
  },
  ...over
})

describe("real webhook deliveries decode", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  it("the folder holds examples", () => {
    expect(files.length).toBeGreaterThan(0)
  })

  for (const file of files) {
    it(file, () => {
      const body = read(file)
      const items = decodeOk(body)
      expect(items.length).toBe((body as Array<unknown>).length)
      for (const item of items) {
        expect(WebhookDelivery.signatureOf(item)).toBe(SIG)
        expect(item.kind).toBe(file.includes("raw") ? "raw" : "enhanced")
      }
      // Encoding gives back a body that decodes to the same items.
      const again = decodeOk(Json.parse(Json.stringify(WebhookDelivery.encode(items))))
      expect(again).toEqual(items)
    })
  }

  it("enhanced: exact, signed amounts; UI token amounts as numbers", () => {
    const [item] = decodeOk(read("helius-docs-mdx-enhanced-1.json"))
    if (item?.kind !== "enhanced") return expect.fail("not enhanced")
    expect(item.type).toBe("NFT_SALE")
    expect(item.fee).toBe(10000n)
    expect(item.feePayer).toBe(PAYER)
    expect(item.nativeTransfers[0]!.amount).toBe(72936000000n)
    expect(item.accountData[0]!.nativeBalanceChange).toBe(-72938049280n)
    expect(item.accountData[6]!.tokenBalanceChanges[0]!.rawTokenAmount.tokenAmount).toBe(-1n)
    expect(item.tokenTransfers[0]!.tokenAmount).toBe(1)
    expect(Object.keys(item.events)).toEqual(["nft"])
  })

  it("raw: balances exact, token amounts as bigint, blockTime as Option", () => {
    const [item] = decodeOk(read("helius-docs-mdx-raw-1.json"))
    if (item?.kind !== "raw") return expect.fail("not raw")
    expect(item.meta.preBalances[0]).toBe(444918828360n)
    expect(item.meta.postTokenBalances[0]!.uiTokenAmount.amount).toBe(1n)
    expect(item.meta.innerInstructions.length).toBe(3)
    expect(item.transaction.message.accountKeys.length).toBe(19)
    expect(item.blockTime).toEqual(Option.some(1673445241))
    expect(item.indexWithinBlock).toBe(2557)
  })
})

describe("WebhookDelivery", () => {
  it("keeps u64 balances above 2^53 exact (lossless parse)", () => {
    const text = Json.stringify([
      rawItem({
        meta: { err: null, fee: 5000, preBalances: [18446744073709551615n, 1], postBalances: [9007199254740993n, 1] }
      })
    ])
    const [item] = decodeOk(Json.parse(text))
    if (item?.kind !== "raw") return expect.fail("not raw")
    expect(item.meta.preBalances[0]).toBe(18446744073709551615n)
    expect(item.meta.postBalances[0]).toBe(9007199254740993n)
  })

  it("tolerates unknown fields and absent optional parts", () => {
    const items = decodeOk([
      { ...rawItem(), futureField: { x: 1 } },
      { signature: SIG, slot: 1, timestamp: 2, type: "SOME_NEW_TYPE", fee: 5000, feePayer: PAYER, extra: true }
    ])
    expect(items.map((i) => i.kind)).toEqual(["raw", "enhanced"])
    const enhanced = items[1]!
    if (enhanced.kind !== "enhanced") return expect.fail("not enhanced")
    expect(enhanced.nativeTransfers).toEqual([])
    expect(enhanced.type).toBe("SOME_NEW_TYPE")
  })

  const bad: ReadonlyArray<readonly [string, unknown, string]> = [
    ["not an array", { signature: SIG }, "$"],
    ["an item that is not an object", [42], "$[0]"],
    ["raw: a fee that is not an integer", [
      rawItem({ meta: { err: null, fee: "x", preBalances: [], postBalances: [] } })
    ], "$[0].meta.fee"],
    [
      "raw: a short signature",
      [rawItem({ transaction: { ...rawItem().transaction, signatures: ["abc"] } })],
      "$[0].transaction.signatures[0]"
    ],
    [
      "raw: a negative balance",
      [rawItem({ meta: { err: null, fee: 1, preBalances: [-1], postBalances: [] } })],
      "$[0].meta.preBalances[0]"
    ],
    [
      "enhanced: no signature",
      [{ slot: 1, timestamp: 2, type: "TRANSFER", fee: 1, feePayer: PAYER }],
      "$[0].signature"
    ],
    ["enhanced: a bad transfer amount", [{
      signature: SIG,
      slot: 1,
      timestamp: 2,
      type: "TRANSFER",
      fee: 1,
      feePayer: PAYER,
      nativeTransfers: [{ fromUserAccount: PAYER, toUserAccount: PAYER, amount: 1.5 }]
    }], "$[0].nativeTransfers[0].amount"],
    ["enhanced: a lower-case type", [{
      signature: SIG,
      slot: 1,
      timestamp: 2,
      type: "transfer",
      fee: 1,
      feePayer: PAYER
    }], "$[0].type"]
  ]
  for (const [name, body, path] of bad) {
    it(`fails at the path: ${name}`, () => {
      const result = WebhookDelivery.decode(body)
      if (Either.isRight(result)) return expect.fail("decoded")
      expect(result.left.path).toBe(path)
      expect(result.left.expected.length).toBeGreaterThan(0)
    })
  }
})
