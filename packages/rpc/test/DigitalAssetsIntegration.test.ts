/**
 * DigitalAssets and TokenMetadata against the emulator over loopback: real HTTP,
 * the real Node client, the emulator's seeded assets and real keccak Merkle trees.
 */
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import * as HttpClient from "@effect/platform/HttpClient"
import * as HttpClientResponse from "@effect/platform/HttpClientResponse"
import { describe, expect, it } from "@effect/vitest"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Emulator from "@solfx/emulator/Emulator"
import * as AssetSeed from "@solfx/emulator/seed/DigitalAssets"
import * as DigitalAssets from "@solfx/rpc/DigitalAssets"
import * as TokenMetadata from "@solfx/rpc/TokenMetadata"
import * as Loopback from "@solfx/testing/Loopback"
import * as Walks from "@solfx/testing/Walks"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

const clientLayer = (tamper?: (body: any) => any) =>
  tamper === undefined
    ? NodeHttpClient.layerUndici
    : Layer.effect(
      HttpClient.HttpClient,
      Effect.map(HttpClient.HttpClient, (client) =>
        client.pipe(HttpClient.transformResponse(Effect.flatMap((res) =>
          Effect.map(res.text, (text) => {
            const body = JSON.parse(text)
            return HttpClientResponse.fromWeb(
              res.request,
              new Response(JSON.stringify(tamper(body)), {
                status: res.status,
                headers: { "content-type": "application/json" }
              })
            )
          })
        ))))
    ).pipe(Layer.provide(NodeHttpClient.layerUndici))

// The tests count requests, so an attempt must not time out and be sent again: a batch of 300
// proofs on a starved CI worker has taken longer than the default 30 s.
const TestLayer = (options: Emulator.Options = {}, tamper?: (body: any) => any) =>
  Loopback.layer(Layer.mergeAll(DigitalAssets.layer, TokenMetadata.layer), { seed: 11, ...options }, {
    client: clientLayer(tamper),
    config: { timeout: "2 minutes" }
  })

const setup = Effect.gen(function*() {
  const das = yield* DigitalAssets.DigitalAssets
  const metadata = yield* TokenMetadata.TokenMetadata
  const emu = yield* Emulator.EmulatorHandle
  return { das, metadata, emu, s: emu.samples }
})

const all = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

