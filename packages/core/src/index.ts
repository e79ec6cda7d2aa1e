/**
 * @solfx/core: the domain. Schemas, branded primitives, errors, config,
 * pagination and pure Solana logic. No HTTP.
 *
 * @example
 * import { Primitives, Transaction, Json } from "@solfx/core"
 *
 * const address = Schema.decodeUnknownSync(Primitives.Address)("86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY")
 * const tx = yield* Transaction.parse(wire, "base64")
 * @since 0.1.0
 */

/** @since 0.1.0 */
export * as Billing from "./Billing.js"
/** @since 0.1.0 */
export * as Bundle from "./Bundle.js"
/** @since 0.1.0 */
export * as Config from "./Config.js"
/** @since 0.1.0 */
export * from "./CreditBudget.js"
/** @since 0.1.0 */
export * as Decode from "./Decode.js"
/** @since 0.1.0 */
export * as Endpoint from "./Endpoint.js"
/** @since 0.1.0 */
export * as Endpoints from "./Endpoints.js"
/** @since 0.1.0 */
export * from "./Errors.js"
/** @since 0.1.0 */
export * as Json from "./Json.js"
/** @since 0.1.0 */
export * as Notification from "./Notification.js"
/** @since 0.1.0 */
export * as Pagination from "./Pagination.js"
/** @since 0.1.0 */
export * as Plans from "./Plans.js"
/** @since 0.1.0 */
export * as Primitives from "./Primitives.js"
/** @since 0.1.0 */
export * as Transaction from "./Transaction.js"
/** @since 0.1.0 */
export * as ProjectUsage from "./ProjectUsage.js"
/** @since 0.1.0 */
export * as Webhook from "./Webhook.js"
/** @since 0.1.0 */
export * as WebhookDelivery from "./WebhookDelivery.js"
/** @since 0.1.0 */
export * as WalletParams from "./WalletParams.js"
/** @since 0.1.0 */
export * as WalletRecords from "./WalletRecords.js"
/** @since 0.1.0 */
export * as AssetProof from "./AssetProof.js"
/** @since 0.1.0 */
export * as AssetSignature from "./AssetSignature.js"
/** @since 0.1.0 */
export * as DasParams from "./DasParams.js"
/** @since 0.1.0 */
export * as DigitalAsset from "./DigitalAsset.js"
/** @since 0.1.0 */
export * as MerkleProof from "./MerkleProof.js"
/** @since 0.1.0 */
export * as TokenAccount from "./TokenAccount.js"
/** @since 0.1.0 */
export * as TokenMetadataRecord from "./TokenMetadataRecord.js"
/**
 * The old name of `TokenMetadataRecord`: `TokenMetadata` is the service's (`@solfx/rpc`).
 *
 * @deprecated Use `TokenMetadataRecord`.
 * @since 0.1.0
 */
export * as TokenMetadata from "./TokenMetadataRecord.js"
/** @since 0.1.0 */
export * as CompressedAccount from "./CompressedAccount.js"
/** @since 0.1.0 */
export * as CompressionRequest from "./CompressionRequest.js"
/** @since 0.1.0 */
export * as CompressionSignature from "./CompressionSignature.js"
/** @since 0.1.0 */
export * as CompressionTransaction from "./CompressionTransaction.js"
/** @since 0.1.0 */
export * as SignatureStatus from "./SignatureStatus.js"
/** @since 0.1.0 */
export * as Simulation from "./Simulation.js"
/** @since 0.1.0 */
export * as TransactionSubmission from "./TransactionSubmission.js"
/** @since 0.1.0 */
export * as ConfirmedTransaction from "./ConfirmedTransaction.js"
/** @since 0.1.0 */
export * as SlotContext from "./SlotContext.js"
/** @since 0.1.0 */
export * as SubscriptionEndpoints from "./SubscriptionEndpoints.js"
/** @since 0.1.0 */
export * as ValidityProof from "./ValidityProof.js"
/** @since 0.1.0 */
export * as AssetQuery from "./AssetQuery.js"
/** @since 0.1.0 */
export * as AssetSearch from "./AssetSearch.js"
/** @since 0.1.0 */
export * as NftEdition from "./NftEdition.js"
/** @since 0.1.0 */
export * as CompressedAccountV2 from "./CompressedAccountV2.js"
/** @since 0.1.0 */
export * as CompressionTransactionV2 from "./CompressionTransactionV2.js"
/** @since 0.1.0 */
export * as IndexerStatus from "./IndexerStatus.js"
/** @since 0.1.0 */
export * as ValidityProofV2 from "./ValidityProofV2.js"
/** @since 0.1.0 */
export * as PriorityFeeEstimate from "./PriorityFeeEstimate.js"
/** @since 0.1.0 */
export * as AddressTransactions from "./AddressTransactions.js"
/** @since 0.1.0 */
export * as AccountInfo from "./AccountInfo.js"
/** @since 0.1.0 */
export * as Cluster from "./Cluster.js"
/** @since 0.1.0 */
export * as TokenAmount from "./TokenAmount.js"
/** @since 0.1.0 */
export * as EnhancedTransactionParams from "./EnhancedTransactionParams.js"
