/**
 * The endpoint table: every method of the service the SDK calls, one `Endpoint`
 * each. Read a method's cost and bucket here; the SDK's services and the emulator's
 * router are derived from these entries.
 *
 * Costs: DAS, Photon 10 and getValidityProof(V2) 100, token metadata 10, wallet 100,
 * webhook management 100, the standard RPC's signature methods 1 (as the service documents);
 * sendBundle 1 (as the service documents); the admin endpoint is free (the real service publishes no cost for it).
 *
 * @example
 * Endpoints.getAssetsByAuthority.cost // { credits: 10, usage: "das" }
 * Endpoints.all.filter((e) => e.bucket === "photon").map((e) => e.name)
 * @since 0.1.0
 */

import * as Schema from "effect/Schema"
import * as AccountInfo from "./AccountInfo.js"
import * as AddressTransactions from "./AddressTransactions.js"
import * as AssetProof from "./AssetProof.js"
import * as AssetQuery from "./AssetQuery.js"
import * as AssetSearch from "./AssetSearch.js"
import * as AssetSignature from "./AssetSignature.js"
import * as Bundle from "./Bundle.js"
import * as Cluster from "./Cluster.js"
import * as CompressedAccount from "./CompressedAccount.js"
import * as CompressedAccountV2 from "./CompressedAccountV2.js"
import * as Request from "./CompressionRequest.js"
import * as CompressionSignature from "./CompressionSignature.js"
import * as CompressionTransaction from "./CompressionTransaction.js"
import * as CompressionTransactionV2 from "./CompressionTransactionV2.js"
import * as ConfirmedTransaction from "./ConfirmedTransaction.js"
import * as DigitalAsset from "./DigitalAsset.js"
import * as Endpoint from "./Endpoint.js"
import * as EnhancedTransactionParams from "./EnhancedTransactionParams.js"
import * as IndexerStatus from "./IndexerStatus.js"
import * as NftEdition from "./NftEdition.js"
import { Address, BundleId, ProjectId } from "./Primitives.js"
import * as PriorityFeeEstimate from "./PriorityFeeEstimate.js"
import * as ProjectUsage from "./ProjectUsage.js"
import * as SignatureStatus from "./SignatureStatus.js"
import * as Simulation from "./Simulation.js"
import type { CursorPage, WithContext } from "./SlotContext.js"
import * as TokenAccount from "./TokenAccount.js"
import * as TokenAmount from "./TokenAmount.js"
import * as TokenMetadata from "./TokenMetadataRecord.js"
import * as TransactionSubmission from "./TransactionSubmission.js"
import * as ValidityProof from "./ValidityProof.js"
import * as ValidityProofV2 from "./ValidityProofV2.js"
import * as WalletParams from "./WalletParams.js"
import * as WalletRecords from "./WalletRecords.js"
import * as Webhook from "./Webhook.js"

// -- DAS (JSON-RPC, 10 credits, usage `das`) ----------------------------------

const das = { area: "das", cost: { credits: 10, usage: "das" }, bucket: "das" } as const

/**
 * A DAS list: numbered pages (`total` beyond the page's size is taken as the grand total), or
 * the same list by keyset, `cursor` to `cursor`.
 */
const dasPages = <
  R extends {
    readonly total: number
    readonly grand_total?: number | undefined
    readonly cursor?: string | null | undefined
  },
  A
>(
  items: (r: R) => ReadonlyArray<A>
) => Endpoint.pageNumber<R, A>({ items, total: (r) => r.grand_total ?? r.total, keyset: { next: (r) => r.cursor } })

/**
 * getTokenAccounts: token accounts of an owner and/or a mint.
 *
 * @since 0.1.0
 * @category das
 */
export const getTokenAccounts = Endpoint.rpc({
  ...das,
  method: "getTokenAccounts",
  params: TokenAccount.GetTokenAccountsParams,
  result: TokenAccount.TokenAccountList,
  paging: dasPages((r: TokenAccount.TokenAccountList) => r.token_accounts)
})

/**
 * getAssetsByAuthority: the assets an authority controls.
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetsByAuthority = Endpoint.rpc({
  ...das,
  method: "getAssetsByAuthority",
  params: DigitalAsset.GetAssetsByAuthorityParams,
  result: DigitalAsset.DigitalAssetList,
  paging: dasPages((r: DigitalAsset.DigitalAssetList) => r.items)
})

/**
 * getSignaturesForAsset: an asset's transaction signatures.
 *
 * @since 0.1.0
 * @category das
 */
export const getSignaturesForAsset = Endpoint.rpc({
  ...das,
  method: "getSignaturesForAsset",
  params: AssetSignature.GetSignaturesForAssetParams,
  result: AssetSignature.AssetSignatureList,
  paging: dasPages((r: AssetSignature.AssetSignatureList) => r.items)
})

/**
 * getAssetProofBatch: Merkle proofs keyed by asset id, up to 1000 ids a request.
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetProofBatch = Endpoint.rpc({
  ...das,
  method: "getAssetProofBatch",
  params: AssetProof.GetAssetProofBatchParams,
  result: AssetProof.AssetProofBatch,
  batch: { field: "ids", size: AssetProof.MAX_BATCH, concurrency: 4 }
})

/**
 * getAsset: one asset by id.
 *
 * @since 0.1.0
 * @category das
 */
export const getAsset = Endpoint.rpc({
  ...das,
  method: "getAsset",
  params: AssetQuery.GetAssetParams,
  result: DigitalAsset.DigitalAsset
})

