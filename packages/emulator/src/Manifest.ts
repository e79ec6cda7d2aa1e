/**
 * The emulator's compatibility manifest: every JSON-RPC method and REST route it serves, with
 * its fidelity, and the methods it refuses with what a caller gets. Served at
 * `GET /emulator/info` and printed by `solfx emulator --info`.
 *
 * Fidelity:
 * - `exact`: the real runtime or a real algorithm computes it (rent, layouts, proofs, hashes);
 * - `seeded`: deterministic data of the seed, in the real wire shape;
 * - `best-effort`: a documented approximation (the note says of what);
 * - `refused`: not served; the note says what a caller gets.
 *
 * The list is generated from the areas' routing (the endpoint tables' methods and routes); the
 * fidelity of each is the table below, beside it. `packages/emulator/test/Manifest.test.ts`
 * fails on a method served but not listed here, or listed but not served: a new method gets its
 * line in the same commit.
 *
 * @example
 * const manifest = Manifest.make(areas)
 * manifest.methods.find((m) => m.name === "getAccountInfo")?.fidelity // "exact"
 * @since 0.1.0
 */
import type { Area } from "./Area.js"

/**
 * How closely a method follows the real service.
 *
 * @since 0.1.0
 * @category models
 */
export type Fidelity = "exact" | "seeded" | "best-effort" | "refused"

/**
 * One line of the manifest.
 *
 * @since 0.1.0
 * @category models
 */
export interface Line {
  /** `rpc` (a JSON-RPC method, POST /) or `rest` (a route). */
  readonly kind: "rpc" | "rest"
  /** The method, or `METHOD /path` of a route. */
  readonly name: string
  /** The emulator area serving it (none for a refused one). */
  readonly area: string | null
  /** `unlisted` only for a method the table below lacks (an extension area's). */
  readonly fidelity: Fidelity | "unlisted"
  readonly note: string
}

/**
 * The manifest: what is served, and what is refused.
 *
 * @since 0.1.0
 * @category models
 */
export interface Manifest {
  readonly methods: ReadonlyArray<Line>
}

type Entry = readonly [Fidelity, string]

const das: Entry = ["seeded", "the seed's assets and the world's, in DAS's shape; lists page by page and by cursor"]
const photon: Entry = ["seeded", "the seed's compressed accounts and the world's, in Photon's shape"]
const proof: Entry = [
  "seeded",
  "proofs in the real shape; those of the world's compressed NFTs are computed over their tree's leaves"
]
const cluster: Entry = ["seeded", "the emulator's one clock: slots, heights and times every area shows"]
const accounts: Entry = [
  "exact",
  "the world's accounts in their real byte layouts (SPL Token, Token-2022, system); encodings as the RPC's"
]
const wallet: Entry = [
  "seeded",
  "the seed's wallets, whose history adds up to their balances, and the world's transfers"
]
const webhook: Entry = ["exact", "stored per key; deliveries POSTed as landed transactions happen"]

/**
 * The fidelity of every method and route the emulator serves, by its name in the routing.
 *
 * @since 0.1.0
 * @category data
 */