describe("DigitalAssets (integration, loopback emulator)", () => {
  it.live("a 10,000-asset authority streamed with concurrency 8 arrives complete, in order, without duplicates", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const authority = s.assetAuthority!
      const assets = yield* all(das.getAssetsByAuthorityStream({ authorityAddress: authority }, { concurrency: 8 }))
      expect(assets.length).toBe(10_000)
      expect(new Set(assets.map((a) => a.id)).size).toBe(10_000)
      // The emulator's creation order: asset i of the authority.
      const expected = Array.from({ length: 10_000 }, (_, i) => AssetSeed.assetId(emu.dataset, authority, i))
      expect(assets.map((a) => a.id)).toEqual(expected)
      expect(emu.count("getAssetsByAuthority")).toBe(10)
      expect(emu.counters.maxInFlight).toBeGreaterThan(1)
      expect(emu.counters.maxInFlight).toBeLessThanOrEqual(8)
      expect(emu.usage().usage.das).toBe(10)
    }).pipe(Effect.provide(TestLayer({ latencyMs: 25 })))) // latency makes the overlap of requests observable

  it.live("a walk resumed with { start } from page 1's next gives the same items, by page number and by cursor", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const params = { authorityAddress: s.assetAuthority!, limit: 100 }
      const checks = [
        yield* Walks.resume((start?: DigitalAssets.Position) => das.getAssetsByAuthority.pages(params, { start })),
        yield* Walks.resume((start?: DigitalAssets.Position) =>
          das.getAssetsByAuthority.pages(params, { mode: "cursor", start })
        )
      ]
      expect(checks.map((c) => [c.pages, c.start])).toEqual([[10, { page: 2 }], [10, { cursor: expect.any(String) }]])
      for (const c of checks) {
        expect(c.joined.map((a) => a.id)).toEqual(c.whole.map((a) => a.id))
        expect(c.resumedFirst.map((a) => a.id)).toEqual(c.second.map((a) => a.id))
      }
      expect(checks[1]!.whole.map((a) => a.id)).toEqual(checks[0]!.whole.map((a) => a.id))
      // At least the whole, two pages and the rest, in each mode (numbered pages read ahead: not an exact count).
      expect(emu.count("getAssetsByAuthority")).toBeGreaterThanOrEqual(2 * (10 + 2 + 9))
    }).pipe(Effect.provide(TestLayer({ sizes: { "das.authorityAssets": 1_000 } }))))

  it.live("Stream.take(5) sends exactly one request", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const five = yield* all(
        das.getAssetsByAuthorityStream({ authorityAddress: s.assetAuthority! }, { concurrency: 8 }).pipe(
          Stream.take(5)
        )
      )
      expect(five.length).toBe(5)
      expect(emu.count("getAssetsByAuthority")).toBe(1)
    }).pipe(Effect.provide(TestLayer())))

  it.live("a sort order reads the same by concurrent pages, by cursor and resumed from a saved position", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const params = {
        authorityAddress: s.assetAuthority!,
        limit: 700,
        sortBy: { sortBy: "updated" as const, sortDirection: "desc" as const }
      }
      const byPage = (yield* all(das.getAssetsByAuthorityStream(params, { concurrency: 4 }))).map((a) => a.id)
      const byCursor = (yield* all(das.getAssetsByAuthorityStream(params, { mode: "cursor" }))).map((a) => a.id)
      expect(byPage.length).toBe(10_000)
      expect(byCursor).toEqual(byPage)
      const created = (yield* all(das.getAssetsByAuthorityStream({ ...params, sortBy: { sortBy: "created" } }))).map((
        a
      ) => a.id)
      expect(created).not.toEqual(byPage)
      expect([...created].sort()).toEqual([...byPage].sort())
      // A job saved after three cursor pages resumes exactly where it stopped.
      const first = yield* all(das.getAssetsByAuthorityPages(params, { mode: "cursor" }).pipe(Stream.take(3)))
      const saved = first[2]!.next!
      expect("cursor" in saved).toBe(true)
      const rest = (yield* all(das.getAssetsByAuthorityStream(params, { start: saved }))).map((a) => a.id)
      expect([...first.flatMap((p) => p.items.map((a) => a.id)), ...rest]).toEqual(byPage)
      const fromPage = (yield* all(das.getAssetsByAuthorityStream(params, { start: { page: 14 }, concurrency: 2 })))
        .map((a) => a.id)
      expect(fromPage).toEqual(byPage.slice(13 * 700))
    }).pipe(Effect.provide(TestLayer())))

  it.live("before/after page around an asset id; last_indexed_slot advances", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const authorityAddress = s.assetAuthority!
      const page = yield* das.getAssetsByAuthority({ authorityAddress, page: 3, limit: 10 })
      expect(page.page).toBe(3)
      const pivot = page.items[4]!.id
      const after = yield* das.getAssetsByAuthority({ authorityAddress, after: pivot, limit: 5 })
      expect(after.items.map((a) => a.id)).toEqual(page.items.slice(5).map((a) => a.id))
      const before = yield* das.getAssetsByAuthority({ authorityAddress, before: pivot, limit: 4 })
      expect(before.items.map((a) => a.id)).toEqual(page.items.slice(0, 4).map((a) => a.id))
      const back = yield* das.getAssetsByAuthority({ authorityAddress, before: before.before!, limit: 10 })
      expect(back.items.length).toBe(10)
      yield* Effect.sleep("60 millis")
      const later = yield* das.getAssetsByAuthority({ authorityAddress, page: 1, limit: 1 })
      expect(later.last_indexed_slot!).toBeGreaterThan(page.last_indexed_slot!)
    }).pipe(Effect.provide(TestLayer({ slotMs: 5 }))))

  it.live("token accounts: zero balances only on request, u64 amounts beyond 2^53, page and cursor agree", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const owner = s.tokenAccountOwner!
      const visible = yield* all(das.getTokenAccountsStream({ owner, limit: 1000 }, { concurrency: 3 }))
      const withZero = yield* all(
        das.getTokenAccountsStream({ owner, limit: 1000, options: { showZeroBalance: true } })
      )
      expect(visible.length).toBe(2250)
      expect(withZero.length).toBe(2500)
      expect(visible.every((t) => t.amount > 0n && t.owner === owner)).toBe(true)
      expect(withZero.filter((t) => t.amount === 0n).length).toBe(250)
      expect(visible.some((t) => t.amount > BigInt(Number.MAX_SAFE_INTEGER))).toBe(true)
      const byCursor = yield* all(das.getTokenAccountsStream({ owner, limit: 300 }, { mode: "cursor" }))
      expect(byCursor.map((t) => t.address)).toEqual(visible.map((t) => t.address))
      const byMint = yield* das.getTokenAccounts({ mint: s.tokenAccountMint!, page: 1, limit: 1000 })
      expect(byMint.total).toBe(1350)
      expect(byMint.token_accounts.every((t) => t.mint === s.tokenAccountMint)).toBe(true)
      const both = yield* das.getTokenAccounts({ owner, mint: s.tokenAccountMint! })
      expect(both.token_accounts.length).toBe(visible.filter((t) => t.mint === s.tokenAccountMint).length)
      expect(emu.usage().usage.das).toBe(emu.count("getTokenAccounts"))
    }).pipe(Effect.provide(TestLayer())))

  it.live("signatures of an asset: a mint first, then transfers; stream complete; sortDirection desc reverses", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const id = s.compressedNft!
      const sigs = yield* all(das.getSignaturesForAssetStream({ id, limit: 500 }, { concurrency: 4 }))
      expect(sigs.length).toBe(2000)
      expect(new Set(sigs.map((x) => x.signature)).size).toBe(2000)
      expect(sigs[0]!.kind).toBe("MintToCollectionV1")
      expect(sigs.slice(1).every((x) => x.kind === "Transfer" || x.kind === "Delegate")).toBe(true)
      const desc = yield* das.getSignaturesForAsset({ id, page: 1, limit: 3, sortDirection: "desc" })
      expect(desc.items.map((x) => x.signature)).toEqual(sigs.slice(-3).reverse().map((x) => x.signature))
      const small = yield* das.getSignaturesForAsset({ id: s.uncompressedNft! })
      expect(small.items.length).toBe(small.total)
    }).pipe(Effect.provide(TestLayer())))

  it.live("proofs of compressed assets verify with the SDK verifier and match the assets' leaf and tree", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const page = yield* das.getAssetsByAuthority({ authorityAddress: s.assetAuthority!, page: 2, limit: 1000 })
      const ids = page.items.map((a) => a.id)
      const unknown = emu.dataset.address("not-an-asset")
      const proofs = yield* das.getAssetProofBatchVerified([...ids, unknown], { batchSize: 300, concurrency: 3 })
      expect(emu.count("getAssetProofBatch")).toBe(4)
      expect(proofs.size).toBe(1001)
      expect(Option.isNone(proofs.get(unknown)!)).toBe(true)
      for (const asset of page.items) {
        const proof = proofs.get(asset.id)!
        expect(Option.isSome(proof)).toBe(asset.compression.compressed)
        if (Option.isSome(proof)) {
          expect(proof.value.leaf).toBe(asset.compression.asset_hash)
          expect(proof.value.tree_id).toBe(asset.compression.tree)
          expect(proof.value.node_index).toBe(2 ** 14 + asset.compression.leaf_id)
          expect(MerkleProof.isValid(proof.value)).toBe(true)
        }
      }
    }).pipe(Effect.provide(TestLayer())))

  it.live("a tampered proof fails with InvalidProof naming the asset", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const id = s.compressedNft!
      const exit = yield* Effect.either(das.getAssetProofBatchVerified([id]))
      expect(exit).toMatchObject({ _tag: "Left", left: { _tag: "InvalidProof", id } })
      // Unverified, the same tampered answer is returned as is.
      const raw = yield* das.getAssetProofBatch([id])
      expect(Option.isSome(raw.get(id)!)).toBe(true)
    }).pipe(Effect.provide(TestLayer({}, (body) => {
      for (const proof of Object.values(body.result ?? {}) as Array<any>) {
        if (proof !== null) [proof.proof[0], proof.proof[1]] = [proof.proof[1], proof.proof[0]]
      }
      return body
    }))))
})

