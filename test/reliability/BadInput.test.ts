/**
 * Bad input never reaches the network. Each row of the table calls a public
 * method of some area with one bad input; it must fail with a typed error that
 * names the field and the rule (`InvalidRequest`, or `MalformedTransaction` from
 * the wire reader), and the request log must stay empty.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Admin from "@solfx/admin/Admin"
import * as Transaction from "@solfx/core/Transaction"
import * as HttpTesting from "@solfx/http/HttpTesting"
import * as Bundles from "@solfx/rpc/Bundles"
import * as Compression from "@solfx/rpc/Compression"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Kit from "@solfx/testing/Kit"
import * as Wallet from "@solfx/wallet/Wallet"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { anything, overHandler, type Services } from "./support/Sdk.js"

// Valid values, so that each row breaks exactly one thing.
const WALLET = "HXsKP7wrBWaQ8T2Vtjry3Nj3oUgwYcqq9vrHDM12G664"
const MINT = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v"
const HASH = "11111111111111111111111111111111"
const PROJECT = "123e4567-e89b-12d3-a456-426614174000"
/** Matches the spec's wallet regex (44 characters) but decodes to 33 bytes. */
const BYTES_33 = "z".repeat(44)

const fixtures = (async () => {
  const payer = await Kit.signer()
  const [a, b, untipped, smallTip] = await Promise.all([
    Kit.buildMemoTip(payer, "a", 10_000n),
    Kit.buildMemoTip(payer, "b", 10_000n),
    Kit.buildMemoTip(payer, "no tip", 0n),
    Kit.buildMemoTip(payer, "small tip", 999n)
  ])
  const bytes = Buffer.from(a.base64, "base64")
  const unsigned = Buffer.from(bytes)
  unsigned.fill(0, 1, 65)
  const forged = Buffer.from(bytes)
  forged[10] = forged[10]! ^ 1
  return {
    a,
    b,
    untipped,
    smallTip,
    unsigned: unsigned.toString("base64"),
    forged: forged.toString("base64"),
    truncated: bytes.subarray(0, bytes.length - 7).toString("base64"),
    trailing: Buffer.concat([bytes, Buffer.from([0])]).toString("base64"),
    oversized: Buffer.concat([bytes, Buffer.alloc(1300)]).toString("base64"),
    length: bytes.length,
    // The account-key count (byte 68, after the signature and the 3-byte header) as a non-minimal compact-u16:
    // the reader stops at its needless second byte, 69.
    nonMinimal: Buffer.concat([bytes.subarray(0, 68), Buffer.from([bytes[68]! | 0x80, 0x00]), bytes.subarray(69)])
      .toString("base64")
  }
})()
const kit = Effect.promise(() => fixtures)

const wallet = <A, E>(f: (w: Wallet.WalletShape) => Effect.Effect<A, E>) => Effect.flatMap(Wallet.Wallet, f)
const das = <A, E>(f: (d: DigitalAssets.DigitalAssetsShape) => Effect.Effect<A, E>) =>
  Effect.flatMap(DigitalAssets.DigitalAssets, f)
const dasStream = <A, E>(f: (d: DigitalAssets.DigitalAssetsShape) => Stream.Stream<A, E>) =>
  das((d) => Stream.runDrain(f(d)))
const zk = <A, E>(f: (c: Compression.CompressionShape) => Effect.Effect<A, E>) =>
  Effect.flatMap(Compression.Compression, f)
const metadata = <A, E>(f: (m: TokenMetadata.TokenMetadataShape) => Effect.Effect<A, E>) =>
  Effect.flatMap(TokenMetadata.TokenMetadata, f)
const bundles = <A, E>(f: (b: Bundles.BundlesShape, k: Awaited<typeof fixtures>) => Effect.Effect<A, E>) =>
  Effect.flatMap(Bundles.Bundles, (b) => Effect.flatMap(kit, (k) => f(b, k)))
const admin = (projectId: string) => Effect.flatMap(Admin.Admin, (a) => a.getProjectUsage(projectId))
const wire = (f: (k: Awaited<typeof fixtures>) => Effect.Effect<unknown, unknown>) => Effect.flatMap(kit, f)

interface Row {
  readonly area: string
  readonly input: string
  readonly run: Effect.Effect<unknown, unknown, Services>
  /** Default `InvalidRequest`. */
  readonly tag?: "InvalidRequest" | "MalformedTransaction"
  /** The field (InvalidRequest), or where reading stopped (MalformedTransaction: "byte 69"). */
  readonly field: string | ((k: Awaited<typeof fixtures>) => string)
  readonly rule: RegExp
}