export const served: Readonly<Record<string, Entry>> = {
  // -- standard RPC: accounts --
  getBalance: accounts,
  getAccountInfo: accounts,
  getMultipleAccounts: accounts,
  getProgramAccounts: [
    "exact",
    "as getAccountInfo; a scan of more than 10,000 accounts (either token program unfiltered) is refused with -32010 unless a memcmp of the owner (offset 32) or mint (offset 0) narrows it"
  ],
  getTokenAccountsByOwner: [
    "exact",
    "as getAccountInfo; an owner of more than 10,000 token accounts (the 100,000-asset owner) is refused with -32010: DAS getTokenAccounts pages them"
  ],
  getTokenAccountsByDelegate: accounts,
  getTokenAccountBalance: accounts,
  getTokenSupply: ["exact", "the mint's supply: the sum of its token accounts"],
  getTokenLargestAccounts: accounts,
  // -- standard RPC: cluster --
  getHealth: ["exact", "always ok"],
  getVersion: ["seeded", "solana-core 2.3.13, a seeded feature-set"],
  getIdentity: ["seeded", "a seeded identity key"],
  getGenesisHash: ["seeded", "a seeded genesis hash (a local cluster's, not mainnet's)"],
  getSlot: cluster,
  getBlockHeight: cluster,
  getEpochInfo: ["seeded", "mainnet's schedule (432,000 slots an epoch) over the one clock; transactionCount seeded"],
  getEpochSchedule: ["exact", "mainnet's: 432,000 slots an epoch, no warmup"],
  getLatestBlockhash: [
    "seeded",
    "one blockhash a slot, valid 150 blocks; the bank's (LiteSVM's) once it installs them"
  ],
  isBlockhashValid: ["seeded", "valid for 150 blocks after its own, as the runtime's"],
  getFeeForMessage: [
    "best-effort",
    "5,000 lamports a signature plus SetComputeUnitPrice × the unit limit (200,000 an instruction without SetComputeUnitLimit); null for an expired blockhash"
  ],
  getMinimumBalanceForRentExemption: ["exact", "(128 + size) × 3,480 × 2, as the runtime"],
  getBlockTime: ["seeded", "the one clock's time of the slot; -32004 for a future slot"],
  getRecentPrioritizationFees: [
    "best-effort",
    "each slot's least fee from the world's recent fees (ledger's SetComputeUnitPrice and seeded traffic), as getPriorityFeeEstimate"
  ],
  getSignaturesForAddress: ["seeded", "the address's seeded history and what the world landed, newest first"],
  getSignatureStatuses: ["seeded", "landed and seeded signatures; commitment by slots passed"],
  getTransactionsForAddress: ["seeded", "the address's seeded history and what the world landed"],
  // -- standard RPC: transactions --
  sendTransaction: [
    "exact",
    "executed by the real runtime (LiteSVM) over the world's accounts; a failed preflight is -32002 with the simulation"
  ],
  simulateTransaction: ["exact", "the real runtime's error, logs, compute units and accounts after; nothing kept"],
  requestAirdrop: ["exact", "lamports from the world's faucet, executed by the real runtime as a local validator's"],
  getTransaction: [
    "exact",
    "the ledger's landed transactions with the balances, logs and fee they ran with; json, jsonParsed, base64, base58"
  ],
  // -- priority fees --
  getPriorityFeeEstimate: [
    "best-effort",
    "percentiles of the world's recent fees (the ledger's and seeded traffic on contended accounts)"
  ],
  // -- DAS --
  getTokenAccounts: das,
  getAssetsByAuthority: das,
  getSignaturesForAsset: das,
  getAsset: das,
  getAssetsByOwner: das,
  getAssetsByGroup: das,
  getAssetsByCreator: das,
  searchAssets: das,
  getNftEditions: das,
  getAssetProofBatch: proof,
  getAssetBatch: das,
  getAssetProof: proof,
  getAssets: ["seeded", "Metaplex's name for getAssetBatch"],
  getAssetSignatures: ["seeded", "Metaplex's name for getSignaturesForAsset"],
  getAssetProofs: ["seeded", "Metaplex's name for getAssetProofBatch"],
  // -- ZK compression (Photon) --
  getCompressionSignaturesForAddress: photon,
  getCompressedMintTokenHolders: photon,
  getLatestNonVotingSignatures: photon,
  getCompressedTokenAccountsByOwner: photon,
  getValidityProof: [
    "best-effort",
    "roots, indexes and proof bytes seeded in the real shape: not a Groth16 proof a verifier accepts"
  ],
  getCompressedTokenBalancesByOwnerV2: photon,
  getCompressionSignaturesForTokenOwner: photon,
  getTransactionWithCompressionInfo: photon,
  getCompressionSignaturesForOwner: photon,
  getCompressedTokenAccountsByOwnerV2: photon,
  getCompressedAccountsByOwnerV2: photon,
  getMultipleCompressedAccountsV2: photon,
  getValidityProofV2: ["best-effort", "as getValidityProof"],
  getTransactionWithCompressionInfoV2: photon,
  getIndexerSlot: ["seeded", "the one clock's slot"],
  getIndexerHealth: ["exact", "always ok"],
  // -- bundles --
  sendBundle: [
    "best-effort",
    "transfers applied atomically to the world by rule (the bank executes them once it lands)"
  ],
  getBundleStatuses: ["seeded", "landed bundles; commitment by slots passed"],
  // -- REST --
  "GET /v0/admin/projects/:id/usage": ["exact", "the credits and usage the emulator charged by the endpoint table"],
  "POST /v0/token-metadata": ["seeded", "the seed's mints and the world's, with Metaplex metadata"],
  "GET /v1/wallet/:wallet/identity": wallet,
  "POST /v1/wallet/batch-identity": wallet,
  "GET /v1/wallet/:wallet/balances": wallet,
  "GET /v1/wallet/:wallet/history": wallet,
  "GET /v1/wallet/:wallet/transfers": wallet,
  "GET /v1/wallet/:wallet/funded-by": wallet,
  "POST /v0/transactions": [
    "seeded",
    "the ledger's transactions (landed and seeded) enhanced by the builder enhanced webhooks use"
  ],
  "GET /v0/addresses/:address/transactions": [
    "seeded",
    "the address's history as getSignaturesForAddress lists it, enhanced; filters by type, source, slot, time"
  ],
  "GET /v0/webhooks": webhook,
  "POST /v0/webhooks": webhook,
  "GET /v0/webhooks/:webhookID": webhook,
  "PUT /v0/webhooks/:webhookID": webhook,
  "PATCH /v0/webhooks/:webhookID": webhook,
  "DELETE /v0/webhooks/:webhookID": webhook
}

