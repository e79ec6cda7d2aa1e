/**
 * The emulator charges from core's endpoint table and bills by core's Billing rule:
 * for every entry of `Endpoints`, one successful call adds exactly the entry's
 * credits and one request in the entry's usage category; outcomes the rule does not
 * bill (a handler's 4xx) cost nothing, and a documented 404 answer is billed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Billing from "@solfx/core/Billing"
import type * as Endpoint from "@solfx/core/Endpoint"
import * as Endpoints from "@solfx/core/Endpoints"
import { build, memo, signer, TIP, transfer } from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import * as Emulator from "../src/Emulator.js"
import { get, post, type Reply, rpc, send } from "./support/Http.js"

const tipped = (async () => {
  const payer = await signer()
  return build({ version: 0, payer, instructions: [transfer(payer, TIP, 5000n)] })
})()

type Call = (emu: Emulator.Emulator) => Effect.Effect<Reply>

/** The id of the webhook the create sample made. */
let created: string | undefined

/** One valid request per entry; the test iterates the table, so an entry missing here fails it. */
const calls: Readonly<Record<string, Call>> = {
  getTokenAccounts: (emu) => rpc(emu, "getTokenAccounts", { owner: emu.samples.tokenAccountOwner, limit: 1 }),
  getAssetsByAuthority: (emu) =>
    rpc(emu, "getAssetsByAuthority", { authorityAddress: emu.samples.assetAuthority, limit: 1 }),
  getSignaturesForAsset: (emu) => rpc(emu, "getSignaturesForAsset", { id: emu.samples.compressedNft, limit: 1 }),
  getAssetProofBatch: (emu) => rpc(emu, "getAssetProofBatch", { ids: [emu.samples.compressedNft] }),
  getCompressionSignaturesForAddress: (emu) =>
    rpc(emu, "getCompressionSignaturesForAddress", { address: emu.samples["compressionAddress"], limit: 1 }),
  getCompressedMintTokenHolders: (emu) =>
    rpc(emu, "getCompressedMintTokenHolders", { mint: emu.samples.compressedTokenMint, limit: 1 }),
  getLatestNonVotingSignatures: (emu) => rpc(emu, "getLatestNonVotingSignatures", { limit: 1 }),
  getCompressedTokenAccountsByOwner: (emu) =>
    rpc(emu, "getCompressedTokenAccountsByOwner", { owner: emu.samples["compressedTokenOwner"], limit: 1 }),
  getValidityProof: (emu) => rpc(emu, "getValidityProof", { hashes: [emu.samples["compressedAccountHash"]] }),
  getCompressedTokenBalancesByOwnerV2: (emu) =>
    rpc(emu, "getCompressedTokenBalancesByOwnerV2", { owner: emu.samples["compressedTokenOwner"], limit: 1 }),
  getCompressionSignaturesForTokenOwner: (emu) =>
    rpc(emu, "getCompressionSignaturesForTokenOwner", { owner: emu.samples["compressedTokenOwner"], limit: 1 }),
  getTransactionWithCompressionInfo: (emu) =>
    rpc(emu, "getTransactionWithCompressionInfo", { signature: emu.samples["compressionSignature"] }),
  getAsset: (emu) => rpc(emu, "getAsset", { id: emu.samples.compressedNft }),
  getAssetBatch: (emu) => rpc(emu, "getAssetBatch", { ids: [emu.samples.compressedNft] }),
  getAssetProof: (emu) => rpc(emu, "getAssetProof", { id: emu.samples.compressedNft }),
  getAssetsByOwner: (emu) => rpc(emu, "getAssetsByOwner", { ownerAddress: emu.samples.nftOwner, limit: 1 }),
  getAssetsByGroup: (emu) =>
    rpc(emu, "getAssetsByGroup", { groupKey: "collection", groupValue: emu.samples.nftCollection, limit: 1 }),
  getAssetsByCreator: (emu) => rpc(emu, "getAssetsByCreator", { creatorAddress: emu.samples.nftCreator, limit: 1 }),
  searchAssets: (emu) => rpc(emu, "searchAssets", { ownerAddress: emu.samples.nftOwner, compressed: true, limit: 1 }),
  getNftEditions: (emu) => rpc(emu, "getNftEditions", { mint: emu.samples.masterEdition, limit: 1 }),
  getCompressionSignaturesForOwner: (emu) =>
    rpc(emu, "getCompressionSignaturesForOwner", { owner: emu.samples["compressionProgram"], limit: 1 }),
  getCompressedTokenAccountsByOwnerV2: (emu) =>
    rpc(emu, "getCompressedTokenAccountsByOwnerV2", { owner: emu.samples["compressedTokenOwner"], limit: 1 }),
  getCompressedAccountsByOwnerV2: (emu) =>
    rpc(emu, "getCompressedAccountsByOwnerV2", { owner: emu.samples["compressionProgram"], limit: 1 }),
  getMultipleCompressedAccountsV2: (emu) =>
    rpc(emu, "getMultipleCompressedAccountsV2", { hashes: [emu.samples["compressedAccountHash"]] }),
  getValidityProofV2: (emu) =>
    rpc(emu, "getValidityProofV2", { hashes: [emu.samples["compressedAccountHash"]], newAddressesWithTrees: [] }),
  getTransactionWithCompressionInfoV2: (emu) =>
    rpc(emu, "getTransactionWithCompressionInfoV2", { signature: emu.samples["compressionSignature"] }),
  getIndexerSlot: (emu) => rpc(emu, "getIndexerSlot", []),
  getIndexerHealth: (emu) => rpc(emu, "getIndexerHealth", []),
  sendBundle: (emu) =>
    Effect.flatMap(
      Effect.promise(() => tipped),
      (tx) => rpc(emu, "sendBundle", [[tx.base64], { encoding: "base64" }], 1)
    ),
  getBundleStatuses: (emu) => rpc(emu, "getBundleStatuses", [["0".repeat(64)]]),
  sendTransaction: (emu) =>
    Effect.flatMap(
      Effect.promise(async () => {
        const payer = await signer()
        return { payer, tx: await build({ version: 0, payer, instructions: [memo("charged")] }) }
      }),
      ({ payer, tx }) =>
        Effect.zipRight(
          Effect.orDie(emu.world.fund({ address: payer.address, lamports: 1_000_000_000n })),
          rpc(emu, "sendTransaction", [tx.base64, { encoding: "base64" }])
        )
    ),
  simulateTransaction: (emu) =>
    Effect.flatMap(
      Effect.promise(() => tipped),
      (tx) => rpc(emu, "simulateTransaction", [tx.base64, { encoding: "base64" }])
    ),
  requestAirdrop: (emu) => rpc(emu, "requestAirdrop", [emu.dataset.address("charging:airdrop"), 1_000_000_000]),
  getTransaction: (emu) => rpc(emu, "getTransaction", ["1".repeat(64), { encoding: "json" }]),
  getSignaturesForAddress: (emu) => rpc(emu, "getSignaturesForAddress", [emu.samples["wallet"], { limit: 1 }]),
  getSignatureStatuses: (emu) => rpc(emu, "getSignatureStatuses", [["1".repeat(64)]]),
  "POST /v0/token-metadata": (emu) =>
    post(emu, { mintAccounts: [emu.samples.metadataMint] }, { path: "/v0/token-metadata" }),
  "GET /v1/wallet/{wallet}/identity": (emu) => get(emu, `/v1/wallet/${emu.samples["wallet"]}/identity`),
  "POST /v1/wallet/batch-identity": (emu) =>
    post(emu, { addresses: [emu.samples["wallet"]] }, { path: "/v1/wallet/batch-identity" }),
  "GET /v1/wallet/{wallet}/balances": (emu) => get(emu, `/v1/wallet/${emu.samples["wallet"]}/balances`),
  "GET /v1/wallet/{wallet}/history": (emu) => get(emu, `/v1/wallet/${emu.samples["wallet"]}/history`),
  "GET /v1/wallet/{wallet}/transfers": (emu) => get(emu, `/v1/wallet/${emu.samples["wallet"]}/transfers`),
  "GET /v1/wallet/{wallet}/funded-by": (emu) => get(emu, `/v1/wallet/${emu.samples["wallet"]}/funded-by`),
  "GET /v0/admin/projects/{id}/usage": (emu) =>
    get(emu, `/v0/admin/projects/${emu.projectId}/usage`, { key: null, headers: { "x-api-key": emu.apiKey } }),
  "GET /v0/webhooks": (emu) => get(emu, "/v0/webhooks"),
  // The table lists create first: the calls after it act on the webhook it made.
  "POST /v0/webhooks": (emu) =>
    Effect.tap(
      send(emu, "POST", "/v0/webhooks", {
        webhookURL: "http://127.0.0.1:9/hook",
        webhookType: "raw",
        accountAddresses: [emu.samples["wallet"]]
      }),
      (reply) => Effect.sync(() => void (created = reply.json?.webhookID))
    ),
  "GET /v0/webhooks/{webhookID}": (emu) => get(emu, `/v0/webhooks/${created}`),
  "PUT /v0/webhooks/{webhookID}": (emu) =>
    send(emu, "PUT", `/v0/webhooks/${created}`, {
      webhookURL: "http://127.0.0.1:9/other",
      webhookType: "enhanced",
      accountAddresses: [emu.samples["wallet"]],
      transactionTypes: ["TRANSFER"]
    }),
  "PATCH /v0/webhooks/{webhookID}": (emu) => send(emu, "PATCH", `/v0/webhooks/${created}`, { active: false }),
  "DELETE /v0/webhooks/{webhookID}": (emu) => send(emu, "DELETE", `/v0/webhooks/${created}`),
  getPriorityFeeEstimate: (emu) => rpc(emu, "getPriorityFeeEstimate", [{ accountKeys: [emu.samples.feeAccount] }]),
  getTransactionsForAddress: (emu) => rpc(emu, "getTransactionsForAddress", [emu.samples.wallet, { limit: 1 }]),
  // -- standard RPC reads --
  getHealth: (emu) => rpc(emu, "getHealth", []),
  getVersion: (emu) => rpc(emu, "getVersion", []),
  getIdentity: (emu) => rpc(emu, "getIdentity", []),
  getGenesisHash: (emu) => rpc(emu, "getGenesisHash", []),
  getSlot: (emu) => rpc(emu, "getSlot", []),
  getBlockHeight: (emu) => rpc(emu, "getBlockHeight", []),
  getEpochInfo: (emu) => rpc(emu, "getEpochInfo", []),
  getEpochSchedule: (emu) => rpc(emu, "getEpochSchedule", []),
  getLatestBlockhash: (emu) => rpc(emu, "getLatestBlockhash", []),
  isBlockhashValid: (emu) => rpc(emu, "isBlockhashValid", ["1".repeat(32)]),
  getFeeForMessage: (emu) =>
    Effect.flatMap(
      Effect.promise(() => tipped),
      (tx) => rpc(emu, "getFeeForMessage", [Buffer.from(tx.bytes.subarray(65)).toString("base64")])
    ),
  getMinimumBalanceForRentExemption: (emu) => rpc(emu, "getMinimumBalanceForRentExemption", [165]),
  getBlockTime: (emu) => rpc(emu, "getBlockTime", [emu.ledger.baseSlot]),
  getRecentPrioritizationFees: (emu) => rpc(emu, "getRecentPrioritizationFees", []),
  getBalance: (emu) => rpc(emu, "getBalance", [emu.samples["wallet"]]),
  getAccountInfo: (emu) => rpc(emu, "getAccountInfo", [emu.samples["wallet"], { encoding: "base64" }]),
  getMultipleAccounts: (emu) => rpc(emu, "getMultipleAccounts", [[emu.samples["wallet"]], { encoding: "base64" }]),
  getProgramAccounts: (emu) =>
    rpc(emu, "getProgramAccounts", ["11111111111111111111111111111111", {
      encoding: "base64",
      filters: [{ dataSize: 0 }]
    }]),
  getTokenAccountsByOwner: (emu) =>
    rpc(emu, "getTokenAccountsByOwner", [emu.samples["wallet"], { programId: TOKEN_PROGRAM }, { encoding: "base64" }]),
  getTokenAccountsByDelegate: (emu) =>
    rpc(emu, "getTokenAccountsByDelegate", [emu.samples["wallet"], { programId: TOKEN_PROGRAM }]),
  getTokenAccountBalance: (emu) => rpc(emu, "getTokenAccountBalance", [emu.sampleRecord["rpcTokenAccount"]]),
  getTokenSupply: (emu) => rpc(emu, "getTokenSupply", [emu.sampleRecord["rpcMint"]]),
  getTokenLargestAccounts: (emu) => rpc(emu, "getTokenLargestAccounts", [emu.sampleRecord["rpcMint"]]),
  "POST /v0/transactions": (emu) => post(emu, { transactions: ["1".repeat(64)] }, { path: "/v0/transactions" }),
  "GET /v0/addresses/{address}/transactions": (emu) =>
    get(emu, `/v0/addresses/${emu.samples.wallet}/transactions`, { query: { limit: "1" } })
}