/**
 * getAssetBatch (Metaplex: `getAssets`): assets by id, in request order, `null` for
 * an unknown id; up to 1000 ids a request.
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetBatch = Endpoint.rpc({
  ...das,
  method: "getAssetBatch",
  params: AssetQuery.GetAssetBatchParams,
  result: AssetQuery.AssetBatch,
  batch: { field: "ids", size: AssetQuery.MAX_BATCH, concurrency: 4 }
})

/**
 * getAssetProof: the Merkle proof of one compressed asset (its getAssetProofBatch entry).
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetProof = Endpoint.rpc({
  ...das,
  method: "getAssetProof",
  params: AssetQuery.GetAssetProofParams,
  result: AssetProof.AssetProof
})

/**
 * getAssetsByOwner: the assets an owner holds.
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetsByOwner = Endpoint.rpc({
  ...das,
  method: "getAssetsByOwner",
  params: AssetQuery.GetAssetsByOwnerParams,
  result: DigitalAsset.DigitalAssetList,
  paging: dasPages((r: DigitalAsset.DigitalAssetList) => r.items)
})

/**
 * getAssetsByGroup: the assets of a group (`groupKey: "collection"`, `groupValue`).
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetsByGroup = Endpoint.rpc({
  ...das,
  method: "getAssetsByGroup",
  params: AssetQuery.GetAssetsByGroupParams,
  result: DigitalAsset.DigitalAssetList,
  paging: dasPages((r: DigitalAsset.DigitalAssetList) => r.items)
})

/**
 * getAssetsByCreator: the assets a creator is listed on.
 *
 * @since 0.1.0
 * @category das
 */
export const getAssetsByCreator = Endpoint.rpc({
  ...das,
  method: "getAssetsByCreator",
  params: AssetQuery.GetAssetsByCreatorParams,
  result: DigitalAsset.DigitalAssetList,
  paging: dasPages((r: DigitalAsset.DigitalAssetList) => r.items)
})

/**
 * searchAssets: the assets matching every filter given (`AssetSearch`).
 *
 * @since 0.1.0
 * @category das
 */
export const searchAssets = Endpoint.rpc({
  ...das,
  method: "searchAssets",
  params: AssetSearch.SearchAssetsParams,
  result: DigitalAsset.DigitalAssetList,
  paging: dasPages((r: DigitalAsset.DigitalAssetList) => r.items)
})

/**
 * getNftEditions: the print editions of a master edition.
 *
 * @since 0.1.0
 * @category das
 */
export const getNftEditions = Endpoint.rpc({
  ...das,
  method: "getNftEditions",
  params: NftEdition.GetNftEditionsParams,
  result: NftEdition.NftEditionList,
  paging: dasPages((r: NftEdition.NftEditionList) => r.editions)
})

/**
 * The DAS entries the `DigitalAssets` service gives as operations, by method name: the
 * lists (each a call, `.pages` and `.stream`) and `getAsset`. The batch and proof methods
 * are the service's own (chunking, request batching, proof checks).
 *
 * @since 0.1.0
 * @category das
 */
export const digitalAssets = {
  getTokenAccounts,
  getAssetsByAuthority,
  getSignaturesForAsset,
  getAsset,
  getAssetsByOwner,
  getAssetsByGroup,
  getAssetsByCreator,
  searchAssets,
  getNftEditions
} as const

/**
 * Every DAS JSON-RPC method, by name: the operations of `digitalAssets` and the batch and proof
 * methods the service builds on. The emulator routes DAS by this record.
 *
 * @since 0.1.0
 * @category das
 */
export const digitalAssetMethods = { ...digitalAssets, getAssetProofBatch, getAssetBatch, getAssetProof } as const

/**
 * The name of a DAS method.
 *
 * @since 0.1.0
 * @category das
 */
export type DigitalAssetMethod = keyof typeof digitalAssetMethods

// -- ZK compression (Photon JSON-RPC, usage `photon`) -------------------------

const photon = (credits: number) => ({ area: "photon", cost: { credits, usage: "photon" }, bucket: "photon" }) as const
/** A validity proof runs the prover: 100 credits, in its own bucket. */
const validityProof = { area: "photon", cost: { credits: 100, usage: "photon" }, bucket: "validityProof" } as const

const slotCursor = <A>() =>
  Endpoint.cursor<WithContext<CursorPage<A>>, A>({
    items: (r) => r.value.items,
    next: (r) => r.value.cursor,
    maxLimit: Request.MAX_LIMIT
  })

/**
 * getCompressionSignaturesForAddress: the compression signatures touching one account, by slot cursor.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressionSignaturesForAddress = Endpoint.rpc({
  ...photon(10),
  method: "getCompressionSignaturesForAddress",
  params: Request.SignaturesForAddressParams,
  result: CompressionSignature.SignaturesResult,
  paging: slotCursor<CompressionSignature.CompressionSignature>()
})

/**
 * getCompressedMintTokenHolders: the holders of a compressed mint, by descending balance.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressedMintTokenHolders = Endpoint.rpc({
  ...photon(10),
  method: "getCompressedMintTokenHolders",
  params: Request.MintTokenHoldersParams,
  result: CompressedAccount.TokenHoldersResult,
  paging: slotCursor<CompressedAccount.TokenHolder>()
})

/**
 * getLatestNonVotingSignatures: the latest non-voting signatures the indexer saw.
 *
 * @since 0.1.0
 * @category photon
 */
export const getLatestNonVotingSignatures = Endpoint.rpc({
  ...photon(10),
  method: "getLatestNonVotingSignatures",
  params: Request.LatestNonVotingSignaturesParams,
  result: CompressionSignature.NonVotingSignaturesResult
})