describe("TokenMetadata (integration, loopback emulator)", () => {
  it.live("250 mints give exactly 3 requests; records in input order; part errors are values", () =>
    Effect.gen(function*() {
      const { emu, metadata, s } = yield* setup
      const mints = Array.from({ length: 249 }, (_, i) => emu.dataset.address(`${s.metadataMintLabel}${i}`))
      mints.splice(100, 0, s.metadataBrokenMint!)
      const records = yield* metadata.getTokenMetadata({ mintAccounts: mints, includeOffChain: true })
      expect(emu.count("POST /v0/token-metadata")).toBe(3)
      expect(emu.usage().usage.api).toBe(3)
      expect(records.map((r) => r.account)).toEqual(mints)
      const broken = records[100]!
      expect(Either.isLeft(broken.onChainMetadata)).toBe(true)
      expect(Either.flip(broken.onChainMetadata).pipe(Either.getOrThrow)).toMatchObject({
        _tag: "MetadataPartError",
        mint: s.metadataBrokenMint,
        part: "onChainMetadata"
      })
      expect(Either.isRight(broken.onChainAccountInfo)).toBe(true)
      const failing = records.filter((r) =>
        Either.isLeft(r.onChainAccountInfo) || Either.isLeft(r.onChainMetadata) || Either.isLeft(r.offChainMetadata!)
      )
      // Seeded: about 12% of mints have a failing part; most do not.
      expect(failing.length).toBeGreaterThan(5)
      expect(failing.length).toBeLessThan(80)
      expect(records.every((r) => r.offChainMetadata !== undefined)).toBe(true)
      const plain = yield* metadata.getTokenMetadata({ mintAccounts: [s.metadataMint!] })
      expect(plain[0]!.offChainMetadata).toBeUndefined()
      expect(Either.getOrThrow(plain[0]!.onChainMetadata).metadata.mint).toBe(s.metadataMint)
    }).pipe(Effect.provide(TestLayer())))

  it.live("disableCache bypasses the emulator's cache", () =>
    Effect.gen(function*() {
      const { metadata, s } = yield* setup
      const mint = s.metadataLiveMint!
      const supply = (records: ReadonlyArray<any>) =>
        Either.getOrThrow(records[0]!.onChainAccountInfo as Either.Either<any, any>).accountInfo.data.parsed.info
          .supply as bigint
      const first = supply(yield* metadata.getTokenMetadata({ mintAccounts: [mint] }))
      yield* Effect.sleep("50 millis")
      const cached = supply(yield* metadata.getTokenMetadata({ mintAccounts: [mint] }))
      expect(cached).toBe(first)
      const fresh = supply(yield* metadata.getTokenMetadata({ mintAccounts: [mint], disableCache: true }))
      expect(fresh).toBeGreaterThan(first)
      expect(supply(yield* metadata.getTokenMetadata({ mintAccounts: [mint] }))).toBe(fresh)
    }).pipe(Effect.provide(TestLayer({ slotMs: 5 }))))
})

