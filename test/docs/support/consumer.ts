/**
 * A small consumer of the public API, as a user writes it: every object field it writes is a param or an
 * option of a public operation. `Hover.test.ts` asks TypeScript's language service what an editor shows
 * on each of them.
 */
import { Compression, DigitalAssets, Signatures, Wallet, Webhooks } from "@solfx/sdk"
import { Subscriptions } from "@solfx/subscriptions"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

const owner = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"

export const wallet = Effect.gen(function*() {
  const wallet = yield* Wallet.Wallet
  yield* wallet.history(owner, { limit: 50, before: "sig", after: "sig", type: "SWAP", tokenAccounts: "all" })
  yield* wallet.balances(owner, { page: 1, limit: 100, showNative: true, showNfts: true, showZeroBalance: false })
  yield* wallet.transfers(owner, { limit: 100, cursor: "abc" })
  yield* wallet.batchIdentity([owner], { concurrency: 2 })
  yield* wallet.portfolioUsdValue(owner, { showNative: true })
  yield* Stream.runDrain(wallet.history.pages(owner, { limit: 100, start: "sig" }))
})

export const das = Effect.gen(function*() {
  const das = yield* DigitalAssets.DigitalAssets
  yield* das.getAssetsByOwner({
    ownerAddress: owner,
    page: 1,
    sortBy: { sortBy: "created", sortDirection: "asc" },
    options: { showFungible: true, showGrandTotal: true }
  })
  yield* das.getAssetsByAuthority({ authorityAddress: owner, cursor: "c" })
  yield* das.getAssetsByGroup({ groupKey: "collection", groupValue: owner, before: "a" })
  yield* das.getAssetsByCreator({ creatorAddress: owner, onlyVerified: true })
  yield* das.searchAssets({ compressed: true, burnt: false, interface: "V1_NFT", grouping: ["collection", owner] })
  yield* das.getTokenAccounts({ mint: owner, options: { showZeroBalance: true } })
  yield* das.getAsset({ id: owner })
  yield* das.getSignaturesForAsset({ id: owner, sortDirection: "desc" })
  yield* das.getNftEditions({ mint: owner, limit: 10 })
})

export const compression = Effect.gen(function*() {
  const zk = yield* Compression.Compression
  yield* zk.getCompressedMintTokenHolders({ mint: owner, limit: 1000 })
  yield* zk.getCompressedTokenAccountsByOwner({ owner, mint: owner })
  yield* zk.getCompressionSignaturesForAddress({ address: owner, cursor: "abc" })
  yield* zk.getValidityProof({ hashes: [owner], newAddressesWithTrees: [{ address: owner, tree: owner }] })
  yield* zk.getMultipleCompressedAccountsV2({ addresses: [owner] })
  yield* zk.getTransactionWithCompressionInfo({ signature: "sig" })
})

export const webhooks = Effect.gen(function*() {
  const webhooks = yield* Webhooks.Webhooks
  const hook = yield* webhooks.create({
    webhookURL: "https://example.com/hook",
    webhookType: "enhanced",
    accountAddresses: [owner],
    transactionTypes: ["TRANSFER"],
    authHeader: Redacted.make("Bearer secret"),
    txnStatus: "success",
    encoding: "json"
  })
  yield* webhooks.edit(hook.webhookID, { accountAddresses: [owner], authHeader: null })
})

export const signatures = Effect.gen(function*() {
  const signatures = yield* Signatures.Signatures
  yield* signatures.getSignaturesForAddress({ address: owner, limit: 10, until: "sig", commitment: "confirmed" })
  yield* signatures.getSignatureStatuses({ signatures: ["sig"], searchTransactionHistory: true })
})

export const subscriptions = Effect.gen(function*() {
  const subscriptions = yield* Subscriptions.Subscriptions
  const signatures = yield* Signatures.Signatures
  yield* Stream.runDrain(subscriptions.slot({ commitment: "confirmed", bufferCapacity: 64, overflow: "fail" }))
  yield* Stream.runDrain(subscriptions.account(owner, { enhanced: true }))
  yield* Stream.runDrain(subscriptions.signature("sig", { backfill: signatures }))
  yield* Stream.runDrain(
    subscriptions.transaction({ vote: false, failed: false, accountInclude: [owner], accountRequired: [owner] })
  )
})