/**
 * getCompressedTokenAccountsByOwner: an owner's compressed token accounts, by slot cursor.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressedTokenAccountsByOwner = Endpoint.rpc({
  ...photon(10),
  method: "getCompressedTokenAccountsByOwner",
  params: Request.TokenAccountsByOwnerParams,
  result: CompressedAccount.TokenAccountsResult,
  paging: slotCursor<CompressedAccount.CompressedTokenAccount>()
})

/**
 * getValidityProof: a validity proof for account hashes and new addresses.
 *
 * @since 0.1.0
 * @category photon
 */
export const getValidityProof = Endpoint.rpc({
  ...validityProof,
  method: "getValidityProof",
  params: Request.ValidityProofParams,
  result: ValidityProof.ValidityProofResult
})

/**
 * getCompressedTokenBalancesByOwnerV2: an owner's compressed token balances, one per mint.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressedTokenBalancesByOwnerV2 = Endpoint.rpc({
  ...photon(10),
  method: "getCompressedTokenBalancesByOwnerV2",
  params: Request.TokenBalancesByOwnerParams,
  result: CompressedAccount.TokenBalancesResult,
  paging: slotCursor<CompressedAccount.TokenBalance>()
})

/**
 * getCompressionSignaturesForTokenOwner: the compression signatures of a token owner.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressionSignaturesForTokenOwner = Endpoint.rpc({
  ...photon(10),
  method: "getCompressionSignaturesForTokenOwner",
  params: Request.SignaturesForTokenOwnerParams,
  result: CompressionSignature.SignaturesResult,
  paging: slotCursor<CompressionSignature.CompressionSignature>()
})

/**
 * getTransactionWithCompressionInfo: a transaction with its compressed accounts opened and closed.
 *
 * @since 0.1.0
 * @category photon
 */
export const getTransactionWithCompressionInfo = Endpoint.rpc({
  ...photon(10),
  method: "getTransactionWithCompressionInfo",
  params: Request.TransactionWithCompressionInfoParams,
  result: CompressionTransaction.TransactionWithCompressionInfo
})

/**
 * getCompressionSignaturesForOwner: signatures of transactions that touched an owner's compressed accounts.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressionSignaturesForOwner = Endpoint.rpc({
  ...photon(10),
  method: "getCompressionSignaturesForOwner",
  params: Request.SignaturesForOwnerParams,
  result: CompressionSignature.SignaturesResult,
  paging: slotCursor<CompressionSignature.CompressionSignature>()
})

/**
 * getCompressedTokenAccountsByOwnerV2: what stateless.js 0.23 calls for getCompressedTokenAccountsByOwner.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressedTokenAccountsByOwnerV2 = Endpoint.rpc({
  ...photon(10),
  method: "getCompressedTokenAccountsByOwnerV2",
  params: Request.TokenAccountsByOwnerParams,
  result: CompressedAccountV2.TokenAccountsV2Result,
  paging: slotCursor<CompressedAccountV2.CompressedTokenAccountV2>()
})

/**
 * getCompressedAccountsByOwnerV2: the owner's compressed accounts, each with its Merkle context, by slot cursor.
 *
 * @since 0.1.0
 * @category photon
 */
export const getCompressedAccountsByOwnerV2 = Endpoint.rpc({
  ...photon(10),
  method: "getCompressedAccountsByOwnerV2",
  params: Request.AccountsByOwnerParams,
  result: CompressedAccountV2.AccountsV2Result,
  paging: slotCursor<CompressedAccountV2.CompressedAccountV2>()
})

/**
 * getMultipleCompressedAccountsV2: accounts by hash or address, in request order,
 * `null` for an unknown one; up to 1000 a request.
 *
 * @since 0.1.0
 * @category photon
 */
export const getMultipleCompressedAccountsV2 = Endpoint.rpc({
  ...photon(10),
  method: "getMultipleCompressedAccountsV2",
  params: CompressedAccountV2.MultipleCompressedAccountsParams,
  result: CompressedAccountV2.MultipleAccountsV2Result,
  batch: { field: "hashes", size: Request.MAX_LIMIT, concurrency: 4 }
})

/**
 * getValidityProofV2: what stateless.js 0.23 calls for every validity proof (100 credits, like V1).
 *
 * @since 0.1.0
 * @category photon
 */
export const getValidityProofV2 = Endpoint.rpc({
  ...validityProof,
  method: "getValidityProofV2",
  params: Request.ValidityProofParams,
  result: ValidityProofV2.ValidityProofV2Result
})

/**
 * getTransactionWithCompressionInfoV2: what stateless.js 0.23 calls for getTransactionWithCompressionInfo.
 *
 * @since 0.1.0
 * @category photon
 */
export const getTransactionWithCompressionInfoV2 = Endpoint.rpc({
  ...photon(10),
  method: "getTransactionWithCompressionInfoV2",
  params: Request.TransactionWithCompressionInfoParams,
  result: CompressionTransactionV2.TransactionWithCompressionInfoV2
})

/**
 * getIndexerSlot: the last slot the indexer processed (params `[]`, as stateless.js sends).
 *
 * @since 0.1.0
 * @category photon
 */
export const getIndexerSlot = Endpoint.rpc({
  ...photon(10),
  method: "getIndexerSlot",
  params: Schema.Tuple(),
  result: IndexerStatus.IndexerSlot
})

/**
 * getIndexerHealth: `"ok"` on a healthy indexer (params `[]`).
 *
 * @since 0.1.0
 * @category photon
 */
export const getIndexerHealth = Endpoint.rpc({
  ...photon(10),
  method: "getIndexerHealth",
  params: Schema.Tuple(),
  result: IndexerStatus.IndexerHealth
})

/**
 * The compression (Photon) entries, by method name: the `Compression` service and the
 * emulator's compression area are both declared from this record.
 *
 * @since 0.1.0
 * @category photon
 */
