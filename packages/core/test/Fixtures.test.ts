/**
 * Every real response body in ../shared/fixtures/real/ decodes with the schema of
 * its method, inside the envelope the wire uses. Skips visibly when ../shared is
 * absent (a user's fresh clone).
 */
import { beforeEach, describe, expect, it } from "@effect/vitest"
import * as AccountInfo from "@solfx/core/AccountInfo"
import * as AddressTransactions from "@solfx/core/AddressTransactions"
import * as AssetProof from "@solfx/core/AssetProof"
import * as AssetSignature from "@solfx/core/AssetSignature"
import * as Bundle from "@solfx/core/Bundle"
import * as Cluster from "@solfx/core/Cluster"
import * as CompressedAccount from "@solfx/core/CompressedAccount"
import * as CompressedAccountV2 from "@solfx/core/CompressedAccountV2"
import * as CompressionSignature from "@solfx/core/CompressionSignature"
import * as CompressionTransaction from "@solfx/core/CompressionTransaction"
import * as CompressionTransactionV2 from "@solfx/core/CompressionTransactionV2"
import * as ConfirmedTransaction from "@solfx/core/ConfirmedTransaction"
import * as DigitalAsset from "@solfx/core/DigitalAsset"
import * as EnhancedTransactionParams from "@solfx/core/EnhancedTransactionParams"
import * as Json from "@solfx/core/Json"
import * as PriorityFeeEstimate from "@solfx/core/PriorityFeeEstimate"
import * as ProjectUsage from "@solfx/core/ProjectUsage"
import * as SignatureStatus from "@solfx/core/SignatureStatus"
import * as Simulation from "@solfx/core/Simulation"
import * as TokenAccount from "@solfx/core/TokenAccount"
import * as TokenAmount from "@solfx/core/TokenAmount"
import * as TokenMetadata from "@solfx/core/TokenMetadataRecord"
import * as TransactionSubmission from "@solfx/core/TransactionSubmission"
import * as ValidityProof from "@solfx/core/ValidityProof"
import * as ValidityProofV2 from "@solfx/core/ValidityProofV2"
import * as WalletRecords from "@solfx/core/WalletRecords"
import * as Webhook from "@solfx/core/Webhook"
import * as WebhookDelivery from "@solfx/core/WebhookDelivery"
import * as RealFixtures from "@solfx/testing/RealFixtures"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

const ROOT = RealFixtures.root
const present = RealFixtures.present()

/**
 * How a fixture file sits on the wire:
 * - "result": the file is the JSON-RPC `result` member (snapshots); we wrap it in an envelope.
 * - "envelope": the file is a whole JSON-RPC response.
 * - "body": the file is a whole REST body.
 * - "auto": "envelope" when the file has `jsonrpc`, otherwise "result".
 */
type Shape = "result" | "envelope" | "body" | "auto"

interface Entry {
  readonly schema: Schema.Schema<any, any>
  readonly shape: Shape
}