describe("DAS read API (integration, loopback emulator)", () => {
  it.live("getAssetsByOwnerStream over the 100,000-asset owner: each asset once, in order, page-parallel", () => {
    // Requests the SDK has sent and not yet had an answer to: the emulator shares this
    // thread, so its own in-flight count sees its CPU-bound pages mostly one at a time.
    const flight = { now: 0, max: 0 }
    const counting = Layer.effect(
      HttpClient.HttpClient,
      Effect.map(
        HttpClient.HttpClient,
        (client) =>
          client.pipe(HttpClient.transform((response) =>
            Effect.acquireUseRelease(
              Effect.sync(() => {
                flight.now++
                flight.max = Math.max(flight.max, flight.now)
              }),
              () => response,
              () => Effect.sync(() => flight.now--)
            )
          ))
      )
    ).pipe(Layer.provide(NodeHttpClient.layerUndici))
    return Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const ids = yield* all(
        das.getAssetsByOwnerStream({ ownerAddress: s.nftOwner! }, { concurrency: 8 }).pipe(
          Stream.map((a) => a.id)
        )
      )
      const big = AssetSeed.bigAuthority(emu.dataset)
      expect(ids.length).toBe(100_000)
      expect(new Set(ids).size).toBe(100_000)
      // The emulator's creation order: asset i of the authority whose assets the owner holds.
      expect(ids).toEqual(Array.from({ length: 100_000 }, (_, i) => AssetSeed.assetId(emu.dataset, big, i)))
      expect(emu.count("getAssetsByOwner")).toBe(100)
      expect(flight.max).toBeGreaterThan(1)
      expect(flight.max).toBeLessThanOrEqual(8)
      expect(emu.usage().usage.das).toBe(100)
    }).pipe(Effect.provide(
      Loopback.layer(Layer.mergeAll(DigitalAssets.layer, TokenMetadata.layer), { seed: 11 }, { client: counting })
    ))
  }, 120_000)

  it.live("the same asset from getAsset, getAssetBatch, the owner's list and searchAssets; an unknown id is none", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const page = yield* das.getAssetsByOwner({ ownerAddress: s.smallNftOwner!, limit: 5 })
      expect(page.items.length).toBeGreaterThan(0)
      const ids = page.items.map((a) => a.id)
      for (const a of page.items) expect(yield* das.getAsset({ id: a.id })).toEqual(a)
      const unknown = s.assetAuthority!
      const batch = yield* das.getAssetBatch({ ids: [...ids, unknown] }, { batchSize: 2 })
      expect(batch.slice(0, ids.length)).toEqual(page.items.map(Option.some))
      expect(batch.at(-1)).toEqual(Option.none())
      const found = yield* das.searchAssets({ ownerAddress: s.smallNftOwner!, limit: 5 })
      expect(found.items).toEqual(page.items)
    }).pipe(Effect.provide(TestLayer())))

  it.live("concurrent getAssetProof calls: one getAssetProofBatch request, every proof verifies with keccak", () =>
    Effect.gen(function*() {
      const { das, emu, s } = yield* setup
      const compressed = yield* das.searchAssets({ ownerAddress: s.nftOwner!, compressed: true, limit: 20 })
      expect(compressed.items.length).toBe(20)
      const proofs = yield* Effect.forEach(compressed.items, (a) => das.getAssetProof({ id: a.id }), {
        batching: true
      })
      expect(emu.count("getAssetProofBatch")).toBe(1)
      expect(emu.count("getAssetProof")).toBe(0)
      proofs.forEach((p, i) => {
        const proof = Option.getOrThrow(p)
        expect(proof.leaf).toBe(compressed.items[i]!.compression.asset_hash)
        expect(MerkleProof.verify(proof).valid).toBe(true)
      })
    }).pipe(Effect.provide(TestLayer())))

  it.live("getNftEditions decodes a master edition's u64 print run exactly, as getAsset gives it", () =>
    Effect.gen(function*() {
      const { das, s } = yield* setup
      const mint = s.masterEdition!
      const master = yield* das.getAsset({ id: mint })
      const editions = yield* das.getNftEditions({ mint, limit: 10 })
      expect(editions.editions.length).toBeGreaterThan(0)
      expect(typeof editions.max_supply).toBe("bigint")
      expect(editions.max_supply! > BigInt(Number.MAX_SAFE_INTEGER)).toBe(true)
      expect(editions.max_supply).toBe(master.supply?.print_max_supply)
      expect(editions.supply).toBe(master.supply?.print_current_supply)
    }).pipe(Effect.provide(TestLayer())))
})