export const compression = {
  getCompressionSignaturesForAddress,
  getCompressedMintTokenHolders,
  getLatestNonVotingSignatures,
  getCompressedTokenAccountsByOwner,
  getValidityProof,
  getCompressedTokenBalancesByOwnerV2,
  getCompressionSignaturesForTokenOwner,
  getTransactionWithCompressionInfo,
  getCompressionSignaturesForOwner,
  getCompressedTokenAccountsByOwnerV2,
  getCompressedAccountsByOwnerV2,
  getMultipleCompressedAccountsV2,
  getValidityProofV2,
  getTransactionWithCompressionInfoV2,
  getIndexerSlot,
  getIndexerHealth
} as const

/**
 * The name of a compression method.
 *
 * @since 0.1.0
 * @category photon
 */
export type CompressionMethod = keyof typeof compression

// -- Bundles (JSON-RPC, positional params) ------------------------------------

/**
 * sendBundle: `[transactions, { encoding }]`, a numeric id, never retried once it may have been processed.
 *
 * @since 0.1.0
 * @category bundles
 */
export const sendBundle = Endpoint.rpc({
  area: "bundles",
  method: "sendBundle",
  id: "number",
  params: Schema.Tuple(
    Schema.Array(Schema.String),
    Schema.Struct({ encoding: Schema.Literal("base64", "base58") })
  ),
  result: Bundle.SendBundleResult,
  idempotent: false,
  cost: { credits: 1, usage: "rpc" },
  bucket: "sendBundle"
})

/**
 * getBundleStatuses: `[ids]`, at most 5 ids a request.
 *
 * @since 0.1.0
 * @category bundles
 */
export const getBundleStatuses = Endpoint.rpc({
  area: "bundles",
  method: "getBundleStatuses",
  params: Schema.Tuple(Schema.Array(BundleId)),
  result: Bundle.BundleStatuses,
  batch: { field: 0, size: Bundle.MAX_STATUS_IDS, concurrency: 2 },
  cost: { credits: 1, usage: "rpc" },
  bucket: "rpc"
})

/**
 * The bundle methods, by name (what the emulator's bundle area routes).
 *
 * @since 0.1.0
 * @category bundles
 */
export const bundles = { sendBundle, getBundleStatuses } as const

// -- Standard Solana RPC (JSON-RPC, positional params, 1 credit, usage `rpc`) ------

const standardRpc = { area: "signatures", cost: { credits: 1, usage: "rpc" }, bucket: "rpc" } as const

/**
 * getSignaturesForAddress: `[address, { limit, before, until, commitment, minContextSlot }]`,
 * the signatures of the transactions that touched an address, newest first. A walk goes on
 * from the last signature of a page (`before`) until a page comes back empty.
 *
 * @since 0.1.0
 * @category signatures
 */
export const getSignaturesForAddress = Endpoint.rpc({
  ...standardRpc,
  method: "getSignaturesForAddress",
  positional: "address",
  params: SignatureStatus.GetSignaturesForAddressParams,
  result: SignatureStatus.SignatureInfoList,
  paging: Endpoint.cursor({
    param: "before",
    items: (r: SignatureStatus.SignatureInfoList) => r,
    // The answer says nothing of what follows: the last signature is the next position, and an
    // empty page ends the walk (one request more than the list needs).
    next: (r) => r.at(-1)?.signature,
    maxLimit: SignatureStatus.MAX_LIMIT
  })
})

/**
 * getSignatureStatuses: `[signatures, { searchTransactionHistory }]`, up to 256 signatures a
 * request, a status (or `null`) for each, in order.
 *
 * @since 0.1.0
 * @category signatures
 */
export const getSignatureStatuses = Endpoint.rpc({
  ...standardRpc,
  method: "getSignatureStatuses",
  positional: "signatures",
  params: SignatureStatus.GetSignatureStatusesParams,
  result: SignatureStatus.SignatureStatuses,
  batch: { field: "signatures", size: SignatureStatus.MAX_STATUSES, concurrency: 2 }
})

/**
 * The standard RPC's signature entries, by method name: the `Signatures` service and the
 * emulator's signatures area are both declared from this record.
 *
 * @since 0.1.0
 * @category signatures
 */
export const signatures = { getSignaturesForAddress, getSignatureStatuses } as const

// -- Standard Solana RPC reads (JSON-RPC, positional params, 1 credit, usage `rpc`) ---

const read = { area: "rpc", cost: { credits: 1, usage: "rpc" }, bucket: "rpc" } as const

/** A standard RPC read: its method, positional fields, params and result. */
const standardRead = <P, PI, A>(
  method: string,
  positional: string | ReadonlyArray<string>,
  params: Schema.Schema<P, PI>,
  result: Schema.Schema<A, any>
) => Endpoint.rpc({ ...read, method, positional, params, result })

/**
 * The standard Solana RPC's reads of the cluster, by method name, each `[positional…, config]` on
 * the wire: health, version, identity, slots, epochs, blockhashes, fees, rent, block time and the
 * recent prioritization fees. 1 credit each. The emulator's cluster area is routed from it.
 *
 * @since 0.1.0
 * @category standardRpc
 */