const WALLET_RULE = /\^\[1-9A-HJ-NP-Za-km-z\]\{32,44\}\$/
const LIMIT_100 = /an integer from 1 to 100$/
const LIMIT_1000 = /an integer from 1 to 1000/

const rows: ReadonlyArray<Row> = [
  // -- wallet strings: the spec's regex, then 32 bytes once decoded
  {
    area: "wallet",
    input: "identity of an empty string",
    run: wallet((w) => w.identity("")),
    field: "wallet",
    rule: /wallet address .*or a name-service domain/
  },
  {
    area: "wallet",
    input: "identity with 0/O/I/l characters",
    run: wallet((w) => w.identity("0OIl" + WALLET.slice(4))),
    field: "wallet",
    rule: /name-service domain/
  },
  {
    area: "wallet",
    input: "identity of 44 chars decoding to 33 bytes",
    run: wallet((w) => w.identity(BYTES_33)),
    field: "wallet",
    rule: /32 bytes/
  },
  {
    area: "wallet",
    input: "balances of an empty wallet",
    run: wallet((w) => w.balances("")),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "balances of 31 characters",
    run: wallet((w) => w.balances(WALLET.slice(0, 31))),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "balances of 44 chars decoding to 33 bytes",
    run: wallet((w) => w.balances(BYTES_33)),
    field: "wallet",
    rule: /decodes to exactly 32 bytes/
  },
  {
    area: "wallet",
    input: "history of a wallet with a path separator",
    run: wallet((w) => w.history(`${WALLET.slice(0, 20)}/${WALLET.slice(21)}`)),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "transfers of a wallet with a space",
    run: wallet((w) => w.transfers(` ${WALLET}`)),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "funded-by of 45 characters",
    run: wallet((w) => w.fundedBy(WALLET + "1")),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "funded-by of a domain (address only)",
    run: wallet((w) => w.fundedBy("toly.sol")),
    field: "wallet",
    rule: WALLET_RULE
  },
  {
    area: "wallet",
    input: "batch identity with one bad entry",
    run: wallet((w) => w.batchIdentity([WALLET, "toly.sol", "not an address"])),
    field: "wallets[2]",
    rule: /name-service domain/
  },
  {
    area: "wallet",
    input: "batch identity with a 33-byte entry",
    run: wallet((w) => w.batchIdentity([WALLET, BYTES_33])),
    field: "wallets[1]",
    rule: /32 bytes|name-service domain/
  },
  {
    area: "wallet",
    input: "balances stream of a bad wallet",
    run: wallet((w) => Stream.runDrain(w.balancesStream("nope"))),
    field: "wallet",
    rule: WALLET_RULE
  },
  // -- limits out of range
  {
    area: "wallet",
    input: "balances limit 0",
    run: wallet((w) => w.balances(WALLET, { limit: 0 })),
    field: "limit",
    rule: LIMIT_100
  },
  {
    area: "wallet",
    input: "balances limit 101",
    run: wallet((w) => w.balances(WALLET, { limit: 101 })),
    field: "limit",
    rule: LIMIT_100
  },
  {
    area: "wallet",
    input: "balances page 0",
    run: wallet((w) => w.balances(WALLET, { page: 0 })),
    field: "page",
    rule: /at least 1/
  },
  {
    area: "wallet",
    input: "history limit 1.5",
    run: wallet((w) => w.history(WALLET, { limit: 1.5 })),
    field: "limit",
    rule: LIMIT_100
  },
  {
    area: "wallet",
    input: "transfers limit 1000",
    run: wallet((w) => w.transfers(WALLET, { limit: 1000 })),
    field: "limit",
    rule: LIMIT_100
  },
  {
    area: "wallet",
    input: "batch identity concurrency 0",
    run: wallet((w) => w.batchIdentity([WALLET], { concurrency: 0 })),
    field: "concurrency",
    rule: /an integer from 1 to 64/
  },
  {
    area: "das",
    input: "assets by authority limit 1001",
    run: das((d) => d.getAssetsByAuthority({ authorityAddress: WALLET, limit: 1001 })),
    field: "limit",
    rule: LIMIT_1000
  },
  {
    area: "das",
    input: "token accounts limit 0",
    run: das((d) => d.getTokenAccounts({ owner: WALLET, limit: 0 })),
    field: "limit",
    rule: LIMIT_1000
  },
  {
    area: "das",
    input: "asset signatures page 0",
    run: das((d) => d.getSignaturesForAsset({ id: MINT, page: 0 })),
    field: "page",
    rule: /at least 1/
  },
  {
    area: "das",
    input: "stream concurrency 65",
    run: dasStream((d) => d.getAssetsByAuthorityStream({ authorityAddress: WALLET }, { concurrency: 65 })),
    field: "options.concurrency",
    rule: /1 to 64/
  },
  {
    area: "das",
    input: "proof batch size 1001",
    run: das((d) => d.getAssetProofBatch([MINT], { batchSize: 1001 })),
    field: "options.batchSize",
    rule: LIMIT_1000
  },
  {
    area: "zk",
    input: "mint holders limit 1001",
    run: zk((c) => c.getCompressedMintTokenHolders({ mint: MINT, limit: 1001 })),
    field: "limit",
    rule: LIMIT_1000
  },
  {
    area: "zk",
    input: "latest non-voting limit -1",
    run: zk((c) => c.getLatestNonVotingSignatures({ limit: -1 })),
    field: "limit",
    rule: LIMIT_1000
  },
  {
    area: "metadata",
    input: "token metadata batch size 101",
    run: metadata((m) => m.getTokenMetadata({ mintAccounts: [MINT] }, { batchSize: 101 })),
    field: "options.batchSize",
    rule: /an integer from 1 to 100$/
  },
  // -- a project id that is not a UUID
  { area: "admin", input: "project id not a UUID", run: admin("my-project"), field: "projectId", rule: /UUID/ },
  { area: "admin", input: "empty project id", run: admin(""), field: "projectId", rule: /UUID/ },
  {
    area: "admin",
    input: "UUID with a trailing character",
    run: admin(PROJECT + "0"),
    field: "projectId",
    rule: /UUID/
  },
  {
    area: "admin",
    input: "UUID with a path segment",
    run: admin(`${PROJECT}/../other`),
    field: "projectId",
    rule: /UUID/
  },
  // -- bad cursors
  {
    area: "wallet",
    input: "history before an empty cursor",
    run: wallet((w) => w.history(WALLET, { before: "" })),
    field: "before",
    rule: /non-empty cursor/
  },
  {
    area: "wallet",
    input: "transfers cursor with a space",
    run: wallet((w) => w.transfers(WALLET, { cursor: "abc def" })),
    field: "cursor",
    rule: /without spaces/
  },
  {
    area: "wallet",
    input: "history cursor of 513 characters",
    run: wallet((w) => w.history(WALLET, { after: "a".repeat(513) })),
    field: "after",
    rule: /at most 512/
  },
  {
    area: "zk",
    input: "holders cursor that is not base58",
    run: zk((c) => c.getCompressedMintTokenHolders({ mint: MINT, cursor: "not-base58!" })),
    field: "cursor",
    rule: /base58 cursor/
  },
  {
    area: "zk",
    input: "signatures stream from an empty cursor",
    run: zk((c) => Stream.runDrain(c.getCompressionSignaturesForAddressStream({ address: WALLET, cursor: "" }))),
    field: "cursor",
    rule: /base58 cursor/
  },
  {
    area: "das",
    input: "assets by authority with an empty cursor",
    run: das((d) => d.getAssetsByAuthority({ authorityAddress: WALLET, cursor: "" })),
    field: "cursor",
    rule: /non-empty cursor/
  },
  {
    area: "das",
    input: "page and cursor together",
    run: das((d) => d.getAssetsByAuthority({ authorityAddress: WALLET, page: 2, cursor: "abc" })),
    field: "cursor",
    rule: /one pagination style/
  },
  {
    area: "das",
    input: "a paging field given to a stream",
    run: dasStream((d) => d.getTokenAccountsStream({ owner: WALLET, page: 3 } as never)),
    field: "page",
    rule: /set by the stream/
  },
  {
    area: "das",
    input: "a cursor position in page mode",
    run: dasStream((d) =>
      d.getAssetsByAuthorityStream({ authorityAddress: WALLET }, { mode: "page", start: { cursor: "abc" } })
    ),
    field: "options.start",
    rule: /cursor position needs cursor mode/
  },
  // -- too many, where the API enforces a limit (mints, ids and identities are chunked: no limit)
  {
    area: "bundles",
    input: "a bundle of 6 transactions",
    run: bundles((b, k) => b.sendBundle(Array(6).fill(k.a.base64))),
    field: "transactions",
    rule: /1 to 5 transactions, got 6/
  },
  {
    area: "bundles",
    input: "an empty bundle",
    run: bundles((b) => b.sendBundle([])),
    field: "transactions",
    rule: /got none/
  },
  {
    area: "zk",
    input: "a validity proof of 9 hashes",
    run: zk((c) => c.getValidityProof({ hashes: Array(9).fill(HASH) })),
    field: "hashes",
    rule: /at most 8 hashes/
  },
  {
    area: "zk",
    input: "a validity proof of 9 new addresses",
    run: zk((c) => c.getValidityProof({ newAddressesWithTrees: Array(9).fill({ address: WALLET, tree: MINT }) })),
    field: "newAddressesWithTrees",
    rule: /at most 8 new addresses/
  },
  {
    area: "zk",
    input: "a validity proof of nothing",
    run: zk((c) => c.getValidityProof({})),
    field: "hashes",
    rule: /at least one hash or new address/
  },
  // -- malformed transactions
  {
    area: "bundles",
    input: "a transaction that is not base64",
    run: bundles((b) => b.sendBundle(["not base64 at all!"])),
    field: "transactions[0]",
    rule: /declared encoding: Malformed transaction at character/
  },
  {
    area: "bundles",
    input: "a truncated transaction",
    run: bundles((b, k) => b.sendBundle([k.a.base64, k.truncated])),
    field: "transactions[1]",
    rule: /Malformed transaction at byte \d+/
  },
  {
    area: "bundles",
    input: "a transaction with a trailing byte",
    run: bundles((b, k) => b.sendBundle([k.trailing])),
    field: "transactions[0]",
    rule: /Malformed transaction at byte \d+: .*trailing/
  },
  {
    area: "bundles",
    input: "a base64 transaction declared base58",
    run: bundles((b, k) => b.sendBundle([k.a.base64], { encoding: "base58" })),
    field: "transactions[0]",
    rule: /Malformed transaction/
  },
  {
    area: "bundles",
    input: "an unsigned transaction",
    run: bundles((b, k) => b.sendBundle([k.unsigned])),
    field: "transactions[0]",
    rule: /fully signed; missing signature\(s\) 0/
  },
  {
    area: "bundles",
    input: "a forged signature",
    run: bundles((b, k) => b.sendBundle([k.forged])),
    field: "transactions[0]",
    rule: /not a valid Ed25519 signature/
  },
  {
    area: "wire",
    input: "Transaction.parse: over 1232 bytes",
    tag: "MalformedTransaction",
    run: wire((k) => Transaction.parse(k.oversized, "base64")),
    field: "byte 1232",
    rule: /1232/
  },
  {
    area: "wire",
    input: "Transaction.parse: trailing bytes",
    tag: "MalformedTransaction",
    run: wire((k) => Transaction.parse(k.trailing, "base64")),
    field: (k) => `byte ${k.length}`,
    rule: /trailing/
  },
  {
    area: "wire",
    input: "Transaction.parse: non-minimal compact-u16",
    tag: "MalformedTransaction",
    run: wire((k) => Transaction.parse(k.nonMinimal, "base64")),
    field: "byte 69",
    rule: /non-minimal compact-u16/
  },
  {
    area: "wire",
    input: "Transaction.parse: empty input",
    tag: "MalformedTransaction",
    run: Transaction.parse("", "base64"),
    field: "character 0",
    rule: /empty/
  },
  // -- an untipped bundle
  {
    area: "bundles",
    input: "an untipped bundle",
    run: bundles((b, k) => b.sendBundle([k.untipped.base64])),
    field: "transactions",
    rule: /tip account .*no tip found/
  },
  {
    area: "bundles",
    input: "a tip below the minimum",
    run: bundles((b, k) => b.sendBundle([k.untipped.base64, k.smallTip.base64])),
    field: "transactions",
    rule: /largest tip found is 999 lamports in transactions\[1\]/
  },
  // -- duplicate transactions
  {
    area: "bundles",
    input: "the same transaction twice",
    run: bundles((b, k) => b.sendBundle([k.a.base64, k.b.base64, k.a.base64])),
    field: "transactions[2]",
    rule: /no signature may appear twice.*transactions\[0\]/
  },
  {
    area: "bundles",
    input: "the same transaction in both encodings' bundle twice",
    run: bundles((b, k) => b.sendBundle([k.a.base58, k.a.base58], { encoding: "base58" })),
    field: "transactions[1]",
    rule: /appear twice/
  },
  // -- other typed fields
  {
    area: "bundles",
    input: "an unknown relay region",
    run: bundles((b, k) => b.sendBundle([k.a.base64], { region: "mars" as never })),
    field: "region",
    rule: /"ams"/
  },
  {
    area: "bundles",
    input: "a bundle id that is not hex",
    run: bundles((b) => b.getBundleStatuses(["f".repeat(63) + "g"])),
    field: "ids[0]",
    rule: /64 lowercase hex/
  },
  {
    area: "bundles",
    input: "await a bundle with a negative interval",
    run: bundles((b) => b.awaitBundle("f".repeat(64), { interval: -5 })),
    field: "interval",
    rule: /positive duration/
  },
  {
    area: "das",
    input: "token accounts with neither owner nor mint",
    run: das((d) => d.getTokenAccounts({})),
    field: "owner",
    rule: /owner or mint is required/
  },
  {
    area: "das",
    input: "a proof batch with a 33-byte id",
    run: das((d) => d.getAssetProofBatch([MINT, BYTES_33])),
    field: "ids[1]",
    rule: /32 bytes/
  },
  {
    area: "das",
    input: "an unknown sort order",
    run: das((d) => d.getAssetsByAuthority({ authorityAddress: WALLET, sortBy: { sortBy: "price" as never } })),
    field: "sortBy.sortBy",
    rule: /"created"/
  },
  {
    area: "zk",
    input: "a transaction lookup by a 32-byte value",
    run: zk((c) => c.getTransactionWithCompressionInfo({ signature: WALLET })),
    field: "signature",
    rule: /64 bytes/
  },
  {
    area: "zk",
    input: "token accounts of a bad owner",
    run: zk((c) => c.getCompressedTokenAccountsByOwner({ owner: "x" })),
    field: "owner",
    rule: /32 bytes/
  },
  {
    area: "metadata",
    input: "token metadata with a bad mint at index 2",
    run: metadata((m) => m.getTokenMetadata({ mintAccounts: [MINT, MINT, "So1111"] })),
    field: "mintAccounts[2]",
    rule: /32 bytes/
  },
  {
    area: "metadata",
    input: "token metadata with an unknown option",
    run: metadata((m) => m.getTokenMetadata({ mintAccounts: [MINT], includeOffchain: true } as never)),
    field: "includeOffchain",
    rule: /./
  },
  {
    area: "wallet",
    input: "history of an unknown type spelling",
    run: wallet((w) => w.history(WALLET, { type: "swap" as never })),
    field: "type",
    rule: /UPPER_SNAKE_CASE/
  }
]

