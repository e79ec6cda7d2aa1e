/**
 * Cross-area invariants of one world, as a real chain and its indexers satisfy them, checked
 * over raw HTTP on several seeds with fast-check choosing what to look at. Each property is a
 * contradiction a user found between areas (or a rule of the chain): it must hold by
 * construction, on every seed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as System from "@solana-program/system"
import * as Token from "@solana-program/token"
import * as kit from "@solana/kit"
import { address } from "@solana/kit"
import * as Json from "@solfx/core/Json"
import * as MerkleProof from "@solfx/core/MerkleProof"
import * as Kit from "@solfx/testing/Kit"
import * as Effect from "effect/Effect"
import fc from "fast-check"
import * as Emulator from "../src/Emulator.js"
import * as Wallets from "../src/seed/Wallets.js"
import { get, post, rpc } from "./support/Http.js"

const SEEDS = [42, 7, 1234] as const
const U64_MAX = 2n ** 64n - 1n
const RUNS = 6

/** Exact JSON: u64 numbers beyond 2^53 come back as digit strings. */
const exact = (text: string): any => Json.parse(text)
const big = (v: unknown) => BigInt(v as string | number)

const call = (emu: Emulator.Emulator, method: string, params: unknown) =>
  Effect.map(rpc(emu, method, params), (r) => {
    const body = exact(r.text)
    if (body.error !== undefined) throw new Error(`${method}: ${JSON.stringify(body.error)}`)
    return body.result
  })

const metadata = (emu: Emulator.Emulator, mints: ReadonlyArray<string>) =>
  Effect.map(post(emu, { mintAccounts: mints }, { path: "/v0/token-metadata" }), (r) => exact(r.text) as Array<any>)

/** The world API over HTTP: a call and its body, answered 200 with the receipt. */
const worldApi = (emu: Emulator.Emulator) => (call: string, body: unknown) =>
  Effect.map(post(emu, body, { path: `/emulator/world/${call}` }), (r) => {
    expect(r.status, r.text).toBe(200)
    return r.json
  })

/** Runs a property of fast-check's choices, each run an Effect. */
const property = <A>(arb: fc.Arbitrary<A>, check: (a: A) => Effect.Effect<void>, seed: number) =>
  Effect.promise(() => fc.assert(fc.asyncProperty(arb, (a) => Effect.runPromise(check(a))), { numRuns: RUNS, seed }))

const freshAddress = (emu: Emulator.Emulator) =>
  fc.nat({ max: 1_000_000 }).map((n) => emu.dataset.address(`fresh:${n}`))

const NATIVE_MINT = "So11111111111111111111111111111111111111112"

/** A UI amount (a double of at most 15 significant digits here) back in raw units. */
const rawOf = (amount: number, decimals: number) => BigInt(Math.round(amount * 10 ** decimals))

/** Every page of a REST list: `next` gives the query of the page after, or undefined at the end. */
const pages = (
  emu: Emulator.Emulator,
  path: string,
  query: Record<string, string>,
  next: (json: any, page: number) => Record<string, string> | undefined
) =>
  Effect.gen(function*() {
    const all: Array<any> = []
    for (let page = 1, q: Record<string, string> | undefined = query; q !== undefined; page++) {
      const r = yield* get(emu, path, { query: q })
      expect(r.status, r.text).toBe(200)
      all.push(r.json)
      q = next(r.json, page)
    }
    return all
  })

/**
 * A wallet's history replayed oldest first from nothing: each entry's balance changes (SOL as
 * "SOL", fees in them for the fee payer), checked never negative after any entry.
 */
const replay = (emu: Emulator.Emulator, wallet: string) =>
  Effect.gen(function*() {
    const history = (yield* pages(emu, `/v1/wallet/${wallet}/history`, { limit: "100" }, (json) =>
      json.pagination.hasMore ? { limit: "100", before: json.pagination.nextCursor } : undefined))
      .flatMap((p) =>
        p.data as Array<any>
      )
    const held = new Map<string, bigint>()
    const negative: Array<string> = []
    for (const entry of history.reverse()) {
      for (const c of entry.balanceChanges) {
        const amount = (held.get(c.mint) ?? 0n) + rawOf(c.amount, c.decimals)
        held.set(c.mint, amount)
        if (amount < 0n) {
          negative.push(`${c.mint} after ${entry.signature}`)
        }
      }
    }
    expect(negative).toEqual([])
    return { held, entries: history.length }
  })

/** A wallet's SOL and fungible balances (emptied mints too), raw, SOL as "SOL"; and its NFTs. */
const walletBalances = (emu: Emulator.Emulator, wallet: string) =>
  Effect.gen(function*() {
    const query = { limit: "100", showZeroBalance: "true", showNfts: "true" }
    const all = yield* pages(emu, `/v1/wallet/${wallet}/balances`, query, (json, page) =>
      json.pagination.hasMore ? { ...query, page: String(page + 1) } : undefined)
    const balances = new Map<string, bigint>()
    for (
      const b of all.flatMap((p) =>
        p.balances as Array<any>
      )
    ) {
      balances.set(b.mint === NATIVE_MINT ? "SOL" : b.mint, rawOf(b.balance, b.decimals))
    }
    return {
      balances,
      nfts: new Set((all[0].nfts as Array<any>).map((n) =>
        n.mint as string
      ))
    }
  })

