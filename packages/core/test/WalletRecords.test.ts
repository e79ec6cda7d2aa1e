/**
 * Wallet API records and params: the variants the real service sends decode, identifiers stay
 * strict, limits are checked with the field named.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as Decode from "@solfx/core/Decode"
import * as Json from "@solfx/core/Json"
import * as WalletParams from "@solfx/core/WalletParams"
import * as WalletRecords from "@solfx/core/WalletRecords"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Exit from "effect/Exit"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"

const ROOT = RealFixtures.root
const present = RealFixtures.present()

const decode = <A, I>(schema: Schema.Schema<A, I>, body: unknown) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(body)

// A real 64-byte signature (base58 of bytes 1..64).
const REAL_SIGNATURE = "2Ana1pUpv2ZbMVkwF5FXapYeBEjdxDatLn7nvJkhgTSXbs59SyZSx866bXirPgj8QQVB57uxHJBG1YFvkRbFj4T"
const PLACEHOLDER = "5wHu1qwD7Jsj3xqWjdSEJmYr3Q5f5RjXqjqQJ7jqEj7jqEj7jqEj7jqEj7jqEj7jqE"

const WALLET = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"

describe("wallet fixtures with placeholder signatures", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  const cases = [
    ["wallet-funded-by/helius-docs-page-1.json", WalletRecords.FundedBy],
    ["wallet-history/helius-sdk-mock-1.json", WalletRecords.HistoryPage],
    ["wallet-transfers/helius-sdk-mock-1.json", WalletRecords.TransfersPage]
  ] as const
  for (const [file, schema] of cases) {
    it(`${file} decodes once its placeholder signature is a real one`, () => {
      const text = readFileSync(`${ROOT}/${file}`, "utf8")
      expect(Either.isLeft(decode(schema as Schema.Schema<unknown, any>, Json.parse(text)))).toBe(true)
      const fixed = decode(
        schema as Schema.Schema<unknown, any>,
        Json.parse(text.split(PLACEHOLDER).join(REAL_SIGNATURE))
      )
      expect(Either.isRight(fixed)).toBe(true)
    })
  }

  it("funded-by keeps amountRaw exact and the nullable labels", () => {
    const text = readFileSync(`${ROOT}/wallet-funded-by/helius-docs-page-1.json`, "utf8").split(PLACEHOLDER).join(
      REAL_SIGNATURE
    )
    const r = Schema.decodeUnknownSync(WalletRecords.FundedBy)(Json.parse(text))
    expect(r.amountRaw).toBe(50_000_000n)
    expect(r.funderName).toBe("Coinbase 2")
  })
})

describe("wallet records", () => {
  it("Balance: null and absent labels read as null; tokenProgram is checked", () => {
    const r = Schema.decodeUnknownSync(WalletRecords.Balance)({
      mint: WALLET,
      balance: 12.5,
      decimals: 6,
      tokenProgram: "token-2022",
      symbol: null,
      pricePerToken: null,
      usdValue: null
    })
    expect(r).toMatchObject({ symbol: null, name: null, pricePerToken: null, usdValue: null, logoUri: null })
    expect(Either.isLeft(decode(WalletRecords.Balance, { ...r, tokenProgram: "token-2023" }))).toBe(true)
  })

  it("Decimal fields read an integer beyond 2^53 (kept as digits by the lossless parser) as a number", () => {
    const body = Json.parse(
      `{"balances":[{"mint":"${WALLET}","balance":12345678901234567890,"decimals":0,"tokenProgram":"spl-token",` +
        `"usdValue":13206968483330258}],"totalUsdValue":13206968483330258,"pagination":{"page":1,"limit":1,"hasMore":false}}`
    )
    const r = Schema.decodeUnknownSync(WalletRecords.BalancesPage)(body)
    expect(r.balances[0]!.balance).toBe(12345678901234567890)
    expect(r.totalUsdValue).toBe(13206968483330258)
    expect(Either.isLeft(decode(WalletRecords.Decimal, "12.5"))).toBe(true)
  })

  it("BalancesPage: nfts absent reads as []", () => {
    const r = Schema.decodeUnknownSync(WalletRecords.BalancesPage)({
      balances: [],
      totalUsdValue: 0,
      pagination: { page: 2, limit: 100, hasMore: false }
    })
    expect(r.nfts).toEqual([])
  })

  it("Transfer: amountRaw beyond 2^53 is an exact bigint; unknown direction decodes; bad amountRaw fails", () => {
    const base = {
      signature: REAL_SIGNATURE,
      timestamp: 1704067200,
      direction: "out",
      counterparty: WALLET,
      mint: WalletRecords.NATIVE_MINT,
      symbol: "SOL",
      amount: 1.5,
      amountRaw: "18446744073709551615",
      decimals: 9
    }
    expect(Schema.decodeUnknownSync(WalletRecords.Transfer)(base).amountRaw).toBe(18446744073709551615n)
    expect(Schema.decodeUnknownSync(WalletRecords.Transfer)({ ...base, direction: "self" }).direction).toBe("self")
    expect(Either.isLeft(decode(WalletRecords.Transfer, { ...base, amountRaw: "1.5" }))).toBe(true)
    expect(Either.isLeft(decode(WalletRecords.Transfer, { ...base, amountRaw: 15 }))).toBe(true)
    expect(Schema.encodeSync(WalletRecords.Transfer)(Schema.decodeUnknownSync(WalletRecords.Transfer)(base)).amountRaw)
      .toBe("18446744073709551615")
  })

  it("HistoryPage: null timestamp, absent and null nextCursor", () => {
    const entry = {
      signature: REAL_SIGNATURE,
      timestamp: null,
      slot: 1,
      fee: 0.000005,
      feePayer: WALLET,
      error: null,
      balanceChanges: [{ mint: "SOL", amount: -0.5, decimals: 9 }]
    }
    const a = Schema.decodeUnknownSync(WalletRecords.HistoryPage)({ data: [entry], pagination: { hasMore: false } })
    expect(a.data[0]!.timestamp).toBeNull()
    expect(a.pagination.nextCursor).toBeUndefined()
    const b = Schema.decodeUnknownSync(WalletRecords.HistoryPage)({
      data: [],
      pagination: { hasMore: false, nextCursor: null }
    })
    expect(b.pagination.nextCursor).toBeUndefined()
  })

  it("Identity: domainNames absent reads as []; a bad address fails with its path", () => {
    const r = Schema.decodeUnknownSync(WalletRecords.Identity)({
      address: WALLET,
      type: "exchange",
      name: "X",
      category: "Centralized Exchange",
      tags: []
    })
    expect(r.domainNames).toEqual([])
    const bad = Effect.runSyncExit(Decode.decodeWith(WalletRecords.IdentityList, "batch", [{ ...r, address: "0OIl" }]))
    expect(bad).toEqual(Exit.fail(expect.objectContaining({ _tag: "DecodeError", path: "$[0].address" })))
  })
})

describe("wallet params", () => {
  const check = <A, I>(schema: Schema.Schema<A, I>, input: unknown, root?: string) =>
    Effect.runSyncExit(Decode.validateInput(schema, root)(input))

  it("limits 1..100 and page >= 1, naming the field", () => {
    for (const limit of [0, 101, 1.5, -1]) {
      const exit = check(WalletParams.BalancesRequest, { wallet: WALLET, limit })
      expect(exit).toEqual(
        Exit.fail(expect.objectContaining({ _tag: "InvalidRequest", field: "limit", rule: "an integer from 1 to 100" }))
      )
    }
    expect(Exit.isSuccess(check(WalletParams.BalancesRequest, { wallet: WALLET, limit: 100, page: 7 }))).toBe(true)
    expect(check(WalletParams.BalancesRequest, { wallet: WALLET, page: 0 })).toEqual(
      Exit.fail(expect.objectContaining({ field: "page" }))
    )
    expect(check(WalletParams.TransfersRequest, { wallet: WALLET, limit: 101 })).toEqual(
      Exit.fail(expect.objectContaining({ field: "limit" }))
    )
    expect(check(WalletParams.HistoryRequest, { wallet: WALLET, tokenAccounts: "some" })).toEqual(
      Exit.fail(expect.objectContaining({ field: "tokenAccounts" }))
    )
    expect(check(WalletParams.HistoryRequest, { wallet: WALLET, type: "swap" })).toEqual(
      Exit.fail(expect.objectContaining({ field: "type" }))
    )
  })

  it("wallet: the spec's regex and 32 bytes; domains only for identity", () => {
    // 44 characters that pass the regex but decode to 33 bytes.
    const tooLong = "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"
    for (const wallet of ["", "0OIl" + WALLET.slice(4), tooLong, "toly.sol"]) {
      expect(check(WalletParams.WalletRequest, { wallet })).toEqual(
        Exit.fail(expect.objectContaining({ _tag: "InvalidRequest", field: "wallet" }))
      )
    }
    expect(Exit.isSuccess(check(WalletParams.IdentityRequest, { wallet: "toly.sol" }))).toBe(true)
    expect(Exit.isSuccess(check(WalletParams.IdentityRequest, { wallet: WALLET }))).toBe(true)
    expect(check(WalletParams.BatchIdentityRequest, [WALLET, "bad wallet"], "wallets")).toEqual(
      Exit.fail(
        expect.objectContaining({ field: "wallets[1]", rule: expect.stringContaining("or a name-service domain") })
      )
    )
    expect(check(WalletParams.IdentityRequest, { wallet: "0OIl" })).toEqual(
      Exit.fail(expect.objectContaining({ field: "wallet", rule: expect.stringContaining("or a name-service domain") }))
    )
  })
})