/** Folders whose method we serve, with the schema of its result or body. Each area adds its own. */
const served: Record<string, Entry> = {
  // -- digital assets (issue 4) --
  // DAS snapshots are the JSON-RPC `result`; the docs files are envelopes, except
  // getTokenAccounts' (its docs schema omits the envelope): "auto" tells them apart.
  getTokenAccounts: { schema: TokenAccount.TokenAccountList, shape: "auto" },
  // Its docs envelope omits `id`, which the transport accepts (it checks the id only when sent back).
  getAssetsByAuthority: {
    schema: Schema.Union(
      DigitalAsset.DigitalAssetList,
      Schema.Struct({
        jsonrpc: Schema.Literal("2.0"),
        id: Schema.optional(Schema.String),
        result: DigitalAsset.DigitalAssetList
      })
    ),
    shape: "body"
  },
  getSignaturesForAsset: { schema: AssetSignature.AssetSignatureList, shape: "auto" },
  getAssetProofBatch: { schema: AssetProof.AssetProofBatch, shape: "auto" },
  "token-metadata": { schema: TokenMetadata.TokenMetadataResponse, shape: "body" },
  // -- compression (issue 5) --
  getCompressionSignaturesForAddress: { schema: CompressionSignature.SignaturesResult, shape: "auto" },
  getCompressedMintTokenHolders: { schema: CompressedAccount.TokenHoldersResult, shape: "auto" },
  getLatestNonVotingSignatures: { schema: CompressionSignature.NonVotingSignaturesResult, shape: "auto" },
  getCompressedTokenAccountsByOwner: { schema: CompressedAccount.TokenAccountsResult, shape: "auto" },
  // photon-snap-3/4 hold `value` only (the snapshot of that test drops the context).
  getValidityProof: {
    schema: Schema.Union(ValidityProof.ValidityProofResult, ValidityProof.ValidityProof),
    shape: "auto"
  },
  getCompressedTokenBalancesByOwnerV2: { schema: CompressedAccount.TokenBalancesResult, shape: "auto" },
  // The photon snapshots here hold the items only (PROVENANCE: the test concatenates value.items of its pages).
  getCompressionSignaturesForTokenOwner: {
    schema: Schema.Union(
      CompressionSignature.SignaturesResult,
      Schema.Array(CompressionSignature.CompressionSignature)
    ),
    shape: "auto"
  },
  getTransactionWithCompressionInfo: { schema: CompressionTransaction.TransactionWithCompressionInfo, shape: "auto" },
  // -- DAS read API and Photon V2 (issue 19) --
  // The docs example nests the proof one level too deep; AssetProof flattens it.
  getAssetProof: { schema: AssetProof.AssetProof, shape: "auto" },
  getCompressedTokenAccountsByOwnerV2: { schema: CompressedAccountV2.TokenAccountsV2Result, shape: "auto" },
  getCompressedTokenBalancesByOwner: { schema: CompressedAccount.TokenBalancesV1Result, shape: "auto" },
  getCompressionSignaturesForOwner: { schema: CompressionSignature.SignaturesResult, shape: "auto" },
  getTransactionWithCompressionInfoV2: {
    schema: CompressionTransactionV2.TransactionWithCompressionInfoV2,
    shape: "auto"
  },
  getValidityProofV2: { schema: ValidityProofV2.ValidityProofV2Result, shape: "auto" },
  // -- bundles (issue 6) --
  // The preview-docs sendBundle example returns a base58 signature instead of the hex id: it decodes
  // as a string, and the SDK reports it as BundleIdMismatch against the locally computed id.
  sendBundle: { schema: Bundle.SendBundleResult, shape: "envelope" },
  getBundleStatuses: { schema: Bundle.BundleStatuses, shape: "envelope" },
  // -- wallet (issue 7) --
  "wallet-identity": { schema: WalletRecords.Identity, shape: "body" },
  "wallet-batch-identity": { schema: WalletRecords.IdentityList, shape: "body" },
  "wallet-balances": { schema: WalletRecords.BalancesPage, shape: "body" },
  "wallet-history": { schema: WalletRecords.HistoryPage, shape: "body" },
  "wallet-transfers": { schema: WalletRecords.TransfersPage, shape: "body" },
  "wallet-funded-by": { schema: WalletRecords.FundedBy, shape: "body" },
  // -- admin and webhooks (issue 8) --
  "admin-project-usage": { schema: ProjectUsage.ProjectUsage, shape: "body" },
  "webhooks-list": { schema: Webhook.WebhookList, shape: "body" },
  // -- standard RPC --
  getSignatureStatuses: { schema: SignatureStatus.SignatureStatuses, shape: "envelope" },
  // -- standard RPC reads (issue 37): core's AccountInfo, Cluster and TokenAmount --
  getAccountInfo: { schema: AccountInfo.AccountInfo, shape: "envelope" },
  getBalance: { schema: AccountInfo.Balance, shape: "envelope" },
  getMultipleAccounts: { schema: AccountInfo.MultipleAccounts, shape: "envelope" },
  getProgramAccounts: { schema: AccountInfo.ProgramAccounts, shape: "envelope" },
  getTokenAccountsByOwner: { schema: AccountInfo.TokenAccounts, shape: "envelope" },
  getTokenAccountBalance: { schema: TokenAmount.TokenAccountBalance, shape: "envelope" },
  getTokenSupply: { schema: TokenAmount.TokenSupply, shape: "envelope" },
  getTokenLargestAccounts: { schema: TokenAmount.TokenLargestAccounts, shape: "envelope" },
  getEpochInfo: { schema: Cluster.EpochInfo, shape: "envelope" },
  getFeeForMessage: { schema: Cluster.FeeForMessage, shape: "envelope" },
  getLatestBlockhash: { schema: Cluster.LatestBlockhash, shape: "envelope" },
  getRecentPrioritizationFees: { schema: Cluster.RecentPrioritizationFees, shape: "envelope" },
  getVersion: { schema: Cluster.Version, shape: "auto" },
  isBlockhashValid: { schema: Cluster.BlockhashValid, shape: "auto" },
  // test-validator dumps: `{ pubkey, account }`, the account as getAccountInfo's value (without `space`).
  "_account-dumps": { schema: AccountInfo.KeyedAccount, shape: "body" },
  // -- priority fees, address history, enhanced transactions (issue 38) --
  getPriorityFeeEstimate: { schema: PriorityFeeEstimate.PriorityFeeEstimate, shape: "envelope" },
  getTransactionsForAddress: { schema: AddressTransactions.TransactionsPage, shape: "auto" },
  // The API answers a bare array; the parse guide's "Response Structure" shows one item alone.
  "enhanced-transactions": {
    schema: Schema.Union(EnhancedTransactionParams.EnhancedTransactionList, WebhookDelivery.EnhancedTransaction),
    shape: "body"
  },
  "enhanced-address-transactions": { schema: EnhancedTransactionParams.EnhancedTransactionList, shape: "body" },
  // -- transactions executed by the bank (issue 37): core's TransactionSubmission, Simulation, ConfirmedTransaction --
  // A signature, or a failed preflight: -32002 with the simulation as the error's data.
  sendTransaction: {
    schema: Schema.Union(
      Schema.Struct({
        jsonrpc: Schema.Literal("2.0"),
        id: Schema.Unknown,
        result: TransactionSubmission.TransactionSignature
      }),
      Schema.Struct({
        jsonrpc: Schema.Literal("2.0"),
        id: Schema.Unknown,
        error: Schema.Struct({ code: Schema.Literal(-32002), message: Schema.String, data: Simulation.Simulation })
      })
    ),
    shape: "body"
  },
  simulateTransaction: { schema: Simulation.SimulateTransactionResult, shape: "envelope" },
  getTransaction: { schema: ConfirmedTransaction.GetTransactionResult, shape: "auto" },
  // A block's transaction: getTransaction's without slot and blockTime.
  "_block-transactions": {
    schema: Schema.Struct({
      transaction: Schema.Unknown,
      meta: ConfirmedTransaction.TransactionMeta,
      version: Schema.Union(Schema.Literal("legacy"), Schema.Literal(0))
    }),
    shape: "body"
  }
}

