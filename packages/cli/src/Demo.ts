/**
 * `solfx demo`: the main job. It starts an emulator in-process and tours every API
 * area through the SDK, printing a report section by section: digital assets and
 * their proofs, wallet balances, token metadata, compression, a bundle, one landing
 * seen live (a WebSocket subscription, a webhook delivered to a `WebhookReceiver`
 * served in-process, the signature RPC), webhooks, and the project usage record with
 * the credits the tour itself spent.
 *
 * @example
 * // `solfx demo --json` from code: one JSON line per section
 * yield* Demo.run({ json: true, seed: 7 })
 * @since 0.1.0
 */

import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Admin } from "@solfx/admin/Admin"
import { Webhooks } from "@solfx/admin/Webhooks"
import * as Bundle from "@solfx/core/Bundle"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Transaction from "@solfx/core/Transaction"
import * as Emulator from "@solfx/emulator/Emulator"
import { Bundles } from "@solfx/rpc/Bundles"
import { Compression } from "@solfx/rpc/Compression"
import { DigitalAssets } from "@solfx/rpc/DigitalAssets"
import { Signatures } from "@solfx/rpc/Signatures"
import { TokenMetadata } from "@solfx/rpc/TokenMetadata"
import { Subscriptions, WebhookReceiver } from "@solfx/sdk"
import { Wallet } from "@solfx/wallet/Wallet"
import * as Arr from "effect/Array"
import * as Chunk from "effect/Chunk"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Order from "effect/Order"
import * as Redacted from "effect/Redacted"
import * as Stream from "effect/Stream"
import * as Http from "node:http"
import { isDeepStrictEqual } from "node:util"
import { usageLines, webhookColumns } from "./commands/Admin.js"
import { assetColumns } from "./commands/Das.js"
import { metadataColumns, partErrors } from "./commands/Metadata.js"
import { balanceColumns } from "./commands/Wallet.js"
import { proofLines } from "./commands/Zk.js"
import * as Format from "./Format.js"
import * as Output from "./Output.js"
import * as Services from "./Services.js"
import * as WireTransaction from "./WireTransaction.js"

/**
 * What one section of the tour reports.
 *
 * @since 0.1.0
 * @category models
 */
export interface SectionReport {
  readonly lines: ReadonlyArray<string>
  /** The section's figures, printed as its JSON line with `--json`. */
  readonly data: Readonly<Record<string, unknown>>
}

/** Metadata mints in the tour: 250, so 3 requests of at most 100. */
const METADATA_MINTS = 250

const indent = (lines: ReadonlyArray<string>) => lines.map((l) => "  " + l)

const section = <E, R>(number: number, title: string, body: Effect.Effect<SectionReport, E, R>) =>
  Effect.gen(function*() {
    const emulator = yield* Emulator.EmulatorHandle
    const out = yield* Output.Output
    const before = emulator.requests.length
    const started = Date.now()
    const report = yield* body
    const millis = Date.now() - started
    const requests = emulator.requests.slice(before)
    const credits = requests.reduce((n, r) => n + r.credits, 0)
    yield* out.value({ section: title, requests: requests.length, credits, millis, ...report.data }, () => [
      `${number}. ${title}`,
      ...indent(report.lines),
      `  (${requests.length} request(s), ${Format.integer(credits)} credits, ${Format.integer(millis)} ms)`,
      ""
    ])
    return credits
  })