export const clusterReads = {
  getHealth: standardRead("getHealth", [], Cluster.NoParams, Cluster.Health),
  getVersion: standardRead("getVersion", [], Cluster.NoParams, Cluster.Version),
  getIdentity: standardRead("getIdentity", [], Cluster.NoParams, Cluster.Identity),
  getGenesisHash: standardRead("getGenesisHash", [], Cluster.NoParams, Cluster.GenesisHash),
  getSlot: standardRead("getSlot", [], Cluster.ReadParams, Cluster.Slot),
  getBlockHeight: standardRead("getBlockHeight", [], Cluster.ReadParams, Cluster.Slot),
  getEpochInfo: standardRead("getEpochInfo", [], Cluster.ReadParams, Cluster.EpochInfo),
  getEpochSchedule: standardRead("getEpochSchedule", [], Cluster.NoParams, Cluster.EpochSchedule),
  getLatestBlockhash: standardRead("getLatestBlockhash", [], Cluster.ReadParams, Cluster.LatestBlockhash),
  isBlockhashValid: standardRead(
    "isBlockhashValid",
    "blockhash",
    Cluster.IsBlockhashValidParams,
    Cluster.BlockhashValid
  ),
  getFeeForMessage: standardRead("getFeeForMessage", "message", Cluster.GetFeeForMessageParams, Cluster.FeeForMessage),
  getMinimumBalanceForRentExemption: standardRead(
    "getMinimumBalanceForRentExemption",
    "size",
    Cluster.GetMinimumBalanceParams,
    Cluster.MinimumBalance
  ),
  getBlockTime: standardRead("getBlockTime", "slot", Cluster.GetBlockTimeParams, Cluster.BlockTime),
  getRecentPrioritizationFees: standardRead(
    "getRecentPrioritizationFees",
    "addresses",
    Cluster.GetRecentPrioritizationFeesParams,
    Cluster.RecentPrioritizationFees
  )
} as const

/**
 * The standard Solana RPC's reads of accounts, by method name: balances, accounts (raw or
 * parsed), program accounts, token accounts and token amounts. 1 credit each, getProgramAccounts
 * 10 in its own bucket, as the service documents. The emulator's account-reads area is routed from it.
 *
 * @since 0.1.0
 * @category standardRpc
 */
export const accountReads = {
  getBalance: standardRead("getBalance", "address", AccountInfo.GetBalanceParams, AccountInfo.Balance),
  getAccountInfo: standardRead("getAccountInfo", "address", AccountInfo.GetAccountInfoParams, AccountInfo.AccountInfo),
  getMultipleAccounts: standardRead(
    "getMultipleAccounts",
    "addresses",
    AccountInfo.GetMultipleAccountsParams,
    AccountInfo.MultipleAccounts
  ),
  getProgramAccounts: Endpoint.rpc({
    ...read,
    method: "getProgramAccounts",
    positional: "program",
    params: AccountInfo.GetProgramAccountsParams,
    result: AccountInfo.ProgramAccounts,
    cost: { credits: 10, usage: "rpc" },
    bucket: "getProgramAccounts"
  }),
  getTokenAccountsByOwner: standardRead(
    "getTokenAccountsByOwner",
    ["owner", "filter"],
    AccountInfo.GetTokenAccountsByOwnerParams,
    AccountInfo.TokenAccounts
  ),
  getTokenAccountsByDelegate: standardRead(
    "getTokenAccountsByDelegate",
    ["delegate", "filter"],
    AccountInfo.GetTokenAccountsByDelegateParams,
    AccountInfo.TokenAccounts
  ),
  getTokenAccountBalance: standardRead(
    "getTokenAccountBalance",
    "account",
    TokenAmount.GetTokenAccountBalanceParams,
    TokenAmount.TokenAccountBalance
  ),
  getTokenSupply: standardRead("getTokenSupply", "mint", TokenAmount.MintParams, TokenAmount.TokenSupply),
  getTokenLargestAccounts: standardRead(
    "getTokenLargestAccounts",
    "mint",
    TokenAmount.MintParams,
    TokenAmount.TokenLargestAccounts
  )
} as const

/**
 * Every standard Solana RPC read of the table (`clusterReads` and `accountReads`), by method name.
 *
 * @since 0.1.0
 * @category standardRpc
 */
export const standardRpcReads = { ...clusterReads, ...accountReads } as const

const transactionRpc = { area: "transactions", cost: { credits: 1, usage: "rpc" }, bucket: "rpc" } as const

/**
 * sendTransaction: `[transaction, { encoding, skipPreflight, preflightCommitment, maxRetries,
 * minContextSlot }]`, the transaction's signature. Not retried by the SDK once sent (it may have
 * landed); a failed preflight is error -32002 with the simulation as its data.
 *
 * @since 0.1.0
 * @category transactions
 */
export const sendTransaction = Endpoint.rpc({
  ...transactionRpc,
  method: "sendTransaction",
  positional: "transaction",
  params: TransactionSubmission.SendTransactionParams,
  result: TransactionSubmission.TransactionSignature,
  idempotent: false,
  bucket: "sendTransaction"
})

/**
 * simulateTransaction: `[transaction, { encoding, sigVerify, replaceRecentBlockhash, commitment,
 * accounts, innerInstructions, minContextSlot }]`, the runtime's result with nothing kept.
 *
 * @since 0.1.0
 * @category transactions
 */
export const simulateTransaction = Endpoint.rpc({
  ...transactionRpc,
  method: "simulateTransaction",
  positional: "transaction",
  params: Simulation.SimulateTransactionParams,
  result: Simulation.SimulateTransactionResult
})

/**
 * requestAirdrop: `[address, lamports, { commitment }]`, the airdrop's signature.
 *
 * @since 0.1.0
 * @category transactions
 */
export const requestAirdrop = Endpoint.rpc({
  ...transactionRpc,
  method: "requestAirdrop",
  positional: ["address", "lamports"],
  params: TransactionSubmission.RequestAirdropParams,
  result: TransactionSubmission.TransactionSignature,
  idempotent: false
})

/**
 * getTransaction: `[signature, { encoding, commitment, maxSupportedTransactionVersion }]`, the
 * landed transaction with its meta, or null.
 *
 * @since 0.1.0
 * @category transactions
 */