/** Folders kept for reference only: neighbouring methods we do not serve. */
const neighbours: Record<string, string> = {
  _errors: "error bodies, decoded by the transport's error mapping tests",
  "webhook-delivery": "webhook delivery payloads, decoded by the webhook receiver tests",
  // Methods this round serves (standard RPC, WebSocket, fees, history, enhanced transactions): each
  // moves to `served` with its Schema in the commit that lands it.
  "ws-notifications": "not served yet"
}

/** Files that cannot decode, each with the reason. Keys are `folder/file`. */
const exceptions: Record<string, string> = {
  // -- digital assets (issue 4) --
  // Mintlify placeholders ("<string>") where an address or a u64 must be; the same files with
  // real values swapped in are decoded by packages/core/test/DigitalAssetSchemas.test.ts.
  "getTokenAccounts/helius-docs-openapi-1.json": "docs placeholders: \"<string>\" for address, mint and owner",
  "token-metadata/helius-docs-openapi-1.json": "docs placeholders: \"<string>\" for every address and the u64 supply",
  // -- compression (issue 5) --
  // The zk-compression docs examples use one placeholder signature ("5J8H5sTv…WxC7c", 44 base58
  // characters = 32 bytes, not the 64 of a signature) and "<string>" for the proof and its hashes.
  // packages/core/test/Compression.test.ts decodes each of them with real values swapped in.
  "getCompressionSignaturesForAddress/helius-docs-openapi-1.json": "docs placeholder signature (32 bytes, not 64)",
  "getLatestNonVotingSignatures/helius-docs-openapi-1.json": "docs placeholder signature (32 bytes, not 64)",
  "getCompressionSignaturesForTokenOwner/helius-docs-openapi-1.json": "docs placeholder signature (32 bytes, not 64)",
  "getValidityProof/helius-docs-openapi-1.json": "docs placeholders \"<string>\" for proof bytes, roots, leaves, trees",
  // -- wallet (issue 7) --
  // The docs page and the SDK mocks use one placeholder signature ("5wHu1qwD…jqE", 66 base58
  // characters = 48 bytes, not the 64 of a signature). Every other field is checked with a
  // real signature swapped in by packages/core/test/WalletRecords.test.ts.
  "wallet-funded-by/helius-docs-page-1.json": "docs placeholder signature (48 bytes, not 64)",
  "wallet-history/helius-sdk-mock-1.json": "SDK mock placeholder signature (48 bytes, not 64)",
  "wallet-transfers/helius-sdk-mock-1.json": "SDK mock placeholder signature (48 bytes, not 64)",
  // -- priority fees, address history, enhanced transactions (issue 38) --
  // The docs' second signature ("kwjd820sl…") holds 0 and l, not base58; the full example's
  // accountKeys are "..." and its message has no header; the SDK mock's signatures are 48 bytes.
  // packages/core/test/AddressTransactions.test.ts decodes each with real values swapped in.
  "getTransactionsForAddress/helius-docs-openapi-1.json": "docs placeholder signature (\"kwjd820sl…\", not base58)",
  "getTransactionsForAddress/helius-docs-openapi-2.json":
    "docs placeholders: accountKeys \"...\", message without header",
  "getTransactionsForAddress/helius-sdk-mock-1.json": "SDK mock placeholder signatures (48 bytes, not 64)",
  // The OpenAPI example of both enhanced routes (one text) has "<string>" for most addresses and for
  // rawTokenAmount.tokenAmount; packages/core/test/EnhancedTransactionParams.test.ts decodes it with
  // real values swapped in.
  "enhanced-transactions/helius-docs-openapi-1.json": "docs placeholders: \"<string>\" for addresses and raw amounts",
  "enhanced-address-transactions/helius-docs-openapi-1.json":
    "docs placeholders: \"<string>\" for addresses and raw amounts"
}