describe.each(SEEDS)("one world, seed %i", (seed) => {
  it.scopedLive("the owner of an NFT holds its token account: by owner and by mint alike", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const owner = emu.samples.smallNftOwner
      const owned = yield* call(emu, "getAssetsByOwner", { ownerAddress: owner, page: 1, limit: 1000 })
      const nfts = (owned.items as Array<any>).filter((a) =>
        !a.compression.compressed && a.interface !== "MplCoreAsset"
      )
      expect(nfts.length).toBeGreaterThan(0)
      const accounts = yield* call(emu, "getTokenAccounts", { owner, page: 1, limit: 1000 })
      const byOwner = new Map((accounts.token_accounts as Array<any>).map((t) => [t.mint, t]))
      for (const nft of nfts) expect(byOwner.get(nft.id)).toMatchObject({ owner, amount: 1 })
      yield* property(fc.constantFrom(...nfts), (nft) =>
        Effect.gen(function*() {
          const byMint = yield* call(emu, "getTokenAccounts", { mint: nft.id, page: 1, limit: 10 })
          expect(byMint.total).toBe(1)
          expect(byMint.token_accounts[0]).toMatchObject({ owner, mint: nft.id, amount: 1 })
        }), seed)
    }))

  it.scopedLive("a wallet's NFTs are DAS assets it owns, each with its token account when it has a mint", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      yield* property(
        fc.constantFrom(emu.samples.wallet, emu.samples.smallNftOwner),
        (wallet) =>
          Effect.gen(function*() {
            const nfts = (yield* get(emu, `/v1/wallet/${wallet}/balances`, { query: { showNfts: "true" } })).json
              .nfts as Array<any>
            expect(nfts.length).toBeGreaterThan(0)
            const assets = (yield* call(emu, "getAssetBatch", { ids: nfts.map((n) => n.mint) })) as Array<any>
            for (const [k, asset] of assets.entries()) {
              expect(asset).not.toBeNull()
              expect(asset.ownership.owner).toBe(wallet)
              expect(asset.compression.compressed).toBe(nfts[k].compressed)
              expect(asset.content.metadata.name).toBe(nfts[k].name)
            }
            const owned = yield* call(emu, "getAssetsByOwner", { ownerAddress: wallet, page: 1, limit: 1000 })
            expect((owned.items as Array<any>).map((a) => a.id).slice(0, 100)).toEqual(nfts.map((n) => n.mint))
            const accounts = yield* call(emu, "getTokenAccounts", { owner: wallet, page: 1, limit: 1000 })
            const mints = new Set((accounts.token_accounts as Array<any>).map((t) => t.mint))
            for (const asset of assets) {
              if (!asset.compression.compressed && asset.interface !== "MplCoreAsset") {
                expect(mints.has(asset.id)).toBe(true)
              }
            }
          }),
        seed
      )
    }))

  it.scopedLive("a mint's accounts agree by owner and by mint, add up to its supply, and none holds more", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const owner = emu.samples.tokenAccountOwner
      const mint = emu.samples.tokenAccountMint
      const holders: Array<any> = []
      for (let page = 1;; page++) {
        const r = yield* call(emu, "getTokenAccounts", { mint, page, limit: 1000, options: { showZeroBalance: true } })
        holders.push(...r.token_accounts)
        if (r.token_accounts.length < 1000) break
      }
      const mine = yield* call(emu, "getTokenAccounts", { owner, mint, page: 1, limit: 1000 })
      const ofOwner = holders.filter((t) => t.owner === owner && big(t.amount) > 0n).map((t) => t.address).sort()
      expect((mine.token_accounts as Array<any>).map((t) => t.address).sort()).toEqual(ofOwner)
      expect(ofOwner.length).toBeGreaterThan(0)
      const sum = holders.reduce((s, t) => s + big(t.amount), 0n)
      expect(sum <= U64_MAX).toBe(true)
      const [record] = yield* metadata(emu, [mint])
      const supply = big(record.onChainAccountInfo.accountInfo.data.parsed.info.supply)
      expect(supply).toBe(sum)
      expect(holders.every((t) => big(t.amount) <= supply)).toBe(true)
      // DAS serves the mint as a fungible token with the same supply, decimals and authorities.
      const asset = yield* call(emu, "getAsset", { id: mint })
      expect(asset.interface).toBe("FungibleToken")
      const info = record.onChainAccountInfo.accountInfo.data.parsed.info
      expect(big(asset.token_info.supply)).toBe(sum)
      expect(asset.token_info.decimals).toBe(info.decimals)
      expect(asset.token_info.mint_authority).toBe(info.mintAuthority)
    }))

  it.scopedLive("a wallet's token decimals are its mints' decimals in token metadata", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const r = yield* get(emu, `/v1/wallet/${emu.samples.wallet}/balances`, {
        query: { limit: "100", showNative: "false" }
      })
      yield* property(fc.constantFrom(...(r.json.balances as Array<any>)), (b) =>
        Effect.gen(function*() {
          const [record] = yield* metadata(emu, [b.mint])
          expect(record.onChainAccountInfo.accountInfo.data.parsed.info.decimals).toBe(b.decimals)
        }), seed)
    }))

  it.scopedLive("a wallet's mints are served by getAsset as the ledger makes them, token_info agreeing with their accounts", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const wallets = [
        emu.samples.wallet,
        emu.samples.tokenAccountOwner,
        ...Array.from({ length: 20 }, (_, i) => Wallets.walletAt(emu.dataset, 1 + i * 7))
      ]
      yield* property(
        fc.record({ wallet: fc.constantFrom(...wallets), pick: fc.nat() }),
        ({ pick, wallet }) =>
          Effect.gen(function*() {
            const r = yield* get(emu, `/v1/wallet/${wallet}/balances`, { query: { limit: "100", showNative: "false" } })
            const balances = r.json.balances as Array<any>
            expect(balances.length).toBeGreaterThan(0)
            const b = balances[pick % balances.length]
            const accounts: Array<any> = []
            for (let page = 1;; page++) {
              const listed = yield* call(emu, "getTokenAccounts", {
                mint: b.mint,
                page,
                limit: 1000,
                options: { showZeroBalance: true }
              })
              accounts.push(...listed.token_accounts)
              if (listed.token_accounts.length < 1000) break
            }
            // The wallet's own account is among the mint's, with the balance's raw amount.
            const mine = accounts.filter((t) => t.owner === wallet).reduce((s, t) => s + big(t.amount), 0n)
            expect(Number(mine) / 10 ** b.decimals).toBeCloseTo(b.balance, 6)
            const supply = accounts.reduce((s, t) => s + big(t.amount), 0n)
            const [record] = yield* metadata(emu, [b.mint])
            const info = record.onChainAccountInfo.accountInfo.data.parsed.info
            expect([big(info.supply), info.decimals]).toEqual([supply, b.decimals])
            const asset = yield* call(emu, "getAsset", { id: b.mint })
            expect([big(asset.token_info.supply), asset.token_info.decimals]).toEqual([supply, b.decimals])
            // The kind follows from the ledger: an NFT is a supply of one with no decimals.
            const nft = supply === 1n && b.decimals === 0
            expect(asset.interface).toBe(nft ? "V1_NFT" : "FungibleToken")
            if (record.onChainMetadata.metadata !== null) {
              expect(record.onChainMetadata.metadata.tokenStandard).toBe(nft ? "NonFungible" : "Fungible")
            }
          }),
        seed
      )
    }))

  it.scopedLive("token metadata of an NFT agrees with getAsset; an address with no account has none", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const owned = yield* call(emu, "getAssetsByOwner", { ownerAddress: emu.samples.nftOwner, page: 1, limit: 200 })
      const nfts = (owned.items as Array<any>).filter((a) =>
        !a.compression.compressed && a.interface !== "MplCoreAsset"
      )
      yield* property(fc.constantFrom(...nfts), (asset) =>
        Effect.gen(function*() {
          const [record] = yield* metadata(emu, [asset.id])
          const onChain = record.onChainMetadata.metadata
          expect(onChain.data.name).toBe(asset.content.metadata.name)
          expect(onChain.data.uri).toBe(asset.content.json_uri)
          expect(onChain.updateAuthority).toBe(asset.authorities[0].address)
          expect(onChain.data.creators.map((c: any) => c.address)).toEqual(asset.creators.map((c: any) => c.address))
          expect(onChain.tokenStandard).toBe(
            asset.interface === "ProgrammableNFT" ? "ProgrammableNonFungible" : "NonFungible"
          )
          expect(record.onChainAccountInfo.accountInfo.data.parsed.info).toMatchObject({ decimals: 0, supply: "1" })
        }), seed)
      yield* property(freshAddress(emu), (address) =>
        Effect.gen(function*() {
          const [record] = yield* metadata(emu, [address])
          expect(record.onChainAccountInfo.accountInfo).toBeNull()
          expect(record.onChainAccountInfo.error).not.toBe("")
          expect(record.onChainMetadata.metadata).toBeNull()
          expect((yield* call(emu, "getAssetsByOwner", { ownerAddress: address, page: 1 })).total).toBe(0)
          expect((yield* call(emu, "getTokenAccounts", { owner: address, page: 1 })).total).toBe(0)
          const balances = yield* get(emu, `/v1/wallet/${address}/balances`)
          expect(balances.json.balances.map((b: any) => b.balance)).toEqual([0])
          expect((yield* get(emu, `/v1/wallet/${address}/history`)).json.data).toEqual([])
          expect((yield* get(emu, `/v1/wallet/${address}/transfers`)).json.data).toEqual([])
        }), seed)
    }))

  it.scopedLive("history: nothing after the indexed slot, block times follow slots, a failed transaction moves only its fee", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const wallet = emu.samples.wallet
      const indexed = (yield* call(emu, "getIndexerSlot", [])) as number
      const history: Array<any> = []
      let before: string | undefined
      while (history.length < 300) {
        const page = yield* get(emu, `/v1/wallet/${wallet}/history`, {
          query: { limit: "100", ...(before === undefined ? {} : { before }) }
        })
        history.push(...page.json.data)
        if (!page.json.pagination.hasMore) break
        before = page.json.pagination.nextCursor
      }
      expect(history.length).toBeGreaterThan(100)
      for (const [k, h] of history.entries()) {
        expect(h.slot).toBeLessThanOrEqual(indexed)
        if (k === 0) continue
        expect(h.slot).toBeLessThan(history[k - 1].slot)
        if (h.timestamp !== null && history[k - 1].timestamp !== null) {
          expect(h.timestamp).toBeLessThanOrEqual(history[k - 1].timestamp)
        }
      }
      const failed = history.filter((h) => h.error !== null)
      expect(failed.length).toBeGreaterThan(0)
      for (const h of failed) {
        expect(h.balanceChanges).toEqual(h.feePayer === wallet ? [{ mint: "SOL", amount: -0.000005, decimals: 9 }] : [])
      }
      const transfers = (yield* get(emu, `/v1/wallet/${wallet}/transfers`, { query: { limit: "100" } })).json.data
      const failedSignatures = new Set(failed.map((h) => h.signature))
      expect((transfers as Array<any>).filter((t) => failedSignatures.has(t.signature))).toEqual([])
    }))

  it.scopedLive("funded-by: the first incoming SOL transfer, in both sides' transfers, from a funder funded before", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const transfers = (address: string) =>
        Effect.gen(function*() {
          const all: Array<any> = []
          let cursor: string | undefined
          for (;;) {
            const r = yield* get(emu, `/v1/wallet/${address}/transfers`, {
              query: { limit: "50", ...(cursor === undefined ? {} : { cursor }) }
            })
            all.push(...r.json.data)
            if (!r.json.pagination.hasMore) return all
            cursor = r.json.pagination.nextCursor
          }
        })
      const fundedBy = (address: string) => get(emu, `/v1/wallet/${address}/funded-by`)
      const count = Wallets.walletCount(emu.dataset)
      let checked = 0
      yield* property(fc.integer({ min: 1, max: count - 1 }), (i) =>
        Effect.gen(function*() {
          const wallet = Wallets.walletAt(emu.dataset, i)
          const funded = yield* fundedBy(wallet)
          if (funded.status === 404) return
          checked++
          const f = funded.json
          const mine = yield* transfers(wallet)
          // The oldest transfer is the funding: no incoming SOL before it.
          expect(mine[mine.length - 1]).toMatchObject({
            signature: f.signature,
            direction: "in",
            counterparty: f.funder,
            mint: "So11111111111111111111111111111111111111112",
            amountRaw: f.amountRaw
          })
          const theirs = (yield* transfers(f.funder)).filter((t) => t.signature === f.signature)
          expect(theirs).toMatchObject([{ direction: "out", counterparty: wallet, amountRaw: f.amountRaw }])
          const upstream = yield* fundedBy(f.funder)
          if (upstream.status === 200) expect(upstream.json.slot).toBeLessThan(f.slot)
        }), seed)
      expect(checked).toBeGreaterThan(0)
    }))

  it.scopedLive("a wallet's token balances are its token accounts", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const wallet = emu.samples.wallet
      const balances: Array<any> = []
      for (let page = 1;; page++) {
        const r = yield* get(emu, `/v1/wallet/${wallet}/balances`, {
          query: { page: String(page), limit: "100", showNative: "false" }
        })
        balances.push(...r.json.balances)
        if (!r.json.pagination.hasMore) break
      }
      const nfts = new Set(
        ((yield* get(emu, `/v1/wallet/${wallet}/balances`, { query: { showNfts: "true" } })).json.nfts as Array<any>)
          .map((n) => n.mint)
      )
      const all = (yield* call(emu, "getTokenAccounts", { owner: wallet, page: 1, limit: 1000 })).token_accounts
      // NFTs are listed apart from balances.
      const accounts = (all as Array<any>).filter((t) => !nfts.has(t.mint))
      expect(accounts.length).toBe(balances.length)
      const byMint = new Map(accounts.map((t) => [t.mint, big(t.amount)]))
      yield* property(fc.constantFrom(...balances), (b) =>
        Effect.sync(() => {
          expect(byMint.has(b.mint)).toBe(true)
          expect(Number(byMint.get(b.mint)) / 10 ** b.decimals).toBeCloseTo(b.balance, 9)
        }), seed)
    }))

  it.scopedLive("an owner of token accounts has them as balances: one a mint, their sum", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const owner = emu.samples.tokenAccountOwner
      const accounts: Array<any> = []
      for (let page = 1;; page++) {
        const r = yield* call(emu, "getTokenAccounts", { owner, page, limit: 1000 })
        accounts.push(...r.token_accounts)
        if (r.token_accounts.length < 1000) break
      }
      const sums = new Map<string, bigint>()
      for (const t of accounts) sums.set(t.mint, (sums.get(t.mint) ?? 0n) + big(t.amount))
      const balances: Array<any> = []
      for (let page = 1;; page++) {
        const r = yield* get(emu, `/v1/wallet/${owner}/balances`, {
          query: { page: String(page), limit: "100", showNative: "false" }
        })
        balances.push(...r.json.balances)
        if (!r.json.pagination.hasMore) break
      }
      expect(balances.map((b) => b.mint).sort()).toEqual([...sums.keys()].sort())
      yield* property(fc.constantFrom(...balances), (b) =>
        Effect.sync(() => {
          // UI amounts are doubles: equal to 15 significant digits.
          const expected = Number(sums.get(b.mint)) / 10 ** b.decimals
          expect(Math.abs(b.balance - expected)).toBeLessThanOrEqual(1e-15 * Math.max(1, expected))
        }), seed)
    }))

  it.scopedLive("Photon: a compressed mint's supply is its holders' sum, and the token program has signatures", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const owner = emu.samples.compressedTokenOwner
      const accounts = yield* call(emu, "getCompressedTokenAccountsByOwner", { owner, limit: 50 })
      const mints = [...new Set((accounts.value.items as Array<any>).map((t) => t.tokenData.mint as string))]
      expect(mints.length).toBeGreaterThan(0)
      yield* property(fc.constantFrom(...mints), (mint) =>
        Effect.gen(function*() {
          const [record] = yield* metadata(emu, [mint])
          const supply = big(record.onChainAccountInfo.accountInfo.data.parsed.info.supply)
          const top = yield* call(emu, "getCompressedMintTokenHolders", { mint, limit: 1000 })
          const items = top.value.items as Array<any>
          expect(big(items[0].balance) <= supply).toBe(true)
          // A mint of at most 1,000 holders: one page gives them all, and they add up to the supply.
          if (top.value.cursor === null) expect(items.reduce((s, h) => s + big(h.balance), 0n)).toBe(supply)
        }), seed)
      const programs = new Set((accounts.value.items as Array<any>).map((t) => t.account.owner as string))
      expect(programs.size).toBe(1)
      const [program] = programs
      const signatures = yield* call(emu, "getCompressionSignaturesForOwner", { owner: program, limit: 20 })
      const items = signatures.value.items as Array<any>
      expect(items.length).toBe(20)
      for (let k = 1; k < items.length; k++) expect(items[k].slot).toBeLessThanOrEqual(items[k - 1].slot)
      const mine = yield* call(emu, "getCompressionSignaturesForTokenOwner", { owner, limit: 1 })
      // The program's history holds every token transaction: nothing of an owner's is newer than its newest.
      expect(items[0].slot).toBeGreaterThanOrEqual(mine.value.items[0].slot)
    }))

  it.scopedLive("a compressed NFT's seq counts its leaf changes: its signatures", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const listed = yield* call(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.assetAuthority,
        page: 1,
        limit: 200
      })
      const compressed = (listed.items as Array<any>).filter((a) => a.compression.compressed)
      yield* property(fc.constantFrom(...compressed, { id: emu.samples.compressedNft }), (pick) =>
        Effect.gen(function*() {
          const asset = yield* call(emu, "getAsset", { id: pick.id })
          const signatures = yield* call(emu, "getSignaturesForAsset", { id: pick.id, page: 1, limit: 1 })
          expect(asset.compression.seq).toBe(signatures.total)
        }), seed)
    }))

  it.scopedLive("replaying a wallet's history from nothing gives its balances and token accounts, never negative", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      const control = worldApi(emu)
      const tokenAccounts = (owner: string) =>
        Effect.gen(function*() {
          const sums = new Map<string, bigint>()
          for (let page = 1;; page++) {
            const r = yield* call(emu, "getTokenAccounts", {
              owner,
              page,
              limit: 1000,
              options: { showZeroBalance: true }
            })
            for (const t of r.token_accounts) sums.set(t.mint, (sums.get(t.mint) ?? 0n) + big(t.amount))
            if (r.token_accounts.length < 1000) return sums
          }
        })
      const agrees = (wallet: string) =>
        Effect.gen(function*() {
          const { entries, held } = yield* replay(emu, wallet)
          const { balances, nfts } = yield* walletBalances(emu, wallet)
          const accounts = yield* tokenAccounts(wallet)
          expect(entries).toBeGreaterThan(0)
          // SOL and every fungible mint (emptied ones too): the history adds up to the balance; a
          // token is in the history that gave it, an emptied one in the history that took it away.
          for (const [mint, amount] of balances) {
            expect([mint, mint === "SOL" || held.has(mint), held.get(mint) ?? 0n]).toEqual([mint, true, amount])
            if (mint !== "SOL") expect([mint, accounts.get(mint)]).toEqual([mint, amount])
          }
          // Every token account (NFTs' too) holds what the history gave it.
          for (const [mint, amount] of accounts) expect([mint, held.get(mint) ?? 0n]).toEqual([mint, amount])
          // Nothing the history moved is missing: a mint of it is a balance, or an NFT the wallet holds or held.
          for (const [mint, amount] of held) {
            if (balances.has(mint)) continue
            expect([mint, nfts.has(mint) || amount === 0n]).toEqual([mint, true])
            expect([mint, accounts.get(mint) ?? 0n]).toEqual([mint, amount])
          }
          // DAS serves every mint the history moved, emptied ones included (one batch of at most 100).
          const mints = [...held.keys()].filter((m) => m !== "SOL").slice(0, 100)
          if (mints.length > 0) {
            const assets = (yield* call(emu, "getAssetBatch", { ids: mints })) as Array<any>
            expect(assets.map((a) => a?.id ?? null)).toEqual(mints)
          }
          return held
        })
      const count = Wallets.walletCount(emu.dataset)
      // The sample wallet (1,234 transfers, 250 tokens), the first hub (funded by no one: its SOL
      // is a stake withdrawal, and it funds others), and seeded wallets fast-check picks.
      yield* agrees(emu.samples.wallet)
      yield* agrees(Wallets.walletAt(emu.dataset, 1))
      yield* property(
        fc.integer({ min: 1, max: count - 1 }),
        (i) => Effect.asVoid(agrees(Wallets.walletAt(emu.dataset, i))),
        seed
      )

      // A seeded wallet after the world API and a landed bundle moved its SOL and tokens.
      const wallet = Wallets.walletAt(emu.dataset, 1 + (seed % (count - 1)))
      const other = emu.dataset.address("replay:other")
      yield* control("fund", { address: wallet, lamports: "3000000000" })
      const token = yield* control("mintFungible", { owner: wallet, amount: "5000", decimals: 2 })
      yield* control("mintNft", { owner: wallet })
      const given = yield* control("mintNft", { owner: wallet })
      yield* control("transfer", { from: wallet, to: other, mint: token.mint, amount: "1200" })
      yield* control("transfer", { from: wallet, to: other, mint: given.mint, amount: "1" })
      yield* control("transfer", { from: wallet, to: other, lamports: "1000000000" })
      const payer = yield* Effect.promise(() => Kit.signer())
      yield* control("fund", { address: payer.address, lamports: "1000000000" })
      const tx = yield* Effect.promise(() =>
        Kit.build({
          version: 0,
          payer,
          instructions: [Kit.transfer(payer, address(wallet), 250_000_000n), Kit.transfer(payer, Kit.TIP, 10_000n)],
          blockhash: emu.ledger.bank.blockhash().blockhash
        })
      )
      const sent = yield* call(emu, "sendBundle", [[tx.base64], { encoding: "base64" }])
      expect((yield* call(emu, "getBundleStatuses", [[sent]])).value[0].err).toEqual({ Ok: null })
      const held = yield* agrees(wallet)
      expect([held.get(token.mint), held.get(given.mint)]).toEqual([3800n, 0n])
      yield* agrees(payer.address)
      yield* agrees(other)
    }))

  it.scopedLive("an accepted bundle's SOL transfer shows in every area; an overdrawing one changes nothing", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      const sol = (address: string) =>
        Effect.map(get(emu, `/v1/wallet/${address}/balances`), (r) => r.json.balances[0].balance as number)
      const view = (address: string) =>
        Effect.all({
          sol: sol(address),
          history: Effect.map(get(emu, `/v1/wallet/${address}/history`), (r) => r.json.data as Array<any>),
          transfers: Effect.map(get(emu, `/v1/wallet/${address}/transfers`), (r) => r.json.data as Array<any>)
        })
      yield* property(
        // A new recipient gets at least the rent-exempt minimum of an account (890,880 lamports), or the runtime refuses.
        fc.record({
          lamports: fc.bigInt({ min: 890_880n, max: 10n ** 9n }),
          tip: fc.bigInt({ min: 1_000n, max: 100_000n })
        }),
        ({ lamports, tip }) =>
          Effect.gen(function*() {
            const payer = yield* Effect.promise(() => Kit.signer())
            const recipient = (yield* Effect.promise(() => Kit.signer())).address
            const funds = 2n * 10n ** 9n
            const funded = yield* post(emu, { address: payer.address, lamports: funds.toString() }, {
              path: "/emulator/world/fund"
            })
            expect(funded.status).toBe(200)
            const tx = yield* Effect.promise(() =>
              Kit.build({
                version: 0,
                payer,
                instructions: [Kit.transfer(payer, recipient, lamports), Kit.transfer(payer, Kit.TIP, tip)],
                blockhash: emu.ledger.bank.blockhash().blockhash
              })
            )
            const sent = yield* call(emu, "sendBundle", [[tx.base64], { encoding: "base64" }])
            const status = yield* call(emu, "getBundleStatuses", [[sent]])
            expect(status.value[0].err).toEqual({ Ok: null })
            const landedSlot = status.value[0].slot as number
            expect(landedSlot).toBeLessThanOrEqual((yield* call(emu, "getIndexerSlot", [])) as number)

            const to = yield* view(recipient)
            expect(to.sol).toBe(Number(lamports) / 1e9)
            expect(to.history.map((h) => [h.signature, h.slot])).toEqual([[tx.signature, landedSlot]])
            expect(to.history[0].balanceChanges).toEqual([{ mint: "SOL", amount: Number(lamports) / 1e9, decimals: 9 }])
            expect(to.transfers.map((t) => [t.signature, t.direction, t.counterparty, big(t.amountRaw)])).toEqual([
              [tx.signature, "in", payer.address, lamports]
            ])
            const fundedBy = (yield* get(emu, `/v1/wallet/${recipient}/funded-by`)).json
            expect([fundedBy.funder, fundedBy.signature]).toEqual([payer.address, tx.signature])
            const from = yield* view(payer.address)
            expect(from.sol).toBe(Number(funds - lamports - tip - 5_000n) / 1e9)
            expect(from.history[0].signature).toBe(tx.signature)
            expect(from.transfers.filter((t) => t.signature === tx.signature).map((t) => t.counterparty).sort())
              .toEqual([recipient, Kit.TIP].sort())

            // Overdrawing: the first transaction alone could land, the second cannot; neither does.
            const first = yield* Effect.promise(() =>
              Kit.build({
                version: 0,
                payer,
                instructions: [Kit.transfer(payer, recipient, 1n)],
                blockhash: emu.ledger.bank.blockhash().blockhash
              })
            )
            const second = yield* Effect.promise(() =>
              Kit.build({
                version: 0,
                payer,
                instructions: [Kit.transfer(payer, Kit.TIP, funds)],
                blockhash: emu.ledger.bank.blockhash().blockhash
              })
            )
            const failed = yield* call(emu, "sendBundle", [[first.base64, second.base64], { encoding: "base64" }])
            expect((yield* call(emu, "getBundleStatuses", [[failed]])).value[0].err).not.toEqual({ Ok: null })
            expect(yield* view(recipient)).toEqual(to)
            expect(yield* view(payer.address)).toEqual(from)
          }),
        seed
      )
    }))

  it.scopedLive("what the world API lands shows in every area, and token metadata agrees with getAsset", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      const control = worldApi(emu)
      yield* property(
        fc.record({
          owner: freshAddress(emu),
          lamports: fc.bigInt({ min: 10_000n, max: 10n ** 12n }),
          decimals: fc.nat(9)
        }),
        ({ decimals, lamports, owner }) =>
          Effect.gen(function*() {
            const funded = yield* control("fund", { address: owner, lamports: lamports.toString() })
            const nft = yield* control("mintNft", { owner, name: "Invariant" })
            const token = yield* control("mintFungible", { owner, amount: "1000", decimals })
            expect(nft.slot).toBeGreaterThan(funded.slot)
            const indexed = (yield* call(emu, "getIndexerSlot", [])) as number
            expect(token.slot).toBeLessThanOrEqual(indexed)

            const asset = yield* call(emu, "getAsset", { id: nft.mint })
            expect(asset.ownership.owner).toBe(owner)
            const fungible = yield* call(emu, "getAsset", { id: token.mint })
            expect(fungible.interface).toBe("FungibleToken")
            const [nftMeta, tokenMeta] = yield* metadata(emu, [nft.mint, token.mint])
            expect(nftMeta.onChainMetadata.metadata.data.name).toBe(asset.content.metadata.name)
            expect(tokenMeta.onChainAccountInfo.accountInfo.data.parsed.info.supply).toBe(
              String(fungible.token_info.supply)
            )
            expect(fungible.token_info.decimals).toBe(decimals)

            const accounts = yield* call(emu, "getTokenAccounts", { owner, page: 1 })
            expect((accounts.token_accounts as Array<any>).map((t) => [t.mint, big(t.amount)])).toEqual([
              [nft.mint, 1n],
              [token.mint, 1000n]
            ])
            const byOwner = yield* call(emu, "getAssetsByOwner", {
              ownerAddress: owner,
              page: 1,
              options: { showFungible: true }
            })
            expect((byOwner.items as Array<any>).map((a) => a.id)).toEqual([nft.mint, token.mint])
            const balances = (yield* get(emu, `/v1/wallet/${owner}/balances`, { query: { showNfts: "true" } })).json
            expect(balances.balances[0].balance).toBe(Number(lamports) / 1e9)
            expect(balances.balances[1]).toMatchObject({ mint: token.mint, balance: 1000 / 10 ** decimals, decimals })
            expect(balances.nfts.map((n: any) => n.mint)).toEqual([nft.mint])
            const history = (yield* get(emu, `/v1/wallet/${owner}/history`)).json.data as Array<any>
            expect(history.map((h) => h.signature)).toEqual([token.signature, nft.signature, funded.signature])
            const fundedBy = (yield* get(emu, `/v1/wallet/${owner}/funded-by`)).json
            expect(fundedBy.signature).toBe(funded.signature)
          }),
        seed
      )
    }))

  it.scopedLive("what compress lands shows in every area: a compressed NFT with a proof, compressed tokens in Photon", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      let runs = 0
      const control = worldApi(emu)
      yield* property(
        fc.record({ minted: fc.bigInt({ min: 1n, max: 10n ** 15n }), share: fc.nat(100) }),
        ({ minted, share }) =>
          Effect.gen(function*() {
            // A fresh owner each run (fast-check may draw the same values twice).
            const owner = emu.dataset.address(`invariants:compress:${runs++}`)
            const leaf = yield* control("compress", { owner, name: "Invariant leaf" })
            const asset = yield* call(emu, "getAsset", { id: leaf.assetId })
            expect(asset.compression).toMatchObject({
              compressed: true,
              tree: leaf.tree,
              leaf_id: leaf.leafIndex,
              seq: 1
            })
            expect(asset.ownership.owner).toBe(owner)
            // seq counts its leaf changes: its signatures, the mint alone.
            const signatures = yield* call(emu, "getSignaturesForAsset", { id: leaf.assetId, page: 1 })
            expect(signatures.items).toEqual([[leaf.signature, "MintV1"]])
            const proof = yield* call(emu, "getAssetProof", { id: leaf.assetId })
            expect(proof.leaf).toBe(asset.compression.asset_hash)
            expect(MerkleProof.verify(proof)).toEqual({ valid: true })
            const owned = yield* call(emu, "getAssetsByOwner", { ownerAddress: owner, page: 1 })
            expect((owned.items as Array<any>).map((a) => a.id)).toContain(leaf.assetId)
            const nfts = (yield* get(emu, `/v1/wallet/${owner}/balances`, { query: { showNfts: "true" } })).json.nfts
            expect(nfts).toContainEqual(expect.objectContaining({ mint: leaf.assetId, compressed: true }))
            // A transfer changes the leaf: seq still counts the signatures, the new proof verifies.
            const next = emu.dataset.address(`invariants:compress:to:${runs}`)
            const funded = yield* control("fund", { address: owner, lamports: "10000" })
            const sent = yield* control("transfer", { from: owner, to: next, mint: leaf.assetId })
            const moved = yield* call(emu, "getAsset", { id: leaf.assetId })
            const all = yield* call(emu, "getSignaturesForAsset", { id: leaf.assetId, page: 1 })
            expect([moved.ownership.owner, moved.compression.seq]).toEqual([next, all.total])
            expect(all.items.map((i: any) => i[0])).toEqual([leaf.signature, sent.signature])
            expect(MerkleProof.verify(yield* call(emu, "getAssetProof", { id: leaf.assetId }))).toEqual({ valid: true })

            const token = yield* control("mintFungible", { owner, amount: minted.toString() })
            const amount = (minted * BigInt(share)) / 100n || 1n
            const compressed = yield* control("compress", { owner, mint: token.mint, amount: amount.toString() })
            const accounts = yield* call(emu, "getCompressedTokenAccountsByOwner", { owner, mint: token.mint })
            expect(accounts.value.items.map((a: any) => [a.account.hash, big(a.tokenData.amount)])).toEqual([
              [compressed.hash, amount]
            ])
            const balances = yield* call(emu, "getCompressedTokenBalancesByOwnerV2", { owner })
            expect(balances.value.items.map((b: any) => [b.mint, big(b.balance)])).toEqual([[token.mint, amount]])
            const mine = yield* call(emu, "getCompressionSignaturesForTokenOwner", { owner })
            expect(mine.value.items.map((i: any) => i.signature)).toEqual([compressed.signature])
            // The SPL side still adds up: the owner's rest and the pool are the supply token metadata gives.
            const holders = yield* call(emu, "getTokenAccounts", { mint: token.mint, page: 1 })
            const [record] = yield* metadata(emu, [token.mint])
            const sum = (holders.token_accounts as Array<any>).reduce((s, t) => s + big(t.amount), 0n)
            expect(big(record.onChainAccountInfo.accountInfo.data.parsed.info.supply)).toBe(sum)
            expect(sum).toBe(minted)
            const history = (yield* get(emu, `/v1/wallet/${owner}/history`)).json.data as Array<any>
            expect(history.map((h) => h.signature)).toEqual([
              compressed.signature,
              token.signature,
              sent.signature,
              funded.signature,
              leaf.signature
            ])
            expect(compressed.slot).toBeLessThanOrEqual((yield* call(emu, "getIndexerSlot", [])) as number)
          }),
        seed
      )
    }))

  it.scopedLive("getSignaturesForAddress lists a wallet's history, in order; getSignatureStatuses agrees with each entry", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const world = worldApi(emu)
      yield* property(fc.nat({ max: Wallets.walletCount(emu.dataset) - 1 }), (i) =>
        Effect.gen(function*() {
          const wallet = Wallets.walletAt(emu.dataset, i)
          // Something landed since start too: the list is the world's transactions, then the seeded ones.
          yield* world("fund", { address: wallet, lamports: "1000" })
          const history = (yield* pages(emu, `/v1/wallet/${wallet}/history`, { limit: "100" }, (json) =>
            json.pagination.hasMore ? { limit: "100", before: json.pagination.nextCursor } : undefined))
            .flatMap((p) =>
              p.data as Array<any>
            )
          const signatures: Array<any> = []
          for (let before: string | undefined, page: Array<any> = [undefined]; page.length > 0;) {
            page = yield* call(emu, "getSignaturesForAddress", [wallet, before === undefined ? {} : { before }])
            signatures.push(...page)
            before = page.at(-1)?.signature
          }
          expect(signatures.map((s) =>
            s.signature
          )).toEqual(history.map((h) =>
            h.signature
          ))
          for (const [k, s] of signatures.entries()) {
            expect(big(s.slot)).toBe(big(history[k].slot))
            expect(s.err === null).toBe(history[k].error === null)
            expect(s.blockTime).toBe(history[k].timestamp)
          }
          for (let k = 0; k < history.length; k += 256) {
            const chunk = history.slice(k, k + 256)
            const statuses = yield* call(emu, "getSignatureStatuses", [
              chunk.map((h) => h.signature),
              { searchTransactionHistory: true }
            ])
            for (const [x, h] of chunk.entries()) {
              const status = statuses.value[x]
              expect(big(status.slot)).toBe(big(h.slot))
              expect(status.err === null).toBe(h.error === null)
              expect(status.status).toEqual(status.err === null ? { Ok: null } : { Err: status.err })
            }
          }
        }), seed)
    }))
})

