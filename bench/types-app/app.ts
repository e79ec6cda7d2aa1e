/**
 * The small app `bench/types.ts` type-checks (issue 39): about 130 lines using five services (Wallet, DAS,
 * Webhooks, Signatures, Subscriptions) as a user writes them, importing the packages as installed (their
 * `.d.ts`, not their sources). Only checked, never run.
 */
import * as NodeRuntime from "@effect/platform-node/NodeRuntime"
import * as NodeSocket from "@effect/platform-node/NodeSocket"
import { Config, DigitalAssets, Signatures, Solfx, Wallet, Webhooks } from "@solfx/sdk"
import { Subscriptions } from "@solfx/subscriptions"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"

const owner = "86xCnPeV69n6t3DnyGvkKobf9FdN2H9oiVDdaMpo2MMY"

/** What the app prints about a wallet. */
interface Summary {
  readonly owner: string
  readonly tokens: number
  readonly usd: number
  readonly swaps: number
  readonly transfers: number
  readonly assets: number
  readonly signatures: number
}

const walletPart = (address: string) =>
  Effect.gen(function*() {
    const wallet = yield* Wallet.Wallet
    const balances = yield* wallet.balances(address, { page: 1, limit: 100, showNative: true, showNfts: false })
    const usd = yield* wallet.portfolioUsdValue(address, { showNative: true })
    const swaps = yield* wallet.history(address, { limit: 50, type: "SWAP", tokenAccounts: "balanceChanged" })
    const transfers = yield* Stream.runCount(wallet.transfers.stream(address, { limit: 100 }).pipe(Stream.take(500)))
    const identity = yield* wallet.identity(address)
    return {
      tokens: balances.balances.length,
      usd,
      swaps: swaps.data.length,
      transfers,
      name: Option.map(identity, (i) => i.name)
    }
  })

const assetsPart = (address: string) =>
  Effect.gen(function*() {
    const das = yield* DigitalAssets.DigitalAssets
    const page = yield* das.getAssetsByOwner({
      ownerAddress: address,
      page: 1,
      limit: 100,
      sortBy: { sortBy: "created", sortDirection: "desc" },
      options: { showFungible: true }
    })
    const all = yield* Stream.runCollect(
      das.searchAssets.stream({ ownerAddress: address, compressed: true, limit: 1000 }).pipe(Stream.take(2000))
    )
    const first = page.items[0]
    const proof = first === undefined ? undefined : yield* das.getAssetProof({ id: first.id }).pipe(Effect.option)
    return { assets: page.total, compressed: all.length, proved: proof !== undefined && Option.isSome(proof) }
  })

const signaturesPart = (address: string) =>
  Effect.gen(function*() {
    const signatures = yield* Signatures.Signatures
    const latest = yield* signatures.getSignaturesForAddress({ address, limit: 100, commitment: "confirmed" })
    const statuses = yield* signatures.getSignatureStatuses({
      signatures: latest.map((s) => s.signature),
      searchTransactionHistory: true
    })
    const finalized = statuses.value.filter((s) => s?.confirmationStatus === "finalized").length
    return { signatures: latest.length, finalized }
  })

const webhookPart = (address: string) =>
  Effect.gen(function*() {
    const webhooks = yield* Webhooks.Webhooks
    const existing = yield* webhooks.list()
    const found = existing.find((w) => w.accountAddresses.includes(address))
    if (found !== undefined) return found.webhookID
    const hook = yield* webhooks.create({
      webhookURL: "https://example.com/solana-hook",
      webhookType: "enhanced",
      accountAddresses: [address],
      transactionTypes: ["TRANSFER", "SWAP", "NFT_SALE"],
      authHeader: Redacted.make("Bearer app-secret"),
      txnStatus: "success"
    })
    yield* webhooks.edit(hook.webhookID, (current) => ({ accountAddresses: [...current.accountAddresses, owner] }))
    return hook.webhookID
  })

const watchPart = (address: string) =>
  Effect.gen(function*() {
    const subscriptions = yield* Subscriptions.Subscriptions
    const slots = subscriptions.slot({ commitment: "confirmed" }).pipe(Stream.take(3))
    const changes = subscriptions.account(address, { commitment: "confirmed" }).pipe(Stream.take(1))
    yield* Stream.merge(slots, changes).pipe(
      Stream.runForEach((event) =>
        event._tag === "Gap"
          ? Console.log(`gap after ${event.afterSlot} (${event.reason})`)
          : Console.log(`notification at slot ${event.slot}`)
      )
    )
  })

const summary = (address: string): Effect.Effect<Summary, unknown, Solfx.Services | Subscriptions.Subscriptions> =>
  Effect.gen(function*() {
    const [wallet, assets, signatures] = yield* Effect.all(
      [walletPart(address), assetsPart(address), signaturesPart(address)],
      { concurrency: 3 }
    )
    return {
      owner: address,
      tokens: wallet.tokens,
      usd: wallet.usd,
      swaps: wallet.swaps,
      transfers: wallet.transfers,
      assets: assets.assets,
      signatures: signatures.signatures
    }
  })

const program = Effect.gen(function*() {
  const result = yield* summary(owner)
  yield* Console.log(JSON.stringify(result))
  const webhookID = yield* webhookPart(owner)
  yield* Console.log(`webhook ${webhookID}`)
  yield* watchPart(owner)
})

const subscriptionsLayer = Subscriptions.layer.pipe(
  Layer.provide([Config.layerConfig, NodeSocket.layerWebSocketConstructor])
)

program.pipe(Effect.provide(Layer.merge(Solfx.layerConfig, subscriptionsLayer)), NodeRuntime.runMain)
