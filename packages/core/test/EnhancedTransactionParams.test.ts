/**
 * The enhanced transactions shapes: the OpenAPI example of both routes decodes once its
 * "<string>" placeholders are real values (the fixture test skips it as it is), with the
 * documented types: tokenTransfers[].tokenAmount a number, rawTokenAmount.tokenAmount a string.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as EnhancedTransactionParams from "@solfx/core/EnhancedTransactionParams"
import * as Json from "@solfx/core/Json"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const KEY = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"

/** Every "<string>" made a real value: an address, or a raw amount where one is meant. */
const swap = (u: unknown, key = ""): unknown => {
  if (u === "<string>") return key === "tokenAmount" ? "-1500000" : KEY
  if (Array.isArray(u)) return u.map((v) => swap(v))
  if (typeof u === "object" && u !== null) {
    return Object.fromEntries(Object.entries(u).map(([k, v]) => [k, swap(v, k)]))
  }
  return u
}

describe("enhanced transactions shapes", () => {
  beforeEach((ctx) => ctx.skip(!RealFixtures.present(), RealFixtures.absent))

  for (const folder of ["enhanced-transactions", "enhanced-address-transactions"]) {
    it(`${folder}: the OpenAPI example, its placeholders swapped`, () => {
      const body = Json.parse(readFileSync(join(RealFixtures.root, folder, "helius-docs-openapi-1.json"), "utf8"))
      const result = Schema.decodeUnknownEither(EnhancedTransactionParams.EnhancedTransactionList)(swap(body))
      if (Either.isLeft(result)) expect.fail(ParseResult.TreeFormatter.formatErrorSync(result.left))
      const [tx] = Either.getOrThrow(result)
      expect(tx!.tokenTransfers[0]!.tokenAmount).toBe(123)
      expect(tx!.accountData[0]!.tokenBalanceChanges[0]!.rawTokenAmount).toEqual({
        tokenAmount: -1500000n,
        decimals: 123
      })
      expect(tx!.transactionError).toEqual({ error: KEY })
      expect(tx!.type).toBe("ACCEPT_ESCROW_ARTIST")
    })
  }
})