export const getTransaction = Endpoint.rpc({
  ...transactionRpc,
  method: "getTransaction",
  positional: "signature",
  params: ConfirmedTransaction.GetTransactionParams,
  result: ConfirmedTransaction.GetTransactionResult
})

/**
 * The standard RPC's transaction entries, by method name: the emulator's transactions area is
 * declared from this record.
 *
 * @since 0.1.0
 * @category transactions
 */
export const transactions = { sendTransaction, simulateTransaction, requestAirdrop, getTransaction } as const

// -- Token metadata (REST, v0 host) -------------------------------------------

/**
 * The token-metadata answer as the SDK reads it: each record's `account` strictly,
 * its parts as they came, so that a part that does not decode becomes that record's
 * part error (`TokenMetadata` in @solfx/rpc) instead of failing the batch.
 *
 * @since 0.1.0
 * @category api
 */
export const TokenMetadataRecords = Schema.Array(Schema.Struct({
  account: Address,
  onChainAccountInfo: Schema.optional(Schema.Unknown),
  onChainMetadata: Schema.optional(Schema.Unknown),
  offChainMetadata: Schema.optional(Schema.Unknown),
  legacyMetadata: Schema.optional(Schema.Unknown)
})).annotations({ identifier: "TokenMetadataRecords" })

/**
 * POST /v0/token-metadata: up to 100 mints a request.
 *
 * @since 0.1.0
 * @category api
 */
export const tokenMetadata = Endpoint.rest({
  area: "api",
  host: "v0",
  method: "POST",
  path: "/v0/token-metadata",
  params: TokenMetadata.TokenMetadataParams,
  result: TokenMetadataRecords,
  batch: { field: "mintAccounts", size: TokenMetadata.MAX_MINTS, concurrency: 4 },
  cost: { credits: 10, usage: "api" },
  bucket: "enhanced"
})

// -- Wallet API (REST, 100 credits, usage `api`) ------------------------------

const walletApi = { area: "wallet", host: "rest", cost: { credits: 100, usage: "api" }, bucket: "wallet" } as const

/**
 * GET /v1/wallet/{wallet}/identity: the known name of a wallet (404 answers "none").
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletIdentity = Endpoint.rest({
  ...walletApi,
  method: "GET",
  path: "/v1/wallet/{wallet}/identity",
  params: WalletParams.IdentityRequest,
  result: WalletRecords.Identity,
  notFound: "answer"
})

/**
 * POST /v1/wallet/batch-identity: the names of many wallets, batched.
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletBatchIdentity = Endpoint.rest({
  ...walletApi,
  method: "POST",
  path: "/v1/wallet/batch-identity",
  params: Schema.Struct({
    /** Base58 addresses (32 bytes) or name-service domains, any number: sent 100 a request. */
    addresses: WalletParams.BatchIdentityRequest
  }),
  result: WalletRecords.IdentityList,
  batch: { field: "addresses", size: WalletParams.MAX_BATCH_IDENTITY, concurrency: 4 },
  // A lookup: sending it twice changes nothing.
  idempotent: true
})

/**
 * GET /v1/wallet/{wallet}/balances: a wallet's token balances, by page number.
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletBalances = Endpoint.rest({
  ...walletApi,
  method: "GET",
  path: "/v1/wallet/{wallet}/balances",
  params: WalletParams.BalancesRequest,
  result: WalletRecords.BalancesPage,
  paging: Endpoint.pageNumber({
    items: (r: WalletRecords.BalancesPage) => r.balances,
    hasMore: (r) => r.pagination.hasMore,
    maxLimit: WalletParams.MAX_LIMIT
  })
})

/**
 * GET /v1/wallet/{wallet}/history: a wallet's transactions, newest first, by `before` cursor.
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletHistory = Endpoint.rest({
  ...walletApi,
  method: "GET",
  path: "/v1/wallet/{wallet}/history",
  params: WalletParams.HistoryRequest,
  result: WalletRecords.HistoryPage,
  paging: Endpoint.hasMore({
    param: "before",
    items: (r: WalletRecords.HistoryPage) => r.data,
    hasMore: (r) => r.pagination.hasMore,
    next: (r) => r.pagination.nextCursor,
    nextPath: "$.pagination.nextCursor",
    maxLimit: WalletParams.MAX_LIMIT
  })
})

/**
 * GET /v1/wallet/{wallet}/transfers: a wallet's transfers, by cursor.
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletTransfers = Endpoint.rest({
  ...walletApi,
  method: "GET",
  path: "/v1/wallet/{wallet}/transfers",
  params: WalletParams.TransfersRequest,
  result: WalletRecords.TransfersPage,
  paging: Endpoint.hasMore({
    items: (r: WalletRecords.TransfersPage) => r.data,
    hasMore: (r) => r.pagination.hasMore,
    next: (r) => r.pagination.nextCursor,
    nextPath: "$.pagination.nextCursor",
    maxLimit: WalletParams.MAX_LIMIT
  })
})

/**
 * GET /v1/wallet/{wallet}/funded-by: the wallet that first funded it (404 answers "none").
 *
 * @since 0.1.0
 * @category wallet
 */
export const walletFundedBy = Endpoint.rest({
  ...walletApi,
  method: "GET",
  path: "/v1/wallet/{wallet}/funded-by",
  params: WalletParams.WalletRequest,
  result: WalletRecords.FundedBy,
  notFound: "answer"
})

/**
 * The Wallet API entries, by the name of the `Wallet` method each one serves (the SDK's
 * service is declared from this record).
 *
 * @since 0.1.0
 * @category wallet
 */