/**
 * Standard RPC methods apps call that the emulator does not serve, with what a caller gets.
 *
 * @since 0.1.0
 * @category data
 */
export const refused: Readonly<Record<string, string>> = {
  getBlock: "Method not found (-32601): blocks are not kept; read transactions by signature or address",
  getBlocks: "Method not found (-32601)",
  getBlockProduction: "Method not found (-32601)",
  getClusterNodes: "Method not found (-32601): one node, no gossip",
  getVoteAccounts: "Method not found (-32601): no votes",
  getLeaderSchedule: "Method not found (-32601)",
  getInflationReward: "Method not found (-32601): no staking",
  getLargestAccounts: "Method not found (-32601)",
  getSupply: "Method not found (-32601)",
  getStakeMinimumDelegation: "Method not found (-32601): no staking"
}

/**
 * The manifest of a set of areas: their methods and routes with the table's fidelity, then the refused methods.
 *
 * @since 0.1.0
 * @category constructors
 */
export const make = (areas: ReadonlyArray<Area>): Manifest => {
  const line = (kind: Line["kind"], name: string, area: string): Line => {
    const entry = Object.hasOwn(served, name) ? served[name] : undefined
    return {
      kind,
      name,
      area,
      fidelity: entry?.[0] ?? "unlisted",
      note: entry?.[1] ?? "not in the emulator's fidelity table"
    }
  }
  const methods: Array<Line> = []
  for (const area of areas) {
    for (const name of Object.keys(area.rpc ?? {})) methods.push(line("rpc", name, area.name))
    for (const route of area.routes ?? []) methods.push(line("rest", `${route.method} ${route.path}`, area.name))
  }
  const names = new Set(methods.map((m) => m.name))
  for (const [name, note] of Object.entries(refused)) {
    if (!names.has(name)) methods.push({ kind: "rpc", name, area: null, fidelity: "refused", note })
  }
  return { methods }
}

/**
 * The manifest as text, one line a method: fidelity, name, note (for `--info`).
 *
 * @since 0.1.0
 * @category formatting
 */
export const format = (manifest: Manifest): string =>
  manifest.methods.map((m) => `${m.fidelity.padEnd(11)} ${m.name.padEnd(40)} ${m.note}`).join("\n")