const digitalAssets = Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const das = yield* DigitalAssets
  const authority = emulator.samples.assetAuthority
  const assets = Chunk.toReadonlyArray(
    yield* Stream.runCollect(
      das.getAssetsByAuthority.stream({ authorityAddress: authority, limit: 1000 }, { concurrency: 8 })
    )
  )
  const ids = new Set(assets.map((a) => a.id))
  const compressed = assets.filter((a) => a.compression.compressed).map((a) => a.id)
  // Fails with InvalidProof (naming the asset) if any proof does not hash to its root.
  const proofs = yield* das.getAssetProofBatchVerified(compressed, { concurrency: 4 })
  const depths = new Set([...proofs.values()].flatMap((p) => Option.isSome(p) ? [p.value.proof.length] : []))
  const sample = [...proofs.entries()].find(([, p]) => Option.isSome(p))
  const check = sample === undefined ? undefined : MerkleProof.verify(Option.getOrThrow(sample[1]))
  // The read API real clients call by default: one asset, an owner's first page, a search.
  const first = yield* das.getAsset({ id: assets[0]!.id })
  const owner = first.ownership.owner
  const owned = yield* das.getAssetsByOwner({ ownerAddress: owner, page: 1, limit: 10 })
  const found = yield* das.searchAssets({ ownerAddress: owner, compressed: true, page: 1, limit: 10 })
  return {
    lines: [
      `streamed ${Format.integer(assets.length)} assets of authority ${authority} (8 pages in flight, in order)`,
      `distinct ids: ${Format.integer(ids.size)}; compressed: ${Format.integer(compressed.length)}`,
      ...Format.table(assetColumns, assets.slice(0, 3)),
      `...`,
      `proofs of the ${Format.integer(compressed.length)} compressed assets fetched in batches of 1,000 and ` +
      `verified (keccak-256 up to the root): ${Format.integer(proofs.size)} ok, tree depth ${[...depths].join(", ")}`,
      ...(sample === undefined ? [] : [`e.g. ${sample[0]}: ${check?.valid === true ? "verifies" : "does NOT verify"}`]),
      `getAsset ${first.id}: ${
        isDeepStrictEqual(first, assets[0]) ? "the same record as" : "DIFFERENT from"
      } the stream's first (${first.interface}, owner ${owner})`,
      `getAssetsByOwner ${owner}: total ${Format.integer(owned.total)}, first page of ${owned.items.length}; ` +
      `searchAssets { ownerAddress, compressed: true }: ${found.items.length} on its first page`
    ],
    data: {
      authority,
      assets: assets.length,
      distinct: ids.size,
      compressed: compressed.length,
      verifiedProofs: proofs.size
    }
  } satisfies SectionReport
})

const byUsdDescending = Order.reverse(
  Order.mapInput(Order.number, (b: { readonly usdValue: number | null }) => b.usdValue ?? 0)
)

const wallet = Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const service = yield* Wallet
  const address = emulator.samples.wallet
  const identity = yield* service.identity(address)
  const balances = Chunk.toReadonlyArray(yield* Stream.runCollect(service.balances.stream(address, { limit: 100 })))
  const total = balances.reduce((sum, b) => sum + (b.usdValue ?? 0), 0)
  const top = Arr.sort(balances, byUsdDescending).slice(0, 5)
  return {
    lines: [
      `wallet ${address}: ${
        Option.match(identity, { onNone: () => "no known identity", onSome: (i) => `${i.name} (${i.type})` })
      }`,
      ...Format.table(balanceColumns, top),
      `...`,
      `${Format.integer(balances.length)} balances over every page; portfolio total ${Format.usd(total)} ` +
      `(summed here: the service's totalUsdValue covers one page only)`
    ],
    data: { wallet: address, balances: balances.length, portfolioUsd: total }
  } satisfies SectionReport
})