const Envelope = (result: Schema.Schema<any, any>) =>
  Schema.Struct({ jsonrpc: Schema.Literal("2.0"), id: Schema.Union(Schema.String, Schema.Number, Schema.Null), result })

const decode = (entry: Entry, body: unknown) => {
  const shape = entry.shape === "auto"
    ? (typeof body === "object" && body !== null && "jsonrpc" in body ? "envelope" : "result")
    : entry.shape
  const wire = shape === "result" ? { jsonrpc: "2.0", id: "1", result: body } : body
  const schema = shape === "body" ? entry.schema : Envelope(entry.schema)
  return Schema.decodeUnknownEither(schema, { onExcessProperty: "ignore" })(wire)
}

describe("real fixtures decode", () => {
  beforeEach((ctx) => ctx.skip(!present, RealFixtures.absent))
  const folders = present ? readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory()) : []

  it("every folder is either served or a listed neighbour", () => {
    const unknown = folders.map((d) => d.name).filter((n) => !(n in served) && !(n in neighbours))
    expect(unknown).toEqual([])
  })

  for (const folder of folders.filter((d) => d.name in served)) {
    for (const file of readdirSync(join(ROOT, folder.name)).filter((f) => f.endsWith(".json"))) {
      const key = `${folder.name}/${file}`
      it(key, (ctx) => {
        ctx.skip(key in exceptions, exceptions[key])
        const body = Json.parse(readFileSync(join(ROOT, folder.name, file), "utf8"))
        const result = decode(served[folder.name]!, body)
        if (Either.isLeft(result)) {
          expect.fail(ParseResult.TreeFormatter.formatErrorSync(result.left))
        }
      })
    }
  }
})

if (!present) {
  describe("real fixtures decode", () => {
    it("every fixture decodes", (ctx) => ctx.skip(RealFixtures.absent))
  })
}