/** Every page of a wallet's transfers (cursor) or history (before), at most `max` items. */
const walk = (emu: Emulator.Emulator, wallet: string, list: "transfers" | "history", max = 5_000) =>
  Effect.gen(function*() {
    const all: Array<any> = []
    let position: string | undefined
    for (;;) {
      const r = yield* get(emu, `/v1/wallet/${wallet}/${list}`, {
        query: {
          limit: "100",
          ...(position === undefined ? {} : list === "transfers" ? { cursor: position } : { before: position })
        }
      })
      expect(r.status, r.text).toBe(200)
      all.push(...r.json.data)
      if (!r.json.pagination.hasMore) return all
      if (all.length >= max) throw new Error(`${wallet}'s ${list}: more than ${max} items`)
      position = r.json.pagination.nextCursor
    }
  })

describe.each(SEEDS)("one world agrees with itself (the six disagreements of issue 37), seed %i", (seed) => {
  it.scopedLive(
    "every signature a seeded history lists is found by signature: getSignatureStatuses and POST /v0/transactions (a seeded wallet with its NFT receipts, a counterparty, an owner of compressed NFTs)",
    () =>
      Effect.gen(function*() {
        const emu = yield* Emulator.make({ seed })
        const asset = yield* call(emu, "getAsset", { id: emu.samples.compressedNft })
        const owners = [
          emu.samples.wallet,
          emu.dataset.address("wallet:0:counterparty:0"),
          emu.samples.smallNftOwner,
          asset.ownership.owner as string
        ]
        const checked = new Set<string>()
        for (const owner of [...new Set(owners)]) {
          const history = yield* walk(emu, owner, "history", 20_000)
          expect(history.length, owner).toBeGreaterThan(0)
          for (let k = 0; k < history.length; k += 100) {
            const chunk = history.slice(k, k + 100)
            const signatures = chunk.map((h) => h.signature as string)
            const statuses = yield* call(emu, "getSignatureStatuses", [signatures, { searchTransactionHistory: true }])
            const missing = signatures.filter((_, x) => statuses.value[x] === null)
            expect(missing, `${owner}: signatures getSignatureStatuses does not find`).toEqual([])
            for (const [x, h] of chunk.entries()) {
              expect(big(statuses.value[x].slot)).toBe(big(h.slot))
              expect(statuses.value[x].err === null).toBe(h.error === null)
            }
            // Confirmed: a seeded wallet's newest entry may be a few slots old at start.
            const parsed = exact(
              (yield* post(emu, { transactions: signatures }, { path: "/v0/transactions?commitment=confirmed" })).text
            )
            expect(parsed.map((t: any) => t.signature), `${owner}: POST /v0/transactions`).toEqual(signatures)
            for (const t of parsed) checked.add(t.signature)
            // One clock: where the history's timestamp is null (the real service has some), its slot's block time.
            const times: Array<unknown> = []
            for (const h of chunk) times.push(h.timestamp ?? (yield* call(emu, "getBlockTime", [h.slot])))
            expect(parsed.map((t: any) => [big(t.slot), t.timestamp])).toEqual(
              chunk.map((h, x) => [big(h.slot), times[x]])
            )
          }
        }
        // The compressed NFT's receipt (its newest transfer, else its mint) was among them.
        const newest = (yield* call(emu, "getSignaturesForAsset", {
          id: emu.samples.compressedNft,
          page: 1,
          limit: 10,
          sortDirection: "desc"
        })).items as Array<[string, string]>
        expect(checked).toContain(newest.find(([, kind]) => kind !== "Delegate")![0])
      })
  )

  it.scopedLive("one clock: every area's slot gives one block time, later slots never earlier times", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      const times = new Map<number, { time: number; where: string }>()
      const seen = (where: string, slot: number, time: number | null) => {
        if (time === null) return
        const known = times.get(slot)
        if (known !== undefined) expect([slot, where, time]).toEqual([slot, where, known.time])
        else times.set(slot, { time, where })
      }
      const funded = yield* worldApi(emu)("fund", { address: emu.samples.wallet, lamports: "1000" })
      for (const h of (yield* get(emu, `/v1/wallet/${emu.samples.wallet}/history`)).json.data) {
        seen("wallet history", h.slot, h.timestamp)
      }
      expect(times.get(funded.slot)).toBeDefined()
      for (const s of yield* call(emu, "getSignaturesForAddress", [emu.samples.wallet, { limit: 50 }])) {
        seen("getSignaturesForAddress", s.slot, s.blockTime)
      }
      const nonVoting = yield* call(emu, "getLatestNonVotingSignatures", { limit: 50 })
      for (const s of nonVoting.value.items) seen("getLatestNonVotingSignatures", s.slot, s.blockTime)
      const owner = yield* call(emu, "getCompressionSignaturesForAddress", { address: emu.samples.compressionAddress })
      for (const s of owner.value.items) seen("getCompressionSignaturesForAddress", s.slot, s.blockTime)
      const tokens = yield* call(emu, "getCompressionSignaturesForTokenOwner", {
        owner: emu.samples.compressedTokenOwner
      })
      for (const s of tokens.value.items) seen("getCompressionSignaturesForTokenOwner", s.slot, s.blockTime)
      const fundedBy = (yield* get(emu, `/v1/wallet/${emu.samples.wallet}/funded-by`)).json
      seen("funded-by", fundedBy.slot, fundedBy.timestamp)
      const ordered = [...times.entries()].sort(([a], [b]) => a - b)
      for (let k = 1; k < ordered.length; k++) {
        const [slot, { time, where }] = ordered[k]!
        const [before, earlier] = ordered[k - 1]!
        expect([slot, where, time >= earlier.time]).toEqual([slot, where, true])
        expect(slot).toBeGreaterThan(before)
      }
    }))

  it.scopedLive("counterparties see both sides of a transfer: the other side's transfers and history list it", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const count = Wallets.walletCount(emu.dataset)
      yield* property(
        fc.record({ i: fc.integer({ min: 0, max: count - 1 }), pick: fc.nat() }),
        ({ i, pick }) =>
          Effect.gen(function*() {
            const wallet = Wallets.walletAt(emu.dataset, i)
            const mine = (yield* get(emu, `/v1/wallet/${wallet}/transfers`, { query: { limit: "100" } })).json
              .data as Array<any>
            expect(mine.length).toBeGreaterThan(0)
            const t = mine[pick % mine.length]
            const theirs = (yield* walk(emu, t.counterparty, "transfers")).filter((x) => x.signature === t.signature)
            expect(theirs).toEqual([{
              ...t,
              direction: t.direction === "in" ? "out" : "in",
              counterparty: wallet
            }])
            const history = (yield* walk(emu, t.counterparty, "history")).filter((x) => x.signature === t.signature)
            expect(history.map((h) => h.timestamp)).toEqual([t.timestamp])
          }),
        seed
      )
    }))

  it.scopedLive("token metadata's mints exist in DAS: getAsset serves each mint account with its supply and decimals", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const picks = fc.oneof(
        fc.constant(emu.samples.metadataMint),
        fc.constant(emu.samples.metadataBrokenMint),
        fc.constant(emu.samples.compressedTokenMint),
        fc.nat({ max: 999 }).map((i) => emu.dataset.address(`${emu.samples.metadataMintLabel}${i}`))
      )
      yield* property(picks, (mint) =>
        Effect.gen(function*() {
          const [record] = yield* metadata(emu, [mint])
          const r = yield* rpc(emu, "getAsset", { id: mint })
          const body = exact(r.text)
          if (record.onChainAccountInfo.accountInfo === null) {
            expect(body.error?.message).toMatch(/Asset Not Found/)
            return
          }
          expect(body.error, `getAsset ${mint}`).toBeUndefined()
          const info = record.onChainAccountInfo.accountInfo.data.parsed.info
          const asset = body.result
          expect([asset.id, big(asset.token_info.supply), asset.token_info.decimals]).toEqual([
            mint,
            big(info.supply),
            info.decimals
          ])
          expect(asset.token_info.mint_authority ?? null).toBe(info.mintAuthority)
          if (record.onChainMetadata.metadata !== null) {
            expect(asset.content.metadata.name).toBe(record.onChainMetadata.metadata.data.name)
          }
        }), seed)
      // The mint the issue found ("Seeded Token A9cMrH…" on seed 42): resolved by token metadata with on-chain metadata.
      const [sample] = yield* metadata(emu, [emu.samples.metadataMint])
      const asset = yield* call(emu, "getAsset", { id: emu.samples.metadataMint })
      expect([sample.onChainMetadata.metadata.data.name, asset.interface]).toEqual([
        asset.content.metadata.name,
        sample.onChainMetadata.metadata.tokenStandard === "Fungible" ? "FungibleToken" : "V1_NFT"
      ])
    }))

  it.scopedLive("a compressed NFT's newest transfer is in its current owner's wallet history and signatures", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const listed = yield* call(emu, "getAssetsByAuthority", {
        authorityAddress: emu.samples.assetAuthority,
        page: 1,
        limit: 100
      })
      const compressed = (listed.items as Array<any>).filter((a) => a.compression.compressed).map((a) => a.id)
      expect(compressed.length).toBeGreaterThan(0)
      yield* property(fc.constantFrom(emu.samples.compressedNft, ...compressed), (id) =>
        Effect.gen(function*() {
          const asset = yield* call(emu, "getAsset", { id })
          const owner = asset.ownership.owner
          const total = (yield* call(emu, "getSignaturesForAsset", { id, page: 1, limit: 1 })).total as number
          // The newest signature that moved it to its owner: its last transfer, else its mint.
          const newest = (yield* call(emu, "getSignaturesForAsset", {
            id,
            page: 1,
            limit: 10,
            sortDirection: "desc"
          })).items as Array<[string, string]>
          expect(newest.length).toBe(Math.min(10, total))
          const receipt = newest.find(([, kind]) => kind !== "Delegate")!
          const history = yield* walk(emu, owner, "history")
          const entry = history.find((h) => h.signature === receipt[0])
          expect(entry, `${receipt[1]} ${receipt[0]} of ${id} in ${owner}'s history`).toBeDefined()
          expect(entry.slot).toBeLessThanOrEqual((yield* call(emu, "getIndexerSlot", [])) as number)
          const signatures = yield* call(emu, "getSignaturesForAddress", [owner, { limit: 1000 }])
          expect((signatures as Array<any>).map((s) => s.signature)).toContain(receipt[0])
        }), seed)
    }))

  it.scopedLive("a wallet's mints whose newest transfer is incoming are in its balances (fungible) or its assets (NFTs)", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed })
      const count = Wallets.walletCount(emu.dataset)
      const check = (wallet: string) =>
        Effect.gen(function*() {
          const newest = new Map<string, any>()
          for (const t of yield* walk(emu, wallet, "transfers")) if (!newest.has(t.mint)) newest.set(t.mint, t)
          const { balances } = yield* walletBalances(emu, wallet)
          const owned = yield* call(emu, "getAssetsByOwner", { ownerAddress: wallet, page: 1, limit: 1000 })
          const assets = new Set((owned.items as Array<any>).map((a) => a.id))
          const incoming = [...newest.values()].filter((t) => t.direction === "in" && t.mint !== NATIVE_MINT)
          expect(incoming.length).toBeGreaterThan(0)
          for (const t of incoming) {
            expect([t.mint, balances.has(t.mint) || assets.has(t.mint)]).toEqual([t.mint, true])
            if (balances.has(t.mint)) expect([t.mint, balances.get(t.mint)! > 0n]).toEqual([t.mint, true])
          }
        })
      yield* check(emu.samples.wallet)
      yield* property(fc.integer({ min: 1, max: count - 1 }), (i) => check(Wallets.walletAt(emu.dataset, i)), seed)
    }))

  it.scopedLive("a transfer's timestamp is the same in /transfers and /history", () =>
    Effect.gen(function*() {
      const emu = yield* Emulator.make({ seed, slotMs: 60_000 })
      const count = Wallets.walletCount(emu.dataset)
      const other = emu.dataset.address("invariants:timestamps")
      yield* worldApi(emu)("fund", { address: emu.samples.wallet, lamports: "1000000000" })
      yield* worldApi(emu)("transfer", { from: emu.samples.wallet, to: other, lamports: "1000" })
      const check = (wallet: string) =>
        Effect.gen(function*() {
          const history = new Map((yield* walk(emu, wallet, "history")).map((h) => [h.signature, h]))
          const transfers = yield* walk(emu, wallet, "transfers")
          expect(transfers.length).toBeGreaterThan(0)
          for (const t of transfers) {
            expect([t.signature, history.get(t.signature)?.timestamp]).toEqual([t.signature, t.timestamp])
          }
        })
      yield* check(emu.samples.wallet)
      yield* check(other)
      yield* property(fc.integer({ min: 1, max: count - 1 }), (i) => check(Wallets.walletAt(emu.dataset, i)), seed)
    }))
})

