/**
 * Every API area the emulator serves. Each area adds one line here.
 *
 * @since 0.1.0
 */
import type { Area } from "../Area.js"
import * as AccountReads from "./AccountReads.js"
import * as AddressHistory from "./AddressHistory.js"
import * as Admin from "./Admin.js"
import * as AssetQueries from "./AssetQueries.js"
import * as Bundles from "./Bundles.js"
import * as Cluster from "./Cluster.js"
import * as Compression from "./Compression.js"
import * as DigitalAssets from "./DigitalAssets.js"
import * as EnhancedTransactions from "./EnhancedTransactions.js"
import * as PriorityFees from "./PriorityFees.js"
import * as Signatures from "./Signatures.js"
import * as TokenMetadata from "./TokenMetadata.js"
import * as Transactions from "./Transactions.js"
import * as Wallet from "./Wallet.js"
import * as Webhooks from "./Webhooks.js"

/**
 * @since 0.1.0
 * @category areas
 */
export const areas: ReadonlyArray<Area> = [
  AccountReads.area,
  AddressHistory.area,
  Admin.area,
  AssetQueries.area,
  Bundles.area,
  Cluster.area,
  Compression.area,
  DigitalAssets.area,
  EnhancedTransactions.area,
  PriorityFees.area,
  Signatures.area,
  TokenMetadata.area,
  Transactions.area,
  Wallet.area,
  Webhooks.area
]
