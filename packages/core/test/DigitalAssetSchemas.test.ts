/**
 * Digital-asset, token-account and token-metadata schemas: request limits name the
 * field, the real variants decode, placeholders-only docs examples decode once
 * real values are swapped in, and token-metadata parts become Either values.
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as AssetProof from "@solfx/core/AssetProof"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as Decode from "@solfx/core/Decode"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as Json from "@solfx/core/Json"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as TokenMetadata from "@solfx/core/TokenMetadataRecord"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { readFileSync } from "node:fs"

const ROOT = RealFixtures.root
const present = RealFixtures.present()

const OWNER = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
const SIG = "2Ana1pUpv2ZbMVkwF5FXapYeBEjdxDatLn7nvJkhgTSXbs59SyZSx866bXirPgj8QQVB57uxHJBG1YFvkRbFj4T"

const decode = <A, I>(schema: Schema.Schema<A, I>, body: unknown) =>
  Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(body)

const invalid = <A, I>(schema: Schema.Schema<A, I>, input: unknown) =>
  Effect.runSync(Effect.flip(Decode.validateInput(schema)(input)))

describe("request params", () => {
  it("getTokenAccounts: owner or mint, limit ≤ 1000, page ≥ 1, one pagination style, known options", () => {
    expect(Either.isRight(
      Schema.decodeUnknownEither(TokenAccount.GetTokenAccountsParams)({
        owner: OWNER,
        page: 2,
        limit: 1000,
        options: { showZeroBalance: true }
      })
    )).toBe(true)
    expect(invalid(TokenAccount.GetTokenAccountsParams, { owner: OWNER, limit: 1001 })).toMatchObject({
      _tag: "InvalidRequest",
      field: "limit",
      value: "1001"
    })
    expect(invalid(TokenAccount.GetTokenAccountsParams, { owner: OWNER, page: 0 }).field).toBe("page")
    expect(invalid(TokenAccount.GetTokenAccountsParams, { limit: 10 }).field).toBe("owner")
    expect(invalid(TokenAccount.GetTokenAccountsParams, { owner: OWNER, page: 1, cursor: "abc" }).field).toBe("cursor")
    expect(invalid(TokenAccount.GetTokenAccountsParams, { owner: "not-an-address" }).field).toBe("owner")
    expect(invalid(TokenAccount.GetTokenAccountsParams, { owner: OWNER, options: { showFungible: true } }).field)
      .toBe("options.showFungible")
  })

  it("getAssetsByAuthority: the spec's sort values only", () => {
    const ok = (sortBy: string, sortDirection: string) =>
      Either.isRight(
        Schema.decodeUnknownEither(DigitalAsset.GetAssetsByAuthorityParams)({
          authorityAddress: OWNER,
          sortBy: { sortBy, sortDirection }
        })
      )
    for (const s of ["created", "recent_action", "updated", "none"]) {
      expect(ok(s, "asc") && ok(s, "desc")).toBe(true)
    }
    expect(ok("id", "asc")).toBe(false)
    expect(ok("created", "up")).toBe(false)
    expect(
      invalid(DigitalAsset.GetAssetsByAuthorityParams, {
        authorityAddress: OWNER,
        sortBy: { sortBy: "price" }
      }).field
    ).toBe("sortBy.sortBy")
    expect(invalid(DigitalAsset.GetAssetsByAuthorityParams, { authorityAddress: OWNER, before: "a", page: 3 }).field)
      .toBe("before")
  })

  it("token metadata: at most 100 valid mints per request", () => {
    const mints = Array.from({ length: 101 }, () => MINT)
    expect(invalid(TokenMetadata.TokenMetadataParams, { mintAccounts: mints }).field).toBe("mintAccounts")
    expect(invalid(TokenMetadata.TokenMetadataParams, { mintAccounts: [MINT, "x0"] }).field).toBe("mintAccounts[1]")
    expect(invalid(AssetProof.GetAssetProofBatchParams, { ids: [] }).field).toBe("ids")
  })
})

describe("responses", () => {
  it("token accounts: u64 amounts beyond 2^53 stay exact; reference fields decode", () => {
    const body = Json.parse(
      `{"total":1,"limit":1,"cursor":null,"errors":[],"token_accounts":[{"address":"${OWNER}","mint":"${MINT}",` +
        `"owner":"${OWNER}","amount":18446744073709551615,"delegated_amount":0,"frozen":true,` +
        `"delegate":null,"close_authority":"${OWNER}","extensions":null}]}`
    )
    const list = Either.getOrThrow(decode(TokenAccount.TokenAccountList, body))
    expect(list.token_accounts[0]!.amount).toBe(18446744073709551615n)
    expect(list.cursor).toBeNull()
  })

  it("asset signatures decode from [signature, kind] pairs", () => {
    const list = Either.getOrThrow(decode(AssetSignature.AssetSignatureList, {
      total: 1,
      limit: 10,
      items: [[SIG, "Transfer"]]
    }))
    expect(list.items[0]).toEqual({ signature: SIG, kind: "Transfer" })
    expect(Either.isLeft(decode(AssetSignature.AssetSignatureList, { total: 1, limit: 1, items: [[SIG]] }))).toBe(true)
  })

  it("asset proofs decode flat and nested proof arrays to the same flat array, and null entries", () => {
    const base = { root: OWNER, leaf: MINT, node_index: 5, tree_id: OWNER }
    const flat = decode(AssetProof.AssetProofBatch, { a: { ...base, proof: [MINT, OWNER] }, b: null })
    const nested = decode(AssetProof.AssetProofBatch, { a: { ...base, proof: [[MINT, OWNER]] } })
    expect(Either.getOrThrow(flat).a!.proof).toEqual([MINT, OWNER])
    expect(Either.getOrThrow(nested).a!.proof).toEqual([MINT, OWNER])
    expect(Either.getOrThrow(flat).b).toBeNull()
  })
})

describe("token metadata records", () => {
  const accountInfo = {
    key: MINT,
    isSigner: false,
    isWritable: false,
    lamports: 1461600,
    data: {
      parsed: { info: { decimals: 6, supply: "9007199254740993" }, type: "mint" },
      program: "spl-token",
      space: 82
    },
    owner: OWNER,
    executable: false,
    rentEpoch: 18446744073709551615n
  }
  const wire = (parts: Record<string, unknown>) =>
    Either.getOrThrow(decode(TokenMetadata.TokenMetadataWire, Json.parse(Json.stringify({ account: MINT, ...parts }))))

  it("an empty error string with data is a success; a filled one is a MetadataPartError naming mint and part", () => {
    const record = TokenMetadata.fromWire(
      wire({
        onChainAccountInfo: { accountInfo, error: "" },
        onChainMetadata: { metadata: null, error: "EMPTY_ACCOUNT" },
        offChainMetadata: { metadata: { name: "x" }, uri: "https://x.test/1.json", error: "" }
      }),
      { includeOffChain: true }
    )
    const info = Either.getOrThrow(record.onChainAccountInfo).accountInfo
    expect(info.rentEpoch).toBe(18446744073709551615n)
    expect(info.data?.parsed?.info?.supply).toBe(9007199254740993n)
    expect(Either.flip(record.onChainMetadata).pipe(Either.getOrThrow)).toMatchObject({
      _tag: "MetadataPartError",
      mint: MINT,
      part: "onChainMetadata",
      message: "EMPTY_ACCOUNT"
    })
    expect(record.offChainMetadata && Either.getOrThrow(record.offChainMetadata).uri).toBe("https://x.test/1.json")
  })

  it("offChainMetadata is left out unless requested; a part with neither data nor error is an error value", () => {
    const record = TokenMetadata.fromWire(
      wire({ onChainAccountInfo: { error: "" }, offChainMetadata: { metadata: { name: "x" }, uri: "", error: "" } }),
      { includeOffChain: false }
    )
    expect("offChainMetadata" in record).toBe(false)
    expect(Either.isLeft(record.onChainAccountInfo)).toBe(true)
    expect(Either.isLeft(record.onChainMetadata)).toBe(true)
  })
})

describe("docs examples with placeholders", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  const swap = (file: string, pairs: ReadonlyArray<readonly [string, string]>) => {
    let text = readFileSync(`${ROOT}/${file}`, "utf8")
    for (const [from, to] of pairs) text = text.split(from).join(to)
    return Json.parse(text)
  }

  it("getTokenAccounts decodes once its \"<string>\" placeholders are addresses", () => {
    const raw = Json.parse(readFileSync(`${ROOT}/getTokenAccounts/helius-docs-openapi-1.json`, "utf8"))
    expect(Either.isLeft(decode(TokenAccount.TokenAccountList, raw))).toBe(true)
    const fixed = swap("getTokenAccounts/helius-docs-openapi-1.json", [["\"<string>\"", `"${OWNER}"`]])
    const list = Either.getOrThrow(decode(TokenAccount.TokenAccountList, fixed))
    expect(list.token_accounts[0]!.amount).toBe(123n)
  })

  it("token-metadata decodes once its placeholders are real values, with every part a success", () => {
    const raw = Json.parse(readFileSync(`${ROOT}/token-metadata/helius-docs-openapi-1.json`, "utf8"))
    expect(Either.isLeft(decode(TokenMetadata.TokenMetadataResponse, raw))).toBe(true)
    const fixed = swap("token-metadata/helius-docs-openapi-1.json", [
      ["\"supply\": \"<string>\"", "\"supply\": \"1000\""],
      ["\"share\": \"<string>\"", "\"share\": \"100\""],
      ["\"<string>\"", `"${MINT}"`]
    ])
    const records = Either.getOrThrow(decode(TokenMetadata.TokenMetadataResponse, fixed))
    const record = TokenMetadata.fromWire(records[0]!, { includeOffChain: true })
    expect(Either.isRight(record.onChainAccountInfo)).toBe(true)
    expect(Either.getOrThrow(record.onChainMetadata).metadata.data.creators?.[0]?.share).toBe(100)
    expect(record.offChainMetadata && Either.isRight(record.offChainMetadata)).toBe(true)
  })
})