const tried: Array<{ readonly area: string; readonly ok: boolean }> = []

describe("bad input: a typed error naming the field and the rule, and no request", () => {
  for (const row of rows) {
    it.effect(`${row.area}: ${row.input}`, () =>
      Effect.gen(function*() {
        const log = yield* HttpTesting.RequestLog
        const error = yield* Effect.flip(row.run)
        const tag = row.tag ?? "InvalidRequest"
        const field = typeof row.field === "string" ? row.field : row.field(yield* kit)
        const e = error as {
          _tag: string
          field?: string
          rule?: string
          unit?: string
          offset?: number
          reason?: string
        }
        expect(e._tag).toBe(tag)
        if (tag === "InvalidRequest") {
          expect(e.field).toBe(field)
          expect(e.rule).toMatch(row.rule)
        } else {
          expect(`${e.unit} ${e.offset}`).toBe(field)
          expect(e.reason).toMatch(row.rule)
        }
        expect(yield* log.count).toBe(0)
        tried.push({ area: row.area, ok: true })
      }).pipe(Effect.provide(overHandler(anything))))
  }

  it("the table covers at least 40 bad inputs across every area, all refused locally", () => {
    const areas = new Set(rows.map((r) => r.area))
    expect(rows.length).toBeGreaterThanOrEqual(40)
    expect([...areas].sort()).toEqual(["admin", "bundles", "das", "metadata", "wallet", "wire", "zk"])
    console.log(
      `[reliability] bad inputs: tried=${rows.length} refusedWithoutRequest=${tried.filter((t) => t.ok).length} ` +
        `byArea=${
          JSON.stringify(Object.fromEntries([...areas].map((a) => [a, rows.filter((r) => r.area === a).length])))
        }`
    )
    expect(tried.filter((t) => t.ok)).toHaveLength(rows.length)
  })
})