const metadata = Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const service = yield* TokenMetadata
  const broken = emulator.samples.metadataBrokenMint
  const label = emulator.samples.metadataMintLabel
  const mints = [broken, ...Arr.makeBy(METADATA_MINTS - 1, (i) => emulator.dataset.address(`${label}${i}`))]
  const records = yield* service.getTokenMetadata({ mintAccounts: mints, includeOffChain: true }, { concurrency: 3 })
  const withErrors = records.filter((r) => partErrors(r).length > 0)
  const named = records.filter((r) => Either.isRight(r.onChainMetadata))
  return {
    lines: [
      `${records.length} mints asked in chunks of 100; records back in input order: ${
        records.every((r, i) => r.account === mints[i]) ? "yes" : "NO"
      }`,
      `${named.length} with on-chain metadata; ${withErrors.length} with a per-part error (a typed value, not a failure):`,
      ...Format.table(metadataColumns, [...withErrors.slice(0, 2), ...named.slice(0, 2)])
    ],
    data: {
      mints: records.length,
      withPartErrors: withErrors.length,
      example: partErrors(withErrors[0] ?? records[0]!)
    }
  } satisfies SectionReport
})

const compression = Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const zk = yield* Compression
  const mint = emulator.samples.compressedTokenMint
  const holders = Chunk.toReadonlyArray(
    yield* Stream.runCollect(zk.getCompressedMintTokenHolders.stream({ mint, limit: 1000 }))
  )
  const descending = holders.every((h, i) => i === 0 || holders[i - 1]!.balance >= h.balance)
  const supply = holders.reduce((n, h) => n + h.balance, 0n)
  const hash = emulator.samples.compressedAccountHash
  const proof = yield* zk.getValidityProof({ hashes: [hash] })
  return {
    lines: [
      `mint ${mint}: ${Format.integer(holders.length)} holders streamed (cursor pages of 1,000), descending: ${
        descending ? "yes" : "NO"
      }`,
      ...Format.table(
        [
          { header: "owner", cell: (h: (typeof holders)[number]) => h.owner },
          {
            header: "balance (raw, exact)",
            cell: (h: (typeof holders)[number]) => Format.integer(h.balance),
            align: "right" as const
          }
        ],
        holders.slice(0, 3)
      ),
      `sum of balances: ${Format.integer(supply)} (bigint: no rounding beyond 2^53)`,
      `validity proof for account ${hash} at slot ${proof.context.slot}:`,
      ...proofLines(proof.value, "  ")
    ],
    data: { mint, holders: holders.length, descending, sumOfBalances: supply, proofSlot: proof.context.slot }
  } satisfies SectionReport
})

const bundle = Effect.gen(function*() {
  const bundles = yield* Bundles
  const emulator = yield* Emulator.EmulatorHandle
  const payer = WireTransaction.generateKeypair()
  // The payer pays fees and transfers from lamports it holds in the emulator's world: fund it first,
  // through the world API (a test validator's airdrop), or the bundle fails with InsufficientFundsForFee.
  yield* emulator.world.fund({ address: payer.address, lamports: 1_000_000_000n })
  const alice = WireTransaction.generateKeypair().address
  const bob = WireTransaction.generateKeypair().address
  const tipAccount = Bundle.JITO_TIP_ACCOUNTS[0]!
  // A recent blockhash (getLatestBlockhash's): the emulator's SVM refuses any other, as a validator does.
  const recent = Either.getOrThrow(Transaction.decodeText(emulator.chain.latestBlockhash().blockhash, "base58"))
  const transactions = [
    WireTransaction.transferTransaction(payer, [{ to: alice, lamports: 1_000_000n }], recent),
    WireTransaction.transferTransaction(payer, [{ to: bob, lamports: 2_000_000n }], recent),
    WireTransaction.transferTransaction(payer, [{ to: tipAccount, lamports: 10_000n }], recent)
  ]
  const parsed = transactions.map((t) => Either.getOrThrow(Transaction.parseEither(t, "base64")))
  const localId = Bundle.bundleIdOf(parsed)
  const tips = parsed.flatMap((tx, i) => Bundle.tipsOf(tx, undefined, i))
  const id = yield* bundles.sendBundle(transactions, { encoding: "base64" })
  const outcome = yield* bundles.awaitBundle(id, {
    commitment: "finalized",
    interval: "100 millis",
    timeout: "30 seconds"
  })
  const landed = outcome._tag === "Landed"
    ? `landed: ${outcome.status} at slot ${outcome.slot}`
    : `not landed: ${outcome._tag}`
  return {
    lines: [
      `funded a fresh payer with 1 SOL through the world API, then built 3 signed System transfers (no @solana/kit), the last one tipping ${
        tips.map((t) => `${Format.integer(t.lamports)} lamports to ${t.account}`).join(", ")
      }`,
      `local bundle id:    ${localId}`,
      `service bundle id:  ${id} (${id === localId ? "matches" : "DIFFERS"})`,
      `awaited: ${landed}`
    ],
    data: { bundleId: id, localId, outcome: outcome._tag }
  } satisfies SectionReport
})