export const wallet = {
  identity: walletIdentity,
  batchIdentity: walletBatchIdentity,
  balances: walletBalances,
  history: walletHistory,
  transfers: walletTransfers,
  fundedBy: walletFundedBy
} as const

// -- Admin and webhooks -------------------------------------------------------

/**
 * GET /v0/admin/projects/{id}/usage, with the key in `X-Api-Key`.
 *
 * @since 0.1.0
 * @category admin
 */
export const projectUsage = Endpoint.rest({
  area: "admin",
  host: "admin",
  method: "GET",
  path: "/v0/admin/projects/{id}/usage",
  auth: "header",
  params: Schema.Struct({
    /** The project's id, as the dashboard shows it (a UUID). */
    id: ProjectId
  }),
  result: ProjectUsage.ProjectUsage,
  cost: { credits: 0, usage: "api" },
  bucket: "admin"
})

/**
 * GET /v0/webhooks: every webhook of the project.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const listWebhooks = Endpoint.rest({
  area: "webhooks",
  host: "v0",
  method: "GET",
  path: "/v0/webhooks",
  params: Schema.Struct({}),
  result: Webhook.WebhookList,
  cost: { credits: 100, usage: "api" },
  bucket: "webhooks"
})

/** The path's webhook id, documented once for every entry that takes it. */
const webhookIdField = {
  /** The webhook's id, as `create` answered it: letters, digits, `-` and `_` (1 to 128), such as a UUID. */
  webhookID: Webhook.WebhookId
}

// Webhook management: each call is 100 credits ("webhook management via API", the
// service's price list), counted under `api` like the list.
const management = { area: "webhooks", host: "v0", cost: { credits: 100, usage: "api" }, bucket: "webhooks" } as const

/**
 * POST /v0/webhooks: creates a webhook; the answer is the webhook with its id.
 * Not idempotent: sent twice, it makes two webhooks.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const createWebhook = Endpoint.rest({
  ...management,
  method: "POST",
  path: "/v0/webhooks",
  params: Webhook.CreateWebhook,
  result: Webhook.Webhook,
  idempotent: false
})

/**
 * GET /v0/webhooks/{webhookID}: one webhook of the key (404 when there is none).
 *
 * @since 0.1.0
 * @category webhooks
 */
export const getWebhook = Endpoint.rest({
  ...management,
  method: "GET",
  path: "/v0/webhooks/{webhookID}",
  params: Schema.Struct(webhookIdField),
  result: Webhook.Webhook
})

/**
 * PUT /v0/webhooks/{webhookID}: replaces the webhook with the whole body sent.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const editWebhook = Endpoint.rest({
  ...management,
  method: "PUT",
  path: "/v0/webhooks/{webhookID}",
  params: Schema.Struct({ ...webhookIdField, ...Webhook.WebhookBody.fields }),
  result: Webhook.Webhook
})

/**
 * PATCH /v0/webhooks/{webhookID} with `{ active }`: pauses or resumes deliveries.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const toggleWebhook = Endpoint.rest({
  ...management,
  method: "PATCH",
  path: "/v0/webhooks/{webhookID}",
  params: Schema.Struct({
    ...webhookIdField,
    /** `true` resumes deliveries, `false` pauses them. */
    active: Schema.Boolean
  }),
  result: Webhook.Webhook
})

/**
 * DELETE /v0/webhooks/{webhookID}: the answer carries nothing (an empty body or a
 * message). Not idempotent: a second delete is a 404.
 *
 * @since 0.1.0
 * @category webhooks
 */
export const deleteWebhook = Endpoint.rest({
  ...management,
  method: "DELETE",
  path: "/v0/webhooks/{webhookID}",
  params: Schema.Struct(webhookIdField),
  result: Schema.Unknown,
  idempotent: false
})

/**
 * The webhook entries, by the name of the `Webhooks` method each one serves (the SDK's
 * service and the emulator's routes are typed by this record).
 *
 * @since 0.1.0
 * @category webhooks
 */
export const webhooks = {
  list: listWebhooks,
  create: createWebhook,
  get: getWebhook,
  edit: editWebhook,
  toggle: toggleWebhook,
  delete: deleteWebhook
} as const

// -- Priority fees (JSON-RPC, 1 credit, usage `rpc`) --------------------------------

/**
 * getPriorityFeeEstimate: `[{ accountKeys | transaction, options }]`, micro-lamports per compute
 * unit from the fees of recent transactions (one level, every level, or the recommendation).
 *
 * @since 0.1.0
 * @category priorityFees
 */
export const getPriorityFeeEstimate = Endpoint.rpc({
  area: "priorityFees",
  method: "getPriorityFeeEstimate",
  params: PriorityFeeEstimate.GetPriorityFeeEstimateParams,
  result: PriorityFeeEstimate.PriorityFeeEstimate,
  cost: { credits: 1, usage: "rpc" },
  bucket: "rpc"
})

/**
 * The priority fee entries, by method name: the `PriorityFees` service and the emulator's
 * handler are both declared from this record.
 *
 * @since 0.1.0
 * @category priorityFees
 */
export const priorityFees = { getPriorityFeeEstimate } as const

// -- Address history (JSON-RPC, positional params, 100 credits, usage `rpc`) ---------------

/**
 * getTransactionsForAddress: `[address, { transactionDetails, sortOrder, limit, paginationToken,
 * filters, … }]`, an address's transactions (signatures or whole), paged by `paginationToken`.
 *
 * @since 0.1.0
 * @category addressHistory
 */
