/**
 * The getTransactionsForAddress shapes: the docs' and the SDK's examples decode once their
 * placeholders are real values (the fixture test skips them as they are), and the params refuse
 * what the service refuses.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as AddressTransactions from "@solfx/core/AddressTransactions"
import * as Json from "@solfx/core/Json"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const SIGNATURE = "5h6xBEauJ3PK6SWCZ1PGjBvj8vDdWG3KpwATGy1ARAXFSDwt8GFXM7W5Ncn16wmqokgpiKRLuS83KUxyZyv2sUYv"
const KEY = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
const read = (file: string) =>
  Json.parse(readFileSync(join(RealFixtures.root, "getTransactionsForAddress", file), "utf8")) as any
const decode = Schema.decodeUnknownEither(AddressTransactions.TransactionsPage)

describe("getTransactionsForAddress shapes", () => {
  beforeEach((ctx) => ctx.skip(!RealFixtures.present(), RealFixtures.absent))

  it("the docs' signatures page, its placeholder signature made base58", () => {
    const body = read("helius-docs-openapi-1.json")
    body.result.data[1].signature = SIGNATURE
    const page = Either.getOrThrow(decode(body.result))
    expect(page.paginationToken).toBe("1055:5")
    expect(page.data.map((t) => (t as AddressTransactions.SignatureItem).slot)).toEqual([1054n, 1055n])
  })

  it("the docs' full page, with real keys and a header", () => {
    const body = read("helius-docs-openapi-2.json")
    body.result.data[0].transaction.message = {
      accountKeys: [KEY, KEY],
      header: { numRequiredSignatures: 1, numReadonlySignedAccounts: 0, numReadonlyUnsignedAccounts: 0 },
      instructions: [],
      recentBlockhash: KEY
    }
    const page = Either.getOrThrow(decode(body.result))
    expect(page.data[0]).toMatchObject({ slot: 1054n, transactionIndex: 42, meta: { fee: 5000n } })
  })

  it("the SDK's mock page, with 64-byte signatures", () => {
    const body = read("helius-sdk-mock-1.json")
    for (const item of body.result.data) item.signature = SIGNATURE
    const page = Either.getOrThrow(decode(body.result))
    expect(page.data.map((t) => (t as AddressTransactions.SignatureItem).memo)).toEqual([null, "test memo"])
  })

  it("limits by detail, and commitment processed, are refused", () => {
    const params = Schema.decodeUnknownEither(AddressTransactions.GetTransactionsForAddressParams)
    expect(Either.isRight(params({ address: KEY, limit: 1000 }))).toBe(true)
    expect(Either.isLeft(params({ address: KEY, limit: 1000, transactionDetails: "full" }))).toBe(true)
    expect(Either.isRight(params({ address: KEY, limit: 100, transactionDetails: "full" }))).toBe(true)
    expect(Either.isLeft(params({ address: KEY, commitment: "processed" }))).toBe(true)
    expect(AddressTransactions.maxLimitOf({ transactionDetails: "full" })).toBe(100)
    expect(AddressTransactions.maxLimitOf({})).toBe(1000)
  })
})