/** How long the live section waits for the socket's notification and the webhook's delivery. */
const LIVE_TIMEOUT = Duration.seconds(60)

const live = Effect.scoped(Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const subscriptions = yield* Subscriptions.Subscriptions
  const hooks = yield* Webhooks
  const signatures = yield* Signatures
  const watched = WireTransaction.generateKeypair().address
  // The receiving end of a webhook, served in-process on a free port: it checks this header.
  const secret = Redacted.make("Bearer solfx-demo-secret")
  const delivered = yield* Deferred.make<number>()
  const receiver = yield* WebhookReceiver.make({
    authHeader: secret,
    onEvents: (events) => Deferred.succeed(delivered, events.length)
  })
  const server = yield* NodeHttpServer.make(() => Http.createServer(), { port: 0, host: "127.0.0.1" })
  yield* server.serve(receiver.app)
  const port = server.address._tag === "TcpAddress" ? server.address.port : 0
  const hook = yield* hooks.create({
    webhookURL: `http://127.0.0.1:${port}/webhook`,
    webhookType: "enhanced",
    accountAddresses: [watched],
    transactionTypes: ["ANY"],
    authHeader: secret
  })
  // The account subscription is made before anything lands; a landing before the service has
  // acknowledged it would not be pushed, so the world funds the address until one is (bounded).
  const notified = yield* subscriptions.account(watched).pipe(
    Stream.filter((event) => event._tag === "Notification"),
    Stream.runHead,
    Effect.fork
  )
  const landings: Array<string> = []
  const land = emulator.world.fund({ address: watched, lamports: 1_000_000_000n }).pipe(
    Effect.tap((receipt) => Effect.sync(() => landings.push(receipt.signature)))
  )
  const notification = yield* land.pipe(
    Effect.zipRight(Effect.sleep("500 millis")),
    Effect.forever,
    Effect.raceFirst(Fiber.join(notified)),
    Effect.timeoutFail({
      duration: LIVE_TIMEOUT,
      onTimeout: () => new Error(`no account notification for ${watched} after ${landings.length} landing(s)`)
    }),
    Effect.flatMap(Effect.orElseFail(() => new Error(`the account subscription of ${watched} ended empty`)))
  )
  const items = yield* Deferred.await(delivered).pipe(
    Effect.timeoutFail({
      duration: LIVE_TIMEOUT,
      onTimeout: () => new Error(`no webhook delivery to the receiver for ${watched}`)
    })
  )
  const listed = yield* signatures.getSignaturesForAddress({ address: watched })
  const statuses = yield* signatures.getSignatureStatuses({ signatures: listed.map((s) => s.signature) })
  const counters = yield* receiver.counters
  return {
    lines: [
      `WebSocket accountSubscribe ${watched}: notified at slot ${notification.slot}, ${
        Format.integer(notification.value.value.lamports)
      } lamports (${landings.length} landing(s) through the world API)`,
      `webhook ${hook.webhookID} -> WebhookReceiver at 127.0.0.1:${port}: ${items} transaction(s) in the first ` +
      `delivery (auth header checked, deduplicated by signature; ${counters.deliveries} delivery(ies) so far)`,
      `getSignaturesForAddress: ${listed.length} signature(s), newest ${listed[0]?.signature ?? "(none)"}; ` +
      `getSignatureStatuses: ${statuses.value.map((s) => s?.confirmationStatus ?? "unknown").join(", ")}`
    ],
    data: {
      address: watched,
      landings: landings.length,
      notifiedSlot: notification.slot,
      webhookID: hook.webhookID,
      delivered: items,
      signatures: listed.length,
      landed: landings.every((signature) => listed.some((s) => s.signature === signature))
    }
  } satisfies SectionReport
}))