const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA"

/** How the emulator names an entry among its operations: REST path parameters as `:name`. */
const operationOf = (entry: Endpoint.Endpoint) =>
  entry._tag === "Rpc" ? entry.method : `${entry.method} ${entry.path.replace(/\{([^}]+)\}/g, ":$1")}`

describe("charging from the endpoint table", () => {
  it.scopedLive("one successful call of every entry adds the entry's credits in the entry's category", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ slotMs: 60_000 })
      for (const entry of Endpoints.all) {
        expect(emu.operations, entry.name).toContain(operationOf(entry))
        const call = calls[entry.name]
        expect(call, `a sample request for ${entry.name}`).toBeDefined()
        const before = emu.usage()
        const reply = yield* call!(emu)
        expect(reply.status, `${entry.name}: ${reply.text.slice(0, 200)}`).toBe(200)
        expect(reply.json?.error, entry.name).toBeUndefined()
        const after = emu.usage()
        expect(after.creditsUsed - before.creditsUsed, entry.name).toBe(entry.cost.credits)
        for (const category of Object.keys(after.usage) as Array<Endpoint.UsageCategory>) {
          const expected = category === entry.cost.usage ? 1 : 0
          expect(after.usage[category] - before.usage[category], `${entry.name} in ${category}`).toBe(expected)
        }
        expect(emu.requests.at(-1)).toMatchObject({ credits: entry.cost.credits, category: entry.cost.usage })
      }
    }))

  it.scopedLive("an alias is charged as the entry it aliases", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      const reply = yield* rpc(emu, "getAssetProofs", { ids: [emu.samples.compressedNft] })
      expect(reply.status).toBe(200)
      expect(emu.usage().creditsUsed).toBe(Endpoints.getAssetProofBatch.cost.credits)
      expect(emu.usage().usage[Endpoints.getAssetProofBatch.cost.usage]).toBe(1)
    }))

  it.scopedLive("bills by core's rule: a handler's 4xx is not billed, a documented 404 answer is", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make()
      // The DAS handler rejects a bad limit with 400 / -32602.
      const bad = yield* rpc(emu, "getAssetsByAuthority", { authorityAddress: emu.samples.assetAuthority, limit: 0 })
      expect(bad.status).toBe(400)
      expect(bad.json.error.code).toBe(-32602)
      expect(Billing.billed({ _tag: "Answered", status: bad.status }, { notFoundIsAnswer: false })).toBe(false)
      expect(emu.usage().creditsUsed).toBe(0)
      expect(emu.usage().usage.das).toBe(0)
      expect(emu.requests.at(-1)).toMatchObject({ status: 400, credits: 0 })

      // Identity documents 404 as its "not found" answer: billed.
      const unknown = yield* get(emu, `/v1/wallet/${emu.samples.unknownAddress}/identity`)
      expect(unknown.status).toBe(404)
      expect(emu.usage().creditsUsed).toBe(Endpoints.walletIdentity.cost.credits)
      expect(emu.usage().usage.api).toBe(1)
    }))
})