export const getTransactionsForAddress = Endpoint.rpc({
  area: "addressHistory",
  method: "getTransactionsForAddress",
  positional: "address",
  params: AddressTransactions.GetTransactionsForAddressParams,
  result: AddressTransactions.TransactionsPage,
  paging: Endpoint.cursor({
    param: "paginationToken",
    items: (r: AddressTransactions.TransactionsPage) => r.data,
    next: (r) => r.paginationToken,
    maxLimit: AddressTransactions.MAX_SIGNATURES,
    maxLimitOf: AddressTransactions.maxLimitOf
  }),
  cost: { credits: 100, usage: "rpc" },
  bucket: "rpc"
})

/**
 * The address history entries, by method name: the `AddressHistory` service and the emulator's
 * handler are both declared from this record.
 *
 * @since 0.1.0
 * @category addressHistory
 */
export const addressHistory = { getTransactionsForAddress } as const

// -- Enhanced transactions (REST, v0 host, 100 credits, usage `api`) ------------------------

const enhanced = { area: "enhanced", host: "v0", cost: { credits: 100, usage: "api" }, bucket: "enhanced" } as const

/**
 * POST /v0/transactions: enhanced transactions of up to 100 signatures a request (batched above).
 *
 * @since 0.1.0
 * @category enhanced
 */
export const parseTransactions = Endpoint.rest({
  ...enhanced,
  method: "POST",
  path: "/v0/transactions",
  params: EnhancedTransactionParams.ParseTransactionsParams,
  result: EnhancedTransactionParams.EnhancedTransactionList,
  batch: { field: "transactions", size: EnhancedTransactionParams.MAX_PARSE, concurrency: 4 },
  // A lookup: sending it twice changes nothing.
  idempotent: true
})

/**
 * GET /v0/addresses/{address}/transactions: an address's enhanced transactions, newest first; a
 * walk goes on from each page's last signature (`before-signature`) until a page comes back empty.
 *
 * @since 0.1.0
 * @category enhanced
 */
export const addressTransactions = Endpoint.rest({
  ...enhanced,
  method: "GET",
  path: "/v0/addresses/{address}/transactions",
  params: EnhancedTransactionParams.AddressTransactionsParams,
  result: EnhancedTransactionParams.EnhancedTransactionList,
  paging: Endpoint.cursor({
    param: "before-signature",
    items: (r: EnhancedTransactionParams.EnhancedTransactionList) => r,
    // The answer is a bare array: the last signature is the next position, an empty page the end.
    next: (r) => r.at(-1)?.signature,
    maxLimit: EnhancedTransactionParams.MAX_LIMIT
  })
})

/**
 * The enhanced transactions entries, by the name of the `EnhancedTransactions` method each one
 * serves (the SDK's service and the emulator's routes are declared from this record).
 *
 * @since 0.1.0
 * @category enhanced
 */
export const enhancedTransactions = { parseTransactions, addressTransactions } as const

/**
 * Every entry of the table.
 *
 * @since 0.1.0
 * @category table
 */
export const all: ReadonlyArray<Endpoint.Endpoint> = [
  ...Object.values(digitalAssetMethods),
  ...Object.values(compression),
  sendBundle,
  getBundleStatuses,
  ...Object.values(signatures),
  ...Object.values(standardRpcReads),

  ...Object.values(transactions),
  tokenMetadata,
  walletIdentity,
  walletBatchIdentity,
  walletBalances,
  walletHistory,
  walletTransfers,
  walletFundedBy,
  projectUsage,
  listWebhooks,
  createWebhook,
  getWebhook,
  editWebhook,
  toggleWebhook,
  deleteWebhook,
  ...Object.values(priorityFees),
  ...Object.values(addressHistory),
  ...Object.values(enhancedTransactions)
]

/**
 * The entry of a JSON-RPC method or REST operation name (`getAssetsByAuthority`, `GET /v0/webhooks`).
 *
 * @since 0.1.0
 * @category table
 */
export const byName: ReadonlyMap<string, Endpoint.Endpoint> = new Map(all.map((e) => [e.name, e]))

// -- Any standard Solana RPC method, by name -----------------------------------------

/** The standard RPC methods the service documents apart: their own bucket, and getProgramAccounts' price. */
const standardRpcRules: Readonly<Record<string, { readonly bucket: Endpoint.Bucket; readonly credits: number }>> = {
  sendTransaction: { bucket: "sendTransaction", credits: 1 },
  getProgramAccounts: { bucket: "getProgramAccounts", credits: 10 }
}

const standardRpcEntries = new Map<string, Endpoint.Rpc>()

/**
 * The entry of any standard Solana RPC method, for a client that sends methods by name (a kit
 * transport): the table's own entry when it has one, else an entry of its params and result as
 * they are, in the `rpc` area, 1 credit (getProgramAccounts 10), the `rpc` bucket but for the
 * methods the service limits apart (`sendTransaction`, `getProgramAccounts`). `sendTransaction`
 * is not idempotent (a send that may have arrived is not repeated by the transport's retry).
 *
 * @example
 * Endpoints.standardRpcMethod("getBalance").bucket // "rpc"
 * Endpoints.standardRpcMethod("sendTransaction").bucket // "sendTransaction"
 * @since 0.1.0
 * @category table
 */
export const standardRpcMethod = (method: string): Endpoint.Rpc => {
  const own = byName.get(method)
  if (own !== undefined && own._tag === "Rpc") return own
  let entry = standardRpcEntries.get(method)
  if (entry === undefined) {
    const rule = Object.hasOwn(standardRpcRules, method) ? standardRpcRules[method]! : undefined
    entry = Endpoint.rpc({
      area: "rpc",
      method,
      params: Schema.Unknown,
      result: Schema.Unknown,
      idempotent: method !== "sendTransaction",
      cost: { credits: rule?.credits ?? 1, usage: "rpc" },
      bucket: rule?.bucket ?? "rpc"
    })
    standardRpcEntries.set(method, entry)
  }
  return entry
}