/** Signs `instructions` with @solana/kit over the bank's current blockhash and sends them over HTTP. */
const kitSend = (emu: Emulator.Emulator, payer: kit.KeyPairSigner, instructions: ReadonlyArray<kit.Instruction>) =>
  Effect.gen(function*() {
    const { blockhash } = emu.ledger.bank.blockhash()
    const message = kit.pipe(
      kit.createTransactionMessage({ version: 0 }),
      (m) => kit.setTransactionMessageFeePayerSigner(payer, m),
      (m) =>
        kit.setTransactionMessageLifetimeUsingBlockhash(
          { blockhash: kit.blockhash(blockhash), lastValidBlockHeight: 0n },
          m
        ),
      (m) => kit.appendTransactionMessageInstructions(instructions, m)
    )
    const signed = yield* Effect.promise(() => kit.signTransactionMessageWithSigners(message))
    const sent = yield* call(emu, "sendTransaction", [kit.getBase64EncodedWireTransaction(signed), {
      encoding: "base64"
    }])
    expect(sent).toBe(kit.getSignatureFromTransaction(signed))
    return sent as string
  })

describe.each(SEEDS)("one world after kit transactions, seed %i", (seed) => {
  it.scopedLive(
    "a mint and token accounts made and moved by kit (a seeded wallet's among them): getAccountInfo's bytes agree with DAS, token accounts and the Wallet API; histories replay to balances; getTransaction's balance changes are every area's",
    () =>
      Effect.gen(function*() {
        // Slots pass only when the test says: the blockhash stays valid, then 40 slots finalize.
        const emu = yield* Emulator.make({ seed, slotMs: 3_600_000 })
        const [payer, recipient, mint] = yield* Effect.promise(() =>
          Promise.all([kit.generateKeyPairSigner(), kit.generateKeyPairSigner(), kit.generateKeyPairSigner()])
        )
        const seeded = Wallets.walletAt(emu.dataset, 1)
        yield* call(emu, "requestAirdrop", [payer.address, 2_000_000_000])
        const ata = (owner: string) =>
          Effect.promise(() =>
            Token.findAssociatedTokenPda({
              owner: kit.address(owner),
              mint: mint.address,
              tokenProgram: Token.TOKEN_PROGRAM_ADDRESS
            }).then(([a]) => a as string)
          )
        const owners = [payer.address as string, recipient.address as string, seeded]
        const atas = new Map<string, string>()
        for (const o of owners) atas.set(o, yield* ata(o))
        const space = BigInt(Token.getMintSize())
        const setup = yield* kitSend(emu, payer, [
          System.getCreateAccountInstruction({
            payer,
            newAccount: mint,
            lamports: BigInt((yield* call(emu, "getMinimumBalanceForRentExemption", [Number(space)])) as number),
            space,
            programAddress: Token.TOKEN_PROGRAM_ADDRESS
          }),
          Token.getInitializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: payer.address }),
          ...owners.map((o) =>
            Token.getCreateAssociatedTokenIdempotentInstruction({
              payer,
              ata: kit.address(atas.get(o)!),
              owner: kit.address(o),
              mint: mint.address
            })
          ),
          Token.getMintToInstruction({
            mint: mint.address,
            token: kit.address(atas.get(payer.address)!),
            mintAuthority: payer,
            amount: 1_000_000_000n
          })
        ])
        const moved = yield* kitSend(emu, payer, [
          ...[[recipient.address, 250_000_000n], [seeded, 100_000_000n]].map(([to, amount]) =>
            Token.getTransferCheckedInstruction({
              source: kit.address(atas.get(payer.address)!),
              mint: mint.address,
              destination: kit.address(atas.get(to as string)!),
              authority: payer,
              amount: amount as bigint,
              decimals: 6
            })
          ),
          System.getTransferSolInstruction({ source: payer, destination: kit.address(seeded), amount: 10_000_000n })
        ])
        yield* emu.world.advanceSlots({ slots: 40 })

        // getAccountInfo's bytes, as jsonParsed reads them, are what DAS, token accounts and the Wallet API say.
        const parsedAccount = (address: string) =>
          Effect.map(
            call(emu, "getAccountInfo", [address, { encoding: "jsonParsed" }]),
            (r: any) => r.value.data.parsed.info
          )
        const mintInfo = yield* parsedAccount(mint.address)
        const asset = yield* call(emu, "getAsset", { id: mint.address })
        expect(asset.interface).toBe("FungibleToken")
        expect([big(asset.token_info.supply), asset.token_info.decimals]).toEqual([
          big(mintInfo.supply),
          mintInfo.decimals
        ])
        expect(big(mintInfo.supply)).toBe(1_000_000_000n)
        const expected = new Map([
          [payer.address as string, 650_000_000n],
          [recipient.address as string, 250_000_000n],
          [
            seeded,
            100_000_000n
          ]
        ])
        for (const owner of owners) {
          // Every token account of the owner: the kit-made one and, for the seeded wallet, its seeded ones.
          const das = (yield* call(emu, "getTokenAccounts", { owner, page: 1, limit: 1000 })).token_accounts as Array<
            any
          >
          expect(das.map((t) => t.address)).toContain(atas.get(owner))
          const { balances } = yield* walletBalances(emu, owner)
          const byMint = new Map<string, bigint>()
          for (const t of das.slice(0, 20)) {
            const info = yield* parsedAccount(t.address)
            expect([t.address, info.owner, info.mint, big(info.tokenAmount.amount)]).toEqual([
              t.address,
              owner,
              t.mint,
              big(t.amount)
            ])
            const listed = (yield* call(emu, "getTokenAccountsByOwner", [owner, { mint: t.mint }, {
              encoding: "jsonParsed"
            }])).value as Array<any>
            const same = listed.find((l) => l.pubkey === t.address)
            expect(big(same.account.data.parsed.info.tokenAmount.amount)).toBe(big(t.amount))
            byMint.set(t.mint, (byMint.get(t.mint) ?? 0n) + big(t.amount))
          }
          expect(big((yield* parsedAccount(atas.get(owner)!)).tokenAmount.amount)).toBe(expected.get(owner))
          for (const [m, amount] of byMint) {
            if (balances.has(m) || amount > 0n) expect([owner, m, balances.get(m) ?? 0n]).toEqual([owner, m, amount])
          }
          // SOL: getBalance is the Wallet API's.
          const lamports = big((yield* call(emu, "getBalance", [owner])).value)
          expect([owner, balances.get("SOL") ?? 0n]).toEqual([owner, lamports])
        }

        // Replaying each history gives the balances, kit's transactions included.
        for (const owner of owners) {
          const { held } = yield* replay(emu, owner)
          const { balances } = yield* walletBalances(emu, owner)
          for (const [m, amount] of balances) expect([owner, m, held.get(m) ?? 0n]).toEqual([owner, m, amount])
        }

        // getTransaction's balance changes are each owner's history entry for it.
        for (const signature of [setup, moved]) {
          const tx = yield* call(emu, "getTransaction", [signature, {
            encoding: "jsonParsed",
            maxSupportedTransactionVersion: 0
          }])
          const keys = (tx.transaction.message.accountKeys as Array<any>).map((k) => k.pubkey as string)
          const tokenDelta = (owner: string) => {
            const sum = (list: Array<any>) =>
              list.filter((b) => b.owner === owner && b.mint === mint.address)
                .reduce((s, b) => s + big(b.uiTokenAmount.amount), 0n)
            return sum(tx.meta.postTokenBalances) - sum(tx.meta.preTokenBalances)
          }
          for (const owner of owners) {
            const at = keys.indexOf(owner)
            const sol = at < 0 ? 0n : big(tx.meta.postBalances[at]) - big(tx.meta.preBalances[at])
            const history = (yield* get(emu, `/v1/wallet/${owner}/history`, { query: { limit: "100" } })).json
              .data as Array<any>
            const entry = history.find((h) => h.signature === signature)
            if (entry === undefined) {
              // Not in its history: the transaction changed nothing of it.
              expect([owner, signature, sol, tokenDelta(owner)]).toEqual([owner, signature, 0n, 0n])
              continue
            }
            const change = (m: string) =>
              (entry.balanceChanges as Array<any>).filter((c) => c.mint === m)
                .reduce((s, c) => s + rawOf(c.amount, c.decimals), 0n)
            expect([owner, signature, change("SOL"), change(mint.address)]).toEqual([
              owner,
              signature,
              sol,
              tokenDelta(owner)
            ])
          }
        }
      })
  )
})
