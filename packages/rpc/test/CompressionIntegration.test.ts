/**
 * The Compression service against the emulator over loopback: real HTTP, the real
 * Node client, the emulator's seeded compressed state.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Json from "@solfx/core/Json"
import * as Emulator from "@solfx/emulator/Emulator"
import * as Compression from "@solfx/rpc/Compression"
import * as Loopback from "@solfx/testing/Loopback"
import * as Walks from "@solfx/testing/Walks"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"

const TestLayer = (options: Emulator.Options = {}) => Loopback.layer(Compression.layer, { seed: 5, ...options })

const setup = Effect.gen(function*() {
  const compression = yield* Compression.Compression
  const emu = yield* Emulator.EmulatorHandle
  return { compression, emu, s: emu.samples }
})

const all = <A, E, R>(stream: Stream.Stream<A, E, R>) => Effect.map(Stream.runCollect(stream), Chunk.toReadonlyArray)

const isDescending = (values: ReadonlyArray<bigint | number>) => values.every((v, i) => i === 0 || values[i - 1]! >= v)

describe("Compression (integration, loopback emulator)", () => {
  it.live("a 5,000-holder mint streams with limit 100 in exactly 50 requests, in descending balance order", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const holders = yield* all(
        compression.getCompressedMintTokenHoldersStream({ mint: s.compressedTokenMint!, limit: 100 })
      )
      expect(holders).toHaveLength(5000)
      expect(emu.count("getCompressedMintTokenHolders")).toBe(50)
      expect(isDescending(holders.map((h) => h.balance))).toBe(true)
      expect(new Set(holders.map((h) => h.owner)).size).toBe(5000)
    }).pipe(Effect.provide(TestLayer())))

  it.live("pages carry their slot and resume cursor; resuming from a saved cursor loses and repeats nothing", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const mint = s.compressedTokenMint!
      const pages = yield* all(compression.getCompressedMintTokenHoldersPages({ mint, limit: 1000 }))
      expect(pages.map((p) => p.items.length)).toEqual([1000, 1000, 1000, 1000, 1000])
      expect(pages.every((p) => p.slot >= 300_000_000)).toBe(true)
      expect(pages.at(-1)!.next).toBeUndefined()
      const head = pages.slice(0, 2).flatMap((p) => p.items)
      const rest = yield* all(
        compression.getCompressedMintTokenHoldersStream({ mint, limit: 700, cursor: pages[1]!.next! })
      )
      expect([...head, ...rest]).toEqual(pages.flatMap((p) => p.items))
    }).pipe(Effect.provide(TestLayer())))

  it.live("a walk resumed with { start } from page 1's next gives the same items; a cursor in params still starts it", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const mint = s.compressedTokenMint!
      const c = yield* Walks.resume((start?: string) =>
        compression.getCompressedMintTokenHolders.pages({ mint, limit: 1000 }, { start })
      )
      expect([c.pages, typeof c.start]).toEqual([5, "string"])
      expect(c.joined).toEqual(c.whole)
      expect(c.resumedFirst).toEqual(c.second)
      expect(emu.count("getCompressedMintTokenHolders")).toBe(5 + 2 + 4)
      // The deprecated way: the cursor in the params.
      const old = yield* all(compression.getCompressedMintTokenHolders.stream({ mint, limit: 1000, cursor: c.start! }))
      expect(old).toEqual(c.whole.slice(1000))
    }).pipe(Effect.provide(TestLayer())))

  it.live("Stream.take stops fetching", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const taken = yield* all(
        compression.getCompressionSignaturesForAddressStream({ address: s["compressionAddress"]!, limit: 100 }).pipe(
          Stream.take(150)
        )
      )
      expect(taken).toHaveLength(150)
      expect(emu.count("getCompressionSignaturesForAddress")).toBe(2)
    }).pipe(Effect.provide(TestLayer())))

  it.live("a balance above 2^53 arrives exact, as the server wrote it", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const mint = s.compressedTokenMint!
      const top = (yield* compression.getCompressedMintTokenHolders({ mint, limit: 1 })).value.items[0]!
      expect(top.balance > 2n ** 53n).toBe(true)
      // The digits on the wire, read without the SDK.
      const raw = yield* Effect.promise(() =>
        fetch(`${emu.url}/?api-key=${emu.apiKey}`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({
            jsonrpc: "2.0",
            id: "raw",
            method: "getCompressedMintTokenHolders",
            params: { mint, limit: 1 }
          })
        }).then((r) => r.text())
      )
      expect(raw).toContain(`"balance":${top.balance.toString()}`)
      // The same owner's balance and accounts of that mint agree to the last unit.
      const balances = yield* compression.getCompressedTokenBalancesByOwnerV2({ owner: top.owner, mint })
      expect(balances.value.items).toEqual([{ mint, balance: top.balance }])
      const accounts = yield* all(compression.getCompressedTokenAccountsByOwnerStream({ owner: top.owner, mint }))
      expect(accounts.reduce((sum, a) => sum + a.tokenData.amount, 0n)).toBe(top.balance)
    }).pipe(Effect.provide(TestLayer())))

  it.live("the mint filter keeps the accounts and balances of that mint only", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const owner = s["compressedTokenOwner"]!
      const accounts = yield* all(compression.getCompressedTokenAccountsByOwnerStream({ owner, limit: 5 }))
      const mints = [...new Set(accounts.map((a) => a.tokenData.mint))]
      expect(mints.length).toBeGreaterThan(1)
      expect(accounts.every((a) => a.tokenData.owner === owner)).toBe(true)
      const mint = mints[1]!
      const filtered = yield* all(compression.getCompressedTokenAccountsByOwnerStream({ owner, mint }))
      expect(filtered.length).toBeGreaterThan(0)
      expect(filtered).toEqual(accounts.filter((a) => a.tokenData.mint === mint))
      const balances = yield* all(compression.getCompressedTokenBalancesByOwnerV2Stream({ owner, limit: 3 }))
      expect(balances.map((b) => b.mint)).toEqual(mints)
      const one = yield* compression.getCompressedTokenBalancesByOwnerV2({ owner, mint })
      expect(one.value.items).toEqual(balances.filter((b) => b.mint === mint))
      expect(one.value.items[0]!.balance).toBe(filtered.reduce((sum, a) => sum + a.tokenData.amount, 0n))
    }).pipe(Effect.provide(TestLayer())))

  it.live("getCompressionSignaturesForAddress: newest first, and each transaction opens that address's account", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const address = s["compressionAddress"]!
      const page = yield* compression.getCompressionSignaturesForAddress({ address, limit: 1000 })
      expect(page.value.items).toHaveLength(1000)
      expect(page.value.cursor).not.toBeNull()
      expect(isDescending(page.value.items.map((i) => i.slot))).toBe(true)
      const [newest, older] = [page.value.items[0]!, page.value.items[1]!]
      const tx = yield* compression.getTransactionWithCompressionInfo({ signature: newest.signature })
      const opened = tx.compressionInfo.openedAccounts[0]!.account
      expect(opened.address).toBe(address)
      expect(tx.transaction.slot).toBe(newest.slot)
      const previous = yield* compression.getTransactionWithCompressionInfo({ signature: older.signature })
      // The newest transaction closed the version the one before it opened.
      expect(tx.compressionInfo.closedAccounts.map((a) => a.account.hash)).toEqual([
        previous.compressionInfo.openedAccounts[0]!.account.hash
      ])
      // Only the current version can be proven.
      const proof = yield* compression.getValidityProof({ hashes: [opened.hash] })
      expect(proof.value.leafIndices).toEqual([opened.leafIndex])
      const spent = yield* Effect.flip(
        compression.getValidityProof({ hashes: [previous.compressionInfo.openedAccounts[0]!.account.hash] })
      )
      expect(spent._tag).toBe("JsonRpcError")
    }).pipe(Effect.provide(TestLayer())))

  it.live("getCompressionSignaturesForTokenOwner and getTransactionWithCompressionInfo agree with the token accounts", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const owner = s["compressedTokenOwner"]!
      const accounts = yield* all(compression.getCompressedTokenAccountsByOwnerStream({ owner }))
      const byHash = new Map(accounts.map((a) => [a.account.hash, a]))
      const signatures = yield* all(compression.getCompressionSignaturesForTokenOwnerStream({ owner, limit: 7 }))
      expect(signatures).toHaveLength(accounts.length)
      expect(isDescending(signatures.map((x) => x.slot))).toBe(true)
      const seen = new Set<string>()
      for (const { signature, slot } of signatures.slice(0, 12)) {
        const { compressionInfo, transaction } = yield* compression.getTransactionWithCompressionInfo({ signature })
        expect(transaction.slot).toBe(slot)
        const current = compressionInfo.openedAccounts.filter((o) => byHash.has(o.account.hash))
        expect(current.length).toBeGreaterThan(0)
        for (const o of current) {
          expect(o.optionalTokenData).toEqual(byHash.get(o.account.hash)!.tokenData)
          expect(o.account).toEqual(byHash.get(o.account.hash)!.account)
          seen.add(o.account.hash)
        }
        // Tokens are conserved: what was closed equals what was opened, per mint and owner.
        const sum = (list: typeof compressionInfo.openedAccounts) =>
          list.reduce((n, a) => n + (a.optionalTokenData?.amount ?? 0n), 0n)
        if (compressionInfo.closedAccounts.length > 0) {
          expect(sum(compressionInfo.closedAccounts)).toBe(sum(compressionInfo.openedAccounts))
        }
      }
      expect(seen.size).toBeGreaterThan(0)
      const sample = yield* compression.getTransactionWithCompressionInfo({ signature: s["compressionSignature"]! })
      expect(sample.compressionInfo.openedAccounts.length).toBeGreaterThan(0)
    }).pipe(Effect.provide(TestLayer())))

  it.live("getValidityProof: one entry per input, proof bytes of 32, 64 and 32", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const accounts =
        (yield* compression.getCompressedTokenAccountsByOwner({ owner: s["compressedTokenOwner"]!, limit: 3 }))
          .value.items
      const hashes = accounts.map((a) => a.account.hash)
      const newAddress = {
        address: "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU",
        tree: "amt1Ayt45jfbdw5YSo7iz6WZxUmnZsQTYXy82hVwyC2"
      }
      const { value } = yield* compression.getValidityProof({ hashes, newAddressesWithTrees: [newAddress] })
      expect([value.compressedProof.a.length, value.compressedProof.b.length, value.compressedProof.c.length])
        .toEqual([32, 64, 32])
      for (const key of ["roots", "rootIndices", "leafIndices", "leaves", "merkleTrees"] as const) {
        expect(value[key]).toHaveLength(hashes.length + 1)
      }
      expect(value.leaves.slice(0, hashes.length)).toEqual(hashes)
      expect(value.leafIndices.slice(0, hashes.length)).toEqual(accounts.map((a) => a.account.leafIndex))
      expect(value.merkleTrees).toEqual([...accounts.map((a) => a.account.tree), newAddress.tree])
      const unknown = yield* Effect.flip(compression.getValidityProof({ hashes: [newAddress.address] }))
      expect(unknown._tag).toBe("JsonRpcError")
    }).pipe(Effect.provide(TestLayer())))

  it.live("getLatestNonVotingSignatures: the latest signatures with their error, no cursor", () =>
    Effect.gen(function*() {
      const { compression } = yield* setup
      const result = yield* compression.getLatestNonVotingSignatures({ limit: 200 })
      expect(result.value.items).toHaveLength(200)
      expect(result.value.items[0]!.slot).toBeLessThanOrEqual(result.context.slot)
      expect(isDescending(result.value.items.map((i) => i.slot))).toBe(true)
      const errors = result.value.items.map((i) => i.error)
      expect(errors.some((e) => e === null)).toBe(true)
      expect(errors.some((e) => typeof e === "string")).toBe(true)
    }).pipe(Effect.provide(TestLayer())))

  it.live("unknown owners, mints and addresses answer empty pages; invalid input sends nothing", () =>
    Effect.gen(function*() {
      const { compression, emu } = yield* setup
      const nobody = "7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU"
      expect((yield* compression.getCompressedMintTokenHolders({ mint: nobody })).value).toEqual({
        items: [],
        cursor: null
      })
      expect((yield* compression.getCompressedTokenAccountsByOwner({ owner: nobody })).value.items).toEqual([])
      expect((yield* compression.getCompressionSignaturesForAddress({ address: nobody })).value.items).toEqual([])
      const before = emu.count()
      const error = yield* Effect.flip(compression.getCompressedMintTokenHolders({ mint: nobody, limit: 5000 }))
      expect(error._tag).toBe("InvalidRequest")
      expect(emu.count()).toBe(before)
    }).pipe(Effect.provide(TestLayer())))

  it.live("the sizes are knobs: a 10-holder mint is one page", () =>
    Effect.gen(function*() {
      const { compression, s } = yield* setup
      const holders = yield* all(
        compression.getCompressedMintTokenHoldersStream({ mint: s.compressedTokenMint!, limit: 4 })
      )
      expect(holders).toHaveLength(10)
      expect(Json.stringify(holders[0]!.balance)).toMatch(/^\d+$/)
    }).pipe(Effect.provide(TestLayer({ sizes: { "compression.mintHolders": 10 } }))))
})

describe("Compression V2 and indexer (integration, loopback emulator)", () => {
  it.live("V2 accounts agree with V1, by stream and by hash; a V2 proof covers them; the indexer answers", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const owner = s["compressedTokenOwner"]!
      const v1 = yield* all(compression.getCompressedTokenAccountsByOwnerStream({ owner, limit: 7 }))
      const v2 = yield* all(compression.getCompressedTokenAccountsByOwnerV2Stream({ owner, limit: 7 }))
      expect(v2.length).toBe(v1.length)
      expect(v2.map((a) => [a.account.hash, a.account.merkleContext.tree, a.tokenData.amount])).toEqual(
        v1.map((a) => [a.account.hash, a.account.tree, a.tokenData.amount])
      )
      const hashes = v2.slice(0, 3).map((a) => a.account.hash)
      const many = yield* compression.getMultipleCompressedAccountsV2({ hashes })
      expect(many.value.items.map((a) => a?.hash)).toEqual(hashes)
      const proof = yield* compression.getValidityProofV2({ hashes: hashes.slice(0, 2) })
      expect(proof.value.accounts.map((a) => a.hash)).toEqual(hashes.slice(0, 2))
      const before = emu.usage().creditsUsed
      yield* compression.getValidityProofV2({ hashes: hashes.slice(0, 1) })
      expect(emu.usage().creditsUsed - before).toBe(100)
      expect(yield* compression.getIndexerHealth()).toBe("ok")
      expect(yield* compression.getIndexerSlot()).toBeGreaterThan(0)
      const signatures = yield* all(compression.getCompressionSignaturesForOwnerStream({ owner, limit: 5 }))
      expect(new Set(signatures.map((x) => x.signature)).size).toBe(signatures.length)
      const [first] = signatures
      if (first !== undefined) {
        const tx = yield* compression.getTransactionWithCompressionInfoV2({ signature: first.signature })
        const v1tx = yield* compression.getTransactionWithCompressionInfo({ signature: first.signature })
        expect(tx.compressionInfo.openedAccounts.map((o) => o.account.hash)).toEqual(
          v1tx.compressionInfo.openedAccounts.map((o) => o.account.hash)
        )
      }
    }).pipe(Effect.provide(TestLayer())))

  it.live("getCompressedAccountsByOwnerV2: one entry gives the call, .pages and .stream; a page's next resumes", () =>
    Effect.gen(function*() {
      const { compression, emu, s } = yield* setup
      const owner = s["compressionProgram"]!
      const accounts = yield* all(compression.getCompressedAccountsByOwnerV2.stream({ owner, limit: 3 }))
      expect(accounts.length).toBeGreaterThan(3)
      expect(new Set(accounts.map((a) => a.hash)).size).toBe(accounts.length)
      // Each is the current account of its address, as getMultipleCompressedAccountsV2 gives it.
      const byAddress = yield* compression.getMultipleCompressedAccountsV2({
        addresses: accounts.slice(0, 3).map((a) => a.address!)
      })
      expect(byAddress.value.items.map((a) => a?.hash)).toEqual(accounts.slice(0, 3).map((a) => a.hash))
      const pages = yield* all(compression.getCompressedAccountsByOwnerV2.pages({ owner, limit: 3 }))
      expect(pages.every((p) => p.slot > 0)).toBe(true)
      const resumed = yield* all(
        compression.getCompressedAccountsByOwnerV2.stream({ owner, limit: 3 }, { start: pages[0]!.next! })
      )
      expect(resumed.map((a) => a.hash)).toEqual(accounts.slice(3).map((a) => a.hash))
      // Another owner has none: one request, an empty last page.
      const first = yield* compression.getCompressedAccountsByOwnerV2({ owner: s["compressedTokenOwner"]! })
      expect([first.value.items.length, first.value.cursor]).toEqual([0, null])
      // The stream, the pages, the resumed stream (one page fewer), the empty call.
      expect(emu.count("getCompressedAccountsByOwnerV2")).toBe(3 * pages.length)
    }).pipe(Effect.provide(TestLayer())))
})