const webhooks = Effect.gen(function*() {
  const list = yield* (yield* Webhooks).list()
  return {
    lines: list.length === 0
      ? ["(no webhooks)"]
      : [...Format.table(webhookColumns, list), "(auth headers stay redacted)"],
    data: { webhooks: list.length }
  } satisfies SectionReport
})

/**
 * The tour on an emulator that the current context already provides.
 *
 * @since 0.1.0
 * @category demo
 */
export const tour = Effect.gen(function*() {
  const emulator = yield* Emulator.EmulatorHandle
  const out = yield* Output.Output
  const started = Date.now()
  yield* out.text(
    `solfx demo: a tour of every API area through the SDK, on an emulator started in-process at ${emulator.url}`,
    `(project ${emulator.projectId}; no key or network needed)`,
    ""
  )
  let spent = 0
  const add = (credits: number) => Effect.sync(() => void (spent += credits))
  yield* Effect.flatMap(
    section(1, "Digital assets: every asset of an authority, their proofs, the read API", digitalAssets),
    add
  )
  yield* Effect.flatMap(section(2, "Wallet: balances and the portfolio total", wallet), add)
  yield* Effect.flatMap(section(3, `Token metadata: ${METADATA_MINTS} mints`, metadata), add)
  yield* Effect.flatMap(section(4, "Compression: mint holders and a validity proof", compression), add)
  yield* Effect.flatMap(section(5, "Bundle: build, tip, send, await", bundle), add)
  yield* Effect.flatMap(
    section(6, "Live: one landing seen by a WebSocket subscription, a webhook receiver and the signature RPC", live),
    add
  )
  yield* Effect.flatMap(section(7, "Webhooks", webhooks), add)
  yield* section(
    8,
    "Project usage",
    Effect.gen(function*() {
      const usage = yield* (yield* Admin).getProjectUsage(emulator.projectId)
      return {
        lines: [
          `the tour spent ${Format.integer(spent)} credits before this call; the project's usage record says ${
            Format.integer(usage.creditsUsed)
          } used:`,
          ...usageLines(usage)
        ],
        data: { tourCredits: spent, usage }
      } satisfies SectionReport
    })
  )
  yield* out.text(`done in ${((Date.now() - started) / 1000).toFixed(1)} s, ${emulator.requests.length} requests.`)
})

/**
 * The emulator the demo runs on: simulated slots pass every 200 ms (instead of
 * 400), so a bundle finalizes (32 slots) in under seven seconds, while a blockhash
 * stays valid 30 s (150 slots): at 50 ms it lived 7.5 s, and on a loaded machine the
 * bundle reached the bank after its blockhash had expired ("Failed").
 *
 * @since 0.1.0
 * @category demo
 */
export const emulatorOptions: Emulator.Options = { slotMs: 200 }

/**
 * Runs the tour on a fresh emulator (see `emulatorOptions`), every service over one transport.
 *
 * @since 0.1.0
 * @category demo
 */
export const run = (
  options: { readonly json: boolean; readonly seed?: number | undefined }
): Effect.Effect<void, unknown> =>
  tour.pipe(
    Effect.provide(Output.layer({ json: options.json })),
    Effect.provide(
      Services.services.pipe(
        Layer.provideMerge(
          Services.emulatorLayer({ ...emulatorOptions, ...(options.seed === undefined ? {} : { seed: options.seed }) })
        )
      )
    )
  )
